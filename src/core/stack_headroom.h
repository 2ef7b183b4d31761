// stackHeadroom: how much of the current thread's stack is left below the caller's frame. A recursion bound
// that counts levels (Python's 1000) holds only while each level's frame is small enough: the interpreter's
// frame is about 0.5 KB in a release build but 9 KB with AddressSanitizer, and a host application may call
// forward on a thread whose stack is far smaller than the 8 MB of a main thread. The guards that bound a
// recursion by levels also refuse one more level when less than a margin of stack is left.
#pragma once
#include <pthread.h>

#include <cstddef>
#include <cstdint>

namespace kindling {

namespace detail {
struct StackBounds {
  uintptr_t low = 0, high = 0;  // [low, high): the thread's stack; both 0 when unknown
};

inline StackBounds currentStackBounds() {
  StackBounds b;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return b;
  void* addr = nullptr;
  size_t size = 0;
  if (pthread_attr_getstack(&attr, &addr, &size) == 0 && addr != nullptr && size > 0) {
    b.low = reinterpret_cast<uintptr_t>(addr);
    b.high = b.low + size;
  }
  pthread_attr_destroy(&attr);
  return b;
}
}  // namespace detail

/// Bytes of the current thread's stack left below the caller's frame (the stack grows down), or SIZE_MAX
/// when that is not known (no bounds from pthread, or the caller runs on a stack of its own making).
/// The bounds are read once per thread.
__attribute__((noinline)) inline size_t stackHeadroom() {
  thread_local const detail::StackBounds bounds = detail::currentStackBounds();
  // The frame address, not a local's: AddressSanitizer may move locals to a heap-allocated fake stack.
  const auto sp = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  if (bounds.low == 0 || sp <= bounds.low || sp >= bounds.high) return SIZE_MAX;
  return sp - bounds.low;
}

}  // namespace kindling
