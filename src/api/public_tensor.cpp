// kindling::api::Tensor and the tensor factories (include/kindling/tensor.h) over the internal Tensor.
// The operations go through the operator registry by name (call_op), so they are the same kernels a
// TorchScript program runs.
#include <algorithm>
#include <cstring>
#include <ostream>
#include <sstream>

#include "api/public_bridge.h"
#include "kindling/scalar_type.h"
#include "kindling/threads.h"
#include "kindling/version.h"
#include "tensor/half.h"

namespace kindling::api {

using detail::in;
using detail::out;
using detail::translateErrors;
using InTensor = ::kindling::Tensor;

namespace {

const InTensor& self(const Tensor& t, InTensor& holder, const char* what) {
  holder = in(t);
  return detail::defined(holder, what);
}

Tensor tensorResult(const IValue& v) { return v.isNone() ? Tensor() : v.toTensor(); }

std::tuple<Tensor, Tensor> pairResult(const IValue& v) {
  Tuple t = v.toTuple();
  return {t.get(0).toTensor(), t.get(1).toTensor()};
}

Tensor op(const char* name, std::vector<IValue> args, const std::vector<std::pair<std::string, IValue>>& kwargs = {}) {
  return tensorResult(call_op(name, std::move(args), kwargs));
}

IValue opt(std::optional<int64_t> v) { return v ? IValue(*v) : IValue(); }
IValue opt(std::optional<double> v) { return v ? IValue(*v) : IValue(); }

void checkCpu(Device d, const char* what) {
  if (!d.is_cpu())
    throw UsageError(std::string(what) + ": Kindling computes on the CPU only; device '" + d.str() + "' is not available");
}

}  // namespace

// --- ScalarType, Half, Device, version ---

const char* toString(ScalarType t) {
  switch (t) {
    case ScalarType::Byte: case ScalarType::Char: case ScalarType::Short: case ScalarType::Int:
    case ScalarType::Long: case ScalarType::Half: case ScalarType::Float: case ScalarType::Double:
    case ScalarType::ComplexHalf: case ScalarType::ComplexFloat: case ScalarType::ComplexDouble:
    case ScalarType::Bool: case ScalarType::QInt8: case ScalarType::QUInt8: case ScalarType::QInt32:
    case ScalarType::BFloat16:
      return ::kindling::scalarTypeName(static_cast<::kindling::ScalarType>(t));
    default:
      return "Undefined";
  }
}

size_t elementSize(ScalarType t) {
  return translateErrors([&] { return ::kindling::elementSize(static_cast<::kindling::ScalarType>(t)); });
}

Half::Half(float f) : bits(::kindling::Half(f).x) {}
Half::operator float() const { ::kindling::Half h; h.x = bits; return float(h); }
BFloat16::BFloat16(float f) : bits(::kindling::BFloat16(f).x) {}
BFloat16::operator float() const { ::kindling::BFloat16 h; h.x = bits; return float(h); }

Device::Device(const std::string& name) : type_(DeviceType::CPU), index_(-1) {
  ::kindling::Device d;
  try {
    d = ::kindling::Device::parse(name);
  } catch (const ::kindling::Error& e) {
    throw UsageError(e.what());
  }
  if (d.type != ::kindling::DeviceType::CPU && d.type != ::kindling::DeviceType::CUDA)
    throw UsageError("unsupported device '" + name + "' (Kindling knows 'cpu' and 'cuda')");
  type_ = d.type == ::kindling::DeviceType::CPU ? DeviceType::CPU : DeviceType::CUDA;
  index_ = d.index;
}

std::string Device::str() const {
  ::kindling::Device d;
  d.type = type_ == DeviceType::CPU ? ::kindling::DeviceType::CPU : ::kindling::DeviceType::CUDA;
  d.index = index_;
  return d.str();
}

const char* version() { return KINDLING_VERSION_STRING; }

std::ostream& operator<<(std::ostream& os, IntArrayRef a) {
  os << '[';
  for (size_t i = 0; i < a.size(); ++i) os << (i ? ", " : "") << a[i];
  return os << ']';
}

// --- handle ---

Tensor::Tensor(const Tensor& o) : h_(o.h_) {
  if (h_) detail::implOf(*this)->incref();
}
Tensor& Tensor::operator=(const Tensor& o) {
  Tensor(o).swapHandle(*this);
  return *this;
}
Tensor& Tensor::operator=(Tensor&& o) noexcept {
  Tensor(std::move(o)).swapHandle(*this);
  return *this;
}
Tensor::~Tensor() {
  if (h_) detail::implOf(*this)->decref();
}
Tensor Tensor::unsafeFromHandle(detail::TensorHandle* h) {
  Tensor t;
  t.h_ = h;
  if (h) detail::implOf(t)->incref();
  return t;
}

#define KD_SELF(what) \
  InTensor holder_; \
  const InTensor& s = self(*this, holder_, what)

ScalarType Tensor::scalar_type() const { KD_SELF("scalar_type"); return static_cast<ScalarType>(s.dtype()); }
int64_t Tensor::dim() const { KD_SELF("dim"); return s.dim(); }
IntArrayRef Tensor::sizes() const {
  KD_SELF("sizes");
  return IntArrayRef(s.impl()->sizes.data(), s.impl()->sizes.size());
}
IntArrayRef Tensor::strides() const {
  KD_SELF("strides");
  return IntArrayRef(s.impl()->strides.data(), s.impl()->strides.size());
}
int64_t Tensor::size(int64_t d) const { KD_SELF("size"); return translateErrors([&] { return s.size(d); }); }
int64_t Tensor::stride(int64_t d) const { KD_SELF("stride"); return translateErrors([&] { return s.stride(d); }); }
int64_t Tensor::numel() const { KD_SELF("numel"); return s.numel(); }
int64_t Tensor::storage_offset() const { KD_SELF("storage_offset"); return s.storage_offset(); }
size_t Tensor::element_size() const { KD_SELF("element_size"); return s.element_size(); }
size_t Tensor::nbytes() const { KD_SELF("nbytes"); return s.nbytes(); }
bool Tensor::is_contiguous() const { KD_SELF("is_contiguous"); return s.is_contiguous(); }
bool Tensor::requires_grad() const {
  detail::defined(in(*this), "requires_grad");
  return false;
}
size_t Tensor::use_count() const { return h_ ? detail::implOf(*this)->use_count() : 0; }
void* Tensor::data_ptr() const { KD_SELF("data_ptr"); return s.data_ptr(); }

void Tensor::checkDtype(ScalarType want) const {
  KD_SELF("data_ptr");
  if (static_cast<ScalarType>(s.dtype()) != want)
    throw UsageError(std::string("expected scalar type ") + api::toString(want) + " but found " +
                     api::toString(static_cast<ScalarType>(s.dtype())));
}

double Tensor::itemDouble() const { KD_SELF("item"); return translateErrors([&] { return s.item().toDouble(); }); }
int64_t Tensor::itemInt() const { KD_SELF("item"); return translateErrors([&] { return s.item().toLong(); }); }
bool Tensor::itemBool() const { KD_SELF("item"); return translateErrors([&] { return s.item().toBool(); }); }
double Tensor::double_at(int64_t i) const {
  KD_SELF("double_at");
  if (i < 0 || i >= s.numel())
    throw UsageError("double_at: index " + std::to_string(i) + " is out of range for " + std::to_string(s.numel()) +
                     " elements");
  return translateErrors([&] { return s.doubleAt(i); });
}

Tensor Tensor::contiguous() const { KD_SELF("contiguous"); return translateErrors([&] { return out(s.contiguous()); }); }
Tensor Tensor::clone() const { KD_SELF("clone"); return translateErrors([&] { return out(s.clone()); }); }
Tensor Tensor::to(ScalarType dtype, bool, bool copy) const {
  KD_SELF("to");
  return translateErrors([&] { return out(s.to(static_cast<::kindling::ScalarType>(dtype), copy)); });
}
Tensor Tensor::to(Device device, bool, bool copy) const {
  checkCpu(device, "Tensor.to");
  return copy ? clone() : *this;
}
Tensor Tensor::to(Device device, ScalarType dtype, bool nb, bool copy) const {
  checkCpu(device, "Tensor.to");
  return to(dtype, nb, copy);
}
Tensor Tensor::to(TensorOptions options, bool nb, bool copy) const { return to(options.device(), options.dtype(), nb, copy); }
Tensor Tensor::detach() const { KD_SELF("detach"); return out(s.alias()); }
Tensor& Tensor::copy_(const Tensor& src) {
  KD_SELF("copy_");
  InTensor sh;
  const InTensor& from = self(src, sh, "copy_");
  translateErrors([&] { const_cast<InTensor&>(s).copy_(from); });
  return *this;
}
Tensor& Tensor::fill_(double value) {
  call_op("aten::fill_.Scalar", {*this, value});
  return *this;
}
Tensor& Tensor::zero_() { return fill_(0); }
Tensor& Tensor::add_(const Tensor& o, double alpha) { call_op("aten::add_.Tensor", {*this, o, alpha}); return *this; }
Tensor& Tensor::sub_(const Tensor& o, double alpha) { call_op("aten::sub_.Tensor", {*this, o, alpha}); return *this; }
Tensor& Tensor::mul_(const Tensor& o) { call_op("aten::mul_.Tensor", {*this, o}); return *this; }
Tensor& Tensor::div_(const Tensor& o) { call_op("aten::div_.Tensor", {*this, o}); return *this; }
Tensor& Tensor::add_(double o) { call_op("aten::add_.Scalar", {*this, o, 1}); return *this; }
Tensor& Tensor::sub_(double o) { call_op("aten::sub_.Scalar", {*this, o, 1}); return *this; }
Tensor& Tensor::mul_(double o) { call_op("aten::mul_.Scalar", {*this, o}); return *this; }
Tensor& Tensor::div_(double o) { call_op("aten::div_.Scalar", {*this, o}); return *this; }

Tensor Tensor::view(IntArrayRef sizes) const { return op("aten::view", {*this, sizes.vec()}); }
Tensor Tensor::reshape(IntArrayRef sizes) const { return op("aten::reshape", {*this, sizes.vec()}); }
Tensor Tensor::flatten(int64_t a, int64_t b) const { return op("aten::flatten.using_ints", {*this, a, b}); }
Tensor Tensor::squeeze() const { return op("aten::squeeze", {*this}); }
Tensor Tensor::squeeze(int64_t d) const { return op("aten::squeeze.dim", {*this, d}); }
Tensor Tensor::unsqueeze(int64_t d) const { return op("aten::unsqueeze", {*this, d}); }
Tensor Tensor::permute(IntArrayRef dims) const { return op("aten::permute", {*this, dims.vec()}); }
Tensor Tensor::transpose(int64_t a, int64_t b) const { return op("aten::transpose.int", {*this, a, b}); }
Tensor Tensor::slice(int64_t d, std::optional<int64_t> start, std::optional<int64_t> end, int64_t step) const {
  return op("aten::slice.Tensor", {*this, d, opt(start), opt(end), step});
}
Tensor Tensor::select(int64_t d, int64_t i) const { return op("aten::select.int", {*this, d, i}); }
Tensor Tensor::narrow(int64_t d, int64_t start, int64_t len) const { return op("aten::narrow", {*this, d, start, len}); }

Tensor Tensor::softmax(int64_t d) const { return op("aten::softmax.int", {*this, d, IValue()}); }
Tensor Tensor::log_softmax(int64_t d) const { return op("aten::log_softmax.int", {*this, d, IValue()}); }
Tensor Tensor::sigmoid() const { return op("aten::sigmoid", {*this}); }
Tensor Tensor::relu() const { return op("aten::relu", {*this}); }
Tensor Tensor::exp() const { return op("aten::exp", {*this}); }
Tensor Tensor::log() const { return op("aten::log", {*this}); }
Tensor Tensor::abs() const { return op("aten::abs", {*this}); }
Tensor Tensor::neg() const { return op("aten::neg", {*this}); }
Tensor Tensor::sqrt() const { return op("aten::sqrt", {*this}); }
Tensor Tensor::sum() const { return op("aten::sum", {*this, IValue()}); }
Tensor Tensor::sum(int64_t d, bool keep) const {
  return op("aten::sum.dim_IntList", {*this, std::vector<int64_t>{d}, keep, IValue()});
}
Tensor Tensor::mean() const { return op("aten::mean", {*this, IValue()}); }
Tensor Tensor::mean(int64_t d, bool keep) const {
  return op("aten::mean.dim", {*this, std::vector<int64_t>{d}, keep, IValue()});
}
Tensor Tensor::max() const { return op("aten::max", {*this}); }
Tensor Tensor::min() const { return op("aten::min", {*this}); }
std::tuple<Tensor, Tensor> Tensor::max(int64_t d, bool keep) const { return pairResult(call_op("aten::max.dim", {*this, d, keep})); }
std::tuple<Tensor, Tensor> Tensor::min(int64_t d, bool keep) const { return pairResult(call_op("aten::min.dim", {*this, d, keep})); }
Tensor Tensor::argmax(std::optional<int64_t> d, bool keep) const { return op("aten::argmax", {*this, opt(d), keep}); }
Tensor Tensor::argmin(std::optional<int64_t> d, bool keep) const { return op("aten::argmin", {*this, opt(d), keep}); }
std::tuple<Tensor, Tensor> Tensor::topk(int64_t k, int64_t d, bool largest, bool sorted) const {
  return pairResult(call_op("aten::topk", {*this, k, d, largest, sorted}));
}
std::tuple<Tensor, Tensor> Tensor::sort(int64_t d, bool descending) const {
  return pairResult(call_op("aten::sort", {*this, d, descending}));
}
Tensor Tensor::matmul(const Tensor& o) const { return op("aten::matmul", {*this, o}); }
Tensor Tensor::add(const Tensor& o, double alpha) const { return op("aten::add.Tensor", {*this, o, alpha}); }
Tensor Tensor::sub(const Tensor& o, double alpha) const { return op("aten::sub.Tensor", {*this, o, alpha}); }
Tensor Tensor::mul(const Tensor& o) const { return op("aten::mul.Tensor", {*this, o}); }
Tensor Tensor::div(const Tensor& o) const { return op("aten::div.Tensor", {*this, o}); }
Tensor Tensor::add(double o) const { return op("aten::add.Scalar", {*this, o, 1}); }
Tensor Tensor::sub(double o) const { return op("aten::sub.Scalar", {*this, o, 1}); }
Tensor Tensor::mul(double o) const { return op("aten::mul.Scalar", {*this, o}); }
Tensor Tensor::div(double o) const { return op("aten::div.Scalar", {*this, o}); }
Tensor Tensor::eq(const Tensor& o) const { return op("aten::eq.Tensor", {*this, o}); }
Tensor Tensor::ne(const Tensor& o) const { return op("aten::ne.Tensor", {*this, o}); }
Tensor Tensor::lt(const Tensor& o) const { return op("aten::lt.Tensor", {*this, o}); }
Tensor Tensor::gt(const Tensor& o) const { return op("aten::gt.Tensor", {*this, o}); }
Tensor Tensor::clamp(std::optional<double> lo, std::optional<double> hi) const {
  return op("aten::clamp", {*this, opt(lo), opt(hi)});
}
bool Tensor::equal(const Tensor& o) const { return call_op("aten::equal", {*this, o}).toBool(); }
bool Tensor::allclose(const Tensor& o, double rtol, double atol, bool equal_nan) const {
  return call_op("aten::allclose", {*this, o, rtol, atol, equal_nan}).toBool();
}

std::string Tensor::repr() const { KD_SELF("repr"); return translateErrors([&] { return s.repr(); }); }
std::string Tensor::toString() const {
  KD_SELF("toString");
  return std::string("CPU") + ::kindling::scalarTypeName(s.dtype()) + "Type";
}

std::ostream& operator<<(std::ostream& os, const Tensor& t) {
  if (!t.defined()) return os << "[ Tensor (undefined) ]";
  return os << translateErrors([&] { return ::kindling::IValue(in(t)).printStr(); });
}

// --- factories ---

namespace {
::kindling::ScalarType dt(const TensorOptions& o, const char* what) {
  checkCpu(o.device(), what);
  return static_cast<::kindling::ScalarType>(o.dtype());
}
::kindling::IntArray checkedSizes(IntArrayRef sizes, const char* what) {
  for (int64_t s : sizes)
    if (s < 0) throw UsageError(std::string(what) + ": negative dimension " + std::to_string(s));
  return sizes.vec();
}
}  // namespace

Tensor empty(IntArrayRef sizes, TensorOptions o) {
  auto d = dt(o, "empty");
  auto sz = checkedSizes(sizes, "empty");
  return translateErrors([&] { return out(InTensor::empty(sz, d)); });
}
Tensor zeros(IntArrayRef sizes, TensorOptions o) {
  auto d = dt(o, "zeros");
  auto sz = checkedSizes(sizes, "zeros");
  return translateErrors([&] { return out(InTensor::zeros(sz, d)); });
}
Tensor ones(IntArrayRef sizes, TensorOptions o) { return full(sizes, 1, o); }
Tensor full(IntArrayRef sizes, double value, TensorOptions o) {
  auto d = dt(o, "full");
  auto sz = checkedSizes(sizes, "full");
  return translateErrors([&] { return out(InTensor::full(sz, ::kindling::Scalar(value), d)); });
}
Tensor rand(IntArrayRef sizes, TensorOptions o) {
  auto d = dt(o, "rand");
  return op("aten::rand", {checkedSizes(sizes, "rand")}, {{"dtype", IValue(static_cast<int64_t>(d))}});
}
Tensor randn(IntArrayRef sizes, TensorOptions o) {
  auto d = dt(o, "randn");
  return op("aten::randn", {checkedSizes(sizes, "randn")}, {{"dtype", IValue(static_cast<int64_t>(d))}});
}
void manual_seed(uint64_t seed) { call_op("aten::manual_seed", {static_cast<int64_t>(seed)}); }
Tensor arange(int64_t end, std::optional<TensorOptions> o) {
  std::vector<std::pair<std::string, IValue>> kw;
  if (o) kw.emplace_back("dtype", IValue(static_cast<int64_t>(dt(*o, "arange"))));
  return op("aten::arange", {end}, kw);
}
Tensor arange(double start, double end, double step, std::optional<TensorOptions> o) {
  std::vector<std::pair<std::string, IValue>> kw;
  if (o) kw.emplace_back("dtype", IValue(static_cast<int64_t>(dt(*o, "arange"))));
  return op("aten::arange.start_step", {start, end, step}, kw);
}

namespace {
Tensor wrap(void* data, IntArrayRef sizes, std::optional<IntArrayRef> strides, std::function<void(void*)> deleter,
            TensorOptions o) {
  auto d = dt(o, "from_blob");
  ::kindling::IntArray sz = checkedSizes(sizes, "from_blob");
  ::kindling::IntArray st;
  if (strides) {
    if (strides->size() != sz.size())
      throw UsageError("from_blob: " + std::to_string(sz.size()) + " sizes but " + std::to_string(strides->size()) +
                       " strides");
    st = strides->vec();
  } else {
    st.assign(sz.size(), 1);
    for (size_t i = sz.size(); i-- > 1;) st[i - 1] = st[i] * std::max<int64_t>(sz[i], 1);
  }
  // Bytes from the first to one past the last addressed element (the data must hold that many).
  int64_t numel = 1, last = 0;
  for (size_t i = 0; i < sz.size(); ++i) {
    numel *= sz[i];
    if (st[i] < 0) throw UsageError("from_blob: negative stride " + std::to_string(st[i]));
    last += (sz[i] - 1) * st[i];
  }
  size_t es = ::kindling::elementSize(d);
  size_t nbytes = numel == 0 ? 0 : static_cast<size_t>(last + 1) * es;
  if (!data && nbytes > 0) throw UsageError("from_blob: data is a null pointer");
  return translateErrors([&] {
    auto storage = ::kindling::makeIntrusive<::kindling::StorageImpl>(data, nbytes, std::move(deleter));
    return out(InTensor::fromStorage(std::move(storage), d, sz, st, 0));
  });
}
}  // namespace

Tensor from_blob(void* data, IntArrayRef sizes, TensorOptions o) { return wrap(data, sizes, std::nullopt, {}, o); }
Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, TensorOptions o) {
  return wrap(data, sizes, strides, {}, o);
}
Tensor from_blob(void* data, IntArrayRef sizes, const std::function<void(void*)>& deleter, TensorOptions o) {
  return wrap(data, sizes, std::nullopt, deleter, o);
}
Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, const std::function<void(void*)>& deleter,
                 TensorOptions o) {
  return wrap(data, sizes, strides, deleter, o);
}

Tensor detail::tensorFromBytes(const void* data, size_t count, ScalarType dtype) {
  return translateErrors([&] {
    auto d = static_cast<::kindling::ScalarType>(dtype);
    InTensor t = InTensor::empty({static_cast<int64_t>(count)}, d);
    if (count) std::memcpy(t.data_ptr(), data, count * ::kindling::elementSize(d));
    return out(t);
  });
}

}  // namespace kindling::api
