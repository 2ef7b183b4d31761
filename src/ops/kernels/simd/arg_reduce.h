// Vectorized arg-reductions behind torch.argmax/argmin and max/min(dim) -> (values, indices) on float and
// double, compiled per x86 target with Highway and dispatched at run time (as ops/kernels/simd/vec_kernels.h).
// They follow PyTorch's rules exactly: a NaN counts as the extreme (the index of the first NaN), and among
// equal extremes the first index wins (-0.0 and 0.0 are equal).
//
// Rows (reducing the contiguous last dim) take two passes: the extreme value and whether a NaN occurs
// (vector max/min), then the first index holding it (vector compare, stopping at the first hit). Columns
// (reducing a middle dim of a contiguous tensor, e.g. argmax over channels) keep a running best value
// and index per lane, walking the reduced dim row after row.
#pragma once
#include <cstdint>

namespace kindling::simd {

/// Index of the first maximum (max=true) or minimum of x[0..n), n >= 1; the first NaN's index if any.
int64_t argMaxMin(const float* x, int64_t n, bool max);
int64_t argMaxMin(const double* x, int64_t n, bool max);

/// For each column i < n of the [dimSize, stride] layout (element (j, i) at x[j * stride + i]), the
/// extreme over j < dimSize (dimSize >= 1) into vals[i] and its first index into idx[i], as argMaxMin.
void argMaxMinColumns(const float* x, int64_t dimSize, int64_t stride, int64_t n, float* vals, int64_t* idx, bool max);
void argMaxMinColumns(const double* x, int64_t dimSize, int64_t stride, int64_t n, double* vals, int64_t* idx,
                      bool max);

}  // namespace kindling::simd
