// Vectorized kernels (see ops/kernels/simd/vec_kernels.h): one copy per Highway target, SLEEF for transcendental
// functions. Highway re-includes this file once per target (foreach_target.h); everything between
// HWY_BEFORE_NAMESPACE and HWY_AFTER_NAMESPACE is compiled for that target's instruction set only, and
// HWY_DYNAMIC_DISPATCH picks the best one the CPU supports at the first call.
//
// Targets: SSE4, AVX2, AVX3 (AVX-512 F/VL/DQ/BW) and EMU128, the portable fallback (plain C++ math);
// SSSE3 and AVX3_DL add nothing here and are not compiled.

// SLEEF's x86 vector functions, declared once with the instruction set each needs (sleef.h hides the
// AVX-512 ones unless the whole file is compiled with -mavx512f, which we never do).
#ifndef KINDLING_SLEEF_DECLS
#define KINDLING_SLEEF_DECLS
#include <immintrin.h>

#define KD_SLEEF_DECL_ISA(NAME, ACC)                                 \
  __m128 Sleef_##NAME##f4_##ACC##sse4(__m128);                       \
  __m128d Sleef_##NAME##d2_##ACC##sse4(__m128d);                     \
  __m256 Sleef_##NAME##f8_##ACC##avx2(__m256);                       \
  __m256d Sleef_##NAME##d4_##ACC##avx2(__m256d);                     \
  __m512 Sleef_##NAME##f16_##ACC##avx512f(__m512);                   \
  __m512d Sleef_##NAME##d8_##ACC##avx512f(__m512d);
#define KD_SLEEF_FUNCS(X)                                                                              \
  X(exp, u10) X(exp2, u10) X(expm1, u10) X(log, u10) X(log2, u10) X(log10, u10) X(log1p, u10)         \
  X(sin, u10) X(cos, u10) X(tan, u10) X(asin, u10) X(acos, u10) X(atan, u10) X(sinh, u10)             \
  X(cosh, u10) X(tanh, u10) X(asinh, u10) X(acosh, u10) X(atanh, u10) X(erf, u10) X(erfc, u15)        \
  X(lgamma, u10)
#pragma GCC push_options
#pragma GCC target("sse4.1,sse4.2,avx,avx2,fma,avx512f")
extern "C" {
KD_SLEEF_FUNCS(KD_SLEEF_DECL_ISA)
}
#pragma GCC pop_options
#undef KD_SLEEF_DECL_ISA
#endif  // KINDLING_SLEEF_DECLS

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/kernels/simd/vec_kernels.cpp"
#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS (HWY_SSSE3 | HWY_AVX3_DL)
#endif
#include <hwy/foreach_target.h>  // re-includes this file per target
#include <hwy/highway.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "ops/kernels/simd/vec_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace kindling::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// ------------------------------------------------------------------------------------------- scalar math
// The formulas, for the EMU128 fallback (and the reference the vector code follows).

template <int OP, class T>
inline T scalarUnary(T x) {
  constexpr Unary op = static_cast<Unary>(OP);
  if constexpr (op == Unary::Exp) return std::exp(x);
  else if constexpr (op == Unary::Exp2) return std::exp2(x);
  else if constexpr (op == Unary::Expm1) return std::expm1(x);
  else if constexpr (op == Unary::Log) return std::log(x);
  else if constexpr (op == Unary::Log2) return std::log2(x);
  else if constexpr (op == Unary::Log10) return std::log10(x);
  else if constexpr (op == Unary::Log1p) return std::log1p(x);
  else if constexpr (op == Unary::Sin) return std::sin(x);
  else if constexpr (op == Unary::Cos) return std::cos(x);
  else if constexpr (op == Unary::Tan) return std::tan(x);
  else if constexpr (op == Unary::Asin) return std::asin(x);
  else if constexpr (op == Unary::Acos) return std::acos(x);
  else if constexpr (op == Unary::Atan) return std::atan(x);
  else if constexpr (op == Unary::Sinh) return std::sinh(x);
  else if constexpr (op == Unary::Cosh) return std::cosh(x);
  else if constexpr (op == Unary::Tanh) return std::tanh(x);
  else if constexpr (op == Unary::Asinh) return std::asinh(x);
  else if constexpr (op == Unary::Acosh) return std::acosh(x);
  else if constexpr (op == Unary::Atanh) return std::atanh(x);
  else if constexpr (op == Unary::Erf) return std::erf(x);
  else if constexpr (op == Unary::Erfc) return std::erfc(x);
  else if constexpr (op == Unary::Lgamma) return std::lgamma(x);
  else if constexpr (op == Unary::Sqrt) return std::sqrt(x);
  else if constexpr (op == Unary::Rsqrt) return T(1) / std::sqrt(x);
  else if constexpr (op == Unary::Reciprocal) return T(1) / x;
  else if constexpr (op == Unary::Abs) return std::fabs(x);
  else if constexpr (op == Unary::Neg) return -x;
  else if constexpr (op == Unary::Sigmoid) return T(1) / (T(1) + std::exp(-x));
  else if constexpr (op == Unary::Silu) return x / (T(1) + std::exp(-x));
  else if constexpr (op == Unary::GeluErf) return x * T(0.5) * (T(1) + std::erf(x * T(M_SQRT1_2)));
  else if constexpr (op == Unary::GeluTanh) {
    const T kBeta = T(M_SQRT2 * M_2_SQRTPI * 0.5), kKappa = T(0.044715);
    return T(0.5) * x * (T(1) + std::tanh(kBeta * (x + kKappa * x * x * x)));
  } else if constexpr (op == Unary::Relu) return x < T(0) ? T(0) : x;
  else if constexpr (op == Unary::Mish) return x * std::tanh(std::log1p(std::exp(x)));
  else return x;
}

template <int OP, class T>
inline T scalarBinary(T a, T b) {
  constexpr Binary op = static_cast<Binary>(OP);
  if constexpr (op == Binary::Add) return a + b;
  else if constexpr (op == Binary::Sub) return a - b;
  else if constexpr (op == Binary::Mul) return a * b;
  else if constexpr (op == Binary::Div) return a / b;
  else if constexpr (op == Binary::Max) return (std::isnan(a) || std::isnan(b)) ? std::numeric_limits<T>::quiet_NaN() : (a > b ? a : b);
  else return (std::isnan(a) || std::isnan(b)) ? std::numeric_limits<T>::quiet_NaN() : (a < b ? a : b);
}

template <class T>
HWY_NOINLINE void affineRowLoop(const T* x, T* y, int64_t n, double mean, double rstd, const T* w, const T* b) {
  const hn::ScalableTag<double> dd;
  const hn::Rebind<T, decltype(dd)> dt;  // as many T lanes as doubles
  const int64_t N = static_cast<int64_t>(hn::Lanes(dd));
  const auto vm = hn::Set(dd, mean), vr = hn::Set(dd, rstd);
  auto load = [&](const T* p) {
    if constexpr (std::is_same_v<T, double>) return hn::LoadU(dd, p);
    else return hn::PromoteTo(dd, hn::LoadU(dt, p));
  };
  int64_t i = 0;
  for (; i + N <= n; i += N) {
    auto v = hn::Mul(hn::Sub(load(x + i), vm), vr);
    if (w) v = hn::Mul(v, load(w + i));
    if (b) v = hn::Add(v, load(b + i));
    if constexpr (std::is_same_v<T, double>) hn::StoreU(v, dd, y + i);
    else hn::StoreU(hn::DemoteTo(dt, v), dt, y + i);
  }
  for (; i < n; ++i) {
    double v = (static_cast<double>(x[i]) - mean) * rstd;
    if (w) v *= static_cast<double>(w[i]);
    if (b) v += static_cast<double>(b[i]);
    y[i] = static_cast<T>(v);
  }
}

#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_SSE4
#define KD_HAVE_SLEEF 1
#else
#define KD_HAVE_SLEEF 0
#endif

#if KD_HAVE_SLEEF
// ------------------------------------------------------------------------------------------- SLEEF

#if HWY_TARGET == HWY_AVX3
#define KD_SF(NAME, ACC) Sleef_##NAME##f16_##ACC##avx512f
#define KD_SD(NAME, ACC) Sleef_##NAME##d8_##ACC##avx512f
#elif HWY_TARGET == HWY_AVX2
#define KD_SF(NAME, ACC) Sleef_##NAME##f8_##ACC##avx2
#define KD_SD(NAME, ACC) Sleef_##NAME##d4_##ACC##avx2
#else
#define KD_SF(NAME, ACC) Sleef_##NAME##f4_##ACC##sse4
#define KD_SD(NAME, ACC) Sleef_##NAME##d2_##ACC##sse4
#endif

using VF = hn::Vec<hn::ScalableTag<float>>;
using VD = hn::Vec<hn::ScalableTag<double>>;

#define KD_SLEEF_WRAP(NAME, ACC)                                          \
  HWY_INLINE VF S_##NAME(VF v) { VF r; r.raw = KD_SF(NAME, ACC)(v.raw); return r; } \
  HWY_INLINE VD S_##NAME(VD v) { VD r; r.raw = KD_SD(NAME, ACC)(v.raw); return r; }
KD_SLEEF_FUNCS(KD_SLEEF_WRAP)
#undef KD_SLEEF_WRAP
#undef KD_SF
#undef KD_SD

// erf for float as PyTorch 1.13's Vectorized<float>::erf: Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7)
// with SLEEF's exp; torch.erf and gelu on float tensors use it. Doubles use SLEEF's erf (u10), as PyTorch.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V erfFloat(D d, V x) {
  using T = hn::TFromD<D>;
  const V one = hn::Set(d, T(1));
  const V t = hn::Div(one, hn::MulAdd(hn::Set(d, T(0.3275911f)), hn::Abs(x), one));
  V r = hn::MulAdd(hn::Set(d, T(1.061405429f)), t, hn::Set(d, T(-1.453152027f)));
  r = hn::MulAdd(r, t, hn::Set(d, T(1.421413741f)));
  r = hn::MulAdd(r, t, hn::Set(d, T(-0.284496736f)));
  r = hn::MulAdd(r, t, hn::Set(d, T(0.254829592f)));
  const V e = S_exp(hn::Neg(hn::Mul(x, x)));
  const V y = hn::MulAdd(hn::Mul(hn::Neg(e), t), r, one);  // 1 - r t exp(-x^2), in [0, 1]
  return hn::CopySign(y, x);
}

template <class D, class V = hn::Vec<D>>
HWY_INLINE V erfAny(D d, V x) {
  if constexpr (std::is_same_v<hn::TFromD<D>, float>) return erfFloat(d, x);
  else return S_erf(x);
}

template <int OP, class D, class V = hn::Vec<D>>
HWY_INLINE V vecUnary(D d, V x) {
  using T = hn::TFromD<D>;
  constexpr Unary op = static_cast<Unary>(OP);
  const V one = hn::Set(d, T(1));
  if constexpr (op == Unary::Exp) return S_exp(x);
  else if constexpr (op == Unary::Exp2) return S_exp2(x);
  else if constexpr (op == Unary::Expm1) return S_expm1(x);
  else if constexpr (op == Unary::Log) return S_log(x);
  else if constexpr (op == Unary::Log2) return S_log2(x);
  else if constexpr (op == Unary::Log10) return S_log10(x);
  else if constexpr (op == Unary::Log1p) return S_log1p(x);
  else if constexpr (op == Unary::Sin) return S_sin(x);
  else if constexpr (op == Unary::Cos) return S_cos(x);
  else if constexpr (op == Unary::Tan) return S_tan(x);
  else if constexpr (op == Unary::Asin) return S_asin(x);
  else if constexpr (op == Unary::Acos) return S_acos(x);
  else if constexpr (op == Unary::Atan) return S_atan(x);
  else if constexpr (op == Unary::Sinh) return S_sinh(x);
  else if constexpr (op == Unary::Cosh) return S_cosh(x);
  else if constexpr (op == Unary::Tanh) return S_tanh(x);
  else if constexpr (op == Unary::Asinh) return S_asinh(x);
  else if constexpr (op == Unary::Acosh) return S_acosh(x);
  else if constexpr (op == Unary::Atanh) return S_atanh(x);
  else if constexpr (op == Unary::Erf) return erfAny(d, x);
  else if constexpr (op == Unary::Erfc) return S_erfc(x);
  else if constexpr (op == Unary::Lgamma) return S_lgamma(x);
  else if constexpr (op == Unary::Sqrt) return hn::Sqrt(x);
  else if constexpr (op == Unary::Rsqrt) return hn::Div(one, hn::Sqrt(x));
  else if constexpr (op == Unary::Reciprocal) return hn::Div(one, x);
  else if constexpr (op == Unary::Abs) return hn::Abs(x);
  else if constexpr (op == Unary::Neg) return hn::Neg(x);
  else if constexpr (op == Unary::Sigmoid) return hn::Div(one, hn::Add(one, S_exp(hn::Neg(x))));
  else if constexpr (op == Unary::Silu) return hn::Div(x, hn::Add(one, S_exp(hn::Neg(x))));
  else if constexpr (op == Unary::GeluErf) {
    const V half = hn::Set(d, T(0.5));
    const V e = erfAny(d, hn::Mul(x, hn::Set(d, T(M_SQRT1_2))));
    return hn::Mul(hn::Mul(x, half), hn::Add(one, e));
  } else if constexpr (op == Unary::GeluTanh) {
    const V kBeta = hn::Set(d, T(M_SQRT2 * M_2_SQRTPI * 0.5)), kKappa = hn::Set(d, T(0.044715));
    const V x3 = hn::Mul(hn::Mul(x, x), x);
    const V inner = hn::Mul(kBeta, hn::Add(x, hn::Mul(kKappa, x3)));
    return hn::Mul(hn::Mul(hn::Set(d, T(0.5)), x), hn::Add(one, S_tanh(inner)));
  } else if constexpr (op == Unary::Relu) {
    return hn::IfThenZeroElse(hn::Lt(x, hn::Zero(d)), x);
  } else if constexpr (op == Unary::Mish) {
    return hn::Mul(x, S_tanh(S_log1p(S_exp(x))));
  } else {
    return x;
  }
}

template <int OP, class D, class V = hn::Vec<D>>
HWY_INLINE V vecBinary(D d, V a, V b) {
  constexpr Binary op = static_cast<Binary>(OP);
  if constexpr (op == Binary::Add) return hn::Add(a, b);
  else if constexpr (op == Binary::Sub) return hn::Sub(a, b);
  else if constexpr (op == Binary::Mul) return hn::Mul(a, b);
  else if constexpr (op == Binary::Div) return hn::Div(a, b);
  else {
    using T = hn::TFromD<D>;
    const auto nan = hn::Or(hn::IsNaN(a), hn::IsNaN(b));
    const V m = op == Binary::Max ? hn::IfThenElse(hn::Gt(a, b), a, b) : hn::IfThenElse(hn::Lt(a, b), a, b);
    return hn::IfThenElse(nan, hn::Set(d, std::numeric_limits<T>::quiet_NaN()), m);
  }
}

template <int OP, class T>
HWY_NOINLINE void unaryLoop(const T* x, T* y, int64_t n) {
  const hn::ScalableTag<T> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  int64_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    const auto a = hn::LoadU(d, x + i), b = hn::LoadU(d, x + i + N);
    hn::StoreU(vecUnary<OP>(d, a), d, y + i);
    hn::StoreU(vecUnary<OP>(d, b), d, y + i + N);
  }
  for (; i + N <= n; i += N) hn::StoreU(vecUnary<OP>(d, hn::LoadU(d, x + i)), d, y + i);
  if (i < n) {  // the tail goes through the same vector code (padded with ones: finite for every op)
    HWY_ALIGN T buf[hn::MaxLanes(d)];
    for (int64_t k = 0; k < N; ++k) buf[k] = T(1);
    std::memcpy(buf, x + i, static_cast<size_t>(n - i) * sizeof(T));
    hn::Store(vecUnary<OP>(d, hn::Load(d, buf)), d, buf);
    std::memcpy(y + i, buf, static_cast<size_t>(n - i) * sizeof(T));
  }
}

template <int OP, class T>
HWY_NOINLINE void binaryLoop(const T* a, const T* b, T* y, int64_t n, int mode) {
  const hn::ScalableTag<T> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  int64_t i = 0;
  HWY_ALIGN T ta[hn::MaxLanes(d)], tb[hn::MaxLanes(d)];
  if (mode == static_cast<int>(Bcast::None)) {
    for (; i + N <= n; i += N) hn::StoreU(vecBinary<OP>(d, hn::LoadU(d, a + i), hn::LoadU(d, b + i)), d, y + i);
    if (i < n) {
      for (int64_t k = 0; k < N; ++k) ta[k] = tb[k] = T(1);
      std::memcpy(ta, a + i, static_cast<size_t>(n - i) * sizeof(T));
      std::memcpy(tb, b + i, static_cast<size_t>(n - i) * sizeof(T));
      hn::Store(vecBinary<OP>(d, hn::Load(d, ta), hn::Load(d, tb)), d, ta);
      std::memcpy(y + i, ta, static_cast<size_t>(n - i) * sizeof(T));
    }
  } else if (mode == static_cast<int>(Bcast::B)) {
    const auto vb = hn::Set(d, b[0]);
    for (; i + N <= n; i += N) hn::StoreU(vecBinary<OP>(d, hn::LoadU(d, a + i), vb), d, y + i);
    if (i < n) {
      for (int64_t k = 0; k < N; ++k) ta[k] = T(1);
      std::memcpy(ta, a + i, static_cast<size_t>(n - i) * sizeof(T));
      hn::Store(vecBinary<OP>(d, hn::Load(d, ta), vb), d, ta);
      std::memcpy(y + i, ta, static_cast<size_t>(n - i) * sizeof(T));
    }
  } else {
    const auto va = hn::Set(d, a[0]);
    for (; i + N <= n; i += N) hn::StoreU(vecBinary<OP>(d, va, hn::LoadU(d, b + i)), d, y + i);
    if (i < n) {
      for (int64_t k = 0; k < N; ++k) tb[k] = T(1);
      std::memcpy(tb, b + i, static_cast<size_t>(n - i) * sizeof(T));
      hn::Store(vecBinary<OP>(d, va, hn::Load(d, tb)), d, tb);
      std::memcpy(y + i, tb, static_cast<size_t>(n - i) * sizeof(T));
    }
  }
}

template <class T>
HWY_NOINLINE void clampLoop(const T* x, T* y, int64_t n, bool hasLo, T lo, bool hasHi, T hi) {
  const hn::ScalableTag<T> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  const auto vlo = hn::Set(d, hasLo ? lo : -std::numeric_limits<T>::infinity());
  const auto vhi = hn::Set(d, hasHi ? hi : std::numeric_limits<T>::infinity());
  auto f = [&](auto v) {
    const auto t = hn::IfThenElse(hn::Lt(v, vlo), vlo, v);  // NaN compares false: stays NaN
    return hn::IfThenElse(hn::Gt(t, vhi), vhi, t);
  };
  int64_t i = 0;
  for (; i + N <= n; i += N) hn::StoreU(f(hn::LoadU(d, x + i)), d, y + i);
  if (i < n) {
    HWY_ALIGN T buf[hn::MaxLanes(d)] = {};
    std::memcpy(buf, x + i, static_cast<size_t>(n - i) * sizeof(T));
    hn::Store(f(hn::Load(d, buf)), d, buf);
    std::memcpy(y + i, buf, static_cast<size_t>(n - i) * sizeof(T));
  }
}

// Loads N floats (or doubles) at p and adds them, widened to double, into two (one) accumulators.
template <class T>
struct Widen;
template <>
struct Widen<float> {
  template <class DD, class VD2>
  static HWY_INLINE void add(DD dd, const float* p, VD2& lo, VD2& hi) {
    const hn::ScalableTag<float> d;
    const hn::Half<decltype(d)> dh;
    const auto v = hn::LoadU(d, p);
    lo = hn::Add(lo, hn::PromoteTo(dd, hn::LowerHalf(dh, v)));
    hi = hn::Add(hi, hn::PromoteTo(dd, hn::UpperHalf(dh, v)));
  }
  template <class DD, class VD2>
  static HWY_INLINE void addSq(DD dd, const float* p, VD2 mean, VD2& lo, VD2& hi) {
    const hn::ScalableTag<float> d;
    const hn::Half<decltype(d)> dh;
    const auto v = hn::LoadU(d, p);
    const auto a = hn::Sub(hn::PromoteTo(dd, hn::LowerHalf(dh, v)), mean);
    const auto b = hn::Sub(hn::PromoteTo(dd, hn::UpperHalf(dh, v)), mean);
    lo = hn::MulAdd(a, a, lo);
    hi = hn::MulAdd(b, b, hi);
  }
  static int64_t lanes() { return static_cast<int64_t>(hn::Lanes(hn::ScalableTag<float>())); }
};
template <>
struct Widen<double> {
  template <class DD, class VD2>
  static HWY_INLINE void add(DD dd, const double* p, VD2& lo, VD2& hi) {
    lo = hn::Add(lo, hn::LoadU(dd, p));
    hi = hn::Add(hi, hn::LoadU(dd, p + hn::Lanes(dd)));
  }
  template <class DD, class VD2>
  static HWY_INLINE void addSq(DD dd, const double* p, VD2 mean, VD2& lo, VD2& hi) {
    const auto a = hn::Sub(hn::LoadU(dd, p), mean), b = hn::Sub(hn::LoadU(dd, p + hn::Lanes(dd)), mean);
    lo = hn::MulAdd(a, a, lo);
    hi = hn::MulAdd(b, b, hi);
  }
  static int64_t lanes() { return 2 * static_cast<int64_t>(hn::Lanes(hn::ScalableTag<double>())); }
};

template <class T, bool Wide = false>
HWY_NOINLINE double sumLoop(const T* HWY_RESTRICT x, int64_t n) {
  if constexpr (std::is_same_v<T, float> && !Wide) {
    // Blocks of 64 vectors summed in float (four accumulators: each lane adds 16 values), block totals
    // added in double: as accurate as a double accumulator for any practical n, at float speed.
    const hn::ScalableTag<float> d;
    const int64_t N = static_cast<int64_t>(hn::Lanes(d));
    double total = 0;
    int64_t i = 0;
    while (i + 4 * N <= n) {
      const int64_t end = std::min(n, i + 64 * N);
      auto a0 = hn::Zero(d), a1 = hn::Zero(d), a2 = hn::Zero(d), a3 = hn::Zero(d);
      for (; i + 4 * N <= end; i += 4 * N) {
        a0 = hn::Add(a0, hn::LoadU(d, x + i));
        a1 = hn::Add(a1, hn::LoadU(d, x + i + N));
        a2 = hn::Add(a2, hn::LoadU(d, x + i + 2 * N));
        a3 = hn::Add(a3, hn::LoadU(d, x + i + 3 * N));
      }
      total += static_cast<double>(hn::GetLane(hn::SumOfLanes(d, hn::Add(hn::Add(a0, a1), hn::Add(a2, a3)))));
    }
    for (; i < n; ++i) total += static_cast<double>(x[i]);
    return total;
  }
  const hn::ScalableTag<double> dd;
  const int64_t step = Widen<T>::lanes();  // elements per (lo, hi) pair
  auto a0 = hn::Zero(dd), a1 = hn::Zero(dd), a2 = hn::Zero(dd), a3 = hn::Zero(dd);
  int64_t i = 0;
  for (; i + 2 * step <= n; i += 2 * step) {
    Widen<T>::add(dd, x + i, a0, a1);
    Widen<T>::add(dd, x + i + step, a2, a3);
  }
  for (; i + step <= n; i += step) Widen<T>::add(dd, x + i, a0, a1);
  double s = hn::GetLane(hn::SumOfLanes(dd, hn::Add(hn::Add(a0, a1), hn::Add(a2, a3))));
  for (; i < n; ++i) s += static_cast<double>(x[i]);
  return s;
}

template <class T>
HWY_NOINLINE double sumSqDiffLoop(const T* HWY_RESTRICT x, int64_t n, double mean) {
  const hn::ScalableTag<double> dd;
  const int64_t step = Widen<T>::lanes();
  const auto vm = hn::Set(dd, mean);
  auto a0 = hn::Zero(dd), a1 = hn::Zero(dd), a2 = hn::Zero(dd), a3 = hn::Zero(dd);
  int64_t i = 0;
  for (; i + 2 * step <= n; i += 2 * step) {
    Widen<T>::addSq(dd, x + i, vm, a0, a1);
    Widen<T>::addSq(dd, x + i + step, vm, a2, a3);
  }
  for (; i + step <= n; i += step) Widen<T>::addSq(dd, x + i, vm, a0, a1);
  double s = hn::GetLane(hn::SumOfLanes(dd, hn::Add(hn::Add(a0, a1), hn::Add(a2, a3))));
  for (; i < n; ++i) {
    const double v = static_cast<double>(x[i]) - mean;
    s += v * v;
  }
  return s;
}

template <class T>
HWY_NOINLINE void accumulateLoop(const T* HWY_RESTRICT x, double* HWY_RESTRICT acc, int64_t n) {
  const hn::ScalableTag<double> dd;
  const int64_t step = Widen<T>::lanes();
  const int64_t half = static_cast<int64_t>(hn::Lanes(dd));
  int64_t i = 0;
  for (; i + step <= n; i += step) {
    auto lo = hn::LoadU(dd, acc + i), hi = hn::LoadU(dd, acc + i + half);
    Widen<T>::add(dd, x + i, lo, hi);
    hn::StoreU(lo, dd, acc + i);
    hn::StoreU(hi, dd, acc + i + half);
  }
  for (; i < n; ++i) acc[i] += static_cast<double>(x[i]);
}

template <class T>
HWY_NOINLINE T maxMinLoop(const T* HWY_RESTRICT x, int64_t n, bool isMax) {
  const hn::ScalableTag<T> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  auto m0 = hn::Set(d, x[0]), m1 = m0;
  auto nan = hn::IsNaN(m0);
  int64_t i = 0;
  if (isMax) {
    for (; i + 2 * N <= n; i += 2 * N) {
      const auto a = hn::LoadU(d, x + i), b = hn::LoadU(d, x + i + N);
      nan = hn::Or(nan, hn::Or(hn::IsNaN(a), hn::IsNaN(b)));
      m0 = hn::Max(m0, a);
      m1 = hn::Max(m1, b);
    }
    m0 = hn::Max(m0, m1);
  } else {
    for (; i + 2 * N <= n; i += 2 * N) {
      const auto a = hn::LoadU(d, x + i), b = hn::LoadU(d, x + i + N);
      nan = hn::Or(nan, hn::Or(hn::IsNaN(a), hn::IsNaN(b)));
      m0 = hn::Min(m0, a);
      m1 = hn::Min(m1, b);
    }
    m0 = hn::Min(m0, m1);
  }
  if (!hn::AllFalse(d, nan)) return std::numeric_limits<T>::quiet_NaN();
  T m = isMax ? hn::GetLane(hn::MaxOfLanes(d, m0)) : hn::GetLane(hn::MinOfLanes(d, m0));
  for (; i < n; ++i) {
    const T v = x[i];
    if (std::isnan(v)) return v;
    m = isMax ? (v > m ? v : m) : (v < m ? v : m);
  }
  return m;
}

template <class T>
HWY_NOINLINE void softmaxRowLoop(const T* x, T* y, int64_t n, bool log) {
  const hn::ScalableTag<T> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  const T mx = maxMinLoop<T>(x, n, true);
  const auto vmx = hn::Set(d, mx);
  auto s0 = hn::Zero(d), s1 = hn::Zero(d);
  int64_t i = 0;
  HWY_ALIGN T buf[hn::MaxLanes(d)];
  // exp(x - max), summed in the row's dtype; softmax keeps them in y
  for (; i + 2 * N <= n; i += 2 * N) {
    const auto e0 = S_exp(hn::Sub(hn::LoadU(d, x + i), vmx));
    const auto e1 = S_exp(hn::Sub(hn::LoadU(d, x + i + N), vmx));
    if (!log) {
      hn::StoreU(e0, d, y + i);
      hn::StoreU(e1, d, y + i + N);
    }
    s0 = hn::Add(s0, e0);
    s1 = hn::Add(s1, e1);
  }
  for (; i + N <= n; i += N) {
    const auto e0 = S_exp(hn::Sub(hn::LoadU(d, x + i), vmx));
    if (!log) hn::StoreU(e0, d, y + i);
    s0 = hn::Add(s0, e0);
  }
  if (i < n) {
    for (int64_t k = 0; k < N; ++k) buf[k] = -std::numeric_limits<T>::infinity();
    std::memcpy(buf, x + i, static_cast<size_t>(n - i) * sizeof(T));
    const auto e0 = S_exp(hn::Sub(hn::Load(d, buf), vmx));  // padding: exp(-inf) = 0
    hn::Store(e0, d, buf);
    if (!log) std::memcpy(y + i, buf, static_cast<size_t>(n - i) * sizeof(T));
    s0 = hn::Add(s0, e0);
  }
  const T sum = hn::GetLane(hn::SumOfLanes(d, hn::Add(s0, s1)));
  if (log) {
    const T shift = mx + std::log(sum);
    const auto vs = hn::Set(d, shift);
    for (i = 0; i + N <= n; i += N) hn::StoreU(hn::Sub(hn::LoadU(d, x + i), vs), d, y + i);
    for (; i < n; ++i) y[i] = x[i] - shift;
  } else {
    const auto inv = hn::Set(d, T(1) / sum);
    for (i = 0; i + N <= n; i += N) hn::StoreU(hn::Mul(hn::LoadU(d, y + i), inv), d, y + i);
    for (; i < n; ++i) y[i] = y[i] * (T(1) / sum);
  }
}

template <class T>
HWY_NOINLINE void softmaxColumnsLoop(const T* HWY_RESTRICT x, T* HWY_RESTRICT y, int64_t dimSize, int64_t inner, bool log,
                                     T* HWY_RESTRICT scratch) {
  const hn::ScalableTag<T> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  T* mx = scratch;
  T* sum = scratch + inner;
  const auto ninf = hn::Set(d, -std::numeric_limits<T>::infinity());
  int64_t i = 0;
  // max over the dim (NaN wins), then exp(x - max) summed per column
  for (i = 0; i < inner; ++i) mx[i] = -std::numeric_limits<T>::infinity();
  for (int64_t j = 0; j < dimSize; ++j) {
    const T* r = x + j * inner;
    for (i = 0; i + N <= inner; i += N) {
      const auto v = hn::LoadU(d, r + i), m = hn::LoadU(d, mx + i);
      hn::StoreU(hn::IfThenElse(hn::Or(hn::Gt(v, m), hn::IsNaN(v)), v, m), d, mx + i);
    }
    for (; i < inner; ++i)
      if (r[i] > mx[i] || std::isnan(r[i])) mx[i] = r[i];
  }
  (void)ninf;
  for (i = 0; i < inner; ++i) sum[i] = T(0);
  HWY_ALIGN T buf[hn::MaxLanes(d)];
  for (int64_t j = 0; j < dimSize; ++j) {
    const T* r = x + j * inner;
    T* o = y + j * inner;
    for (i = 0; i + N <= inner; i += N) {
      const auto e = S_exp(hn::Sub(hn::LoadU(d, r + i), hn::LoadU(d, mx + i)));
      if (!log) hn::StoreU(e, d, o + i);
      hn::StoreU(hn::Add(hn::LoadU(d, sum + i), e), d, sum + i);
    }
    if (i < inner) {
      for (int64_t k = 0; k < N; ++k) buf[k] = T(0);
      for (int64_t k = i; k < inner; ++k) buf[k - i] = r[k] - mx[k];
      hn::Store(S_exp(hn::Load(d, buf)), d, buf);
      for (int64_t k = i; k < inner; ++k) {
        if (!log) o[k] = buf[k - i];
        sum[k] += buf[k - i];
      }
    }
  }
  if (log) {
    for (i = 0; i < inner; ++i) sum[i] = mx[i] + std::log(sum[i]);
    for (int64_t j = 0; j < dimSize; ++j) {
      const T* r = x + j * inner;
      T* o = y + j * inner;
      for (i = 0; i + N <= inner; i += N) hn::StoreU(hn::Sub(hn::LoadU(d, r + i), hn::LoadU(d, sum + i)), d, o + i);
      for (; i < inner; ++i) o[i] = r[i] - sum[i];
    }
  } else {
    for (i = 0; i < inner; ++i) sum[i] = T(1) / sum[i];
    for (int64_t j = 0; j < dimSize; ++j) {
      T* o = y + j * inner;
      for (i = 0; i + N <= inner; i += N) hn::StoreU(hn::Mul(hn::LoadU(d, o + i), hn::LoadU(d, sum + i)), d, o + i);
      for (; i < inner; ++i) o[i] = o[i] * sum[i];
    }
  }
}

#else  // !KD_HAVE_SLEEF: the portable fallback (EMU128/SCALAR) in plain C++

template <int OP, class T>
HWY_NOINLINE void unaryLoop(const T* x, T* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = scalarUnary<OP>(x[i]);
}
template <int OP, class T>
HWY_NOINLINE void binaryLoop(const T* a, const T* b, T* y, int64_t n, int mode) {
  for (int64_t i = 0; i < n; ++i) {
    const T u = mode == static_cast<int>(Bcast::A) ? a[0] : a[i];
    const T v = mode == static_cast<int>(Bcast::B) ? b[0] : b[i];
    y[i] = scalarBinary<OP>(u, v);
  }
}
template <class T>
HWY_NOINLINE void clampLoop(const T* x, T* y, int64_t n, bool hasLo, T lo, bool hasHi, T hi) {
  for (int64_t i = 0; i < n; ++i) {
    T t = x[i];
    if (hasLo && t < lo) t = lo;
    if (hasHi && t > hi) t = hi;
    y[i] = t;
  }
}
template <class T, bool Wide = false>
HWY_NOINLINE double sumLoop(const T* x, int64_t n) {
  double s = 0;
  for (int64_t i = 0; i < n; ++i) s += static_cast<double>(x[i]);
  return s;
}
template <class T>
HWY_NOINLINE double sumSqDiffLoop(const T* x, int64_t n, double mean) {
  double s = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double v = static_cast<double>(x[i]) - mean;
    s += v * v;
  }
  return s;
}
template <class T>
HWY_NOINLINE void accumulateLoop(const T* x, double* acc, int64_t n) {
  for (int64_t i = 0; i < n; ++i) acc[i] += static_cast<double>(x[i]);
}
template <class T>
HWY_NOINLINE T maxMinLoop(const T* x, int64_t n, bool isMax) {
  T m = x[0];
  for (int64_t i = 0; i < n; ++i) {
    if (std::isnan(x[i])) return x[i];
    m = isMax ? (x[i] > m ? x[i] : m) : (x[i] < m ? x[i] : m);
  }
  return m;
}
template <class T>
HWY_NOINLINE void softmaxRowLoop(const T* x, T* y, int64_t n, bool log) {
  const T mx = maxMinLoop<T>(x, n, true);
  T sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    const T e = std::exp(x[i] - mx);
    if (!log) y[i] = e;
    sum += e;
  }
  if (log) {
    const T shift = mx + std::log(sum);
    for (int64_t i = 0; i < n; ++i) y[i] = x[i] - shift;
  } else {
    for (int64_t i = 0; i < n; ++i) y[i] = y[i] * (T(1) / sum);
  }
}
template <class T>
HWY_NOINLINE void softmaxColumnsLoop(const T* x, T* y, int64_t dimSize, int64_t inner, bool log, T* scratch) {
  T* mx = scratch;
  T* sum = scratch + inner;
  for (int64_t i = 0; i < inner; ++i) {
    mx[i] = -std::numeric_limits<T>::infinity();
    sum[i] = 0;
  }
  for (int64_t j = 0; j < dimSize; ++j)
    for (int64_t i = 0; i < inner; ++i)
      if (x[j * inner + i] > mx[i] || std::isnan(x[j * inner + i])) mx[i] = x[j * inner + i];
  for (int64_t j = 0; j < dimSize; ++j)
    for (int64_t i = 0; i < inner; ++i) {
      const T e = std::exp(x[j * inner + i] - mx[i]);
      if (!log) y[j * inner + i] = e;
      sum[i] += e;
    }
  for (int64_t j = 0; j < dimSize; ++j)
    for (int64_t i = 0; i < inner; ++i)
      y[j * inner + i] = log ? x[j * inner + i] - (mx[i] + std::log(sum[i])) : y[j * inner + i] * (T(1) / sum[i]);
}

#endif  // KD_HAVE_SLEEF
#undef KD_HAVE_SLEEF

// ------------------------------------------------------------------------------------------- entry points

template <class T>
void unaryAny(int op, const T* x, T* y, int64_t n) {
  switch (static_cast<Unary>(op)) {
#define KD_CASE(OP) case Unary::OP: return unaryLoop<static_cast<int>(Unary::OP), T>(x, y, n);
    KD_CASE(Exp) KD_CASE(Exp2) KD_CASE(Expm1) KD_CASE(Log) KD_CASE(Log2) KD_CASE(Log10) KD_CASE(Log1p)
    KD_CASE(Sin) KD_CASE(Cos) KD_CASE(Tan) KD_CASE(Asin) KD_CASE(Acos) KD_CASE(Atan) KD_CASE(Sinh)
    KD_CASE(Cosh) KD_CASE(Tanh) KD_CASE(Asinh) KD_CASE(Acosh) KD_CASE(Atanh) KD_CASE(Erf) KD_CASE(Erfc)
    KD_CASE(Lgamma) KD_CASE(Sqrt) KD_CASE(Rsqrt) KD_CASE(Reciprocal) KD_CASE(Abs) KD_CASE(Neg)
    KD_CASE(Sigmoid) KD_CASE(Silu) KD_CASE(GeluErf) KD_CASE(GeluTanh) KD_CASE(Relu) KD_CASE(Mish)
#undef KD_CASE
    default: return;
  }
}
template <class T>
void binaryAny(int op, const T* a, const T* b, T* y, int64_t n, int mode) {
  switch (static_cast<Binary>(op)) {
    case Binary::Add: return binaryLoop<static_cast<int>(Binary::Add), T>(a, b, y, n, mode);
    case Binary::Sub: return binaryLoop<static_cast<int>(Binary::Sub), T>(a, b, y, n, mode);
    case Binary::Mul: return binaryLoop<static_cast<int>(Binary::Mul), T>(a, b, y, n, mode);
    case Binary::Div: return binaryLoop<static_cast<int>(Binary::Div), T>(a, b, y, n, mode);
    case Binary::Max: return binaryLoop<static_cast<int>(Binary::Max), T>(a, b, y, n, mode);
    case Binary::Min: return binaryLoop<static_cast<int>(Binary::Min), T>(a, b, y, n, mode);
    default: return;
  }
}

void UnaryF32(int op, const float* x, float* y, int64_t n) { unaryAny<float>(op, x, y, n); }
void UnaryF64(int op, const double* x, double* y, int64_t n) { unaryAny<double>(op, x, y, n); }
void BinaryF32(int op, const float* a, const float* b, float* y, int64_t n, int mode) {
  if (n > 0) binaryAny<float>(op, a, b, y, n, mode);
}
void BinaryF64(int op, const double* a, const double* b, double* y, int64_t n, int mode) {
  if (n > 0) binaryAny<double>(op, a, b, y, n, mode);
}
void ClampF32(const float* x, float* y, int64_t n, bool hl, float lo, bool hh, float hi) { clampLoop<float>(x, y, n, hl, lo, hh, hi); }
void ClampF64(const double* x, double* y, int64_t n, bool hl, double lo, bool hh, double hi) { clampLoop<double>(x, y, n, hl, lo, hh, hi); }
double SumF32(const float* x, int64_t n) { return sumLoop<float>(x, n); }
double SumF64(const double* x, int64_t n) { return sumLoop<double>(x, n); }
double SumSqDiffF32(const float* x, int64_t n, double m) { return sumSqDiffLoop<float>(x, n, m); }
double SumSqDiffF64(const double* x, int64_t n, double m) { return sumSqDiffLoop<double>(x, n, m); }
void AccumulateF32(const float* x, double* acc, int64_t n) { accumulateLoop<float>(x, acc, n); }
void AccumulateF64(const double* x, double* acc, int64_t n) { accumulateLoop<double>(x, acc, n); }
float MaxMinF32(const float* x, int64_t n, bool isMax) { return maxMinLoop<float>(x, n, isMax); }
double MaxMinF64(const double* x, int64_t n, bool isMax) { return maxMinLoop<double>(x, n, isMax); }
void SoftmaxRowF32(const float* x, float* y, int64_t n, bool log) { softmaxRowLoop<float>(x, y, n, log); }
void SoftmaxRowF64(const double* x, double* y, int64_t n, bool log) { softmaxRowLoop<double>(x, y, n, log); }
void SoftmaxColsF32(const float* x, float* y, int64_t d, int64_t inner, bool log, float* s) { softmaxColumnsLoop<float>(x, y, d, inner, log, s); }
void SoftmaxColsF64(const double* x, double* y, int64_t d, int64_t inner, bool log, double* s) { softmaxColumnsLoop<double>(x, y, d, inner, log, s); }
void AffineRowF32(const float* x, float* y, int64_t n, double m, double r, const float* w, const float* b) { affineRowLoop<float>(x, y, n, m, r, w, b); }
void AffineRowF64(const double* x, double* y, int64_t n, double m, double r, const double* w, const double* b) { affineRowLoop<double>(x, y, n, m, r, w, b); }
double SumWideF32(const float* x, int64_t n) { return sumLoop<float, true>(x, n); }
int64_t TargetId() { return HWY_TARGET; }

}  // namespace HWY_NAMESPACE
}  // namespace kindling::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace kindling::simd {

HWY_EXPORT(UnaryF32);
HWY_EXPORT(UnaryF64);
HWY_EXPORT(BinaryF32);
HWY_EXPORT(BinaryF64);
HWY_EXPORT(ClampF32);
HWY_EXPORT(ClampF64);
HWY_EXPORT(SumF32);
HWY_EXPORT(SumF64);
HWY_EXPORT(SumSqDiffF32);
HWY_EXPORT(SumSqDiffF64);
HWY_EXPORT(AccumulateF32);
HWY_EXPORT(AccumulateF64);
HWY_EXPORT(MaxMinF32);
HWY_EXPORT(MaxMinF64);
HWY_EXPORT(SoftmaxRowF32);
HWY_EXPORT(SoftmaxRowF64);
HWY_EXPORT(SoftmaxColsF32);
HWY_EXPORT(SoftmaxColsF64);
HWY_EXPORT(AffineRowF32);
HWY_EXPORT(AffineRowF64);
HWY_EXPORT(SumWideF32);
HWY_EXPORT(TargetId);

void unary(Unary op, const float* x, float* y, int64_t n) { HWY_DYNAMIC_DISPATCH(UnaryF32)(static_cast<int>(op), x, y, n); }
void unary(Unary op, const double* x, double* y, int64_t n) { HWY_DYNAMIC_DISPATCH(UnaryF64)(static_cast<int>(op), x, y, n); }
void binary(Binary op, const float* a, const float* b, float* y, int64_t n, Bcast mode) {
  HWY_DYNAMIC_DISPATCH(BinaryF32)(static_cast<int>(op), a, b, y, n, static_cast<int>(mode));
}
void binary(Binary op, const double* a, const double* b, double* y, int64_t n, Bcast mode) {
  HWY_DYNAMIC_DISPATCH(BinaryF64)(static_cast<int>(op), a, b, y, n, static_cast<int>(mode));
}
void clamp(const float* x, float* y, int64_t n, bool hasLo, float lo, bool hasHi, float hi) {
  HWY_DYNAMIC_DISPATCH(ClampF32)(x, y, n, hasLo, lo, hasHi, hi);
}
void clamp(const double* x, double* y, int64_t n, bool hasLo, double lo, bool hasHi, double hi) {
  HWY_DYNAMIC_DISPATCH(ClampF64)(x, y, n, hasLo, lo, hasHi, hi);
}
double sum(const float* x, int64_t n) { return HWY_DYNAMIC_DISPATCH(SumF32)(x, n); }
double sum(const double* x, int64_t n) { return HWY_DYNAMIC_DISPATCH(SumF64)(x, n); }
double sumSquaredDiff(const float* x, int64_t n, double mean) { return HWY_DYNAMIC_DISPATCH(SumSqDiffF32)(x, n, mean); }
double sumSquaredDiff(const double* x, int64_t n, double mean) { return HWY_DYNAMIC_DISPATCH(SumSqDiffF64)(x, n, mean); }
void accumulate(const float* x, double* acc, int64_t n) { HWY_DYNAMIC_DISPATCH(AccumulateF32)(x, acc, n); }
void accumulate(const double* x, double* acc, int64_t n) { HWY_DYNAMIC_DISPATCH(AccumulateF64)(x, acc, n); }
float maxMin(const float* x, int64_t n, bool max) { return HWY_DYNAMIC_DISPATCH(MaxMinF32)(x, n, max); }
double maxMin(const double* x, int64_t n, bool max) { return HWY_DYNAMIC_DISPATCH(MaxMinF64)(x, n, max); }
void softmaxRow(const float* x, float* y, int64_t n, bool log) { HWY_DYNAMIC_DISPATCH(SoftmaxRowF32)(x, y, n, log); }
void softmaxRow(const double* x, double* y, int64_t n, bool log) { HWY_DYNAMIC_DISPATCH(SoftmaxRowF64)(x, y, n, log); }
void softmaxColumns(const float* x, float* y, int64_t dimSize, int64_t inner, bool log, float* scratch) {
  HWY_DYNAMIC_DISPATCH(SoftmaxColsF32)(x, y, dimSize, inner, log, scratch);
}
void softmaxColumns(const double* x, double* y, int64_t dimSize, int64_t inner, bool log, double* scratch) {
  HWY_DYNAMIC_DISPATCH(SoftmaxColsF64)(x, y, dimSize, inner, log, scratch);
}

void affineRow(const float* x, float* y, int64_t n, double mean, double rstd, const float* w, const float* b) {
  HWY_DYNAMIC_DISPATCH(AffineRowF32)(x, y, n, mean, rstd, w, b);
}
void affineRow(const double* x, double* y, int64_t n, double mean, double rstd, const double* w, const double* b) {
  HWY_DYNAMIC_DISPATCH(AffineRowF64)(x, y, n, mean, rstd, w, b);
}
double sumWide(const float* x, int64_t n) { return HWY_DYNAMIC_DISPATCH(SumWideF32)(x, n); }

std::vector<std::string> availableTargets() {
  std::vector<std::string> names;
  for (int64_t t : hwy::SupportedAndGeneratedTargets()) names.push_back(hwy::TargetName(t));
  return names;
}

void forceTarget(const std::string& name) {
  hwy::SetSupportedTargetsForTest(0);  // back to what the CPU supports, then pick
  int64_t mask = 0;
  if (!name.empty()) {
    for (int64_t t : hwy::SupportedAndGeneratedTargets())
      if (name == hwy::TargetName(t)) mask = t;
    if (mask == 0) return;
  }
  hwy::SetSupportedTargetsForTest(mask);
  hwy::GetChosenTarget().Update(hwy::SupportedTargets());
}

std::string currentTarget() { return hwy::TargetName(HWY_DYNAMIC_DISPATCH(TargetId)()); }

}  // namespace kindling::simd
#endif  // HWY_ONCE
