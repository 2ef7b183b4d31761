// Vectorized kernels over contiguous float/double arrays, compiled once per x86 target (SSE4, AVX2,
// AVX-512) with Highway's foreach_target and picked at run time by HWY_DYNAMIC_DISPATCH for the CPU the
// program runs on (never -march=native). Transcendental functions call SLEEF's vector functions of the
// same target, with the accuracy libtorch's vectorized CPU kernels use (u10: max 1.0 ULP; erfc u15);
// the formulas built on them (sigmoid, silu, gelu, softmax) are PyTorch 1.13's. Exact operations (add, sub,
// mul, div, sqrt, abs, neg, relu, clamp, max/min) give bit-identical results on every target and equal
// the scalar C++ result. Tails shorter than a vector go through the same vector code (padded), so a
// result never depends on an element's position or on the array's alignment.
//
// These are the inner loops; ops/kernels/simd/vec_loop.h runs them over a TensorIterator (strided operands are
// gathered into contiguous chunks), and the kernels in ops/kernels/elementwise, activation and
// reduce call them for float and double.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace kindling::simd {

/// Elementwise unary functions (y = f(x)).
enum class Unary : int {
  Exp, Exp2, Expm1, Log, Log2, Log10, Log1p,
  Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Tanh, Asinh, Acosh, Atanh,
  Erf, Erfc, Lgamma,
  Sqrt, Rsqrt, Reciprocal, Abs, Neg,
  Sigmoid,   // 1 / (1 + exp(-x))
  Silu,      // x / (1 + exp(-x))
  GeluErf,   // x * 0.5 * (1 + erf(x / sqrt(2)))
  GeluTanh,  // 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3)))
  Relu,      // x < 0 ? 0 : x (NaN stays NaN)
  Mish,      // x * tanh(log1p(exp(x)))
  kCount
};

/// Elementwise binary functions. Max/Min propagate NaN (torch.maximum/minimum).
enum class Binary : int { Add, Sub, Mul, Div, Max, Min, kCount };

/// How the second operand of a binary kernel is read.
enum class Bcast : int {
  None = 0,  // a[i] op b[i]
  B = 1,     // a[i] op b[0]
  A = 2,     // a[0] op b[i]
};

void unary(Unary op, const float* x, float* y, int64_t n);
void unary(Unary op, const double* x, double* y, int64_t n);
void binary(Binary op, const float* a, const float* b, float* y, int64_t n, Bcast mode);
void binary(Binary op, const double* a, const double* b, double* y, int64_t n, Bcast mode);
/// y = min(max(x, lo), hi) with NaN kept (torch.clamp); either bound may be absent (has* false).
void clamp(const float* x, float* y, int64_t n, bool hasLo, float lo, bool hasHi, float hi);
void clamp(const double* x, double* y, int64_t n, bool hasLo, double lo, bool hasHi, double hi);

/// Sum of x[0..n) accumulated in double (both dtypes).
double sum(const float* x, int64_t n);
double sum(const double* x, int64_t n);
/// Sum of (x[i] - mean)^2 accumulated in double (var/std's second pass).
double sumSquaredDiff(const float* x, int64_t n, double mean);
double sumSquaredDiff(const double* x, int64_t n, double mean);
/// Max (max=true) or min of x[0..n), n >= 1; NaN if any element is NaN.
float maxMin(const float* x, int64_t n, bool max);
double maxMin(const double* x, int64_t n, bool max);
/// Column sums: acc[j] += x[j] for j < n (float accumulated into double), for reducing leading dims.
void accumulate(const float* x, double* acc, int64_t n);
void accumulate(const double* x, double* acc, int64_t n);

/// y[i] = ((x[i] - mean) * rstd) * w[i] + b[i] (w or b null: that step skipped), computed in double and
/// rounded once (layer_norm's output step: no cancellation error for large-magnitude rows).
void affineRow(const float* x, float* y, int64_t n, double mean, double rstd, const float* w, const float* b);
void affineRow(const double* x, double* y, int64_t n, double mean, double rstd, const double* w, const double* b);
/// Sum of x[0..n) with every addition in double (where the mean must be exact to double precision).
double sumWide(const float* x, int64_t n);

/// Softmax (or log_softmax) of one contiguous row of n >= 1 elements, as PyTorch's vectorized last-dim
/// kernel: max, exp(x - max) and their sum in the row's dtype, then scale (log: x - max - log(sum)).
void softmaxRow(const float* x, float* y, int64_t n, bool log);
void softmaxRow(const double* x, double* y, int64_t n, bool log);
/// Softmax over the middle dim of a contiguous [dimSize, inner] block (inner > 1), vectorized along inner.
/// `scratch` holds at least 2 * inner elements.
void softmaxColumns(const float* x, float* y, int64_t dimSize, int64_t inner, bool log, float* scratch);
void softmaxColumns(const double* x, double* y, int64_t dimSize, int64_t inner, bool log, double* scratch);

/// Names of the targets compiled in and usable on this CPU (e.g. "AVX3", "AVX2", "SSE4", "EMU128"), best
/// first; forceTarget(name) makes every kernel above run that target's code until forceTarget("") (tests).
std::vector<std::string> availableTargets();
void forceTarget(const std::string& name);
/// The target the kernels currently run.
std::string currentTarget();

}  // namespace kindling::simd
