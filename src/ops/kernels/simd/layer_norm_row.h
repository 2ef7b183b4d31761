// One row of layer_norm with PyTorch 1.13's own float arithmetic, so results match libtorch to the last bit
// instead of being "more exact" (ATen computes in the input dtype; on rows of large magnitude its rounding
// is visible at float32 tolerance).
//
// ATen's LayerNormKernelImplInternal (AVX2 build, the capability libtorch 1.13 picks on x86):
//   mean, var = RowwiseMoments(x, n): Welford over 32-byte vectors (8 floats / 4 doubles), chunks of 16
//               vectors merged in a binary cascade (AddMomentsVec), the n % lanes tail by scalar Welford,
//               then the lanes merged one by one (AddMoments); var = m2 / n
//   rstd = 1 / sqrt(var + eps)                          (in T)
//   y    = ((x * rstd + (-rstd * mean)) * w + b         (w = 1, b = 0 when absent)
// Which of these multiply-adds libtorch's compiler fused (measured bit-exact against libtorch on rows of
// every length class): the output step's two, and the m2 update of the final lane merge; nothing else.
// This file is compiled with fp-contract off and spells every fusion out. Runtime dispatch as
// ops/kernels/simd/vec_kernels.h: AVX2 / AVX-512 run 32-byte Highway vectors; older targets the same steps per lane.
#pragma once
#include <cstdint>

namespace kindling::simd {

/// Normalizes x[0..n) (n >= 1) into y; w / b may be null. Writes the row's mean and rstd.
void layerNormRow(const float* x, float* y, int64_t n, float eps, const float* w, const float* b, float* mean,
                  float* rstd);
void layerNormRow(const double* x, double* y, int64_t n, double eps, const double* w, const double* b, double* mean,
                  double* rstd);

}  // namespace kindling::simd
