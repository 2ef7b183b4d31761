// IntrusivePtr: the reference-counted pointer behind Tensor, strings, lists, dicts, tuples and objects
// (as c10::intrusive_ptr). The count lives in the object, so an IValue holding any of them is one raw
// pointer plus a tag. Counts are atomic: objects may be shared with fork()ed tasks.
#pragma once
#include <atomic>
#include <cstdint>
#include <utility>

namespace kindling {

class IntrusiveTarget {
 public:
  IntrusiveTarget() = default;
  IntrusiveTarget(const IntrusiveTarget&) : refcount_(0) {}
  IntrusiveTarget& operator=(const IntrusiveTarget&) { return *this; }
  virtual ~IntrusiveTarget() = default;
  void incref() const noexcept { refcount_.fetch_add(1, std::memory_order_relaxed); }
  void decref() const noexcept {
    if (refcount_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }
  uint32_t use_count() const noexcept { return refcount_.load(std::memory_order_relaxed); }
 private:
  mutable std::atomic<uint32_t> refcount_{0};
};

template <class T>
class IntrusivePtr {
 public:
  IntrusivePtr() noexcept = default;
  IntrusivePtr(std::nullptr_t) noexcept {}
  /// Takes a new reference to p.
  explicit IntrusivePtr(T* p) noexcept : p_(p) { if (p_) p_->incref(); }
  IntrusivePtr(const IntrusivePtr& o) noexcept : p_(o.p_) { if (p_) p_->incref(); }
  IntrusivePtr(IntrusivePtr&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  template <class U>
  IntrusivePtr(const IntrusivePtr<U>& o) noexcept : p_(o.get()) { if (p_) p_->incref(); }
  ~IntrusivePtr() { if (p_) p_->decref(); }
  IntrusivePtr& operator=(const IntrusivePtr& o) noexcept { IntrusivePtr(o).swap(*this); return *this; }
  IntrusivePtr& operator=(IntrusivePtr&& o) noexcept { IntrusivePtr(std::move(o)).swap(*this); return *this; }
  void swap(IntrusivePtr& o) noexcept { std::swap(p_, o.p_); }
  T* get() const noexcept { return p_; }
  T* operator->() const noexcept { return p_; }
  T& operator*() const noexcept { return *p_; }
  explicit operator bool() const noexcept { return p_ != nullptr; }
  bool operator==(const IntrusivePtr& o) const noexcept { return p_ == o.p_; }
  /// Gives up ownership without decref (used by IValue to store the raw pointer).
  T* release() noexcept { T* p = p_; p_ = nullptr; return p; }
  /// Adopts a pointer whose reference was already counted (inverse of release()).
  static IntrusivePtr reclaim(T* p) noexcept { IntrusivePtr r; r.p_ = p; return r; }
 private:
  T* p_ = nullptr;
};

template <class T, class... Args>
IntrusivePtr<T> makeIntrusive(Args&&... args) {
  return IntrusivePtr<T>(new T(std::forward<Args>(args)...));
}

}  // namespace kindling
