// Vectorized comparisons (aten::eq/ne/lt/le/gt/ge, Tensor and Scalar overloads) producing bool, compiled
// per x86 target (SSE4, AVX2, AVX-512, EMU128) with Highway and dispatched at run time, as the kernels of
// ops/kernels/simd/vec_kernels.h. Results are exact on every target and equal C++'s operators: any comparison
// with NaN is false except ne, which is true (IEEE, as PyTorch). Bool outputs are stored as bytes 0/1.
//
// compareLoop() runs them over a TensorIterator whose compute dtype is float, double, int64 or int32 and
// whose output is bool: contiguous runs and a broadcast (scalar) operand go straight to the vector code,
// strided runs are gathered into contiguous chunks.
#pragma once
#include <cstdint>

#include "ops/kernels/simd/vec_kernels.h"
#include "tensor/tensor_iterator.h"

namespace kindling::simd {

/// The six comparisons, in aten's order.
enum class Compare : int { Eq, Ne, Lt, Le, Gt, Ge, kCount };

/// y[i] = a[i] op b[i] (mode None), a[i] op b[0] (B) or a[0] op b[i] (A), for i < n.
void compare(Compare op, const float* a, const float* b, bool* y, int64_t n, Bcast mode);
void compare(Compare op, const double* a, const double* b, bool* y, int64_t n, Bcast mode);
void compare(Compare op, const int64_t* a, const int64_t* b, bool* y, int64_t n, Bcast mode);
void compare(Compare op, const int32_t* a, const int32_t* b, bool* y, int64_t n, Bcast mode);

/// Runs the comparison through the vector kernels when the iterator (two inputs, bool output) computes in
/// float, double, int64 or int32; returns false (nothing done) otherwise, for the caller's scalar loop.
bool tryCompare(TensorIterator& it, Compare op);

}  // namespace kindling::simd
