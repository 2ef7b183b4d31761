// Reductions and scans beyond reduce.cpp's vectorized core: cumprod, cummax/cummin, logcumsumexp,
// std_mean/var_mean, nansum/nanmean, count_nonzero, aminmax, kthvalue, median/nanmedian, mode, msort,
// _unique2 and unique_consecutive. Direct loops over "rows": the reduced or scanned dimension is moved
// last and made contiguous. Accumulation types, NaN handling, tie rules and errors follow ATen 1.13
// (floating sums of std/var accumulate in double as ATen's CPU acc_type does).
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <type_traits>

#include "ops/registry/kernel_args.h"
#include "ops/registry/operator.h"
#include "tensor/tensor_iterator.h"

namespace kindling {

namespace {

template <class T> constexpr bool isFloat = std::is_floating_point_v<T>;
template <class T> bool isNan(T v) {
  if constexpr (isFloat<T>) return std::isnan(v);
  else { (void)v; return false; }
}

// The tensor with `dim` moved last, contiguous: rows of length L.
struct Rows {
  Tensor x;       // contiguous [..., L]
  int64_t outer;  // number of rows
  int64_t L;
  IntArray keptSizes;  // sizes without `dim`
  int64_t dim;
};

Rows rowsOf(const Tensor& t, int64_t dimIn) {
  Rows r;
  const int64_t nd = t.dim();
  r.dim = maybeWrapDim(dimIn, nd);
  if (nd == 0) {
    r.x = t.reshape({1});
    r.outer = 1;
    r.L = 1;
    return r;
  }
  IntArray perm;
  for (int64_t d = 0; d < nd; ++d)
    if (d != r.dim) {
      perm.push_back(d);
      r.keptSizes.push_back(t.sizes()[d]);
    }
  perm.push_back(r.dim);
  r.x = t.permute(perm).contiguous();
  r.L = t.sizes()[r.dim];
  r.outer = r.L == 0 ? 0 : t.numel() / r.L;
  if (r.L == 0) {
    r.outer = 1;
    for (int64_t s : r.keptSizes) r.outer *= s;
  }
  return r;
}

// A [outer, L] result back to the input's layout (scan results keep the input's shape).
Tensor unrows(const Tensor& y, const Tensor& like, int64_t dim) {
  const int64_t nd = like.dim();
  if (nd == 0) return y.reshape({});
  IntArray shape;
  for (int64_t d = 0; d < nd; ++d)
    if (d != dim) shape.push_back(like.sizes()[d]);
  shape.push_back(like.sizes()[dim]);
  Tensor v = y.reshape(shape);
  IntArray inv(static_cast<size_t>(nd));
  // v's dims: kept dims in order, then dim → back to positions
  int64_t k = 0;
  for (int64_t d = 0; d < nd; ++d)
    if (d != dim) inv[d] = k++;
  inv[dim] = nd - 1;
  return v.permute(inv).contiguous();
}

// Reduced output shape for one dim.
IntArray reducedShape(const Tensor& t, int64_t dim, bool keepdim) {
  IntArray s;
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (d == dim) {
      if (keepdim) s.push_back(1);
    } else {
      s.push_back(t.sizes()[d]);
    }
  }
  return s;
}

// ---------------------------------------------------------------- scans

void cumprodK(Stack& s) {
  Args a(s, 3);
  const Tensor self = a.tensor(0);
  ScalarType dt = a.optDtype(2);
  if (dt == ScalarType::Undefined) dt = isIntegralType(self.dtype(), true) ? ScalarType::Long : self.dtype();
  const Tensor in = self.to(dt);
  Rows r = rowsOf(in, a.toInt(1));
  Tensor y = Tensor::empty({r.outer, r.L}, dt);
  dispatchLoopTypes(dt, "cumprod", [&](auto tag) {
    using T = decltype(tag);
    const T* X = r.x.template data_ptr<T>();
    T* Y = y.template data_ptr<T>();
    for (int64_t o = 0; o < r.outer; ++o) {
      T acc = T(1);
      for (int64_t i = 0; i < r.L; ++i) {
        if constexpr (std::is_same_v<T, bool>) acc = acc && X[o * r.L + i];
        else acc = static_cast<T>(acc * X[o * r.L + i]);
        Y[o * r.L + i] = acc;
      }
    }
  });
  a.ret(unrows(y, self, r.dim));
}

template <bool Max>
void cumMaxMinK(Stack& s) {
  Args a(s, 2);
  const Tensor self = a.tensor(0);
  Rows r = rowsOf(self, a.toInt(1));
  Tensor y = Tensor::empty({r.outer, r.L}, self.dtype()), idx = Tensor::empty({r.outer, r.L}, ScalarType::Long);
  dispatchLoopTypes(self.dtype(), Max ? "cummax_cpu" : "cummin_cpu", [&](auto tag) {
    using T = decltype(tag);
    const T* X = r.x.template data_ptr<T>();
    T* Y = y.template data_ptr<T>();
    int64_t* I = idx.data_ptr<int64_t>();
    for (int64_t o = 0; o < r.outer; ++o) {
      if (r.L == 0) continue;
      T out = X[o * r.L];
      int64_t bi = 0;
      for (int64_t i = 0; i < r.L; ++i) {
        const T v = X[o * r.L + i];
        if (isNan(v) || (!isNan(out) && (Max ? v >= out : v <= out))) {
          out = v;
          bi = i;
        }
        Y[o * r.L + i] = out;
        I[o * r.L + i] = bi;
      }
    }
  });
  a.ret(unrows(y, self, r.dim), unrows(idx, self, r.dim));
}

void logcumsumexpK(Stack& s) {
  Args a(s, 2);
  const Tensor self = a.tensor(0);
  KD_CHECK(isFloatingType(self.dtype()), "\"logcumsumexp_out_cpu\" not implemented for '{}'", scalarTypeName(self.dtype()));
  Rows r = rowsOf(self, a.toInt(1));
  Tensor y = Tensor::empty({r.outer, r.L}, self.dtype());
  dispatchLoopFloating(self.dtype(), "logcumsumexp", [&](auto tag) {
    using T = decltype(tag);
    const T* X = r.x.template data_ptr<T>();
    T* Y = y.template data_ptr<T>();
    for (int64_t o = 0; o < r.outer; ++o) {
      T acc = -std::numeric_limits<T>::infinity();
      for (int64_t i = 0; i < r.L; ++i) {
        const T x = acc, v = X[o * r.L + i];
        const T mn = std::isnan(v) ? v : std::min(x, v), mx = std::isnan(v) ? v : std::max(x, v);
        acc = (mn != mx || std::isfinite(mn)) ? mx + std::log1p(std::exp(mn - mx)) : x;
        Y[o * r.L + i] = acc;
      }
    }
  });
  a.ret(unrows(y, self, r.dim));
}

// ---------------------------------------------------------------- multi-dim reductions

// The tensor as [outer, inner] with the reduced dims (all when `dims` is empty or None) innermost.
struct Reduced {
  Tensor x;
  int64_t outer, inner;
  IntArray outShape;
};

Reduced reduceOf(const Tensor& t, const std::optional<IntArray>& dimsIn, bool keepdim) {
  const int64_t nd = t.dim();
  std::vector<bool> red(static_cast<size_t>(std::max<int64_t>(nd, 1)), false);
  if (!dimsIn || dimsIn->empty()) {
    std::fill(red.begin(), red.end(), true);
  } else {
    for (int64_t d : *dimsIn) {
      const int64_t w = maybeWrapDim(d, nd);
      KD_CHECK(!red[w] || nd == 0, "dim {} appears multiple times in the list of dims", w);
      red[w] = true;
    }
  }
  Reduced r;
  IntArray perm, keptSizes;
  r.inner = 1;
  for (int64_t d = 0; d < nd; ++d) {
    if (!red[d]) {
      perm.push_back(d);
      keptSizes.push_back(t.sizes()[d]);
      r.outShape.push_back(t.sizes()[d]);
    } else if (keepdim) {
      r.outShape.push_back(1);
    }
  }
  for (int64_t d = 0; d < nd; ++d)
    if (red[d]) {
      perm.push_back(d);
      r.inner *= t.sizes()[d];
    }
  r.outer = 1;
  for (int64_t s : keptSizes) r.outer *= s;
  r.x = nd == 0 ? t.reshape({1}) : t.permute(perm).contiguous();
  return r;
}

std::optional<int64_t> correctionOf(const Args& a, size_t i) { return a.optInt(i); }

// std_mean / var_mean: (std or var, mean).
template <bool Std, int Kind>  // Kind 0: (self, unbiased); 1: (self, dim, unbiased, keepdim); 2: correction
void statMeanK(Stack& s) {
  constexpr size_t n = Kind == 0 ? 2 : 4;
  Args a(s, n);
  const Tensor self = a.tensor(0);
  std::optional<IntArray> dims;
  int64_t correction = 1;
  bool keepdim = false;
  if (Kind == 0) {
    correction = a.toBool(1) ? 1 : 0;
  } else if (Kind == 1) {
    dims = a.optIntList(1);
    correction = a.toBool(2) ? 1 : 0;
    keepdim = a.toBool(3);
  } else {
    dims = a.optIntList(1);
    correction = correctionOf(a, 2).value_or(1);
    keepdim = a.toBool(3);
  }
  KD_CHECK(isFloatingType(self.dtype()), "std and var only support floating point and complex dtypes");
  Reduced r = reduceOf(self, dims, keepdim);
  Tensor sd = Tensor::empty(r.outShape, self.dtype()), mean = Tensor::empty(r.outShape, self.dtype());
  dispatchLoopFloating(self.dtype(), Std ? "std_mean" : "var_mean", [&](auto tag) {
    using T = decltype(tag);
    const T* X = r.x.template data_ptr<T>();
    T* S = sd.template data_ptr<T>();
    T* M = mean.template data_ptr<T>();
    for (int64_t o = 0; o < r.outer; ++o) {
      // Welford in double (ATen's WelfordOps with acc_type double on CPU)
      double m = 0, m2 = 0;
      int64_t cnt = 0;
      for (int64_t i = 0; i < r.inner; ++i) {
        const double v = static_cast<double>(X[o * r.inner + i]);
        ++cnt;
        const double delta = v - m;
        m += delta / static_cast<double>(cnt);
        m2 += delta * (v - m);
      }
      const double div = std::max<double>(0.0, static_cast<double>(cnt - correction));
      double var = m2 / div;
      if (cnt == 0) { m = std::numeric_limits<double>::quiet_NaN(); var = m; }
      S[o] = static_cast<T>(Std ? std::sqrt(var) : var);
      M[o] = static_cast<T>(m);
    }
  });
  a.ret(std::move(sd), std::move(mean));
}

template <bool Mean>
void nansumK(Stack& s) {
  Args a(s, 4);
  const Tensor self = a.tensor(0);
  ScalarType dt = a.optDtype(3);
  if (dt == ScalarType::Undefined) dt = (isIntegralType(self.dtype(), true) && !Mean) ? ScalarType::Long : self.dtype();
  if (Mean)
    KD_CHECK(isFloatingType(self.dtype()), "nanmean(): expected input to have floating point or complex dtype but got {}",
             scalarTypeName(self.dtype()));
  Reduced r = reduceOf(self.to(dt), a.optIntList(1), a.toBool(2));
  Tensor out = Tensor::empty(r.outShape, dt);
  dispatchLoopTypes(dt, Mean ? "nanmean" : "nansum", [&](auto tag) {
    using T = decltype(tag);
    const T* X = r.x.template data_ptr<T>();
    T* O = out.template data_ptr<T>();
    for (int64_t o = 0; o < r.outer; ++o) {
      using Acc = std::conditional_t<isFloat<T>, T, std::conditional_t<std::is_same_v<T, bool>, int64_t, T>>;
      Acc acc = 0;
      int64_t cnt = 0;
      for (int64_t i = 0; i < r.inner; ++i) {
        const T v = X[o * r.inner + i];
        if (isNan(v)) continue;
        acc = static_cast<Acc>(acc + v);
        ++cnt;
      }
      if constexpr (Mean && isFloat<T>) O[o] = static_cast<T>(acc / static_cast<T>(cnt));
      else O[o] = static_cast<T>(acc);
    }
  });
  a.ret(std::move(out));
}

template <bool List>
void countNonzeroK(Stack& s) {
  Args a(s, 2);
  const Tensor self = a.tensor(0);
  std::optional<IntArray> dims;
  if (List) dims = a.intList(1);
  else if (auto d = a.optInt(1)) dims = IntArray{*d};
  if (List && dims->empty()) dims.reset();
  Reduced r = reduceOf(self, dims, false);
  Tensor out = Tensor::empty(r.outShape, ScalarType::Long);
  dispatchLoopTypes(self.dtype(), "count_nonzero", [&](auto tag) {
    using T = decltype(tag);
    const T* X = r.x.template data_ptr<T>();
    int64_t* O = out.data_ptr<int64_t>();
    for (int64_t o = 0; o < r.outer; ++o) {
      int64_t c = 0;
      for (int64_t i = 0; i < r.inner; ++i) c += X[o * r.inner + i] != T(0);
      O[o] = c;
    }
  });
  a.ret(std::move(out));
}

void aminmaxK(Stack& s) {
  Args a(s, 3);
  const Tensor self = a.tensor(0);
  const auto dim = a.optInt(1);
  const bool keepdim = a.toBool(2);
  if (dim) {
    // a dim reduction builds ATen's 64-bit dim mask
    KD_CHECK(self.dim() <= 64, "only tensors with up to 64 dims are supported");
    const int64_t w = maybeWrapDim(*dim, self.dim());
    KD_CHECK(self.dim() == 0 || self.sizes()[w] != 0,
             "aminmax(): Expected reduction dim {} to have non-zero size.", w);
  } else {
    KD_CHECK(self.numel() > 0, "aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.");
  }
  Reduced r = reduceOf(self, dim ? std::optional<IntArray>(IntArray{*dim}) : std::nullopt, keepdim);
  if (!dim && keepdim) r.outShape = IntArray(static_cast<size_t>(self.dim()), 1);
  Tensor mn = Tensor::empty(r.outShape, self.dtype()), mx = Tensor::empty(r.outShape, self.dtype());
  dispatchLoopTypes(self.dtype(), "aminmax_cpu", [&](auto tag) {
    using T = decltype(tag);
    const T* X = r.x.template data_ptr<T>();
    T* A = mn.template data_ptr<T>();
    T* B = mx.template data_ptr<T>();
    for (int64_t o = 0; o < r.outer; ++o) {
      T lo = X[o * r.inner], hi = lo;
      for (int64_t i = 0; i < r.inner; ++i) {
        const T v = X[o * r.inner + i];
        if (isNan(v) || isNan(lo)) { if (!isNan(lo)) lo = v; if (!isNan(hi)) hi = v; continue; }
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
      A[o] = lo;
      B[o] = hi;
    }
  });
  a.ret(std::move(mn), std::move(mx));
}

// ---------------------------------------------------------------- order statistics

// Sorted (value, index) of one row: NaN sorts last (as ATen's comparators); stable.
template <class T>
void sortRow(const T* x, int64_t L, std::vector<std::pair<T, int64_t>>& out) {
  out.resize(static_cast<size_t>(L));
  for (int64_t i = 0; i < L; ++i) out[i] = {x[i], i};
  std::stable_sort(out.begin(), out.end(), [](const auto& p, const auto& q) {
    if (isNan(p.first)) return false;
    if (isNan(q.first)) return true;
    return p.first < q.first;
  });
}

// The k-th smallest (0-based) of v[0..n) moved to v[k], idx permuted alongside: ATen's quick_select_template
// (TH's Sedgewick quickselect, median-of-three pivot) with kthvalue's comparator, NaN above every number. The
// index it leaves at k among equal values is this algorithm's, so it is reproduced step by step.
template <class T>
void quickSelect(T* v, int64_t* idx, int64_t n, int64_t k) {
  auto gt = [](T x, T y) { return (isNan(x) && !isNan(y)) || x > y; };
  auto swp = [v, idx](int64_t i, int64_t j) {
    std::swap(v[i], v[j]);
    std::swap(idx[i], idx[j]);
  };
  int64_t L = 0, R = n - 1;
  while (true) {
    if (R <= L) return;
    if (R == L + 1) {
      if (gt(v[L], v[R])) swp(L, R);
      return;
    }
    swp((L + R) >> 1, L + 1);
    if (gt(v[L + 1], v[R])) swp(L + 1, R);
    if (gt(v[L], v[R])) swp(L, R);
    if (gt(v[L + 1], v[L])) swp(L + 1, L);
    int64_t i = L + 1, j = R;
    const T piv = v[L];
    while (true) {
      do ++i; while (gt(piv, v[i]));
      do --j; while (gt(v[j], piv));
      if (j < i) break;
      swp(i, j);
    }
    swp(L, j);
    if (j <= k) L = i;
    if (j >= k) R = j - 1;
  }
}

// kthvalue / median.dim / nanmedian.dim / mode: (values, indices) along dim.
enum class Pick { Kth, Median, NanMedian, Mode };

std::pair<Tensor, Tensor> pickAlong(const char* op, const Tensor& self, int64_t dimIn, bool keepdim, Pick how, int64_t k) {
  const int64_t dim = maybeWrapDim(dimIn, self.dim());
  const int64_t L = self.dim() == 0 ? 1 : self.sizes()[dim];
  KD_CHECK(how != Pick::Kth || self.dtype() != ScalarType::Bool, "\"kthvalue_cpu\" not implemented for 'Bool'");
  if (how == Pick::Kth) KD_CHECK(k >= 1 && k <= L, "kthvalue(): selected number k out of range for dimension {}", dim);
  KD_CHECK(L > 0 || how == Pick::Mode, "{}(): Expected reduction dim {} to have non-zero size.", op, dim);
  Rows r = rowsOf(self, dim);
  IntArray shape = self.dim() == 0 ? IntArray{} : reducedShape(self, dim, keepdim);
  Tensor vals = Tensor::empty(shape, self.dtype()), idx = Tensor::empty(shape, ScalarType::Long);
  dispatchLoopTypes(self.dtype(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* X = r.x.template data_ptr<T>();
    T* V = vals.template data_ptr<T>();
    int64_t* I = idx.data_ptr<int64_t>();
    std::vector<std::pair<T, int64_t>> row;
    std::vector<T> sel;
    std::vector<int64_t> selIdx;
    for (int64_t o = 0; o < r.outer; ++o) {
      if constexpr (!std::is_same_v<T, bool>) {  // (kthvalue rejects bool above)
        if (how == Pick::Kth) {
          sel.assign(X + o * r.L, X + (o + 1) * r.L);
          selIdx.resize(static_cast<size_t>(r.L));
          for (int64_t i = 0; i < r.L; ++i) selIdx[i] = i;
          quickSelect(sel.data(), selIdx.data(), r.L, k - 1);
          V[o] = sel[k - 1];
          I[o] = selIdx[k - 1];
          continue;
        }
      }
      if (how == Pick::Mode) {
        // ATen's mode kernel: std::sort (unstable) of the (value, index) pairs by value with operator<; the
        // result is the last pair of the first longest run, so its index among ties is std::sort's
        const T* x = X + o * r.L;
        row.resize(static_cast<size_t>(r.L));
        for (int64_t i = 0; i < r.L; ++i) row[i] = {x[i], i};
        std::sort(row.begin(), row.end(), [](const auto& p, const auto& q) { return p.first < q.first; });
      } else {
        sortRow(X + o * r.L, r.L, row);
      }
      size_t pick = 0;
      if (how == Pick::Kth) {
        pick = static_cast<size_t>(k - 1);
      } else if (how == Pick::Median) {
        // NaN anywhere: the result is NaN (the first NaN in sorted order)
        size_t firstNan = row.size();
        for (size_t i = 0; i < row.size(); ++i)
          if (isNan(row[i].first)) { firstNan = i; break; }
        pick = firstNan < row.size() ? firstNan : (row.size() - 1) / 2;
      } else if (how == Pick::NanMedian) {
        size_t cnt = 0;
        for (auto& p : row) cnt += !isNan(p.first);
        pick = cnt == 0 ? 0 : (cnt - 1) / 2;
      } else {
        size_t freq = 0, best = 0;
        for (size_t i = 0; i < row.size(); ++i) {
          ++freq;
          if (i + 1 == row.size() || row[i].first != row[i + 1].first) {
            if (freq > best) { best = freq; pick = i; }
            freq = 0;
          }
        }
      }
      V[o] = row[pick].first;
      I[o] = row[pick].second;
    }
  });
  return {vals, idx};
}

void kthvalueK(Stack& s) {
  Args a(s, 4);
  auto [v, i] = pickAlong("kthvalue", a.tensor(0), a.toInt(2), a.toBool(3), Pick::Kth, a.toInt(1));
  a.ret(std::move(v), std::move(i));
}
template <bool Nan>
void medianDimK(Stack& s) {
  Args a(s, 3);
  auto [v, i] = pickAlong(Nan ? "nanmedian" : "median", a.tensor(0), a.toInt(1), a.toBool(2),
                          Nan ? Pick::NanMedian : Pick::Median, 0);
  a.ret(std::move(v), std::move(i));
}
template <bool Nan>
void medianAllK(Stack& s) {
  Args a(s, 1);
  const Tensor self = a.tensor(0);
  if (self.numel() == 0) {
    a.ret(Tensor::full({}, Scalar(std::numeric_limits<double>::quiet_NaN()), self.dtype()));
    return;
  }
  auto [v, i] = pickAlong(Nan ? "nanmedian" : "median", self.reshape({-1}), 0, false,
                          Nan ? Pick::NanMedian : Pick::Median, 0);
  a.ret(std::move(v));
}
void modeK(Stack& s) {
  Args a(s, 3);
  auto [v, i] = pickAlong("mode", a.tensor(0), a.toInt(1), a.toBool(2), Pick::Mode, 0);
  a.ret(std::move(v), std::move(i));
}

void msortK(Stack& s) {
  Args a(s, 1);
  const Tensor self = a.tensor(0);
  if (self.dim() == 0) { a.ret(self.clone()); return; }
  Rows r = rowsOf(self, 0);
  Tensor y = Tensor::empty({r.outer, r.L}, self.dtype());
  dispatchLoopTypes(self.dtype(), "msort", [&](auto tag) {
    using T = decltype(tag);
    const T* X = r.x.template data_ptr<T>();
    T* Y = y.template data_ptr<T>();
    std::vector<std::pair<T, int64_t>> row;
    for (int64_t o = 0; o < r.outer; ++o) {
      sortRow(X + o * r.L, r.L, row);
      for (int64_t i = 0; i < r.L; ++i) Y[o * r.L + i] = row[i].first;
    }
  });
  a.ret(unrows(y, self, 0));
}

// ---------------------------------------------------------------- unique

// _unique2(self, sorted, return_inverse, return_counts): sorted unique values of the flattened input
// (ATen sorts on CPU whenever sorted=True; unsorted order is the same here), inverse indices in the input's
// shape, counts.
void unique2K(Stack& s) {
  Args a(s, 4);
  const Tensor self = a.tensor(0);
  const bool inverse = a.toBool(2), counts = a.toBool(3);
  const Tensor flat = self.reshape({-1}).contiguous();
  const int64_t n = flat.numel();
  Tensor outV, outInv = Tensor::empty(inverse ? self.sizes() : IntArray{0}, ScalarType::Long), outC;
  dispatchLoopTypes(self.dtype(), "unique", [&](auto tag) {
    using T = decltype(tag);
    const T* X = flat.template data_ptr<T>();
    std::vector<std::pair<T, int64_t>> row;
    sortRow(X, n, row);
    std::vector<T> vals;
    std::vector<int64_t> cnt, inv(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      const bool same = !vals.empty() && (row[i].first == vals.back() || (isNan(row[i].first) && isNan(vals.back()) && false));
      if (!same) { vals.push_back(row[i].first); cnt.push_back(0); }
      ++cnt.back();
      inv[static_cast<size_t>(row[i].second)] = static_cast<int64_t>(vals.size()) - 1;
    }
    outV = Tensor::empty({static_cast<int64_t>(vals.size())}, self.dtype());
    std::copy(vals.begin(), vals.end(), outV.template data_ptr<T>());
    outC = Tensor::empty({counts ? static_cast<int64_t>(cnt.size()) : 0}, ScalarType::Long);
    if (counts) std::copy(cnt.begin(), cnt.end(), outC.data_ptr<int64_t>());
    if (inverse) std::copy(inv.begin(), inv.end(), outInv.data_ptr<int64_t>());
  });
  a.ret(std::move(outV), std::move(outInv), std::move(outC));
}

// unique_consecutive with dim, as ATen's _unique_dim_cpu_template(consecutive = true): runs of equal slices
// along dim (the input with dim moved first, each slice compared whole, NaN unequal) collapse to one; the
// inverse (size self.size(dim)) and the counts are computed whatever the flags say.
void uniqueDimConsecutive(Stack& s, const Tensor& self, int64_t dimIn) {
  Args a(s, 4);
  KD_CHECK_INDEX(self.dim() > 0, "Dimension specified as {} but tensor has no dimensions", dimIn);
  const int64_t dim = maybeWrapDim(dimIn, self.dim());
  int64_t zeros = 0;
  for (int64_t v : self.sizes()) zeros += v == 0;
  if (self.sizes()[dim] == 0) {
    KD_CHECK(zeros == 1, "Number of zero sized dimensions is more than one, so unique cannot be applied ");
    a.ret(Tensor::empty(self.sizes(), self.dtype()), Tensor::empty({0}, ScalarType::Long),
          Tensor::empty({0}, ScalarType::Long));
    return;
  }
  KD_CHECK(zeros == 0, "There are 0 sized dimensions, and they aren't selected, so unique cannot be applied");
  IntArray perm{dim}, back(self.dim());
  for (int64_t d = 0; d < self.dim(); ++d)
    if (d != dim) perm.push_back(d);
  for (int64_t d = 0; d < self.dim(); ++d) back[d] = d == dim ? 0 : (d < dim ? d + 1 : d);  // moveaxis(0, dim)
  const Tensor moved = self.permute(perm).contiguous();
  const int64_t n = moved.sizes()[0], m = moved.numel() / n;
  Tensor out, inverse = Tensor::empty({n}, ScalarType::Long), counts;
  dispatchLoopTypes(self.dtype(), "unique_dim", [&](auto tag) {
    using T = decltype(tag);
    const T* X = moved.data_ptr<T>();
    std::vector<int64_t> firsts, cnt;
    int64_t* inv = inverse.data_ptr<int64_t>();
    for (int64_t i = 0; i < n; ++i) {
      bool same = !firsts.empty();
      for (int64_t k = 0; same && k < m; ++k) same = X[firsts.back() * m + k] == X[i * m + k];
      if (!same) {
        firsts.push_back(i);
        cnt.push_back(0);
      }
      ++cnt.back();
      inv[i] = static_cast<int64_t>(firsts.size()) - 1;
    }
    IntArray shape = moved.sizes();
    shape[0] = static_cast<int64_t>(firsts.size());
    Tensor rows = Tensor::empty(shape, self.dtype());
    T* Y = rows.data_ptr<T>();
    for (size_t r = 0; r < firsts.size(); ++r) std::copy(X + firsts[r] * m, X + (firsts[r] + 1) * m, Y + r * m);
    out = rows.permute(back);
    counts = Tensor::fromVector(cnt, ScalarType::Long);
  });
  a.ret(std::move(out), std::move(inverse), std::move(counts));
}

// unique_consecutive(self, return_inverse, return_counts, dim): without dim (or dim 0 of a 1-d input) runs of
// equal elements of the flattened input; the inverse (input's shape) and counts only when asked for.
void uniqueConsecutiveK(Stack& s) {
  Args a(s, 4);
  const Tensor self = a.tensor(0);
  const bool inverse = a.toBool(1), counts = a.toBool(2);
  const std::optional<int64_t> dim = a.optInt(3);
  if (dim.has_value() && !(*dim == 0 && self.dim() == 1)) {
    uniqueDimConsecutive(s, self, *dim);
    return;
  }
  const Tensor flat = self.reshape({-1}).contiguous();
  const int64_t n = flat.numel();
  Tensor outV, outInv = Tensor::empty(inverse ? self.sizes() : IntArray{0}, ScalarType::Long), outC;
  dispatchLoopTypes(self.dtype(), "unique_consecutive", [&](auto tag) {
    using T = decltype(tag);
    const T* X = flat.template data_ptr<T>();
    std::vector<T> vals;
    std::vector<int64_t> cnt, inv(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      if (vals.empty() || !(X[i] == vals.back())) { vals.push_back(X[i]); cnt.push_back(0); }
      ++cnt.back();
      inv[static_cast<size_t>(i)] = static_cast<int64_t>(vals.size()) - 1;
    }
    outV = Tensor::empty({static_cast<int64_t>(vals.size())}, self.dtype());
    std::copy(vals.begin(), vals.end(), outV.template data_ptr<T>());
    outC = Tensor::empty({counts ? static_cast<int64_t>(cnt.size()) : 0}, ScalarType::Long);
    if (counts) std::copy(cnt.begin(), cnt.end(), outC.data_ptr<int64_t>());
    if (inverse) std::copy(inv.begin(), inv.end(), outInv.data_ptr<int64_t>());
  });
  a.ret(std::move(outV), std::move(outInv), std::move(outC));
}

}  // namespace

void registerReduceExtraOps(OperatorRegistry& r) {
  r.add("aten::cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor", cumprodK);
  r.add("aten::cummax(Tensor self, int dim) -> (Tensor values, Tensor indices)", cumMaxMinK<true>);
  r.add("aten::cummin(Tensor self, int dim) -> (Tensor values, Tensor indices)", cumMaxMinK<false>);
  r.add("aten::logcumsumexp(Tensor self, int dim) -> Tensor", logcumsumexpK);
  r.add("aten::std_mean(Tensor self, bool unbiased=True) -> (Tensor, Tensor)", statMeanK<true, 0>);
  r.add("aten::std_mean.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> (Tensor, Tensor)", statMeanK<true, 1>);
  r.add("aten::std_mean.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> (Tensor, Tensor)", statMeanK<true, 2>);
  r.add("aten::var_mean(Tensor self, bool unbiased=True) -> (Tensor, Tensor)", statMeanK<false, 0>);
  r.add("aten::var_mean.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> (Tensor, Tensor)", statMeanK<false, 1>);
  r.add("aten::var_mean.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> (Tensor, Tensor)", statMeanK<false, 2>);
  r.add("aten::nansum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", nansumK<false>);
  r.add("aten::nanmean(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", nansumK<true>);
  r.add("aten::count_nonzero.dim_IntList(Tensor self, int[] dim) -> Tensor", countNonzeroK<true>);
  r.add("aten::count_nonzero(Tensor self, int? dim=None) -> Tensor", countNonzeroK<false>);
  r.add("aten::aminmax(Tensor self, *, int? dim=None, bool keepdim=False) -> (Tensor min, Tensor max)", aminmaxK);
  r.add("aten::kthvalue(Tensor self, int k, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)", kthvalueK);
  r.add("aten::median(Tensor self) -> Tensor", medianAllK<false>);
  r.add("aten::median.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", medianDimK<false>);
  r.add("aten::nanmedian(Tensor self) -> Tensor", medianAllK<true>);
  r.add("aten::nanmedian.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", medianDimK<true>);
  r.add("aten::mode(Tensor self, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)", modeK);
  r.add("aten::msort(Tensor self) -> Tensor", msortK);
  r.add("aten::_unique2(Tensor self, bool sorted=True, bool return_inverse=False, bool return_counts=False) -> (Tensor, Tensor, Tensor)", unique2K);
  r.add("aten::unique_consecutive(Tensor self, bool return_inverse=False, bool return_counts=False, int? dim=None) -> (Tensor, Tensor, Tensor)", uniqueConsecutiveK);
}

}  // namespace kindling
