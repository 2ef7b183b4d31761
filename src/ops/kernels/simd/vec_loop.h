// Runs the vectorized kernels of ops/kernels/simd/vec_kernels.h over a TensorIterator's loop (float or double
// operands): contiguous runs (and a broadcast scalar operand) go straight to the vector code; strided runs
// are gathered into contiguous chunks of kChunk elements, computed, and scattered back, so every element
// is computed by the same code whatever the layout (results never depend on strides). In-place operation
// (output aliasing an input element for element) is allowed.
#pragma once
#include <algorithm>
#include <type_traits>

#include "ops/kernels/simd/vec_kernels.h"
#include "tensor/tensor_iterator.h"

namespace kindling::simd {

constexpr int64_t kChunk = 256;

namespace detail {
template <class T>
inline void gather(const char* p, int64_t stride, int64_t m, T* buf) {
  for (int64_t k = 0; k < m; ++k) buf[k] = *reinterpret_cast<const T*>(p + k * stride);
}
template <class T>
inline void scatter(const T* buf, int64_t m, char* p, int64_t stride) {
  for (int64_t k = 0; k < m; ++k) *reinterpret_cast<T*>(p + k * stride) = buf[k];
}
}  // namespace detail

/// `f(const T* in, T* out, int64_t n)` over a one-input iterator whose loop dtypes are both T.
template <class T, class F>
void forEachUnary(TensorIterator& it, F f) {
  static_assert(std::is_floating_point_v<T>);
  it.forEach([&f](char** data, const int64_t* st, int64_t n) {
    if (st[0] == sizeof(T) && st[1] == sizeof(T)) {
      f(reinterpret_cast<const T*>(data[1]), reinterpret_cast<T*>(data[0]), n);
      return;
    }
    T in[kChunk], out[kChunk];
    for (int64_t i = 0; i < n; i += kChunk) {
      const int64_t m = std::min(kChunk, n - i);
      detail::gather(data[1] + i * st[1], st[1], m, in);
      f(in, out, m);
      detail::scatter(out, m, data[0] + i * st[0], st[0]);
    }
  });
}

/// simd::unary(op) over a one-input iterator (loop dtypes T).
template <class T>
void unaryLoop(TensorIterator& it, Unary op) {
  forEachUnary<T>(it, [op](const T* x, T* y, int64_t n) { unary(op, x, y, n); });
}

/// simd::binary(op) over a two-input iterator (loop dtypes T).
template <class T>
void binaryLoop(TensorIterator& it, Binary op) {
  static_assert(std::is_floating_point_v<T>);
  it.forEach([op](char** data, const int64_t* st, int64_t n) {
    constexpr int64_t E = sizeof(T);
    T* y = reinterpret_cast<T*>(data[0]);
    const T* a = reinterpret_cast<const T*>(data[1]);
    const T* b = reinterpret_cast<const T*>(data[2]);
    if (st[0] == E) {
      if (st[1] == E && st[2] == E) return binary(op, a, b, y, n, Bcast::None);
      if (st[1] == E && st[2] == 0) return binary(op, a, b, y, n, Bcast::B);
      if (st[1] == 0 && st[2] == E) return binary(op, a, b, y, n, Bcast::A);
    }
    T ba[kChunk], bb[kChunk], out[kChunk];
    for (int64_t i = 0; i < n; i += kChunk) {
      const int64_t m = std::min(kChunk, n - i);
      detail::gather(data[1] + i * st[1], st[1], m, ba);
      detail::gather(data[2] + i * st[2], st[2], m, bb);
      binary(op, ba, bb, out, m, Bcast::None);
      detail::scatter(out, m, data[0] + i * st[0], st[0]);
    }
  });
}

}  // namespace kindling::simd

namespace kindling::simd {

/// Runs `op` through the vector kernels when the iterator's loop is float or double (input and output
/// dtypes equal); returns false (nothing done) otherwise, for the caller's scalar loop.
inline bool tryUnary(TensorIterator& it, Unary op) {
  if (it.loopOutputDtype() != it.loopComputeDtype()) return false;
  switch (it.loopComputeDtype()) {
    case ScalarType::Float: unaryLoop<float>(it, op); return true;
    case ScalarType::Double: unaryLoop<double>(it, op); return true;
    default: return false;
  }
}
inline bool tryBinary(TensorIterator& it, Binary op) {
  if (it.loopOutputDtype() != it.loopComputeDtype()) return false;
  switch (it.loopComputeDtype()) {
    case ScalarType::Float: binaryLoop<float>(it, op); return true;
    case ScalarType::Double: binaryLoop<double>(it, op); return true;
    default: return false;
  }
}

}  // namespace kindling::simd

namespace kindling {

/// for i in [0, n): f(i), over OpenMP threads when `parallel` (and more than one thread is allowed), else
/// inline: a `#pragma omp parallel for if(...)` that is false still pays for an OpenMP region, which
/// dominates kernels on small tensors.
template <class F>
void parallelFor(int64_t n, bool parallel, F&& f) {
  if (!parallel || n < 2 || omp_get_max_threads() == 1) {
    for (int64_t i = 0; i < n; ++i) f(i);
    return;
  }
#pragma omp parallel for
  for (int64_t i = 0; i < n; ++i) f(i);
}

}  // namespace kindling
