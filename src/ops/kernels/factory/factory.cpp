// Tensor factories: zeros, ones, full, empty, *_like, new_*, arange, linspace, eye, scalar_tensor,
// tensor (from nested lists / numbers, as TorchScript's aten::tensor), as_tensor; and the in-place fillers
// fill_, zero_, copy_. Default dtypes as PyTorch 1.13: float32 for floating values, int64 for ints, bool for
// bools; full() infers from its fill value. Layout / device / pin_memory are accepted (CPU strided only).
#include <cmath>

#include "ops/registry/kernel_args.h"
#include "ops/registry/operator.h"
#include "tensor/type_promotion.h"

namespace kindling {

namespace {

void checkDevice(const IValue& dev) {
  if (dev.isNone()) return;
  const Device d = dev.isString() ? Device::parse(dev.toStringRef()) : dev.toDevice();
  KD_CHECK(d.type == DeviceType::CPU, "Kindling runs on CPU only; cannot create a tensor on device '{}'", d.str());
}

void checkSizes(const IntArray& sizes) {
  for (int64_t s : sizes) {
    if (s < 0) {
      std::string l = "[";
      for (size_t i = 0; i < sizes.size(); ++i) l += (i ? ", " : "") + std::to_string(sizes[i]);
      throw RuntimeError(fmt::format("Trying to create tensor with negative dimension {}: {}]", s, l));
    }
  }
}

ScalarType dtypeOr(ScalarType t, ScalarType dflt) { return t == ScalarType::Undefined ? dflt : t; }

ScalarType defaultForScalar(const Scalar& s) {
  if (s.isBoolean()) return ScalarType::Bool;
  if (s.isIntegral()) return ScalarType::Long;
  return ScalarType::Float;
}

// (size, *, dtype, layout, device, pin_memory)
template <int Fill>
void zerosOnes(Stack& s) {
  Args a(s, 5);
  const IntArray sizes = a.intList(0);
  checkSizes(sizes);
  checkDevice(a[3]);
  const ScalarType dt = dtypeOr(a.optDtype(1), ScalarType::Float);
  Tensor r = Fill == 0 ? Tensor::zeros(sizes, dt) : Tensor::full(sizes, Scalar(int64_t(1)), dt);
  a.ret(std::move(r));
}
// empty.memory_format(size, *, dtype, layout, device, pin_memory, memory_format)
void emptyK(Stack& s) {
  Args a(s, 6);
  const IntArray sizes = a.intList(0);
  checkSizes(sizes);
  checkDevice(a[3]);
  Tensor r = Tensor::zeros(sizes, dtypeOr(a.optDtype(1), ScalarType::Float));  // zero-filled: deterministic
  a.ret(std::move(r));
}
// full(size, fill_value, *, dtype, layout, device, pin_memory)
void fullK(Stack& s) {
  Args a(s, 6);
  const IntArray sizes = a.intList(0);
  checkSizes(sizes);
  checkDevice(a[4]);
  const Scalar v = a.scalar(1);
  Tensor r = Tensor::full(sizes, v, dtypeOr(a.optDtype(2), defaultForScalar(v)));
  a.ret(std::move(r));
}
// *_like(self, *, dtype, layout, device, pin_memory, memory_format)
template <int Fill>
void likeK(Stack& s) {
  Args a(s, 6);
  const Tensor self = a.tensor(0);
  checkDevice(a[3]);
  const ScalarType dt = dtypeOr(a.optDtype(1), self.dtype());
  Tensor r = Fill == 1 ? Tensor::full(self.sizes(), Scalar(int64_t(1)), dt) : Tensor::zeros(self.sizes(), dt);
  a.ret(std::move(r));
}
// full_like(self, fill_value, *, dtype, layout, device, pin_memory, memory_format)
void fullLikeK(Stack& s) {
  Args a(s, 7);
  const Tensor self = a.tensor(0);
  checkDevice(a[4]);
  Tensor r = Tensor::full(self.sizes(), a.scalar(1), dtypeOr(a.optDtype(2), self.dtype()));
  a.ret(std::move(r));
}
// new_zeros / new_ones / new_empty(self, size, *, dtype, layout, device, pin_memory)
template <int Fill>
void newK(Stack& s) {
  Args a(s, 6);
  const Tensor self = a.tensor(0);
  const IntArray sizes = a.intList(1);
  checkSizes(sizes);
  checkDevice(a[4]);
  const ScalarType dt = dtypeOr(a.optDtype(2), self.dtype());
  Tensor r = Fill == 1 ? Tensor::full(sizes, Scalar(int64_t(1)), dt) : Tensor::zeros(sizes, dt);
  a.ret(std::move(r));
}
// new_full(self, size, fill_value, *, dtype, layout, device, pin_memory)
void newFullK(Stack& s) {
  Args a(s, 7);
  const Tensor self = a.tensor(0);
  const IntArray sizes = a.intList(1);
  checkSizes(sizes);
  checkDevice(a[5]);
  Tensor r = Tensor::full(sizes, a.scalar(2), dtypeOr(a.optDtype(3), self.dtype()));
  a.ret(std::move(r));
}

// arange
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, ScalarType dtype) {
  const bool anyFloat = start.isFloatingPoint() || end.isFloatingPoint() || step.isFloatingPoint();
  const ScalarType dt = dtypeOr(dtype, anyFloat ? ScalarType::Float : ScalarType::Long);
  if (isIntegralType(dt, false)) {
    // ATen computes integral ranges in int64 (accscalar_t): start, end and step are truncated first
    const int64_t s0 = start.isFloatingPoint() ? static_cast<int64_t>(start.toDouble()) : start.toLong();
    const int64_t e0 = end.isFloatingPoint() ? static_cast<int64_t>(end.toDouble()) : end.toLong();
    const int64_t d = step.isFloatingPoint() ? static_cast<int64_t>(step.toDouble()) : step.toLong();
    KD_CHECK(d != 0, "step must be nonzero");
    KD_CHECK((d > 0 && e0 >= s0) || (d < 0 && e0 <= s0), "upper bound and larger bound inconsistent with step sign");
    const int64_t n = static_cast<int64_t>(std::ceil(static_cast<double>(e0 - s0) / static_cast<double>(d)));
    Tensor out = Tensor::empty({n}, dt);
    dispatchAllTypes(dt, "arange_cpu", [&](auto tag) {
      using T = decltype(tag);
      T* p = out.data_ptr<T>();
      for (int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(s0 + i * d);
    });
    return out;
  }
  const double xs = start.toDouble(), xe = end.toDouble(), st = step.toDouble();
  KD_CHECK(st != 0, "step must be nonzero");
  KD_CHECK(std::isfinite(xs) && std::isfinite(xe), "unsupported range: {} -> {}", xs, xe);
  KD_CHECK((st > 0 && xe >= xs) || (st < 0 && xe <= xs), "upper bound and larger bound inconsistent with step sign");
  int64_t n;
  if (isIntegralType(dt, false) && !anyFloat) {
    const int64_t s0 = start.toLong(), e0 = end.toLong(), d = step.toLong();
    n = (e0 - s0) / d + ((e0 - s0) % d != 0 ? 1 : 0);
  } else {
    n = static_cast<int64_t>(std::ceil((xe - xs) / st));
  }
  Tensor out = Tensor::empty({n}, dt);
  dispatchAllTypes(dt, "arange_cpu", [&](auto tag) {
    using T = decltype(tag);
    T* p = out.data_ptr<T>();
    if constexpr (std::is_integral_v<T>) {
      if (!anyFloat) {
        const int64_t s0 = start.toLong(), d = step.toLong();
        for (int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(s0 + i * d);
        return;
      }
    }
    for (int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(static_cast<float>(xs + static_cast<double>(i) * st));
    if constexpr (std::is_same_v<T, double>) {
      for (int64_t i = 0; i < n; ++i) p[i] = xs + static_cast<double>(i) * st;
    }
  });
  return out;
}
// arange(end, *, dtype, layout, device, pin_memory)
void arangeEnd(Stack& s) { Args a(s, 5); checkDevice(a[3]); Tensor r = arange(Scalar(int64_t(0)), a.scalar(0), Scalar(int64_t(1)), a.optDtype(1)); a.ret(std::move(r)); }
void arangeStart(Stack& s) { Args a(s, 6); checkDevice(a[4]); Tensor r = arange(a.scalar(0), a.scalar(1), Scalar(int64_t(1)), a.optDtype(2)); a.ret(std::move(r)); }
void arangeStartStep(Stack& s) { Args a(s, 7); checkDevice(a[5]); Tensor r = arange(a.scalar(0), a.scalar(1), a.scalar(2), a.optDtype(3)); a.ret(std::move(r)); }

// linspace(start, end, steps, *, dtype, layout, device, pin_memory)
void linspaceK(Stack& s) {
  Args a(s, 7);
  checkDevice(a[5]);
  const int64_t steps = a.toInt(2);
  KD_CHECK(steps >= 0, "number of steps must be non-negative");
  const ScalarType dt = dtypeOr(a.optDtype(3), ScalarType::Float);
  const double st = a.scalar(0).toDouble(), en = a.scalar(1).toDouble();
  Tensor out = Tensor::empty({steps}, dt);
  dispatchAllTypes(dt, "linspace_cpu", [&](auto tag) {
    using T = decltype(tag);
    T* p = out.data_ptr<T>();
    if (steps == 1) {
      p[0] = static_cast<T>(static_cast<float>(st));
      return;
    }
    if constexpr (std::is_integral_v<T>) {
      // ATen: start and end converted to the integral type first, the step in double
      const T s0 = static_cast<T>(st), e0 = static_cast<T>(en);
      const double step = (static_cast<double>(e0) - static_cast<double>(s0)) / static_cast<double>(steps - 1);
      const int64_t half = steps / 2;
      for (int64_t i = 0; i < steps; ++i)
        p[i] = static_cast<T>(i < half ? static_cast<double>(s0) + step * static_cast<double>(i)
                                       : static_cast<double>(e0) - step * static_cast<double>(steps - i - 1));
      return;
    }
    using C = std::conditional_t<std::is_same_v<T, double>, double, float>;
    const C step = (static_cast<C>(en) - static_cast<C>(st)) / static_cast<C>(steps - 1);
    const int64_t half = steps / 2;
    for (int64_t i = 0; i < steps; ++i)
      p[i] = static_cast<T>(i < half ? static_cast<C>(st) + step * static_cast<C>(i)
                                     : static_cast<C>(en) - step * static_cast<C>(steps - i - 1));
  });
  a.ret(std::move(out));
}

Tensor eye(int64_t n, int64_t m, ScalarType dtype) {
  KD_CHECK(n >= 0, "n must be greater or equal to 0, got {}", n);
  KD_CHECK(m >= 0, "m must be greater or equal to 0, got {}", m);
  Tensor out = Tensor::zeros({n, m}, dtypeOr(dtype, ScalarType::Float));
  for (int64_t i = 0; i < std::min(n, m); ++i) out.select(0, i).select(0, i).fill_(Scalar(int64_t(1)));
  return out;
}
void eyeK(Stack& s) { Args a(s, 5); checkDevice(a[3]); Tensor r = eye(a.toInt(0), a.toInt(0), a.optDtype(1)); a.ret(std::move(r)); }
void eyeMK(Stack& s) { Args a(s, 6); checkDevice(a[4]); Tensor r = eye(a.toInt(0), a.toInt(1), a.optDtype(2)); a.ret(std::move(r)); }

// scalar_tensor(s, *, dtype, layout, device, pin_memory)
void scalarTensorK(Stack& s) {
  Args a(s, 5);
  checkDevice(a[3]);
  Tensor r = Tensor::full({}, a.scalar(0), dtypeOr(a.optDtype(1), ScalarType::Float));
  a.ret(std::move(r));
}

// ---------------------------------------------------------------- aten::tensor from (nested) lists

void inferListShape(const IValue& v, IntArray& shape, ScalarType& elem, size_t depth) {
  if (v.isList()) {
    const auto& l = v.toListRef();
    if (depth == shape.size()) shape.push_back(static_cast<int64_t>(l.elements.size()));
    if (!l.elements.empty()) inferListShape(l.elements[0], shape, elem, depth + 1);
    else if (l.elementType && l.elementType->kind() == TypeKind::Float) elem = ScalarType::Float;
    else if (l.elementType && l.elementType->kind() == TypeKind::Bool) elem = ScalarType::Bool;
    return;
  }
  if (v.isDouble()) elem = ScalarType::Float;
  else if (v.isBool()) elem = ScalarType::Bool;
  else if (v.isInt()) elem = ScalarType::Long;
  else if (v.isTensor()) elem = v.toTensor().dtype();
  else throw RuntimeError(fmt::format("tensor(): unsupported element of type {}", v.tagName()));
}

void fillFromList(const IValue& v, const IntArray& shape, size_t depth, std::vector<double>& out) {
  if (depth == shape.size()) {
    if (v.isTensor()) {
      const Tensor t = v.toTensor();
      KD_CHECK(t.numel() == 1, "Only one element tensors can be converted to Python scalars");
      out.push_back(t.item().toDouble());
    } else {
      KD_CHECK(!v.isList(), "Expected a scalar at dim {}", depth);
      out.push_back(v.toScalar().toDouble());
    }
    return;
  }
  KD_CHECK(v.isList(), "Expected sequence of length {} at dim {} (got a scalar)", shape[depth], depth);
  const auto& l = v.toListRef();
  KD_CHECK(static_cast<int64_t>(l.elements.size()) == shape[depth], "Expected sequence of length {} at dim {} (got {})",
           shape[depth], depth, l.elements.size());
  for (const auto& e : l.elements) fillFromList(e, shape, depth + 1, out);
}

Tensor tensorFromIValue(const IValue& data, ScalarType dtype) {
  IntArray shape;
  ScalarType elem = ScalarType::Float;
  inferListShape(data, shape, elem, 0);
  const ScalarType dt = dtypeOr(dtype, elem);
  // Integers beyond 2^53 would lose precision through double: copy int64 lists exactly.
  if (isIntegralType(dt, false) && elem == ScalarType::Long) {
    std::vector<int64_t> vals;
    std::function<void(const IValue&, size_t)> rec = [&](const IValue& v, size_t depth) {
      if (depth == shape.size()) {
        vals.push_back(v.isTensor() ? v.toTensor().item().toLong() : v.toScalar().toLong());
        return;
      }
      KD_CHECK(v.isList(), "Expected sequence of length {} at dim {} (got a scalar)", shape[depth], depth);
      const auto& l = v.toListRef();
      KD_CHECK(static_cast<int64_t>(l.elements.size()) == shape[depth],
               "Expected sequence of length {} at dim {} (got {})", shape[depth], depth, l.elements.size());
      for (const auto& e : l.elements) rec(e, depth + 1);
    };
    rec(data, 0);
    Tensor t = Tensor::fromVector<int64_t>(vals, ScalarType::Long).reshape(shape);
    return dt == ScalarType::Long ? t : t.to(dt);
  }
  std::vector<double> vals;
  fillFromList(data, shape, 0, vals);
  Tensor t = Tensor::fromVector<double>(vals, ScalarType::Double).reshape(shape);
  return t.to(dt, /*copy=*/true);
}

// tensor(t[] data, *, dtype, device, requires_grad) and the int/float/bool overloads
void tensorK(Stack& s) {
  Args a(s, 4);
  checkDevice(a[2]);
  Tensor r = tensorFromIValue(a[0], a.optDtype(1));
  r.impl()->requiresGrad = a.toBool(3);
  a.ret(std::move(r));
}
// as_tensor.<scalar>(t, *, dtype, device) / as_tensor.list
void asTensorK(Stack& s) {
  Args a(s, 3);
  checkDevice(a[2]);
  Tensor r = tensorFromIValue(a[0], a.optDtype(1));
  a.ret(std::move(r));
}
// as_tensor(Tensor data, *, dtype, device)
void asTensorTensorK(Stack& s) {
  Args a(s, 3);
  checkDevice(a[2]);
  const Tensor t = a.tensor(0);
  const ScalarType dt = a.optDtype(1);
  Tensor r = dt == ScalarType::Undefined || dt == t.dtype() ? t : t.to(dt);
  a.ret(std::move(r));
}

// ---------------------------------------------------------------- in-place fillers

void fillScalarK(Stack& s) { Args a(s, 2); Tensor self = a.tensor(0); self.fill_(a.scalar(1)); a.ret(std::move(self)); }
void fillTensorK(Stack& s) {
  Args a(s, 2);
  Tensor self = a.tensor(0);
  const Tensor v = a.tensor(1);
  KD_CHECK(v.dim() == 0, "fill_ only supports 0-dimension value tensor but got tensor with {} dimensions.", v.dim());
  self.fill_(v.item());
  a.ret(std::move(self));
}
void zeroK(Stack& s) { Args a(s, 1); Tensor self = a.tensor(0); self.zero_(); a.ret(std::move(self)); }
void copyK(Stack& s) { Args a(s, 3); Tensor self = a.tensor(0); self.copy_(a.tensor(1)); a.ret(std::move(self)); }
void copyTensorK(Stack& s) { Args a(s, 2); Tensor self = a.tensor(0); self.copy_(a.tensor(1)); a.ret(std::move(self)); }
void copyScalarK(Stack& s) { Args a(s, 2); Tensor self = a.tensor(0); self.fill_(a.scalar(1)); a.ret(std::move(self)); }

}  // namespace

void registerFactoryOps(OperatorRegistry& r) {
  r.add("aten::zeros(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", zerosOnes<0>);
  r.add("aten::ones(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", zerosOnes<1>);
  r.add("aten::empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", emptyK);
  r.add("aten::full(SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", fullK);
  r.add("aten::zeros_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", likeK<0>);
  r.add("aten::ones_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", likeK<1>);
  r.add("aten::empty_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", likeK<0>);
  r.add("aten::full_like(Tensor self, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", fullLikeK);
  r.add("aten::new_zeros(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", newK<0>);
  r.add("aten::new_ones(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", newK<1>);
  r.add("aten::new_empty(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", newK<0>);
  r.add("aten::new_full(Tensor self, SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", newFullK);
  r.add("aten::arange(Scalar end, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", arangeEnd);
  r.add("aten::arange.start(Scalar start, Scalar end, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", arangeStart);
  r.add("aten::arange.start_step(Scalar start, Scalar end, Scalar step=1, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", arangeStartStep);
  r.add("aten::linspace(Scalar start, Scalar end, int steps, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", linspaceK);
  r.add("aten::eye(int n, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", eyeK);
  r.add("aten::eye.m(int n, int m, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", eyeMK);
  r.add("aten::scalar_tensor(Scalar s, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", scalarTensorK);
  r.add("aten::tensor(t[] data, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False) -> Tensor", tensorK);
  r.add("aten::tensor.int(int t, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False) -> Tensor", tensorK);
  r.add("aten::tensor.float(float t, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False) -> Tensor", tensorK);
  r.add("aten::tensor.bool(bool t, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False) -> Tensor", tensorK);
  r.add("aten::as_tensor(Tensor(a) data, *, ScalarType? dtype=None, Device? device=None) -> Tensor(b|a)", asTensorTensorK);
  r.add("aten::as_tensor.int(int t, *, ScalarType? dtype=None, Device? device=None) -> Tensor", asTensorK);
  r.add("aten::as_tensor.float(float t, *, ScalarType? dtype=None, Device? device=None) -> Tensor", asTensorK);
  r.add("aten::as_tensor.bool(bool t, *, ScalarType? dtype=None, Device? device=None) -> Tensor", asTensorK);
  r.add("aten::as_tensor.list(t[] data, *, ScalarType? dtype=None, Device? device=None) -> Tensor", asTensorK);
  r.add("aten::fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)", fillScalarK);
  r.add("aten::fill_.Tensor(Tensor(a!) self, Tensor value) -> Tensor(a!)", fillTensorK);
  r.add("aten::zero_(Tensor(a!) self) -> Tensor(a!)", zeroK);
  r.add("aten::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)", copyK);
  r.add("aten::copy_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", copyTensorK);
  r.add("aten::copy_.int(Tensor(a!) self, int other) -> Tensor(a!)", copyScalarK);
  r.add("aten::copy_.float(Tensor(a!) self, float other) -> Tensor(a!)", copyScalarK);
}

}  // namespace kindling
