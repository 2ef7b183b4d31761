// torch.quantile / torch.nanquantile: aten::quantile(.scalar) and aten::nanquantile(.scalar), as ATen 1.13's
// Sorting.cpp computes them: each reduced slice (the flattened input without `dim`) is sorted (NaN last);
// q in [0, 1] (a float or a 0/1-d tensor of the input's dtype) becomes the rank q * (n - 1) in that dtype
// (n: the slice size, or for nanquantile its count of non-NaN values, rank 0 when all are NaN; quantile
// takes the last rank when the slice holds a NaN, so the result is NaN); the interpolation mode floors
// (lower), ceils (higher) or rounds half to even (nearest) the rank, or interpolates between the
// neighbouring values with ATen's lerp (linear: weight rank - floor(rank); midpoint: 0.5). The result
// has shape [len(q) if q is 1-d] + the reduced shape (keepdim keeps size-1 dims). Errors as ATen.
#include <algorithm>
#include <cmath>

#include "ops/registry/kernel_args.h"
#include "ops/registry/operator.h"
#include "tensor/tensor_iterator.h"
#include "tensor/type_promotion.h"

namespace kindling {

namespace {

enum class Interp { Linear, Lower, Higher, Midpoint, Nearest };

Interp parseInterp(const std::string& s) {
  if (s == "linear") return Interp::Linear;
  if (s == "lower") return Interp::Lower;
  if (s == "higher") return Interp::Higher;
  if (s == "midpoint") return Interp::Midpoint;
  KD_CHECK(s == "nearest",
           "quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, but got {}", s);
  return Interp::Nearest;
}

template <class T> T lerpOf(T a, T b, T w) { return w < T(0.5) ? a + w * (b - a) : b - (b - a) * (T(1) - w); }

Tensor quantile(const Tensor& self, const Tensor& q, std::optional<int64_t> dim, bool keepdim,
                const std::string& interpolation, bool ignoreNan) {
  KD_CHECK(self.numel() > 0, "quantile() input tensor must be non-empty");
  KD_CHECK(q.dim() <= 1, "quantile() q must be a scalar or 1D tensor");
  KD_CHECK(self.dtype() == ScalarType::Float || self.dtype() == ScalarType::Double,
           "quantile() input tensor must be either float or double dtype");
  KD_CHECK(self.dtype() == q.dtype(), "quantile() q tensor must be same dtype as the input tensor");
  const Interp mode = parseInterp(interpolation);
  const int64_t wd = dim ? maybeWrapDim(*dim, self.dim()) : 0;
  IntArray outShape;
  if (dim && self.dim() > 0) {
    outShape = self.sizes();
    if (keepdim) outShape[wd] = 1;
    else outShape.erase(outShape.begin() + wd);
  } else if (keepdim) {
    outShape.assign(static_cast<size_t>(self.dim()), 1);
  }
  // the slices as rows of a (rows, n) contiguous matrix, rows in the order of the reduced shape
  Tensor rowsT = dim ? self.unsqueeze(-1).transpose(wd, -1).contiguous() : self.reshape({-1}).contiguous();
  const int64_t n = rowsT.dim() == 0 ? 1 : rowsT.sizes().back();
  const int64_t rows = rowsT.numel() / n;
  const Tensor qc = q.contiguous();
  const int64_t nq = qc.numel();
  IntArray resShape = outShape;
  if (q.dim() > 0) resShape.insert(resShape.begin(), nq);
  Tensor out = Tensor::empty(resShape, self.dtype());
  dispatchLoopFloating(self.dtype(), "quantile", [&](auto tag) {
    using T = decltype(tag);
    const T* Q = qc.data_ptr<T>();
    bool inRange = true;
    for (int64_t k = 0; k < nq; ++k) inRange = inRange && Q[k] >= T(0) && Q[k] <= T(1);
    KD_CHECK(inRange, "quantile() q values must be in the range [0, 1]");
    KD_CHECK(static_cast<double>(n) <= std::pow(2.0, 24), "quantile() input tensor is too large");
    const T* X = rowsT.data_ptr<T>();
    T* O = out.data_ptr<T>();
    std::vector<T> row(static_cast<size_t>(n));
    for (int64_t r = 0; r < rows; ++r) {
      std::copy(X + r * n, X + (r + 1) * n, row.begin());
      // ascending, NaN last (as sort)
      std::sort(row.begin(), row.end(), [](T a, T b) { return std::isnan(b) ? !std::isnan(a) : a < b; });
      int64_t valid = 0;
      for (T v : row) valid += std::isnan(v) ? 0 : 1;
      for (int64_t k = 0; k < nq; ++k) {
        T rank;
        if (ignoreNan) {
          rank = Q[k] * static_cast<T>(valid - 1);
          if (rank < T(0)) rank = T(0);
        } else {
          rank = valid < n ? static_cast<T>(n - 1) : Q[k] * static_cast<T>(n - 1);
        }
        if (mode == Interp::Lower) rank = std::floor(rank);
        else if (mode == Interp::Higher) rank = std::ceil(rank);
        else if (mode == Interp::Nearest) rank = std::nearbyint(rank);
        const int64_t below = static_cast<int64_t>(rank);
        T v = row[static_cast<size_t>(below)];
        if (mode == Interp::Linear || mode == Interp::Midpoint) {
          const T w = mode == Interp::Midpoint ? T(0.5) : rank - static_cast<T>(below);
          const int64_t above = static_cast<int64_t>(std::ceil(rank));
          v = lerpOf<T>(v, row[static_cast<size_t>(above)], w);
        }
        O[k * rows + r] = v;
      }
    }
  });
  return out;
}

// quantile(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, str interpolation="linear")
template <bool IgnoreNan> void quantileK(Stack& s) {
  Args a(s, 5);
  Tensor r = quantile(a.tensor(0), a.tensor(1), a.optInt(2), a.toBool(3), a[4].toStringRef(), IgnoreNan);
  a.ret(std::move(r));
}
// quantile.scalar(Tensor self, float q, ...)
template <bool IgnoreNan> void quantileScalarK(Stack& s) {
  Args a(s, 5);
  const double q = a.toDouble(1);
  KD_CHECK(q >= 0 && q <= 1, "quantile() q must be in the range [0, 1] but got {}", q);
  const Tensor self = a.tensor(0);
  Tensor r = quantile(self, Tensor::full({}, Scalar(q), self.dtype()), a.optInt(2), a.toBool(3), a[4].toStringRef(),
                      IgnoreNan);
  a.ret(std::move(r));
}

}  // namespace

void registerQuantileOps(OperatorRegistry& r) {
  r.add("aten::quantile(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, str interpolation=\"linear\") -> Tensor",
        quantileK<false>);
  r.add("aten::quantile.scalar(Tensor self, float q, int? dim=None, bool keepdim=False, *, str interpolation=\"linear\") -> Tensor",
        quantileScalarK<false>);
  r.add("aten::nanquantile(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, str interpolation=\"linear\") -> Tensor",
        quantileK<true>);
  r.add("aten::nanquantile.scalar(Tensor self, float q, int? dim=None, bool keepdim=False, *, str interpolation=\"linear\") -> Tensor",
        quantileScalarK<true>);
}

}  // namespace kindling
