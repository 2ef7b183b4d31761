// Vectorized comparisons (see ops/kernels/simd/compare_kernels.h): one copy per Highway target, picked at run time
// by HWY_DYNAMIC_DISPATCH (the targets of vec_kernels.cpp). A comparison gives a lane mask; it becomes
// 0/1 per lane (mask bits AND 1) and is narrowed to bytes (TruncateTo), N bools per vector. Tails go
// through the same vector code on a padded copy.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/kernels/simd/compare_kernels.cpp"
#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS (HWY_SSSE3 | HWY_AVX3_DL)
#endif
#include <hwy/foreach_target.h>  // re-includes this file per target
#include <hwy/highway.h>

#include <algorithm>
#include <cstring>

#include "ops/kernels/simd/compare_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace kindling::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The mask of `a op b`. ne is not-equal (true for NaN); le/ge of integers are not-gt/not-lt.
template <int OP, class V>
HWY_INLINE auto cmpMask(V a, V b) {
  using T = hn::TFromV<V>;
  constexpr Compare op = static_cast<Compare>(OP);
  if constexpr (op == Compare::Eq) return hn::Eq(a, b);
  else if constexpr (op == Compare::Ne) return hn::Not(hn::Eq(a, b));
  else if constexpr (op == Compare::Lt) return hn::Lt(a, b);
  else if constexpr (op == Compare::Gt) return hn::Gt(a, b);
  else if constexpr (op == Compare::Le) {
    if constexpr (hwy::IsFloat<T>()) return hn::Le(a, b);
    else return hn::Not(hn::Gt(a, b));
  } else {
    if constexpr (hwy::IsFloat<T>()) return hn::Ge(a, b);
    else return hn::Not(hn::Lt(a, b));
  }
}

// Stores the mask of N lanes as N bytes 0/1 at y.
template <class D, class M>
HWY_INLINE void storeBools(D d, M m, uint8_t* y) {
  const hn::RebindToUnsigned<D> du;
  const hn::Rebind<uint8_t, D> d8;
  const auto bits = hn::And(hn::BitCast(du, hn::VecFromMask(d, m)), hn::Set(du, 1));
  hn::StoreU(hn::TruncateTo(d8, bits), d8, y);
}

template <int OP, class T>
HWY_NOINLINE void compareLoop(const T* HWY_RESTRICT a, const T* HWY_RESTRICT b, uint8_t* HWY_RESTRICT y,
                              int64_t n, int mode) {
  const hn::ScalableTag<T> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  HWY_ALIGN T ta[hn::MaxLanes(d)], tb[hn::MaxLanes(d)];
  uint8_t ty[hn::MaxLanes(d)];
  const bool bcastA = mode == static_cast<int>(Bcast::A), bcastB = mode == static_cast<int>(Bcast::B);
  const auto va = hn::Set(d, a[0]), vb = hn::Set(d, b[0]);
  int64_t i = 0;
  if (bcastB) {
    for (; i + 2 * N <= n; i += 2 * N) {
      storeBools(d, cmpMask<OP>(hn::LoadU(d, a + i), vb), y + i);
      storeBools(d, cmpMask<OP>(hn::LoadU(d, a + i + N), vb), y + i + N);
    }
  } else if (bcastA) {
    for (; i + 2 * N <= n; i += 2 * N) {
      storeBools(d, cmpMask<OP>(va, hn::LoadU(d, b + i)), y + i);
      storeBools(d, cmpMask<OP>(va, hn::LoadU(d, b + i + N)), y + i + N);
    }
  } else {
    for (; i + 2 * N <= n; i += 2 * N) {
      storeBools(d, cmpMask<OP>(hn::LoadU(d, a + i), hn::LoadU(d, b + i)), y + i);
      storeBools(d, cmpMask<OP>(hn::LoadU(d, a + i + N), hn::LoadU(d, b + i + N)), y + i + N);
    }
  }
  for (; i < n; i += N) {  // at most two more vectors, padded with zeros past n
    const int64_t m = std::min(N, n - i);
    for (int64_t k = 0; k < N; ++k) ta[k] = tb[k] = T(0);
    if (!bcastA) std::memcpy(ta, a + i, static_cast<size_t>(m) * sizeof(T));
    if (!bcastB) std::memcpy(tb, b + i, static_cast<size_t>(m) * sizeof(T));
    storeBools(d, cmpMask<OP>(bcastA ? va : hn::Load(d, ta), bcastB ? vb : hn::Load(d, tb)), ty);
    std::memcpy(y + i, ty, static_cast<size_t>(m));
  }
}

template <class T>
void compareAny(int op, const T* a, const T* b, bool* y, int64_t n, int mode) {
  if (n <= 0) return;
  uint8_t* out = reinterpret_cast<uint8_t*>(y);
  switch (static_cast<Compare>(op)) {
#define KD_CASE(OP) case Compare::OP: return compareLoop<static_cast<int>(Compare::OP), T>(a, b, out, n, mode);
    KD_CASE(Eq) KD_CASE(Ne) KD_CASE(Lt) KD_CASE(Le) KD_CASE(Gt) KD_CASE(Ge)
#undef KD_CASE
    default: return;
  }
}

void CompareF32(int op, const float* a, const float* b, bool* y, int64_t n, int mode) { compareAny(op, a, b, y, n, mode); }
void CompareF64(int op, const double* a, const double* b, bool* y, int64_t n, int mode) { compareAny(op, a, b, y, n, mode); }
void CompareI64(int op, const int64_t* a, const int64_t* b, bool* y, int64_t n, int mode) { compareAny(op, a, b, y, n, mode); }
void CompareI32(int op, const int32_t* a, const int32_t* b, bool* y, int64_t n, int mode) { compareAny(op, a, b, y, n, mode); }

}  // namespace HWY_NAMESPACE
}  // namespace kindling::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace kindling::simd {
namespace {

constexpr int64_t kCmpChunk = 256;  // elements per gathered chunk of a strided run

// forEach fills data[0..1 + ninputs()) in a loop GCC cannot bound; tryCompare checked ninputs() == 2.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
template <class T>
void compareIter(TensorIterator& it, Compare op) {
  it.forEach([op](char** data, const int64_t* st, int64_t n) {
    constexpr int64_t E = sizeof(T);
    char* pa = data[1];
    char* pb = data[2];
    bool* y = reinterpret_cast<bool*>(data[0]);
    const T* a = reinterpret_cast<const T*>(pa);
    const T* b = reinterpret_cast<const T*>(pb);
    if (st[0] == 1) {
      if (st[1] == E && st[2] == E) return compare(op, a, b, y, n, Bcast::None);
      if (st[1] == E && st[2] == 0) return compare(op, a, b, y, n, Bcast::B);
      if (st[1] == 0 && st[2] == E) return compare(op, a, b, y, n, Bcast::A);
    }
    T ba[kCmpChunk], bb[kCmpChunk];
    bool out[kCmpChunk];
    for (int64_t i = 0; i < n; i += kCmpChunk) {
      const int64_t m = std::min(kCmpChunk, n - i);
      for (int64_t k = 0; k < m; ++k) {
        ba[k] = *reinterpret_cast<const T*>(pa + (i + k) * st[1]);
        bb[k] = *reinterpret_cast<const T*>(pb + (i + k) * st[2]);
      }
      compare(op, ba, bb, out, m, Bcast::None);
      for (int64_t k = 0; k < m; ++k) *reinterpret_cast<bool*>(data[0] + (i + k) * st[0]) = out[k];
    }
  });
}
#pragma GCC diagnostic pop

}  // namespace

HWY_EXPORT(CompareF32);
HWY_EXPORT(CompareF64);
HWY_EXPORT(CompareI64);
HWY_EXPORT(CompareI32);

void compare(Compare op, const float* a, const float* b, bool* y, int64_t n, Bcast mode) {
  HWY_DYNAMIC_DISPATCH(CompareF32)(static_cast<int>(op), a, b, y, n, static_cast<int>(mode));
}
void compare(Compare op, const double* a, const double* b, bool* y, int64_t n, Bcast mode) {
  HWY_DYNAMIC_DISPATCH(CompareF64)(static_cast<int>(op), a, b, y, n, static_cast<int>(mode));
}
void compare(Compare op, const int64_t* a, const int64_t* b, bool* y, int64_t n, Bcast mode) {
  HWY_DYNAMIC_DISPATCH(CompareI64)(static_cast<int>(op), a, b, y, n, static_cast<int>(mode));
}
void compare(Compare op, const int32_t* a, const int32_t* b, bool* y, int64_t n, Bcast mode) {
  HWY_DYNAMIC_DISPATCH(CompareI32)(static_cast<int>(op), a, b, y, n, static_cast<int>(mode));
}

bool tryCompare(TensorIterator& it, Compare op) {
  if (it.loopOutputDtype() != ScalarType::Bool || it.ninputs() != 2) return false;
  switch (it.loopComputeDtype()) {
    case ScalarType::Float: compareIter<float>(it, op); return true;
    case ScalarType::Double: compareIter<double>(it, op); return true;
    case ScalarType::Long: compareIter<int64_t>(it, op); return true;
    case ScalarType::Int: compareIter<int32_t>(it, op); return true;
    default: return false;
  }
}

}  // namespace kindling::simd
#endif  // HWY_ONCE
