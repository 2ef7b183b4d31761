// layer_norm's row kernel with libtorch 1.13's arithmetic (see ops/kernels/simd/layer_norm_row.h). Highway re-includes
// this file per target (foreach_target.h), as ops/kernels/simd/vec_kernels.cpp.
//
// Floating-point contraction is off for this whole file (before any include, so every inlined function
// shares the setting): an unfused a * b + c must stay two roundings, and the fused ones are written as
// MulAdd / std::fma.
#pragma GCC optimize("fp-contract=off")

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/kernels/simd/layer_norm_row.cpp"
#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS (HWY_SSSE3 | HWY_AVX3_DL)
#endif
#include <hwy/foreach_target.h>  // re-includes this file per target
#include <hwy/highway.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "ops/kernels/simd/layer_norm_row.h"

HWY_BEFORE_NAMESPACE();
namespace kindling::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_MAX_BYTES >= 32
/// ATen's Vectorized<T> on AVX2: one 32-byte Highway vector.
template <class T>
struct Vec32 {
  using D = hn::FixedTag<T, 32 / sizeof(T)>;
  using V = hn::Vec<D>;
  static constexpr int64_t kLanes = 32 / sizeof(T);
  static V zero() { return hn::Zero(D()); }
  static V set(T v) { return hn::Set(D(), v); }
  static V load(const T* p) { return hn::LoadU(D(), p); }
  static void store(V v, T* p) { hn::StoreU(v, D(), p); }
  static V add(V a, V b) { return hn::Add(a, b); }
  static V sub(V a, V b) { return hn::Sub(a, b); }
  static V mul(V a, V b) { return hn::Mul(a, b); }
  static V fma(V a, V b, V c) { return hn::MulAdd(a, b, c); }  // fused on AVX2 / AVX-512
};
#else
/// Targets without 32-byte vectors: the same lanes, one at a time (std::fma for the fused steps).
template <class T>
struct Vec32 {
  static constexpr int64_t kLanes = 32 / sizeof(T);
  struct V {
    T v[kLanes];
  };
  template <class F>
  static V map(F f) {
    V r;
    for (int64_t l = 0; l < kLanes; ++l) r.v[l] = f(l);
    return r;
  }
  static V zero() { return map([](int64_t) { return T(0); }); }
  static V set(T x) { return map([x](int64_t) { return x; }); }
  static V load(const T* p) { return map([p](int64_t l) { return p[l]; }); }
  static void store(V a, T* p) {
    for (int64_t l = 0; l < kLanes; ++l) p[l] = a.v[l];
  }
  static V add(V a, V b) { return map([&](int64_t l) { return a.v[l] + b.v[l]; }); }
  static V sub(V a, V b) { return map([&](int64_t l) { return a.v[l] - b.v[l]; }); }
  static V mul(V a, V b) { return map([&](int64_t l) { return a.v[l] * b.v[l]; }); }
  static V fma(V a, V b, V c) { return map([&](int64_t l) { return std::fma(a.v[l], b.v[l], c.v[l]); }); }
};
#endif

/// ATen's utils::CeilLog2 (1 for x <= 2).
inline int64_t ceilLog2(int64_t x) {
  if (x <= 2) return 1;
  int64_t r = 0;
  while ((int64_t(1) << r) < x) ++r;
  return r;
}

/// ATen's RowwiseMoments: (mean, biased variance) of x[0..N).
template <class T>
void rowMoments(const T* X, int64_t N, T& meanOut, T& varOut) {
  using A = Vec32<T>;
  using V = typename A::V;
  constexpr int64_t L = A::kLanes;
  constexpr int64_t kChunk = 16;
  const int64_t n = N / L;
  const int64_t m = (n + kChunk - 1) / kChunk;
  const int64_t depth = ceilLog2(m);
  // the cascade stack, level by level (at most 64 levels of L lanes)
  int64_t m0s[64];
  alignas(32) T m1s[64 * L];
  alignas(32) T m2s[64 * L];
  for (int64_t d = 0; d < depth; ++d) {
    m0s[d] = 0;
    A::store(A::zero(), m1s + d * L);
    A::store(A::zero(), m2s + d * L);
  }
  // AddMomentsVec: merge (m0a, m1a, m2a) into level d; unfused
  auto addVec = [&](int64_t m0a, V m1a, V m2a, int64_t d) {
    const int64_t nn = m0s[d] + m0a;
    const T c = nn == 0 ? T(0) : static_cast<T>(m0a) / static_cast<T>(nn);
    const V cv = A::set(c);
    V m1 = A::load(m1s + d * L), m2 = A::load(m2s + d * L);
    const V delta = A::sub(m1a, m1);
    m1 = A::add(m1, A::mul(cv, delta));
    m2 = A::add(m2, A::add(m2a, A::mul(A::mul(A::mul(delta, delta), cv), A::set(static_cast<T>(m0s[d])))));
    A::store(m1, m1s + d * L);
    A::store(m2, m2s + d * L);
    m0s[d] = nn;
  };
  for (int64_t i = 0; i < m; ++i) {
    const T* p = X + i * kChunk * L;
    const int64_t m0 = std::min(kChunk, n - i * kChunk);
    V m1 = A::zero(), m2 = A::zero();
    for (int64_t j = 0; j < m0; ++j) {  // Welford within the chunk; unfused
      const V x = A::load(p + j * L);
      const V delta = A::sub(x, m1);
      m1 = A::add(m1, A::mul(delta, A::set(T(1) / static_cast<T>(j + 1))));
      m2 = A::add(m2, A::mul(delta, A::sub(x, m1)));
    }
    addVec(m0, m1, m2, 0);
    int64_t mask = i + 1;
    for (int64_t j = 1; j < depth && (mask & 1) == 0; ++j) {
      addVec(m0s[j - 1], A::load(m1s + (j - 1) * L), A::load(m2s + (j - 1) * L), j);
      m0s[j - 1] = 0;
      A::store(A::zero(), m1s + (j - 1) * L);
      A::store(A::zero(), m2s + (j - 1) * L);
      mask >>= 1;
    }
  }
  for (int64_t d = 1; d < depth; ++d) addVec(m0s[d], A::load(m1s + d * L), A::load(m2s + d * L), 0);
  // scalar Welford over the tail, then the lanes merged in (AddMoments; its m2 update fused)
  int64_t c0 = 0;
  T m1 = 0, m2 = 0;
  for (int64_t i = n * L; i < N; ++i) {
    const T delta = X[i] - m1;
    ++c0;
    m1 = m1 + delta / static_cast<T>(c0);
    m2 = m2 + delta * (X[i] - m1);
  }
  for (int64_t l = 0; l < L; ++l) {
    const int64_t nn = c0 + n;
    const T c = nn == 0 ? T(0) : static_cast<T>(n) / static_cast<T>(nn);
    const T delta = m1s[l] - m1;
    m1 = m1 + c * delta;
    m2 = m2 + std::fma(delta * delta * c, static_cast<T>(c0), m2s[l]);
    c0 = nn;
  }
  meanOut = m1;
  varOut = m2 / static_cast<T>(N);
}

template <class T>
void layerNormRowImpl(const T* x, T* y, int64_t n, T eps, const T* w, const T* b, T* meanOut, T* rstdOut) {
  using A = Vec32<T>;
  constexpr int64_t L = A::kLanes;
  T mean, var;
  rowMoments(x, n, mean, var);
  const T rstd = T(1) / std::sqrt(var + eps);
  const T scale = rstd, shift = -rstd * mean;
  *meanOut = mean;
  *rstdOut = rstd;
  // y = fma(fma(x, scale, shift), w, b); w = 1, b = 0 when absent (as ATen's scalar loop: -0 becomes +0)
  const auto vs = A::set(scale), vh = A::set(shift), one = A::set(T(1)), zero = A::zero();
  int64_t i = 0;
  for (; i + L <= n; i += L) {
    const auto t = A::fma(A::load(x + i), vs, vh);
    A::store(A::fma(t, w ? A::load(w + i) : one, b ? A::load(b + i) : zero), y + i);
  }
  for (; i < n; ++i) y[i] = std::fma(std::fma(x[i], scale, shift), w ? w[i] : T(1), b ? b[i] : T(0));
}

void LayerNormRowF32(const float* x, float* y, int64_t n, float eps, const float* w, const float* b, float* m, float* r) {
  layerNormRowImpl<float>(x, y, n, eps, w, b, m, r);
}
void LayerNormRowF64(const double* x, double* y, int64_t n, double eps, const double* w, const double* b, double* m,
                     double* r) {
  layerNormRowImpl<double>(x, y, n, eps, w, b, m, r);
}

}  // namespace HWY_NAMESPACE
}  // namespace kindling::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace kindling::simd {

HWY_EXPORT(LayerNormRowF32);
HWY_EXPORT(LayerNormRowF64);

void layerNormRow(const float* x, float* y, int64_t n, float eps, const float* w, const float* b, float* mean,
                  float* rstd) {
  HWY_DYNAMIC_DISPATCH(LayerNormRowF32)(x, y, n, eps, w, b, mean, rstd);
}
void layerNormRow(const double* x, double* y, int64_t n, double eps, const double* w, const double* b, double* mean,
                  double* rstd) {
  HWY_DYNAMIC_DISPATCH(LayerNormRowF64)(x, y, n, eps, w, b, mean, rstd);
}

}  // namespace kindling::simd
#endif  // HWY_ONCE
