// Tensor: a strided view (sizes, strides in elements, storage offset in elements, dtype) of a refcounted
// Storage (ATen's TensorImpl/StorageImpl). Views share storage; copies are explicit.
// CPU only. No autograd: requires_grad is carried only so archives round-trip.
#pragma once
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/intrusive_ptr.h"
#include "core/ivalue.h"
#include "core/scalar.h"
#include "core/scalar_type.h"
#include "tensor/half.h"

namespace kindling {

using IntArray = std::vector<int64_t>;

/// A block of bytes. Owns its memory (64-byte aligned) unless created with an external deleter
/// (e.g. bytes read straight from an archive buffer).
///
/// Version counter (PyTorch's `tensor._version`, shared by a tensor and its views): incremented by every
/// in-place write to a tensor on this storage — operators whose schema marks an argument written
/// (`Tensor(a!)`, bumped by the interpreter and the operator-call paths, see ops/registry/operator.h) and
/// Tensor::copy_/fill_. Writes through a raw data pointer are not counted, as in PyTorch.
///
/// Derived values: data computed from the storage's bytes and kept with it, such as a weight re-laid out
/// for a oneDNN primitive. Each is filed under a key of integers (what was derived, from which view, in
/// which layout) with the version it was computed at; it is returned only while the version is unchanged
/// and dies with the storage, so no other storage can ever see it.
///
/// File mappings: a storage over a private (copy-on-write) mapping of a file, as ZipReader maps tensor
/// records, is marked with setFileMapped(). When a copy derived from such bytes replaces them where they are
/// used (a weight packed for oneDNN, a convolution weight with a batch norm folded in), releaseResidentPages()
/// gives their memory back while keeping them readable: the pages come back from the file on the next read.
class StorageImpl : public IntrusiveTarget {
 public:
  /// Allocates nbytes, 64-byte aligned, uninitialised.
  explicit StorageImpl(size_t nbytes);
  /// Wraps external memory; `deleter` runs when the storage dies (may be empty).
  StorageImpl(void* data, size_t nbytes, std::function<void(void*)> deleter);
  ~StorageImpl() override;
  void* data() const { return data_; }
  size_t nbytes() const { return nbytes_; }

  uint64_t version() const { return version_.load(std::memory_order_acquire); }
  void bumpVersion() { version_.fetch_add(1, std::memory_order_acq_rel); }

  /// The value filed under `key` if it was made at the current version(), else null. Thread-safe.
  std::shared_ptr<const void> findDerived(const std::vector<int64_t>& key) const;
  /// Files `value`, computed from the bytes as they were at `version` (read version() before reading the
  /// bytes), under `key`, replacing what was there. At most kMaxDerived values are kept (oldest dropped).
  void setDerived(std::vector<int64_t> key, uint64_t version, std::shared_ptr<const void> value);
  /// Number of derived values kept, current or stale (tests).
  size_t derivedCount() const;
  static constexpr size_t kMaxDerived = 8;

  /// Marks the bytes as a private mapping of a file (see "File mappings" above).
  void setFileMapped() { fileMapped_ = true; }
  bool isFileMapped() const { return fileMapped_; }
  /// For a file mapping: asks the kernel to reclaim the resident pages lying wholly inside bytes
  /// [offset, offset + n) (madvise MADV_PAGEOUT). Contents never change: pages never written are read back
  /// from the file when next touched, pages written since mapping are kept (or swapped). Only the process's
  /// memory use changes. No-op for other storages, for ranges outside the bytes and where the kernel
  /// refuses.
  void releaseResidentPages(size_t offset, size_t n) const;

 private:
  struct Derived {
    std::vector<int64_t> key;
    uint64_t version;
    std::shared_ptr<const void> value;
  };
  void* data_;
  size_t nbytes_;
  std::function<void(void*)> deleter_;
  bool owned_ = true;  // false for external memory
  bool fileMapped_ = false;
  std::atomic<uint64_t> version_{0};
  mutable std::mutex derivedMu_;
  std::vector<Derived> derived_;
};
using Storage = IntrusivePtr<StorageImpl>;

class TensorImpl : public IntrusiveTarget {
 public:
  TensorImpl(Storage storage, ScalarType dtype, IntArray sizes, IntArray strides, int64_t offset);
  Storage storage;
  ScalarType dtype;
  IntArray sizes;
  IntArray strides;
  int64_t storageOffset;
  int64_t numel;            // product of sizes, kept in sync by setSizesAndStrides
  bool requiresGrad = false;
  bool isContiguous;        // row-major contiguous, kept in sync
  void setSizesAndStrides(IntArray sizes, IntArray strides);
  void refreshMetadata();
};

class Tensor {
 public:
  Tensor() = default;  // undefined tensor (None-like, as at::Tensor())
  explicit Tensor(IntrusivePtr<TensorImpl> impl) : impl_(std::move(impl)) {}

  // --- creation (uninitialised memory unless stated) ---
  /// Contiguous tensor of the given sizes and dtype.
  static Tensor empty(const IntArray& sizes, ScalarType dtype = ScalarType::Float);
  static Tensor emptyStrided(const IntArray& sizes, const IntArray& strides, ScalarType dtype);
  static Tensor zeros(const IntArray& sizes, ScalarType dtype = ScalarType::Float);
  static Tensor full(const IntArray& sizes, const Scalar& value, ScalarType dtype);
  /// 0-dim tensor holding s; dtype defaults as torch.tensor(s): int→Long, float→Float (the default
  /// dtype), bool→Bool.
  static Tensor scalarTensor(const Scalar& s, ScalarType dtype = ScalarType::Undefined);
  /// Copies `values` into a new 1-d tensor.
  template <class T> static Tensor fromVector(const std::vector<T>& values, ScalarType dtype);
  /// A tensor viewing existing storage.
  static Tensor fromStorage(Storage storage, ScalarType dtype, IntArray sizes, IntArray strides, int64_t offset);

  // --- metadata ---
  bool defined() const { return static_cast<bool>(impl_); }
  TensorImpl* impl() const { return impl_.get(); }
  const IntrusivePtr<TensorImpl>& implPtr() const { return impl_; }
  ScalarType dtype() const { return impl_->dtype; }
  ScalarType scalar_type() const { return impl_->dtype; }
  int64_t dim() const { return static_cast<int64_t>(impl_->sizes.size()); }
  const IntArray& sizes() const { return impl_->sizes; }
  const IntArray& strides() const { return impl_->strides; }
  /// Size of dimension d; negative d counts from the end. Throws IndexError when out of range.
  int64_t size(int64_t d) const;
  int64_t stride(int64_t d) const;
  int64_t numel() const { return impl_->numel; }
  int64_t storage_offset() const { return impl_->storageOffset; }
  size_t element_size() const { return elementSize(impl_->dtype); }
  size_t nbytes() const { return numel() * element_size(); }
  bool is_contiguous() const { return impl_->isContiguous; }
  bool requires_grad() const { return impl_->requiresGrad; }
  const Storage& storage() const { return impl_->storage; }
  /// Pointer to the first element (storage base + offset).
  void* data_ptr() const { return static_cast<char*>(impl_->storage->data()) + impl_->storageOffset * element_size(); }
  template <class T> T* data_ptr() const { return static_cast<T*>(data_ptr()); }
  /// StorageImpl::releaseResidentPages over the bytes this view spans (nothing for other storages).
  void releaseResidentPages() const;
  bool is_same(const Tensor& o) const { return impl_ == o.impl_; }
  /// Number of Tensor handles sharing this TensorImpl.
  uint32_t use_count() const { return impl_ ? impl_->use_count() : 0; }

  // --- views (share storage) ---
  Tensor as_strided(const IntArray& sizes, const IntArray& strides, int64_t offset) const;
  Tensor view(const IntArray& sizes) const;      // throws if not viewable; supports one -1
  Tensor reshape(const IntArray& sizes) const;   // view when possible, else copy
  Tensor select(int64_t dim, int64_t index) const;
  Tensor slice(int64_t dim, int64_t start, int64_t end, int64_t step = 1) const;
  Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  Tensor transpose(int64_t d0, int64_t d1) const;
  Tensor permute(const IntArray& dims) const;
  Tensor unsqueeze(int64_t dim) const;
  Tensor squeeze(int64_t dim) const;
  Tensor squeeze() const;
  Tensor expand(const IntArray& sizes) const;    // -1 keeps a size; new leading dims allowed
  Tensor flatten(int64_t startDim = 0, int64_t endDim = -1) const;
  /// This tensor with no data copy but a fresh TensorImpl (aten::alias / detach).
  Tensor alias() const;

  // --- copies ---
  Tensor contiguous() const;      // self if already contiguous
  Tensor clone() const;           // always a new contiguous copy
  /// Converts dtype (copy unless same dtype and !copy).
  Tensor to(ScalarType dtype, bool copy = false) const;
  /// Copies src into self with broadcasting and dtype conversion (aten::copy_).
  Tensor& copy_(const Tensor& src);
  Tensor& fill_(const Scalar& value);
  Tensor& zero_() { return fill_(Scalar(int64_t(0))); }

  /// Value of a one-element tensor (aten::item); throws if numel != 1.
  Scalar item() const;
  /// Element at a flat contiguous index (for tests and printing; slow).
  double doubleAt(int64_t flatIndex) const;

  /// PyTorch's repr: "tensor([[1., 2.],\n        [3., 4.]])" with dtype suffix rules of torch/_tensor_str.py.
  std::string repr() const;
  /// "[1, 3, 224, 224]".
  std::string sizesStr() const;

 private:
  IntrusivePtr<TensorImpl> impl_;
};

/// Calls f with a value of the C++ type of dtype t (float, double, Half, BFloat16, int8_t, uint8_t,
/// int16_t, int32_t, int64_t, bool). Usage: KD_DISPATCH_ALL(t, "op", [&](auto tag) { using T = decltype(tag); ... });
#define KD_DISPATCH_CASE(ENUM, CTYPE) case ::kindling::ScalarType::ENUM: return f(CTYPE{});
template <class F>
decltype(auto) dispatchAllTypes(ScalarType t, const char* opName, F&& f) {
  switch (t) {
    KD_DISPATCH_CASE(Float, float)
    KD_DISPATCH_CASE(Double, double)
    KD_DISPATCH_CASE(Half, Half)
    KD_DISPATCH_CASE(BFloat16, BFloat16)
    KD_DISPATCH_CASE(Long, int64_t)
    KD_DISPATCH_CASE(Int, int32_t)
    KD_DISPATCH_CASE(Short, int16_t)
    KD_DISPATCH_CASE(Char, int8_t)
    KD_DISPATCH_CASE(Byte, uint8_t)
    KD_DISPATCH_CASE(Bool, bool)
    default:
      throw RuntimeError(fmt::format("\"{}\" not implemented for '{}'", opName, scalarTypeName(t)));
  }
}
/// As dispatchAllTypes but only float, double, Half, BFloat16.
template <class F>
decltype(auto) dispatchFloatingTypes(ScalarType t, const char* opName, F&& f) {
  switch (t) {
    KD_DISPATCH_CASE(Float, float)
    KD_DISPATCH_CASE(Double, double)
    KD_DISPATCH_CASE(Half, Half)
    KD_DISPATCH_CASE(BFloat16, BFloat16)
    default:
      throw RuntimeError(fmt::format("\"{}\" not implemented for '{}'", opName, scalarTypeName(t)));
  }
}
#undef KD_DISPATCH_CASE

/// C++ type → ScalarType.
template <class T> constexpr ScalarType scalarTypeOf();
template <> constexpr ScalarType scalarTypeOf<float>() { return ScalarType::Float; }
template <> constexpr ScalarType scalarTypeOf<double>() { return ScalarType::Double; }
template <> constexpr ScalarType scalarTypeOf<Half>() { return ScalarType::Half; }
template <> constexpr ScalarType scalarTypeOf<BFloat16>() { return ScalarType::BFloat16; }
template <> constexpr ScalarType scalarTypeOf<int64_t>() { return ScalarType::Long; }
template <> constexpr ScalarType scalarTypeOf<int32_t>() { return ScalarType::Int; }
template <> constexpr ScalarType scalarTypeOf<int16_t>() { return ScalarType::Short; }
template <> constexpr ScalarType scalarTypeOf<int8_t>() { return ScalarType::Char; }
template <> constexpr ScalarType scalarTypeOf<uint8_t>() { return ScalarType::Byte; }
template <> constexpr ScalarType scalarTypeOf<bool>() { return ScalarType::Bool; }

// --- IValue <-> Tensor (declared in core/ivalue.h) ---
inline IValue::IValue(Tensor t) : tag_(Tag::Tensor) {
  p_.ptr = t.defined() ? const_cast<IntrusivePtr<TensorImpl>&>(t.implPtr()).release() : nullptr;
  if (!p_.ptr) tag_ = Tag::None;  // an undefined tensor is None, as in PyTorch
}
inline Tensor IValue::toTensor() const& {
  check(Tag::Tensor);
  return Tensor(IntrusivePtr<TensorImpl>(static_cast<TensorImpl*>(p_.ptr)));
}
inline Tensor IValue::toTensor() && {
  check(Tag::Tensor);
  Tensor t(IntrusivePtr<TensorImpl>::reclaim(static_cast<TensorImpl*>(p_.ptr)));
  tag_ = Tag::None;
  p_.ptr = nullptr;
  return t;
}

}  // namespace kindling
