// Tensor: Kindling's n-dimensional array as a program using the library sees it (libtorch's at::Tensor
// look-alike): sizes, strides and offset in elements, a ScalarType, over shared CPU memory.
//
// Ownership: a Tensor is a reference-counted handle. Copying it shares the data (as at::Tensor); views
// (slice, select, view, permute, ...) share it too; clone() and contiguous() of a non-contiguous tensor
// copy. from_blob wraps memory the caller owns without copying it; the optional deleter runs when the
// last tensor using the memory dies (which may be inside Kindling, after the call that used it).
// Memory Kindling allocates is 64-byte aligned.
//
// Threads: a Tensor may be read from several threads at once; writing its elements while another thread
// reads them is the caller's race, as with libtorch. Handles themselves are safe to copy and destroy from
// any thread (atomic reference counts).
//
// Errors: out-of-range dimensions and indices, shapes that do not fit and dtype mismatches throw
// kindling::RuntimeError with PyTorch's message; calling anything but defined() on an undefined Tensor
// throws kindling::UsageError.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iosfwd>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "kindling/error.h"
#include "kindling/export.h"
#include "kindling/scalar_type.h"

namespace kindling {
namespace api {

/// A non-owning view of int64 values (c10::IntArrayRef): sizes and strides of a tensor, or a list of
/// sizes passed to a factory. Build one from a std::vector<int64_t> or a braced list ({1, 3, 224, 224});
/// it must not outlive them (for a tensor's sizes(): the tensor).
class IntArrayRef {
 public:
  IntArrayRef() = default;
  IntArrayRef(const int64_t* data, size_t size) : data_(data), size_(size) {}
  IntArrayRef(const std::vector<int64_t>& v) : data_(v.data()), size_(v.size()) {}  // NOLINT
// The braced list lives until the end of the full expression, as long as a call argument needs it.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
  IntArrayRef(std::initializer_list<int64_t> l) : data_(l.begin()), size_(l.size()) {}  // NOLINT
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
  const int64_t* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const int64_t* begin() const { return data_; }
  const int64_t* end() const { return data_ + size_; }
  int64_t operator[](size_t i) const { return data_[i]; }
  int64_t front() const { return data_[0]; }
  int64_t back() const { return data_[size_ - 1]; }
  std::vector<int64_t> vec() const { return std::vector<int64_t>(begin(), end()); }
  bool operator==(IntArrayRef o) const {
    if (size_ != o.size_) return false;
    for (size_t i = 0; i < size_; ++i)
      if (data_[i] != o.data_[i]) return false;
    return true;
  }
  bool operator!=(IntArrayRef o) const { return !(*this == o); }

 private:
  const int64_t* data_ = nullptr;
  size_t size_ = 0;
};

/// "[1, 3, 224, 224]".
KINDLING_API std::ostream& operator<<(std::ostream& os, IntArrayRef a);

/// How a factory makes a tensor (at::TensorOptions): the dtype (default Float) and the device (CPU;
/// any other device throws UsageError where the tensor is made). requires_grad is accepted and ignored:
/// Kindling does not record gradients.
class TensorOptions {
 public:
  TensorOptions() = default;
  TensorOptions(ScalarType dtype) : dtype_(dtype) {}  // NOLINT: implicit, as at::TensorOptions
  TensorOptions(Device device) : device_(device) {}   // NOLINT
  TensorOptions(DeviceType device) : device_(device) {}  // NOLINT
  TensorOptions dtype(ScalarType t) const { TensorOptions o = *this; o.dtype_ = t; return o; }
  TensorOptions device(Device d) const { TensorOptions o = *this; o.device_ = d; return o; }
  TensorOptions requires_grad(bool = true) const { return *this; }
  ScalarType dtype() const { return dtype_; }
  Device device() const { return device_; }

 private:
  ScalarType dtype_ = ScalarType::Float;
  Device device_;
};
inline TensorOptions dtype(ScalarType t) { return TensorOptions(t); }
inline TensorOptions device(Device d) { return TensorOptions(d); }

namespace detail {
struct TensorHandle;  // Kindling's tensor, opaque here
}

class KINDLING_API Tensor {
 public:
  /// An undefined tensor (at::Tensor()): defined() is false; an IValue made from it is None.
  Tensor() = default;
  Tensor(const Tensor& o);
  Tensor(Tensor&& o) noexcept : h_(o.h_) { o.h_ = nullptr; }
  Tensor& operator=(const Tensor& o);
  Tensor& operator=(Tensor&& o) noexcept;
  ~Tensor();

  bool defined() const { return h_ != nullptr; }

  // --- metadata ---
  ScalarType scalar_type() const;
  /// The element type (libtorch returns a TypeMeta here; Kindling returns the ScalarType, which compares
  /// with torch::kFloat the same way).
  ScalarType dtype() const { return scalar_type(); }
  Device device() const { return Device(DeviceType::CPU); }
  bool is_cuda() const { return false; }
  int64_t dim() const;
  int64_t ndimension() const { return dim(); }
  /// Sizes and strides (in elements), valid while this tensor lives.
  IntArrayRef sizes() const;
  IntArrayRef strides() const;
  /// Size and stride of one dimension; negative d counts from the end. RuntimeError when out of range.
  int64_t size(int64_t d) const;
  int64_t stride(int64_t d) const;
  int64_t numel() const;
  int64_t storage_offset() const;
  size_t element_size() const;
  /// numel() * element_size().
  size_t nbytes() const;
  bool is_contiguous() const;
  /// Always false: Kindling does not record gradients (kept so archives round-trip requires_grad).
  bool requires_grad() const;
  /// Number of Tensor handles sharing this tensor (at::Tensor::use_count).
  size_t use_count() const;
  bool is_same(const Tensor& o) const { return h_ == o.h_; }

  // --- data ---
  /// Address of the first element (storage + offset); elements are laid out by strides().
  void* data_ptr() const;
  /// Typed address; T must be the C++ type of dtype() (float for Float, int64_t for Long, ...), else
  /// UsageError "expected scalar type Float but found Long", as libtorch.
  template <class T> T* data_ptr() const {
    checkDtype(dtypeOf<T>());
    return static_cast<T*>(data_ptr());
  }
  /// The value of a one-element tensor converted to T (at::Tensor::item<T>()): RuntimeError when
  /// numel() != 1 ("a Tensor with 2 elements cannot be converted to Scalar").
  template <class T> T item() const {
    if constexpr (std::is_same_v<T, bool>) return itemBool();
    else if constexpr (std::is_integral_v<T>) return static_cast<T>(itemInt());
    else return static_cast<T>(itemDouble());
  }
  /// The element at a flat row-major index of the tensor's logical shape, as double (slow; tests).
  double double_at(int64_t flatIndex) const;

  // --- copies and conversions ---
  /// This tensor when already contiguous, else a contiguous copy.
  Tensor contiguous() const;
  /// A new contiguous copy.
  Tensor clone() const;
  /// Converted to dtype (a copy unless dtype is already this tensor's and !copy).
  Tensor to(ScalarType dtype, bool non_blocking = false, bool copy = false) const;
  /// Kindling's tensors are on the CPU: returns this tensor for the CPU, throws UsageError otherwise.
  Tensor to(Device device, bool non_blocking = false, bool copy = false) const;
  Tensor to(Device device, ScalarType dtype, bool non_blocking = false, bool copy = false) const;
  Tensor to(TensorOptions options, bool non_blocking = false, bool copy = false) const;
  Tensor cpu() const { return *this; }
  /// A new handle on the same data (aten::detach; no autograd here).
  Tensor detach() const;
  /// Copies src (broadcast, dtype converted) into this tensor (aten::copy_).
  Tensor& copy_(const Tensor& src);
  Tensor& fill_(double value);
  Tensor& zero_();
  /// In place (aten::add_ and friends; self's dtype is kept, as PyTorch).
  Tensor& add_(const Tensor& other, double alpha = 1);
  Tensor& sub_(const Tensor& other, double alpha = 1);
  Tensor& mul_(const Tensor& other);
  Tensor& div_(const Tensor& other);
  Tensor& add_(double other);
  Tensor& sub_(double other);
  Tensor& mul_(double other);
  Tensor& div_(double other);

  // --- views (share data) ---
  Tensor view(IntArrayRef sizes) const;
  Tensor reshape(IntArrayRef sizes) const;
  Tensor flatten(int64_t start_dim = 0, int64_t end_dim = -1) const;
  Tensor squeeze() const;
  Tensor squeeze(int64_t dim) const;
  Tensor unsqueeze(int64_t dim) const;
  Tensor permute(IntArrayRef dims) const;
  Tensor transpose(int64_t dim0, int64_t dim1) const;
  Tensor t() const { return transpose(0, 1); }
  Tensor slice(int64_t dim = 0, std::optional<int64_t> start = std::nullopt, std::optional<int64_t> end = std::nullopt,
               int64_t step = 1) const;
  Tensor select(int64_t dim, int64_t index) const;
  Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  /// select(0, index), as tensor[index].
  Tensor operator[](int64_t index) const { return select(0, index); }

  // --- the operations programs do around a model call (each is the aten operator of that name) ---
  Tensor softmax(int64_t dim) const;
  Tensor log_softmax(int64_t dim) const;
  Tensor sigmoid() const;
  Tensor relu() const;
  Tensor exp() const;
  Tensor log() const;
  Tensor abs() const;
  Tensor neg() const;
  Tensor sqrt() const;
  Tensor sum() const;
  Tensor sum(int64_t dim, bool keepdim = false) const;
  Tensor mean() const;
  Tensor mean(int64_t dim, bool keepdim = false) const;
  Tensor max() const;
  Tensor min() const;
  /// (values, indices) along dim.
  std::tuple<Tensor, Tensor> max(int64_t dim, bool keepdim = false) const;
  std::tuple<Tensor, Tensor> min(int64_t dim, bool keepdim = false) const;
  /// Index of the largest element of the flattened tensor (no dim), or along dim; int64.
  Tensor argmax(std::optional<int64_t> dim = std::nullopt, bool keepdim = false) const;
  Tensor argmin(std::optional<int64_t> dim = std::nullopt, bool keepdim = false) const;
  /// (values, indices) of the k largest (or smallest) along dim (aten::topk).
  std::tuple<Tensor, Tensor> topk(int64_t k, int64_t dim = -1, bool largest = true, bool sorted = true) const;
  /// (values, indices) sorted along dim (aten::sort).
  std::tuple<Tensor, Tensor> sort(int64_t dim = -1, bool descending = false) const;
  Tensor matmul(const Tensor& other) const;
  Tensor add(const Tensor& other, double alpha = 1) const;
  Tensor sub(const Tensor& other, double alpha = 1) const;
  Tensor mul(const Tensor& other) const;
  Tensor div(const Tensor& other) const;
  Tensor add(double other) const;
  Tensor sub(double other) const;
  Tensor mul(double other) const;
  Tensor div(double other) const;
  Tensor eq(const Tensor& other) const;
  Tensor ne(const Tensor& other) const;
  Tensor lt(const Tensor& other) const;
  Tensor gt(const Tensor& other) const;
  Tensor clamp(std::optional<double> min, std::optional<double> max = std::nullopt) const;
  /// torch.equal: same sizes and elements.
  bool equal(const Tensor& other) const;
  /// torch.allclose: |a - b| <= atol + rtol * |b| elementwise (NaNs equal only with equal_nan).
  bool allclose(const Tensor& other, double rtol = 1e-05, double atol = 1e-08, bool equal_nan = false) const;

  // --- printing ---
  /// As Python prints it: "tensor([[1., 2.]])".
  std::string repr() const;
  /// "CPUFloatType" (at::Tensor::toString).
  std::string toString() const;

  /// Kindling's internal handle (for Kindling's own code).
  detail::TensorHandle* unsafeHandle() const { return h_; }
  static Tensor unsafeFromHandle(detail::TensorHandle* h);  // takes a new reference

 private:
  void swapHandle(Tensor& o) noexcept { detail::TensorHandle* h = h_; h_ = o.h_; o.h_ = h; }
  void checkDtype(ScalarType want) const;
  double itemDouble() const;
  int64_t itemInt() const;
  bool itemBool() const;
  detail::TensorHandle* h_ = nullptr;
};

inline Tensor operator+(const Tensor& a, double b) { return a.add(b); }
inline Tensor operator-(const Tensor& a, double b) { return a.sub(b); }
inline Tensor operator*(const Tensor& a, double b) { return a.mul(b); }
inline Tensor operator/(const Tensor& a, double b) { return a.div(b); }
inline Tensor operator*(double a, const Tensor& b) { return b.mul(a); }
inline Tensor operator+(double a, const Tensor& b) { return b.add(a); }
inline Tensor operator-(const Tensor& a) { return a.neg(); }
inline Tensor operator+(const Tensor& a, const Tensor& b) { return a.add(b); }
inline Tensor operator-(const Tensor& a, const Tensor& b) { return a.sub(b); }
inline Tensor operator*(const Tensor& a, const Tensor& b) { return a.mul(b); }
inline Tensor operator/(const Tensor& a, const Tensor& b) { return a.div(b); }

/// Prints as libtorch's operator<< does (ATen's C++ format, ending "[ CPUFloatType{2,3} ]").
KINDLING_API std::ostream& operator<<(std::ostream& os, const Tensor& t);

// --- factories (dtype and device from options; default Float on the CPU) ---

/// Uninitialised contiguous tensor.
KINDLING_API Tensor empty(IntArrayRef sizes, TensorOptions options = {});
KINDLING_API Tensor zeros(IntArrayRef sizes, TensorOptions options = {});
KINDLING_API Tensor ones(IntArrayRef sizes, TensorOptions options = {});
KINDLING_API Tensor full(IntArrayRef sizes, double value, TensorOptions options = {});
/// Uniform on [0, 1) / standard normal, from Kindling's global generator (see manual_seed). The streams
/// differ from PyTorch's.
KINDLING_API Tensor rand(IntArrayRef sizes, TensorOptions options = {});
KINDLING_API Tensor randn(IntArrayRef sizes, TensorOptions options = {});
/// Seeds the generator rand/randn and TorchScript's random operators use.
KINDLING_API void manual_seed(uint64_t seed);
/// [0, end) (int64, as torch.arange(end) with an int) and [start, end) by step (Float, as torch.arange
/// with float arguments), unless options give the dtype.
KINDLING_API Tensor arange(int64_t end, std::optional<TensorOptions> options = std::nullopt);
KINDLING_API Tensor arange(double start, double end, double step = 1, std::optional<TensorOptions> options = std::nullopt);
/// A 1-d tensor holding a copy of values, of the C++ type's dtype (int64_t → Long, float → Float,
/// double → Double, ...), converted to options' dtype when options are given.
template <class T>
Tensor tensor(const std::vector<T>& values, std::optional<TensorOptions> options = std::nullopt);
template <class T>
Tensor tensor(std::initializer_list<T> values, std::optional<TensorOptions> options = std::nullopt) {
  return tensor(std::vector<T>(values), options);
}

/// Wraps existing memory as a tensor without copying (torch::from_blob). `data` must hold the elements
/// the sizes and strides (default: contiguous row-major) address, of options' dtype, and stay valid as
/// long as any tensor uses it: without a deleter that is the caller's promise; with one, Kindling calls
/// deleter(data) once, when the last tensor using the memory is destroyed (from whichever thread drops
/// it). Kindling's kernels never write into a from_blob input unless the program does in-place
/// operations on it. Throws UsageError for a null data pointer with a non-empty shape, negative sizes, or
/// a non-CPU device.
KINDLING_API Tensor from_blob(void* data, IntArrayRef sizes, TensorOptions options = {});
KINDLING_API Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, TensorOptions options = {});
KINDLING_API Tensor from_blob(void* data, IntArrayRef sizes, const std::function<void(void*)>& deleter,
                              TensorOptions options = {});
KINDLING_API Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides,
                              const std::function<void(void*)>& deleter, TensorOptions options = {});

namespace detail {
KINDLING_API Tensor tensorFromBytes(const void* data, size_t count, ScalarType dtype);
}
template <class T>
Tensor tensor(const std::vector<T>& values, std::optional<TensorOptions> options) {
  static_assert(dtypeOf<T>() != ScalarType::Undefined, "kindling::tensor: unsupported element type");
  if constexpr (std::is_same_v<T, bool>) {
    std::vector<uint8_t> bytes(values.begin(), values.end());
    Tensor t = detail::tensorFromBytes(bytes.data(), bytes.size(), ScalarType::Bool);
    return options ? t.to(options->dtype()) : t;
  } else {
    Tensor t = detail::tensorFromBytes(values.data(), values.size(), dtypeOf<T>());
    return options ? t.to(options->dtype()) : t;
  }
}

}  // namespace api
#if KINDLING_EXPOSE_PUBLIC_NAMES
using namespace api;
#endif
}  // namespace kindling
