// Reductions: sum, mean, prod, amax/amin, max/min (full, dim -> (values, indices), other), argmax/argmin,
// all/any, std/var (unbiased / correction), logsumexp, norm (p-norm), cumsum. PyTorch 1.13 dtype rules
// (integer sum/prod → int64, mean needs a floating dtype), keepdim, `dim=[]` meaning all dims, NaN
// propagation in max/min; sort / argsort / topk (stable, NaN largest). The reduced dims are permuted innermost and made contiguous, then each output
// element reduces one contiguous row (accumulating floats in double).
#include <algorithm>
#include <cmath>
#include <limits>

#include "ops/kernels/elementwise/elementwise.h"
#include "ops/registry/kernel_args.h"
#include "ops/registry/operator.h"
#include "ops/kernels/simd/arg_reduce.h"
#include "ops/kernels/simd/vec_kernels.h"
#include "ops/kernels/simd/vec_loop.h"
#include "tensor/type_promotion.h"

namespace kindling {

namespace {

struct ReducePlan {
  Tensor rows;        // contiguous [outer, inner] (as a flat buffer)
  int64_t outer = 1, inner = 1;
  IntArray outShape;  // result shape (keepdim applied)
};

/// dims empty (or nullopt) = all dims.
ReducePlan planReduce(const Tensor& x, const IntArray& dimsIn, bool keepdim, const char* name) {
  const int64_t nd = x.dim();
  std::vector<bool> red(std::max<int64_t>(nd, 1), false);
  // ATen's reduction dim mask is a 64-bit set
  KD_CHECK(dimsIn.empty() || nd <= 64, "only tensors with up to 64 dims are supported");
  if (dimsIn.empty()) {
    std::fill(red.begin(), red.end(), true);
  } else {
    for (int64_t d : dimsIn) {
      const int64_t w = maybeWrapDim(d, nd);
      KD_CHECK(!red[w], "dim {} appears multiple times in the list of dims", w);
      red[w] = true;
    }
  }
  ReducePlan p;
  IntArray perm;
  for (int64_t d = 0; d < nd; ++d)
    if (!red[d]) perm.push_back(d);
  for (int64_t d = 0; d < nd; ++d)
    if (red[d]) perm.push_back(d);
  for (int64_t d = 0; d < nd; ++d) {
    if (red[d]) {
      p.inner *= x.sizes()[d];
      if (keepdim) p.outShape.push_back(1);
    } else {
      p.outer *= x.sizes()[d];
      p.outShape.push_back(x.sizes()[d]);
    }
  }
  p.rows = nd == 0 ? x.contiguous() : x.permute(perm).contiguous();
  (void)name;
  return p;
}

IntArray dimsArg(const Args& a, size_t i) {
  const IValue& v = a[i];
  if (v.isNone()) return {};
  if (v.isInt()) return {v.toInt()};
  return v.toIntVector();
}

ScalarType sumDtype(ScalarType in, ScalarType requested) {
  if (requested != ScalarType::Undefined) return requested;
  return isIntegralType(in, true) ? ScalarType::Long : in;
}

/// sum / mean / prod over rows; Acc is double for floats, int64 for integers.
enum class RedKind { Sum, Mean, Prod };

/// Sum of a contiguous float/double array in double, split over OpenMP threads above kGrainSize.
template <class T>
double parallelSum(const T* x, int64_t n) {
  const int nt = n >= 2 * kGrainSize ? static_cast<int>(std::min<int64_t>(omp_get_max_threads(), n / kGrainSize)) : 1;
  if (nt <= 1) return simd::sum(x, n);
  std::vector<double> part(nt, 0.0);
#pragma omp parallel num_threads(nt)
  {
    const int t = omp_get_thread_num(), k = omp_get_num_threads();
    const int64_t chunk = (n + k - 1) / k, b = std::min(n, t * chunk), e = std::min(n, b + chunk);
    part[t] = simd::sum(x + b, e - b);
  }
  double s = 0;
  for (double v : part) s += v;
  return s;
}

/// sum/mean of a contiguous float/double tensor over a leading block of dims (dims 0..k-1, k < dim):
/// rows are added into a double accumulator of the remaining elements, with no transposed copy.
/// Returns an undefined tensor when `dims` is not such a block.
Tensor sumLeadingDims(const Tensor& x, const IntArray& dims, bool keepdim, bool mean) {
  const int64_t nd = x.dim();
  if (dims.empty() || nd < 2 || !x.is_contiguous()) return Tensor();
  std::vector<bool> red(nd, false);
  for (int64_t d : dims) {
    if (d < -nd || d >= nd) return Tensor();  // planReduce reports the error
    const int64_t w = d < 0 ? d + nd : d;
    if (red[w]) return Tensor();
    red[w] = true;
  }
  int64_t k = 0;
  while (k < nd && red[k]) ++k;
  for (int64_t d = k; d < nd; ++d)
    if (red[d]) return Tensor();
  if (k == 0 || k == nd) return Tensor();
  int64_t rows = 1, cols = 1;
  IntArray outShape;
  for (int64_t d = 0; d < nd; ++d) {
    if (d < k) {
      rows *= x.sizes()[d];
      if (keepdim) outShape.push_back(1);
    } else {
      cols *= x.sizes()[d];
      outShape.push_back(x.sizes()[d]);
    }
  }
  Tensor out = Tensor::empty(outShape, x.dtype());
  if (cols == 0) return out;
  dispatchLoopFloating(x.dtype(), mean ? "mean" : "sum", [&](auto tag) {
    using T = decltype(tag);
    const T* X = x.data_ptr<T>();
    T* Y = out.data_ptr<T>();
    std::vector<double> acc(static_cast<size_t>(cols), 0.0);
    for (int64_t r = 0; r < rows; ++r) simd::accumulate(X + r * cols, acc.data(), cols);
    const double div = mean ? static_cast<double>(rows) : 1.0;
    for (int64_t c = 0; c < cols; ++c) Y[c] = static_cast<T>(acc[c] / div);
  });
  return out;
}

Tensor sumLike(const Tensor& self, const IntArray& dims, bool keepdim, ScalarType requested, RedKind kind) {
  const char* name = kind == RedKind::Sum ? "sum" : kind == RedKind::Mean ? "mean" : "prod";
  ScalarType outDt = sumDtype(self.dtype(), requested);
  if (kind == RedKind::Mean) {
    outDt = requested != ScalarType::Undefined ? requested : self.dtype();
    KD_CHECK(isFloatingType(outDt),
             "mean(): could not infer output dtype. {} dtype must be either a floating point or complex dtype. Got: {}",
             requested != ScalarType::Undefined ? "Optional" : "Input", scalarTypeName(outDt));
  }
  const Tensor x = self.dtype() == outDt ? self : self.to(outDt);
  if (kind != RedKind::Prod && (outDt == ScalarType::Float || outDt == ScalarType::Double)) {
    Tensor r = sumLeadingDims(x, dims, keepdim, kind == RedKind::Mean);
    if (r.defined()) return r;
  }
  ReducePlan p = planReduce(x, dims, keepdim, name);
  const ScalarType loopDt = (outDt == ScalarType::Half || outDt == ScalarType::BFloat16) ? ScalarType::Float : outDt;
  const Tensor rows = p.rows.dtype() == loopDt ? p.rows : p.rows.to(loopDt);
  Tensor out = Tensor::empty(p.outShape, loopDt);
  dispatchLoopTypes(loopDt, name, [&](auto tag) {
    using T = decltype(tag);
    using Acc = std::conditional_t<std::is_floating_point_v<T>, double, int64_t>;
    const T* X = rows.data_ptr<T>();
    T* Y = out.data_ptr<T>();
    const int64_t inner = p.inner;
    if constexpr (std::is_floating_point_v<T>) {
      if (kind != RedKind::Prod) {  // vectorized rows, accumulated in double
        const double div = kind == RedKind::Mean ? static_cast<double>(inner) : 1.0;
        if (p.outer == 1) {
          Y[0] = static_cast<T>(parallelSum(X, inner) / div);
          return;
        }
        parallelFor(p.outer, p.outer * inner > kGrainSize,
                    [&](int64_t o) { Y[o] = static_cast<T>(simd::sum(X + o * inner, inner) / div); });
        return;
      }
    }
#pragma omp parallel for if (p.outer * inner > kGrainSize && p.outer > 1)
    for (int64_t o = 0; o < p.outer; ++o) {
      const T* r = X + o * inner;
      Acc acc = kind == RedKind::Prod ? Acc(1) : Acc(0);
      if (kind == RedKind::Prod) {
        for (int64_t i = 0; i < inner; ++i) acc *= static_cast<Acc>(r[i]);
      } else {
        for (int64_t i = 0; i < inner; ++i) acc += static_cast<Acc>(r[i]);
      }
      if (kind == RedKind::Mean) acc = static_cast<Acc>(acc / static_cast<double>(inner));
      if constexpr (std::is_same_v<T, bool>) Y[o] = acc != 0;
      else Y[o] = static_cast<T>(acc);
    }
  });
  return loopDt == outDt ? out : out.to(outDt);
}

void sumK(Stack& s) { Args a(s, 2); Tensor r = sumLike(a.tensor(0), {}, false, a.optDtype(1), RedKind::Sum); a.ret(std::move(r)); }
void sumDimK(Stack& s) { Args a(s, 4); Tensor r = sumLike(a.tensor(0), dimsArg(a, 1), a.toBool(2), a.optDtype(3), RedKind::Sum); a.ret(std::move(r)); }
void meanK(Stack& s) { Args a(s, 2); Tensor r = sumLike(a.tensor(0), {}, false, a.optDtype(1), RedKind::Mean); a.ret(std::move(r)); }
void meanDimK(Stack& s) { Args a(s, 4); Tensor r = sumLike(a.tensor(0), dimsArg(a, 1), a.toBool(2), a.optDtype(3), RedKind::Mean); a.ret(std::move(r)); }
void prodK(Stack& s) { Args a(s, 2); Tensor r = sumLike(a.tensor(0), {}, false, a.optDtype(1), RedKind::Prod); a.ret(std::move(r)); }
void prodDimK(Stack& s) { Args a(s, 4); Tensor r = sumLike(a.tensor(0), {a.toInt(1)}, a.toBool(2), a.optDtype(3), RedKind::Prod); a.ret(std::move(r)); }

/// max/min values (and first index) over rows; NaN wins.
template <bool Max>
std::pair<Tensor, Tensor> maxMinDim(const Tensor& self, const IntArray& dims, bool keepdim, bool wantIndices,
                                    const char* name) {
  if (self.numel() == 0) {
    throw RuntimeError(fmt::format("{}(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
                                   "reduction dim with the 'dim' argument.", name));
  }
  const ScalarType dt = self.dtype();
  // values and indices over a middle dim of a contiguous float/double tensor (argmax over channels):
  // vectorized along the columns, without the transposing copy
  if (wantIndices && (dt == ScalarType::Float || dt == ScalarType::Double) && dims.size() == 1 &&
      self.dim() >= 2 && self.is_contiguous()) {
    const int64_t nd = self.dim(), d = maybeWrapDim(dims[0], nd);
    const int64_t dimSize = self.sizes()[d];
    if (d < nd - 1 && dimSize <= std::numeric_limits<int32_t>::max()) {
      int64_t outer = 1, inner = 1;
      IntArray outShape;
      for (int64_t k = 0; k < nd; ++k) {
        if (k == d) {
          if (keepdim) outShape.push_back(1);
          continue;
        }
        (k < d ? outer : inner) *= self.sizes()[k];
        outShape.push_back(self.sizes()[k]);
      }
      Tensor vals = Tensor::empty(outShape, dt), idx = Tensor::empty(outShape, ScalarType::Long);
      int64_t* I = idx.data_ptr<int64_t>();
      auto run = [&](auto tag) {
        using T = decltype(tag);
        const T* X = self.data_ptr<T>();
        T* V = vals.data_ptr<T>();
        constexpr int64_t kCols = 4096;  // columns per task
        const int64_t blocks = (inner + kCols - 1) / kCols;
        parallelFor(outer * blocks, outer * dimSize * inner > kGrainSize, [&](int64_t t) {
          const int64_t o = t / blocks, c0 = (t % blocks) * kCols, nc = std::min(kCols, inner - c0);
          simd::argMaxMinColumns(X + o * dimSize * inner + c0, dimSize, inner, nc, V + o * inner + c0,
                                 I + o * inner + c0, Max);
        });
      };
      if (dt == ScalarType::Float) run(float{});
      else run(double{});
      return {vals, idx};
    }
  }
  ReducePlan p = planReduce(self, dims, keepdim, name);
  KD_CHECK(p.inner > 0, "{}(): cannot reduce over a zero-size dimension", name);
  const ScalarType loopDt = (dt == ScalarType::Half || dt == ScalarType::BFloat16) ? ScalarType::Float : dt;
  const Tensor rows = p.rows.dtype() == loopDt ? p.rows : p.rows.to(loopDt);
  Tensor vals = Tensor::empty(p.outShape, loopDt);
  Tensor idx = wantIndices ? Tensor::empty(p.outShape, ScalarType::Long) : Tensor();
  dispatchLoopTypes(loopDt, name, [&](auto tag) {
    using T = decltype(tag);
    const T* X = rows.data_ptr<T>();
    T* V = vals.data_ptr<T>();
    int64_t* I = wantIndices ? idx.data_ptr<int64_t>() : nullptr;
    if constexpr (std::is_floating_point_v<T>) {
      if (!wantIndices) {  // values only (amax/amin, max()/min()): vectorized, NaN wins
        parallelFor(p.outer, p.outer * p.inner > kGrainSize,
                    [&](int64_t o) { V[o] = simd::maxMin(X + o * p.inner, p.inner, Max); });
        return;
      }
      // values and first indices (argmax, max.dim): vectorized rows, NaN wins, ties to the first index
      parallelFor(p.outer, p.outer * p.inner > kGrainSize, [&](int64_t o) {
        const T* r = X + o * p.inner;
        const int64_t k = simd::argMaxMin(r, p.inner, Max);
        V[o] = r[k];
        I[o] = k;
      });
      return;
    }
    for (int64_t o = 0; o < p.outer; ++o) {
      const T* r = X + o * p.inner;
      T best = r[0];
      int64_t bi = 0;
      for (int64_t i = 1; i < p.inner; ++i) {
        const T v = r[i];
        if constexpr (std::is_floating_point_v<T>) {
          if (std::isnan(best)) break;
          if (std::isnan(v)) {
            best = v;
            bi = i;
            break;
          }
        }
        if (Max ? (v > best) : (v < best)) {
          best = v;
          bi = i;
        }
      }
      V[o] = best;
      if (I) I[o] = bi;
    }
  });
  if (loopDt != dt) vals = vals.to(dt);
  return {vals, idx};
}

template <bool Max> void maxAllK(Stack& s) {
  Args a(s, 1);
  auto r = maxMinDim<Max>(a.tensor(0), {}, false, false, Max ? "max" : "min");
  a.ret(std::move(r.first));
}
template <bool Max> void maxDimK(Stack& s) {
  Args a(s, 3);
  const Tensor self = a.tensor(0);
  auto r = maxMinDim<Max>(self, {a.toInt(1)}, a.toBool(2), true, Max ? "max" : "min");
  a.ret(std::move(r.first), std::move(r.second));
}
template <bool Max> void amaxK(Stack& s) {
  Args a(s, 3);
  auto r = maxMinDim<Max>(a.tensor(0), a.intList(1), a.toBool(2), false, Max ? "amax" : "amin");
  a.ret(std::move(r.first));
}
template <bool Max> void argmaxK(Stack& s) {
  Args a(s, 3);
  const Tensor self = a.tensor(0);
  const auto dim = a.optInt(1);
  const bool keepdim = a.toBool(2);
  Tensor r;
  if (dim) {
    r = maxMinDim<Max>(self, {*dim}, keepdim, true, Max ? "argmax" : "argmin").second;
  } else {
    r = maxMinDim<Max>(self.reshape({-1}), {0}, false, true, Max ? "argmax" : "argmin").second;
    if (keepdim) r = r.reshape(IntArray(self.dim(), 1));
  }
  a.ret(std::move(r));
}
template <bool Max> void maxOtherK(Stack& s) {
  Args a(s, 2);
  const Tensor x = a.tensor(0), y = a.tensor(1);
  TensorIterator it;
  it.addOutput(Tensor()).addInput(x).addInput(y).build();
  if (simd::tryBinary(it, Max ? simd::Binary::Max : simd::Binary::Min)) {
    a.ret(it.output());
    return;
  }
  dispatchLoopTypes(it.loopComputeDtype(), Max ? "maximum" : "minimum", [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [](T u, T v) -> T {
      if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(u) || std::isnan(v)) return std::numeric_limits<T>::quiet_NaN();
      }
      return Max ? (u > v ? u : v) : (u < v ? u : v);
    });
  });
  a.ret(it.output());
}

/// all / any: bool results (uint8 input keeps uint8, as PyTorch).
template <bool All>
Tensor allAny(const Tensor& self, const IntArray& dims, bool keepdim) {
  ReducePlan p = planReduce(self, dims, keepdim, All ? "all" : "any");
  const ScalarType outDt = self.dtype() == ScalarType::Byte ? ScalarType::Byte : ScalarType::Bool;
  const Tensor rows = p.rows.to(ScalarType::Bool).contiguous();
  Tensor out = Tensor::empty(p.outShape, ScalarType::Bool);
  const bool* X = rows.data_ptr<bool>();
  bool* Y = out.data_ptr<bool>();
  for (int64_t o = 0; o < p.outer; ++o) {
    bool acc = All;
    for (int64_t i = 0; i < p.inner; ++i) {
      if (All) acc = acc && X[o * p.inner + i];
      else acc = acc || X[o * p.inner + i];
    }
    Y[o] = acc;
  }
  return outDt == ScalarType::Bool ? out : out.to(outDt);
}
template <bool All> void allAnyK(Stack& s) { Args a(s, 1); Tensor r = allAny<All>(a.tensor(0), {}, false); a.ret(std::move(r)); }
template <bool All> void allAnyDimK(Stack& s) { Args a(s, 3); Tensor r = allAny<All>(a.tensor(0), {a.toInt(1)}, a.toBool(2)); a.ret(std::move(r)); }

/// var / std with a correction (1 = unbiased).
Tensor varStd(const Tensor& self, const IntArray& dims, int64_t correction, bool keepdim, bool takeSqrt) {
  KD_CHECK(isFloatingType(self.dtype()), "std and var only support floating point and complex dtypes");
  ReducePlan p = planReduce(self, dims, keepdim, takeSqrt ? "std" : "var");
  if (self.dtype() == ScalarType::Float || self.dtype() == ScalarType::Double) {
    // two passes over each row in its own dtype, vectorized, accumulated in double
    Tensor out = Tensor::empty(p.outShape, self.dtype());
    dispatchLoopFloating(self.dtype(), "var", [&](auto tag) {
      using T = decltype(tag);
      const T* X = p.rows.data_ptr<T>();
      T* Y = out.data_ptr<T>();
      const double denom = std::max(0.0, static_cast<double>(p.inner - correction));
      parallelFor(p.outer, p.outer * p.inner > kGrainSize, [&](int64_t o) {
        const T* r = X + o * p.inner;
        const double m = simd::sum(r, p.inner) / static_cast<double>(p.inner);
        const double v = simd::sumSquaredDiff(r, p.inner, m) / denom;  // 0/0 = nan, as PyTorch
        Y[o] = static_cast<T>(takeSqrt ? std::sqrt(v) : v);
      });
    });
    return out;
  }
  const Tensor rows = p.rows.to(ScalarType::Double).contiguous();
  Tensor out = Tensor::empty(p.outShape, ScalarType::Double);
  const double* X = rows.data_ptr<double>();
  double* Y = out.data_ptr<double>();
  for (int64_t o = 0; o < p.outer; ++o) {
    double m = 0;
    for (int64_t i = 0; i < p.inner; ++i) m += X[o * p.inner + i];
    m /= static_cast<double>(p.inner);
    double v = 0;
    for (int64_t i = 0; i < p.inner; ++i) {
      const double d = X[o * p.inner + i] - m;
      v += d * d;
    }
    const double denom = static_cast<double>(p.inner - correction);
    v = v / std::max(0.0, denom);  // 0/0 = nan, as PyTorch
    Y[o] = takeSqrt ? std::sqrt(v) : v;
  }
  return out.to(self.dtype());
}
template <bool Sqrt> void varAllK(Stack& s) { Args a(s, 2); Tensor r = varStd(a.tensor(0), {}, a.toBool(1) ? 1 : 0, false, Sqrt); a.ret(std::move(r)); }
template <bool Sqrt> void varDimK(Stack& s) { Args a(s, 4); Tensor r = varStd(a.tensor(0), dimsArg(a, 1), a.toBool(2) ? 1 : 0, a.toBool(3), Sqrt); a.ret(std::move(r)); }
template <bool Sqrt> void varCorrectionK(Stack& s) {
  Args a(s, 4);
  Tensor r = varStd(a.tensor(0), dimsArg(a, 1), a.optInt(2).value_or(1), a.toBool(3), Sqrt);
  a.ret(std::move(r));
}

void logsumexpK(Stack& s) {
  Args a(s, 3);
  const Tensor self = a.tensor(0);
  const Tensor x = isFloatingType(self.dtype()) ? self : self.to(ScalarType::Float);
  ReducePlan p = planReduce(x, a.intList(1), a.toBool(2), "logsumexp");
  const Tensor rows = p.rows.to(ScalarType::Double).contiguous();
  Tensor out = Tensor::empty(p.outShape, ScalarType::Double);
  const double* X = rows.data_ptr<double>();
  double* Y = out.data_ptr<double>();
  for (int64_t o = 0; o < p.outer; ++o) {
    double m = -std::numeric_limits<double>::infinity();
    for (int64_t i = 0; i < p.inner; ++i) m = std::max(m, X[o * p.inner + i]);
    if (std::isinf(m)) {
      Y[o] = m;
      continue;
    }
    double sum = 0;
    for (int64_t i = 0; i < p.inner; ++i) sum += std::exp(X[o * p.inner + i] - m);
    Y[o] = m + std::log(sum);
  }
  a.ret(out.to(x.dtype()));
}

Tensor pnorm(const Tensor& self, double pval, const IntArray& dims, bool keepdim) {
  KD_CHECK(isFloatingType(self.dtype()), "norm(): input dtype should be either floating point or complex. Got {} instead.",
           scalarTypeName(self.dtype()));
  ReducePlan p = planReduce(self, dims, keepdim, "norm");
  const Tensor rows = p.rows.to(ScalarType::Double).contiguous();
  Tensor out = Tensor::empty(p.outShape, ScalarType::Double);
  const double* X = rows.data_ptr<double>();
  double* Y = out.data_ptr<double>();
  for (int64_t o = 0; o < p.outer; ++o) {
    double acc = 0;
    const double* r = X + o * p.inner;
    if (std::isinf(pval)) {
      acc = pval > 0 ? 0 : std::numeric_limits<double>::infinity();
      for (int64_t i = 0; i < p.inner; ++i) acc = pval > 0 ? std::max(acc, std::abs(r[i])) : std::min(acc, std::abs(r[i]));
    } else if (pval == 0) {
      for (int64_t i = 0; i < p.inner; ++i) acc += r[i] != 0;
    } else if (pval == 2) {
      for (int64_t i = 0; i < p.inner; ++i) acc += r[i] * r[i];
      acc = std::sqrt(acc);
    } else if (pval == 1) {
      for (int64_t i = 0; i < p.inner; ++i) acc += std::abs(r[i]);
    } else {
      for (int64_t i = 0; i < p.inner; ++i) acc += std::pow(std::abs(r[i]), pval);
      acc = std::pow(acc, 1.0 / pval);
    }
    Y[o] = acc;
  }
  return out.to(self.dtype());
}
void normScalarK(Stack& s) { Args a(s, 2); Tensor r = pnorm(a.tensor(0), a.scalar(1).toDouble(), {}, false); a.ret(std::move(r)); }
void normDimK(Stack& s) {
  Args a(s, 4);
  const auto pv = a.optScalar(1);
  Tensor r = pnorm(a.tensor(0), pv ? pv->toDouble() : 2.0, a.intList(2), a.toBool(3));
  a.ret(std::move(r));
}

void cumsumK(Stack& s) {
  Args a(s, 3);
  const Tensor self = a.tensor(0);
  const ScalarType outDt = sumDtype(self.dtype(), a.optDtype(2));
  const int64_t nd = self.dim();
  const int64_t d = maybeWrapDim(a.toInt(1), nd);
  const Tensor x = self.to(outDt).contiguous();
  Tensor out = Tensor::empty(self.sizes(), outDt);
  int64_t outer = 1, n = nd == 0 ? 1 : self.sizes()[d], inner = 1;
  for (int64_t k = 0; k < d; ++k) outer *= self.sizes()[k];
  for (int64_t k = d + 1; k < nd; ++k) inner *= self.sizes()[k];
  dispatchLoopTypesNoBool(outDt == ScalarType::Half || outDt == ScalarType::BFloat16 ? ScalarType::Float : outDt, "cumsum", [&](auto tag) {
    using T = decltype(tag);
    using Acc = std::conditional_t<std::is_floating_point_v<T>, double, int64_t>;
    const Tensor xs = x.to(scalarTypeOf<T>()).contiguous();
    Tensor o = out.dtype() == scalarTypeOf<T>() ? out : Tensor::empty(self.sizes(), scalarTypeOf<T>());
    const T* X = xs.data_ptr<T>();
    T* Y = o.data_ptr<T>();
    for (int64_t b = 0; b < outer; ++b)
      for (int64_t i = 0; i < inner; ++i) {
        Acc acc = 0;
        for (int64_t j = 0; j < n; ++j) {
          acc += static_cast<Acc>(X[(b * n + j) * inner + i]);
          Y[(b * n + j) * inner + i] = static_cast<T>(acc);
        }
      }
    if (!o.is_same(out)) out.copy_(o);
  });
  a.ret(std::move(out));
}


// ---------------------------------------------------------------- sort / topk

/// How sortAlong orders a row. PyTorch 1.13's CPU kernels are deterministic given their algorithm, and the
/// order among equal values (the returned indices) is that algorithm's: sort runs std::sort (std::stable_sort
/// when stable) over the (value, index) pairs of the row; topk puts the pairs through std::partial_sort when
/// k * 64 <= n, else std::nth_element at k - 1 followed (when sorted) by std::sort of the first k - 1. Sorting
/// an index array with a comparator on the values performs the same comparisons and moves as sorting the
/// pairs, so libstdc++ gives the same order as in PyTorch's build.
enum class RowOrder { Sort, StableSort, TopK, TopKUnsorted };

/// Sorts (or selects the top k of) each slice along `dim`; NaN counts as the largest value, as PyTorch.
std::pair<Tensor, Tensor> sortAlong(const Tensor& self, int64_t dim, bool descending, int64_t k, RowOrder how) {
  const int64_t nd = self.dim();
  const int64_t d = maybeWrapDim(dim, nd);
  const int64_t n = nd == 0 ? 1 : self.sizes()[d];
  KD_CHECK_INDEX(k >= 0 && k <= n, "selected index k out of range");
  const bool topk = how == RowOrder::TopK || how == RowOrder::TopKUnsorted;
  KD_CHECK(!topk || self.dtype() != ScalarType::Bool, "\"topk_cpu\" not implemented for 'Bool'");
  // Move `dim` last, make contiguous rows.
  IntArray perm;
  for (int64_t i = 0; i < nd; ++i)
    if (i != d) perm.push_back(i);
  if (nd > 0) perm.push_back(d);
  const ScalarType dt = self.dtype();
  const ScalarType loopDt = (dt == ScalarType::Half || dt == ScalarType::BFloat16) ? ScalarType::Float : dt;
  const Tensor rows = (nd == 0 ? self : self.permute(perm)).to(loopDt).contiguous();
  const int64_t outer = n == 0 ? 0 : rows.numel() / n;
  IntArray permSizes = nd == 0 ? IntArray{} : rows.sizes();
  if (nd > 0) permSizes.back() = k;
  Tensor vals = Tensor::empty(permSizes, loopDt), idx = Tensor::empty(permSizes, ScalarType::Long);
  dispatchLoopTypes(loopDt, "sort", [&](auto tag) {
    using T = decltype(tag);
    const T* X = rows.data_ptr<T>();
    T* V = vals.data_ptr<T>();
    int64_t* I = idx.data_ptr<int64_t>();
    std::vector<int64_t> order(n);
    // ATen's KeyValueCompAsc / KeyValueCompDesc (and topk's lambdas): NaN above every number
    auto run = [&](auto cmp) {
      if (k == 0) return;
      switch (how) {
        case RowOrder::Sort: std::sort(order.begin(), order.end(), cmp); break;
        case RowOrder::StableSort: std::stable_sort(order.begin(), order.end(), cmp); break;
        case RowOrder::TopK:
        case RowOrder::TopKUnsorted:
          if (k * 64 <= n) {
            std::partial_sort(order.begin(), order.begin() + k, order.end(), cmp);
          } else {
            std::nth_element(order.begin(), order.begin() + (k - 1), order.end(), cmp);
            if (how == RowOrder::TopK) std::sort(order.begin(), order.begin() + (k - 1), cmp);
          }
          break;
      }
    };
    for (int64_t o = 0; o < outer; ++o) {
      const T* r = X + o * n;
      for (int64_t i = 0; i < n; ++i) order[i] = i;
      if (descending) {
        run([r](int64_t a, int64_t b) {
          if constexpr (std::is_floating_point_v<T>) return (std::isnan(r[a]) && !std::isnan(r[b])) || r[a] > r[b];
          else return r[a] > r[b];
        });
      } else {
        run([r](int64_t a, int64_t b) {
          if constexpr (std::is_floating_point_v<T>) return (!std::isnan(r[a]) && std::isnan(r[b])) || r[a] < r[b];
          else return r[a] < r[b];
        });
      }
      for (int64_t i = 0; i < k; ++i) {
        V[o * k + i] = r[order[i]];
        I[o * k + i] = order[i];
      }
    }
  });
  if (nd > 0) {
    IntArray inv(nd);
    for (int64_t i = 0; i < nd; ++i) inv[perm[i]] = i;
    vals = vals.permute(inv).contiguous();
    idx = idx.permute(inv).contiguous();
  }
  if (loopDt != dt) vals = vals.to(dt);
  return {vals, idx};
}

void sortK(Stack& s) {
  Args a(s, 3);
  const Tensor self = a.tensor(0);
  const int64_t d = maybeWrapDim(a.toInt(1), self.dim());
  auto r = sortAlong(self, d, a.toBool(2), self.dim() == 0 ? 1 : self.sizes()[d], RowOrder::Sort);
  a.ret(std::move(r.first), std::move(r.second));
}
void sortStableK(Stack& s) {
  Args a(s, 4);
  const Tensor self = a.tensor(0);
  KD_CHECK(!a[1].isNone(), "sort(): c10::optional<bool> for stable has to have value.");
  const int64_t d = maybeWrapDim(a.toInt(2), self.dim());
  auto r = sortAlong(self, d, a.toBool(3), self.dim() == 0 ? 1 : self.sizes()[d],
                     a.toBool(1) ? RowOrder::StableSort : RowOrder::Sort);
  a.ret(std::move(r.first), std::move(r.second));
}
void argsortK(Stack& s) {
  Args a(s, 3);
  const Tensor self = a.tensor(0);
  const int64_t d = maybeWrapDim(a.toInt(1), self.dim());
  auto r = sortAlong(self, d, a.toBool(2), self.dim() == 0 ? 1 : self.sizes()[d], RowOrder::Sort);
  a.ret(std::move(r.second));
}
void topkK(Stack& s) {
  Args a(s, 5);
  const Tensor self = a.tensor(0);
  auto r = sortAlong(self, a.toInt(2), a.toBool(3), a.toInt(1), a.toBool(4) ? RowOrder::TopK : RowOrder::TopKUnsorted);
  a.ret(std::move(r.first), std::move(r.second));
}

}  // namespace

void registerReduceOps(OperatorRegistry& r) {
  r.add("aten::sum(Tensor self, *, ScalarType? dtype=None) -> Tensor", sumK);
  r.add("aten::sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", sumDimK);
  r.add("aten::mean(Tensor self, *, ScalarType? dtype=None) -> Tensor", meanK);
  r.add("aten::mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", meanDimK);
  r.add("aten::prod(Tensor self, *, ScalarType? dtype=None) -> Tensor", prodK);
  r.add("aten::prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", prodDimK);
  r.add("aten::max(Tensor self) -> Tensor", maxAllK<true>);
  r.add("aten::min(Tensor self) -> Tensor", maxAllK<false>);
  r.add("aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", maxDimK<true>);
  r.add("aten::min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", maxDimK<false>);
  r.add("aten::max.other(Tensor self, Tensor other) -> Tensor", maxOtherK<true>);
  r.add("aten::min.other(Tensor self, Tensor other) -> Tensor", maxOtherK<false>);
  r.add("aten::amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor", amaxK<true>);
  r.add("aten::amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor", amaxK<false>);
  r.add("aten::argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor", argmaxK<true>);
  r.add("aten::argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor", argmaxK<false>);
  r.add("aten::all(Tensor self) -> Tensor", allAnyK<true>);
  r.add("aten::any(Tensor self) -> Tensor", allAnyK<false>);
  r.add("aten::all.dim(Tensor self, int dim, bool keepdim=False) -> Tensor", allAnyDimK<true>);
  r.add("aten::any.dim(Tensor self, int dim, bool keepdim=False) -> Tensor", allAnyDimK<false>);
  r.add("aten::var(Tensor self, bool unbiased=True) -> Tensor", varAllK<false>);
  r.add("aten::std(Tensor self, bool unbiased=True) -> Tensor", varAllK<true>);
  r.add("aten::var.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor", varDimK<false>);
  r.add("aten::std.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor", varDimK<true>);
  r.add("aten::var.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> Tensor", varCorrectionK<false>);
  r.add("aten::std.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> Tensor", varCorrectionK<true>);
  r.add("aten::logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor", logsumexpK);
  r.add("aten::norm.Scalar(Tensor self, Scalar p=2) -> Tensor", normScalarK);
  r.add("aten::norm.ScalarOpt_dim(Tensor self, Scalar? p, int[1] dim, bool keepdim=False) -> Tensor", normDimK);
  r.add("aten::cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor", cumsumK);
  r.add("aten::sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)", sortK);
  r.add("aten::sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)", sortStableK);
  r.add("aten::argsort(Tensor self, int dim=-1, bool descending=False) -> Tensor", argsortK);
  r.add("aten::topk(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor values, Tensor indices)", topkK);
}

}  // namespace kindling
