// Counting operators: aten::histc and aten::bincount, as ATen 1.13 computes them.
//   histc(self, bins=100, min=0, max=0): floating inputs only; min == max means the data's own range
//     (an empty input keeps 0..0), a degenerate range is widened by 1 on each side; the range must be
//     finite with min < max. The bin edges are linspace(min, max, bins + 1) in the input dtype, and an
//     element x in [edge0, edgeN] (outside values skipped, NaN counted in bin 0 as ATen on x86; edgeN as ATen's linspace rounds it, so
//     the data's maximum can fall just outside, as in PyTorch) goes to bin
//     int((x - edge0) * bins / (edgeN - edge0)), computed in the input dtype, the last edge counted in the
//     last bin. The histogram has the input's dtype.
//   bincount(self, weights=None, minlength=0): 1-d non-negative integral input; max(self)+1 or minlength
//     bins; counts are int64, weighted sums float32 for float32 weights and float64 for any other dtype;
//     an empty input gives int64 zeros of length minlength.
#include <algorithm>
#include <cmath>

#include "ops/registry/kernel_args.h"
#include "ops/registry/operator.h"
#include "tensor/tensor_iterator.h"

namespace kindling {

namespace {

/// The last of linspace(start, end, steps) (steps >= 2) as ATen 1.13's x86 CPU kernel computes it: pairs of
/// 32-byte vectors from the front, each vector a base (start + step*i or end - step*(steps-1-i), fused
/// multiply-add) plus k*step per lane; the remaining elements one by one (the last one: end itself).
/// (Single-chunk case: steps below ATen's parallel grain size.)
template <class T> T lastLinspaceValue(T start, T end, int64_t steps) {
  constexpr int64_t W = 32 / static_cast<int64_t>(sizeof(T));
  const T step = (end - start) / static_cast<T>(steps - 1);
  const int64_t last = steps - 1, vectorized = (steps / (2 * W)) * (2 * W);
  if (last >= vectorized) return end;
  const int64_t i0 = (last / W) * W;
  const T base = i0 < steps / 2 ? std::fma(step, static_cast<T>(i0), start)
                                : std::fma(-step, static_cast<T>(steps - i0 - 1), end);
  return base + static_cast<T>(last - i0) * step;
}

Tensor histc(const Tensor& self, int64_t bins, const Scalar& minS, const Scalar& maxS) {
  KD_CHECK(bins > 0, "torch.histogram(): bins must be > 0, but got {} for dimension 0", bins);
  KD_CHECK(self.dtype() == ScalarType::Float || self.dtype() == ScalarType::Double,
           "\"histogram_cpu\" not implemented for '{}'", scalarTypeName(self.dtype()));
  double lo = minS.toDouble(), hi = maxS.toDouble();
  const Tensor x = self.contiguous();
  if (lo == hi && x.numel() > 0) {
    dispatchLoopFloating(x.dtype(), "histc", [&](auto tag) {
      using T = decltype(tag);
      const T* p = x.data_ptr<T>();
      T mn = p[0], mx = p[0];
      for (int64_t i = 0; i < x.numel(); ++i) {
        if (std::isnan(p[i])) { mn = mx = p[i]; break; }  // aminmax propagates NaN
        mn = std::min(mn, p[i]);
        mx = std::max(mx, p[i]);
      }
      lo = static_cast<double>(mn);
      hi = static_cast<double>(mx);
    });
  }
  if (lo == hi) {
    lo -= 1;
    hi += 1;
  }
  KD_CHECK(std::isfinite(lo) && std::isfinite(hi), "torch.histc: range of [{}, {}] is not finite", lo, hi);
  KD_CHECK(lo < hi, "torch.histc: max must be larger than min");
  Tensor hist = Tensor::zeros({bins}, self.dtype());
  dispatchLoopFloating(x.dtype(), "histc", [&](auto tag) {
    using T = decltype(tag);
    // the outer edges of linspace(lo, hi, bins + 1) in T, as ATen's linspace kernel computes them
    const T left = static_cast<T>(lo), right = lastLinspaceValue<T>(static_cast<T>(lo), static_cast<T>(hi), bins + 1);
    const T* p = x.data_ptr<T>();
    T* h = hist.data_ptr<T>();
    for (int64_t i = 0; i < x.numel(); ++i) {
      const T v = p[i];
      if (std::isnan(v)) {
        // ATen 1.13 does not skip NaN: int64(NaN) is INT64_MIN on x86, whose offset wraps to bin 0
        h[0] += T(1);
        continue;
      }
      if (v < left || v > right) continue;
      int64_t pos = static_cast<int64_t>((v - left) * static_cast<T>(bins) / (right - left));
      if (pos == bins) pos -= 1;
      h[pos] += T(1);
    }
  });
  return hist;
}

// histc(Tensor self, int bins=100, Scalar min=0, Scalar max=0)
void histcK(Stack& s) {
  Args a(s, 4);
  Tensor r = histc(a.tensor(0), a.toInt(1), a.scalar(2), a.scalar(3));
  a.ret(std::move(r));
}

Tensor bincount(const Tensor& self, const Tensor& weights, int64_t minlength) {
  KD_CHECK(isIntegralType(self.dtype(), false), "\"bincount_cpu\" not implemented for '{}'",
           scalarTypeName(self.dtype()));
  KD_CHECK(minlength >= 0, "minlength should be >= 0");
  if (self.dim() == 1 && self.numel() == 0) return Tensor::zeros({minlength}, ScalarType::Long);
  const Tensor x = self.to(ScalarType::Long).contiguous();
  const int64_t* p = x.data_ptr<int64_t>();
  int64_t mn = 0, mx = 0;
  if (x.numel() > 0) {
    mn = *std::min_element(p, p + x.numel());
    mx = *std::max_element(p, p + x.numel());
  }
  KD_CHECK(self.dim() == 1 && mn >= 0, "bincount only supports 1-d non-negative integral inputs.");
  KD_CHECK(!(weights.defined() && (weights.dim() != 1 || weights.sizes()[0] != self.sizes()[0])),
           "weights should be 1-d and have the same length as input");
  const int64_t nbins = std::max(mx + 1, minlength);
  if (!weights.defined()) {
    Tensor out = Tensor::zeros({nbins}, ScalarType::Long);
    int64_t* o = out.data_ptr<int64_t>();
    for (int64_t i = 0; i < x.numel(); ++i) ++o[p[i]];
    return out;
  }
  const ScalarType wt = weights.dtype() == ScalarType::Float ? ScalarType::Float : ScalarType::Double;
  const Tensor w = weights.to(wt).contiguous();
  Tensor out = Tensor::zeros({nbins}, wt);
  dispatchLoopFloating(wt, "bincount_cpu", [&](auto tag) {
    using T = decltype(tag);
    const T* W = w.data_ptr<T>();
    T* o = out.data_ptr<T>();
    for (int64_t i = 0; i < x.numel(); ++i) o[p[i]] += W[i];
  });
  return out;
}

// bincount(Tensor self, Tensor? weights=None, int minlength=0)
void bincountK(Stack& s) {
  Args a(s, 3);
  Tensor r = bincount(a.tensor(0), a.optTensor(1), a.toInt(2));
  a.ret(std::move(r));
}

}  // namespace

void registerHistogramOps(OperatorRegistry& r) {
  r.add("aten::histc(Tensor self, int bins=100, Scalar min=0, Scalar max=0) -> Tensor", histcK);
  r.add("aten::bincount(Tensor self, Tensor? weights=None, int minlength=0) -> Tensor", bincountK);
}

}  // namespace kindling
