// Vectorized arg-reductions (see ops/kernels/simd/arg_reduce.h): one copy per Highway target, picked at run time
// by HWY_DYNAMIC_DISPATCH (the targets of vec_kernels.cpp).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/kernels/simd/arg_reduce.cpp"
#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS (HWY_SSSE3 | HWY_AVX3_DL)
#endif
#include <hwy/foreach_target.h>  // re-includes this file per target
#include <hwy/highway.h>

#include <algorithm>
#include <cmath>

#include "ops/kernels/simd/arg_reduce.h"

HWY_BEFORE_NAMESPACE();
namespace kindling::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class T>
HWY_NOINLINE int64_t argRowLoop(const T* HWY_RESTRICT x, int64_t n, bool isMax) {
  const hn::ScalableTag<T> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  // pass 1: the extreme value (meaningless when a NaN occurs) and whether a NaN occurs
  T m = x[0];
  bool nan = false;
  int64_t i = 0;
  if (n >= N) {
    auto m0 = hn::LoadU(d, x), m1 = m0;
    auto nanMask = hn::IsNaN(m0);
    i = N;
    if (isMax) {
      for (; i + 2 * N <= n; i += 2 * N) {
        const auto a = hn::LoadU(d, x + i), b = hn::LoadU(d, x + i + N);
        nanMask = hn::Or(nanMask, hn::Or(hn::IsNaN(a), hn::IsNaN(b)));
        m0 = hn::Max(m0, a);
        m1 = hn::Max(m1, b);
      }
      m = hn::GetLane(hn::MaxOfLanes(d, hn::Max(m0, m1)));
    } else {
      for (; i + 2 * N <= n; i += 2 * N) {
        const auto a = hn::LoadU(d, x + i), b = hn::LoadU(d, x + i + N);
        nanMask = hn::Or(nanMask, hn::Or(hn::IsNaN(a), hn::IsNaN(b)));
        m0 = hn::Min(m0, a);
        m1 = hn::Min(m1, b);
      }
      m = hn::GetLane(hn::MinOfLanes(d, hn::Min(m0, m1)));
    }
    nan = !hn::AllFalse(d, nanMask);
  }
  for (; i < n; ++i) {
    const T v = x[i];
    if (std::isnan(v)) nan = true;
    else if (isMax ? v > m : v < m) m = v;
  }
  // pass 2: the first index holding it (or the first NaN)
  i = 0;
  const auto vm = hn::Set(d, m);
  for (; i + N <= n; i += N) {
    const auto v = hn::LoadU(d, x + i);
    const intptr_t k = nan ? hn::FindFirstTrue(d, hn::IsNaN(v)) : hn::FindFirstTrue(d, hn::Eq(v, vm));
    if (k >= 0) return i + k;
  }
  for (; i < n; ++i)
    if (nan ? std::isnan(x[i]) : x[i] == m) return i;
  return 0;  // not reached
}

template <class T>
HWY_NOINLINE void argColsLoop(const T* HWY_RESTRICT x, int64_t dimSize, int64_t stride, int64_t n,
                              T* HWY_RESTRICT vals, int64_t* HWY_RESTRICT idx, bool isMax) {
  using TI = hwy::MakeSigned<T>;  // index lanes as wide as the values
  const hn::ScalableTag<T> d;
  const hn::RebindToSigned<decltype(d)> di;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  constexpr int64_t kBlock = 512;  // columns per block: values and indices stay in L1 while j runs
  HWY_ALIGN TI bi[kBlock];
  for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
    const int64_t nb = std::min(kBlock, n - i0);
    const int64_t nv = nb - nb % N;  // the vector part of the block; the rest is scalar
    T* bv = vals + i0;
    for (int64_t i = 0; i < nb; ++i) {
      bv[i] = x[i0 + i];
      bi[i] = 0;
    }
    for (int64_t j = 1; j < dimSize; ++j) {
      const T* r = x + j * stride + i0;
      const auto vj = hn::Set(di, static_cast<TI>(j));
      for (int64_t i = 0; i < nv; i += N) {
        const auto v = hn::LoadU(d, r + i), best = hn::LoadU(d, bv + i);
        // replace on a strictly better value, or on the first NaN (a NaN best is never replaced)
        const auto better = isMax ? hn::Gt(v, best) : hn::Lt(v, best);
        const auto upd = hn::Or(better, hn::AndNot(hn::IsNaN(best), hn::IsNaN(v)));
        hn::StoreU(hn::IfThenElse(upd, v, best), d, bv + i);
        hn::Store(hn::IfThenElse(hn::RebindMask(di, upd), vj, hn::Load(di, bi + i)), di, bi + i);
      }
      for (int64_t i = nv; i < nb; ++i) {
        const T v = r[i], best = bv[i];
        if ((isMax ? v > best : v < best) || (std::isnan(v) && !std::isnan(best))) {
          bv[i] = v;
          bi[i] = static_cast<TI>(j);
        }
      }
    }
    for (int64_t i = 0; i < nb; ++i) idx[i0 + i] = static_cast<int64_t>(bi[i]);
  }
}

int64_t ArgRowF32(const float* x, int64_t n, bool isMax) { return argRowLoop<float>(x, n, isMax); }
int64_t ArgRowF64(const double* x, int64_t n, bool isMax) { return argRowLoop<double>(x, n, isMax); }
void ArgColsF32(const float* x, int64_t dimSize, int64_t stride, int64_t n, float* vals, int64_t* idx, bool isMax) {
  argColsLoop<float>(x, dimSize, stride, n, vals, idx, isMax);
}
void ArgColsF64(const double* x, int64_t dimSize, int64_t stride, int64_t n, double* vals, int64_t* idx, bool isMax) {
  argColsLoop<double>(x, dimSize, stride, n, vals, idx, isMax);
}

}  // namespace HWY_NAMESPACE
}  // namespace kindling::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace kindling::simd {

HWY_EXPORT(ArgRowF32);
HWY_EXPORT(ArgRowF64);
HWY_EXPORT(ArgColsF32);
HWY_EXPORT(ArgColsF64);

int64_t argMaxMin(const float* x, int64_t n, bool max) { return HWY_DYNAMIC_DISPATCH(ArgRowF32)(x, n, max); }
int64_t argMaxMin(const double* x, int64_t n, bool max) { return HWY_DYNAMIC_DISPATCH(ArgRowF64)(x, n, max); }
void argMaxMinColumns(const float* x, int64_t dimSize, int64_t stride, int64_t n, float* vals, int64_t* idx, bool max) {
  if (n > 0) HWY_DYNAMIC_DISPATCH(ArgColsF32)(x, dimSize, stride, n, vals, idx, max);
}
void argMaxMinColumns(const double* x, int64_t dimSize, int64_t stride, int64_t n, double* vals, int64_t* idx,
                      bool max) {
  if (n > 0) HWY_DYNAMIC_DISPATCH(ArgColsF64)(x, dimSize, stride, n, vals, idx, max);
}

}  // namespace kindling::simd
#endif  // HWY_ONCE
