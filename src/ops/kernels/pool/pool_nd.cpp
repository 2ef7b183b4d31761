// Pooling and resampling over 1 or 3 spatial dimensions (pool.cpp holds the oneDNN-backed 2-d kernels):
// max_pool1d_with_indices, max_pool3d (+ _with_indices), avg_pool3d, adaptive_{avg,max}_pool{1,3}d,
// upsample_nearest{1,3}d, _upsample_nearest_exact{1,2,3}d, upsample_linear1d, upsample_trilinear3d and
// upsample_bicubic2d (+ their .vec overloads). One direct loop serves every rank: a 1-d or 2-d problem is
// the 3-d one with leading spatial sizes of 1. Output sizes, windows, index formulas (nearest, align_corners,
// cubic A=-0.75) and error messages follow ATen 1.13 (Pool.h, UpSample.h, AdaptivePooling.h).
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "ops/registry/kernel_args.h"
#include "ops/registry/operator.h"
#include "tensor/tensor_iterator.h"

namespace kindling {

namespace {

template <class T> constexpr bool isFloat = std::is_floating_point_v<T>;

int64_t divRtn(int64_t x, int64_t y) {
  int64_t q = x / y, r = x % y;
  if (r != 0 && ((r < 0) != (y < 0))) --q;
  return q;
}

int64_t poolOutSize(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil) {
  int64_t out = divRtn(in + 2 * pad - dil * (k - 1) - 1 + (ceil ? stride - 1 : 0), stride) + 1;
  if (ceil && (out - 1) * stride >= in + pad) --out;
  return out;
}

std::string joinSizes(const IntArray& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) s += 'x';
    s += std::to_string(v[i]);
  }
  return s;
}

// The input viewed as [B, D, H, W] (B = batch * channels) for S spatial dims; checks the rank.
struct Spatial {
  int S;
  bool batched;
  IntArray lead;   // sizes before the spatial dims (N, C) or (C)
  int64_t B;
  int64_t D, H, W;
  Tensor x;        // contiguous input
};

Spatial spatialOf(const char* op, const Tensor& in, int S, bool allowUnbatched = true) {
  const int64_t nd = in.dim();
  KD_CHECK((nd == S + 2) || (allowUnbatched && nd == S + 1), "{}: Expected {}D or {}D input tensor, but got {}", op,
           S + 1, S + 2, in.sizesStr());
  Spatial sp;
  sp.S = S;
  sp.batched = nd == S + 2;
  sp.x = in.contiguous();
  sp.B = 1;
  for (int64_t d = 0; d < nd - S; ++d) {
    sp.lead.push_back(in.sizes()[d]);
    sp.B *= in.sizes()[d];
  }
  IntArray sz(3, 1);
  for (int i = 0; i < S; ++i) sz[3 - S + i] = in.sizes()[nd - S + i];
  sp.D = sz[0];
  sp.H = sz[1];
  sp.W = sz[2];
  return sp;
}

Tensor makeOut(const Spatial& sp, const IntArray& outSpatial, ScalarType dt) {
  IntArray shape = sp.lead;
  for (int i = 0; i < sp.S; ++i) shape.push_back(outSpatial[3 - sp.S + i]);
  return Tensor::empty(shape, dt);
}

// kernel/stride/padding/dilation lists → 3 entries each (leading dims: kernel 1, stride 1, pad 0, dil 1)
struct PoolParams {
  int64_t k[3], s[3], p[3], d[3];
  bool ceil;
};

PoolParams poolParams(const char* op, int S, const IntArray& k, const IntArray& st, const IntArray& pad,
                      const IntArray& dil, bool ceil) {
  const char* what = S == 1 ? "a single int" : (S == 2 ? "a tuple of two ints" : "a tuple of three ints");
  KD_CHECK(k.size() == 1 || static_cast<int>(k.size()) == S, "{}: kernel_size must either be a single int, or {}",
           op, what);
  KD_CHECK(st.empty() || st.size() == 1 || static_cast<int>(st.size()) == S,
           "{}: stride must either be omitted, a single int, or {}", op, what);
  KD_CHECK(pad.size() == 1 || static_cast<int>(pad.size()) == S, "{}: padding must either be a single int, or {}",
           op, what);
  KD_CHECK(dil.size() == 1 || static_cast<int>(dil.size()) == S, "{}: dilation must be either a single int, or {}",
           op, what);
  PoolParams pp;
  pp.ceil = ceil;
  for (int i = 0; i < 3; ++i) {
    const int j = i - (3 - S);
    if (j < 0) {
      pp.k[i] = 1; pp.s[i] = 1; pp.p[i] = 0; pp.d[i] = 1;
      continue;
    }
    pp.k[i] = k.size() == 1 ? k[0] : k[j];
    pp.s[i] = st.empty() ? pp.k[i] : (st.size() == 1 ? st[0] : st[j]);
    pp.p[i] = pad.size() == 1 ? pad[0] : pad[j];
    pp.d[i] = dil.size() == 1 ? dil[0] : dil[j];
    KD_CHECK(pp.k[i] > 0, "kernel_size should be greater than zero, but got kernel_size: {}", pp.k[i]);
    KD_CHECK(pp.s[i] > 0, "stride should be greater than zero, but got stride: {}", pp.s[i]);
    KD_CHECK(pp.d[i] > 0, "dilation should be greater than zero, but got dilation: {}", pp.d[i]);
    KD_CHECK(pp.p[i] >= 0, "pad must be non-negative, but got pad: {}", pp.p[i]);
    KD_CHECK(pp.p[i] <= ((pp.k[i] - 1) * pp.d[i] + 1) / 2,
             "pad should be at most half of effective kernel size, but got pad={}, kernel_size={} and dilation={}",
             pp.p[i], pp.k[i], pp.d[i]);
  }
  return pp;
}

IntArray poolOutput(const Spatial& sp, const PoolParams& pp) {
  const int64_t in[3] = {sp.D, sp.H, sp.W};
  IntArray o(3);
  for (int i = 0; i < 3; ++i) o[i] = poolOutSize(in[i], pp.k[i], pp.p[i], pp.s[i], pp.d[i], pp.ceil);
  bool ok = true;
  for (int i = 0; i < 3; ++i) ok = ok && o[i] > 0;
  if (!ok) {
    IntArray is(in + 3 - sp.S, in + 3), os(o.begin() + (3 - sp.S), o.end());
    KD_CHECK(false, "Given input size: ({}x{}). Calculated output size: ({}x{}). Output size is too small",
             sp.B == 0 ? 0 : (sp.lead.empty() ? 1 : sp.lead.back()), joinSizes(is),
             sp.lead.empty() ? 1 : sp.lead.back(), joinSizes(os));
  }
  return o;
}

std::pair<Tensor, Tensor> maxPoolNd(const char* op, const Tensor& in, int S, const IntArray& k, const IntArray& st,
                                    const IntArray& pad, const IntArray& dil, bool ceil, bool wantIndices) {
  Spatial sp = spatialOf(op, in, S);
  PoolParams pp = poolParams(op, S, k, st, pad, dil, ceil);
  KD_CHECK(sp.D > 0 && sp.H > 0 && sp.W > 0, "{}: Expected input's non-batch dimensions to have positive length, but "
           "input has a shape of {}", op, in.sizesStr());
  // ATen's 3-d max pool also rejects an empty channel dim (dim 0 of an unbatched input)
  for (int64_t d = in.dim() - 4; S == 3 && d < in.dim(); ++d)
    KD_CHECK(in.sizes()[d] > 0, "max_pool3d_with_indices_out_cpu_template(): Expected input's non-batch dimensions to "
             "have positive length, but input has a shape of {} and non-batch dimension {} has length zero!",
             in.sizesStr(), d);
  IntArray o = poolOutput(sp, pp);
  KD_CHECK(in.dtype() != ScalarType::Bool && !isComplexType(in.dtype()), "\"{}\" not implemented for '{}'", op,
           scalarTypeName(in.dtype()));
  Tensor out = makeOut(sp, o, in.dtype());
  Tensor idx = makeOut(sp, o, ScalarType::Long);
  const int64_t OD = o[0], OH = o[1], OW = o[2];
  dispatchLoopTypesNoBool(in.dtype(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* X = sp.x.data_ptr<T>();
    T* Y = out.data_ptr<T>();
    int64_t* I = idx.data_ptr<int64_t>();
    for (int64_t b = 0; b < sp.B; ++b) {
      const T* xb = X + b * sp.D * sp.H * sp.W;
      for (int64_t od = 0; od < OD; ++od)
        for (int64_t oh = 0; oh < OH; ++oh)
          for (int64_t ow = 0; ow < OW; ++ow) {
            const int64_t d0 = od * pp.s[0] - pp.p[0], h0 = oh * pp.s[1] - pp.p[1], w0 = ow * pp.s[2] - pp.p[2];
            T best = std::numeric_limits<T>::lowest();
            if constexpr (std::numeric_limits<T>::has_infinity) best = -std::numeric_limits<T>::infinity();
            int64_t bi = -1;
            bool nan = false;
            for (int64_t i = 0; i < pp.k[0] && !nan; ++i) {
              const int64_t d = d0 + i * pp.d[0];
              if (d < 0 || d >= sp.D) continue;
              for (int64_t j = 0; j < pp.k[1] && !nan; ++j) {
                const int64_t h = h0 + j * pp.d[1];
                if (h < 0 || h >= sp.H) continue;
                for (int64_t l = 0; l < pp.k[2]; ++l) {
                  const int64_t w = w0 + l * pp.d[2];
                  if (w < 0 || w >= sp.W) continue;
                  const int64_t flat = (d * sp.H + h) * sp.W + w;
                  const T v = xb[flat];
                  bool isNan = false;
                  if constexpr (isFloat<T>) isNan = std::isnan(v);
                  if (bi < 0 || v > best || isNan) {
                    best = v;
                    bi = flat;
                    if (isNan) { nan = true; break; }
                  }
                }
              }
            }
            const int64_t oi = b * OD * OH * OW + (od * OH + oh) * OW + ow;
            Y[oi] = best;
            I[oi] = bi;
          }
    }
  });
  return {out, wantIndices ? idx : Tensor()};
}

void maxPool1dWithIndicesOp(Stack& s) {
  Args a(s, 6);
  auto [o, i] = maxPoolNd("max_pool1d", a.tensor(0), 1, a.intList(1), a.intList(2), a.intList(3), a.intList(4),
                          a.toBool(5), true);
  a.ret(std::move(o), std::move(i));
}
void maxPool3dOp(Stack& s) {
  Args a(s, 6);
  auto r = maxPoolNd("max_pool3d", a.tensor(0), 3, a.intList(1), a.intList(2), a.intList(3), a.intList(4),
                     a.toBool(5), false);
  a.ret(std::move(r.first));
}
void maxPool3dWithIndicesOp(Stack& s) {
  Args a(s, 6);
  auto [o, i] = maxPoolNd("max_pool3d_with_indices", a.tensor(0), 3, a.intList(1), a.intList(2), a.intList(3),
                          a.intList(4), a.toBool(5), true);
  a.ret(std::move(o), std::move(i));
}

void avgPool3dOp(Stack& s) {
  Args a(s, 7);
  const Tensor in = a.tensor(0);
  const char* op = "avg_pool3d";
  Spatial sp = spatialOf(op, in, 3);
  const IntArray dil{1};
  PoolParams pp = poolParams(op, 3, a.intList(1), a.intList(2), a.intList(3), dil, a.toBool(4));
  const bool countPad = a.toBool(5);
  const auto divisor = a.optInt(6);
  KD_CHECK(!divisor || *divisor != 0, "divisor must be not zero");
  IntArray o = poolOutput(sp, pp);
  KD_CHECK(isFloatingType(in.dtype()) || in.dtype() == ScalarType::Long, "\"{}\" not implemented for '{}'", op,
           scalarTypeName(in.dtype()));
  Tensor out = makeOut(sp, o, in.dtype());
  dispatchLoopTypesNoBool(in.dtype(), op, [&](auto tag) {
    using T = decltype(tag);
    using Acc = std::conditional_t<isFloat<T>, T, int64_t>;
    const T* X = sp.x.data_ptr<T>();
    T* Y = out.data_ptr<T>();
    const int64_t in3[3] = {sp.D, sp.H, sp.W};
    for (int64_t b = 0; b < sp.B; ++b)
      for (int64_t od = 0; od < o[0]; ++od)
        for (int64_t oh = 0; oh < o[1]; ++oh)
          for (int64_t ow = 0; ow < o[2]; ++ow) {
            const int64_t oo[3] = {od, oh, ow};
            int64_t st[3], en[3], ps[3];
            for (int i = 0; i < 3; ++i) {
              st[i] = oo[i] * pp.s[i] - pp.p[i];
              en[i] = std::min(st[i] + pp.k[i], in3[i] + pp.p[i]);
              ps[i] = en[i] - st[i];
              st[i] = std::max<int64_t>(st[i], 0);
              en[i] = std::min(en[i], in3[i]);
            }
            Acc sum = 0;
            for (int64_t d = st[0]; d < en[0]; ++d)
              for (int64_t h = st[1]; h < en[1]; ++h)
                for (int64_t w = st[2]; w < en[2]; ++w) sum += X[((b * sp.D + d) * sp.H + h) * sp.W + w];
            int64_t div;
            if (divisor) div = *divisor;
            else if (countPad) div = ps[0] * ps[1] * ps[2];
            else div = (en[0] - st[0]) * (en[1] - st[1]) * (en[2] - st[2]);
            T r;
            if constexpr (isFloat<T>) r = static_cast<T>(sum / static_cast<T>(div));
            else r = static_cast<T>(div == 0 ? 0 : sum / div);
            Y[((b * o[0] + od) * o[1] + oh) * o[2] + ow] = r;
          }
  });
  a.ret(std::move(out));
}

inline int64_t adStart(int64_t o, int64_t out, int64_t in) { return (o * in) / out; }
inline int64_t adEnd(int64_t o, int64_t out, int64_t in) { return ((o + 1) * in + out - 1) / out; }

std::pair<Tensor, Tensor> adaptivePoolNd(const char* op, const Tensor& in, int S, const IntArray& outSizeIn, bool isMax) {
  KD_CHECK(static_cast<int>(outSizeIn.size()) == S || outSizeIn.size() == 1, "{}: internal error: output_size.size() must be {}", op, S);
  Spatial sp = spatialOf(op, in, S);
  for (int64_t d = sp.batched ? 1 : 0; d < in.dim(); ++d)
    KD_CHECK(in.sizes()[d] > 0, "{}(): Expected input to have non-zero size for non-batch dimensions, but input has "
             "sizes {} with dimension {} being empty", op, in.sizesStr(), d);
  IntArray o(3, 1);
  for (int i = 0; i < S; ++i) o[3 - S + i] = outSizeIn.size() == 1 ? outSizeIn[0] : outSizeIn[i];
  for (int i = 0; i < 3; ++i) KD_CHECK(o[i] >= 0, "{}: elements of output_size must be greater than or equal to 0 but received {}", op, o[i]);
  KD_CHECK(isFloatingType(in.dtype()), "\"{}\" not implemented for '{}'", op, scalarTypeName(in.dtype()));
  Tensor out = makeOut(sp, o, in.dtype());
  Tensor idx = isMax ? makeOut(sp, o, ScalarType::Long) : Tensor();
  dispatchLoopFloating(in.dtype(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* X = sp.x.data_ptr<T>();
    T* Y = out.data_ptr<T>();
    int64_t* I = isMax ? idx.data_ptr<int64_t>() : nullptr;
    for (int64_t b = 0; b < sp.B; ++b)
      for (int64_t od = 0; od < o[0]; ++od)
        for (int64_t oh = 0; oh < o[1]; ++oh)
          for (int64_t ow = 0; ow < o[2]; ++ow) {
            const int64_t d0 = adStart(od, o[0], sp.D), d1 = adEnd(od, o[0], sp.D);
            const int64_t h0 = adStart(oh, o[1], sp.H), h1 = adEnd(oh, o[1], sp.H);
            const int64_t w0 = adStart(ow, o[2], sp.W), w1 = adEnd(ow, o[2], sp.W);
            const int64_t oi = ((b * o[0] + od) * o[1] + oh) * o[2] + ow;
            if (isMax) {
              T best = -std::numeric_limits<T>::infinity();
              int64_t bi = -1;
              for (int64_t d = d0; d < d1; ++d)
                for (int64_t h = h0; h < h1; ++h)
                  for (int64_t w = w0; w < w1; ++w) {
                    const int64_t flat = (d * sp.H + h) * sp.W + w;
                    const T v = X[b * sp.D * sp.H * sp.W + flat];
                    if (bi < 0 || v > best || std::isnan(v)) {
                      best = v;
                      bi = flat;
                      if (std::isnan(v)) { d = d1; h = h1; break; }
                    }
                  }
              Y[oi] = best;
              I[oi] = bi;
            } else {
              T sum = 0;
              for (int64_t d = d0; d < d1; ++d)
                for (int64_t h = h0; h < h1; ++h)
                  for (int64_t w = w0; w < w1; ++w) sum += X[((b * sp.D + d) * sp.H + h) * sp.W + w];
              Y[oi] = sum / static_cast<T>((d1 - d0) * (h1 - h0) * (w1 - w0));
            }
          }
  });
  return {out, idx};
}

void adaptiveAvgPool3dOp(Stack& s) {
  Args a(s, 2);
  auto r = adaptivePoolNd("adaptive_avg_pool3d", a.tensor(0), 3, a.intList(1, 3), false);
  a.ret(std::move(r.first));
}
void adaptiveMaxPool1dOp(Stack& s) {
  Args a(s, 2);
  auto [o, i] = adaptivePoolNd("adaptive_max_pool1d", a.tensor(0), 1, a.intList(1, 1), true);
  a.ret(std::move(o), std::move(i));
}
void adaptiveMaxPool3dOp(Stack& s) {
  Args a(s, 2);
  auto [o, i] = adaptivePoolNd("adaptive_max_pool3d", a.tensor(0), 3, a.intList(1, 3), true);
  a.ret(std::move(o), std::move(i));
}

// ---------------------------------------------------------------- upsampling

enum class Mode { Nearest, NearestExact, Linear, Cubic };

template <class T>
T computeScale(int64_t in, int64_t out, bool alignCorners, std::optional<double> scale, bool linear) {
  if (linear && alignCorners) return out > 1 ? static_cast<T>(in - 1) / static_cast<T>(out - 1) : T(0);
  return scale && *scale > 0 ? static_cast<T>(1.0 / *scale) : static_cast<T>(in) / static_cast<T>(out);
}

int64_t nearestSrc(int64_t dst, int64_t in, int64_t out, float scale, bool exact) {
  if (exact) return std::min(static_cast<int64_t>(std::floor((static_cast<float>(dst) + 0.5f) * scale)), in - 1);
  if (out == in) return dst;
  if (out == 2 * in) return dst >> 1;
  return std::min(static_cast<int64_t>(std::floor(static_cast<float>(dst) * scale)), in - 1);
}

template <class T>
T linearSrc(T scale, int64_t dst, bool alignCorners, bool cubic) {
  if (alignCorners) return scale * static_cast<T>(dst);
  T src = scale * (static_cast<T>(dst) + T(0.5)) - T(0.5);
  return (!cubic && src < T(0)) ? T(0) : src;
}

template <class T> T cubic1(T x, T A) { return ((A + 2) * x - (A + 3)) * x * x + 1; }
template <class T> T cubic2(T x, T A) { return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A; }

Tensor upsampleNd(const char* op, const Tensor& in, int S, const IntArray& outSize, Mode mode, bool alignCorners,
                  const std::vector<std::optional<double>>& scales) {
  KD_CHECK(in.dim() == S + 2, "Expected {}D input (got {}D input)", S + 2, in.dim());  // unbatched is not accepted
  KD_CHECK(static_cast<int>(outSize.size()) == S, "It is expected output_size equals to {}, but got size {}", S,
           outSize.size());
  Spatial sp = spatialOf(op, in, S, false);
  IntArray o(3, 1);
  for (int i = 0; i < S; ++i) o[3 - S + i] = outSize[i];
  const int64_t in3[3] = {sp.D, sp.H, sp.W};
  bool positive = true;
  for (int i = 0; i < 3; ++i) positive = positive && in3[i] > 0 && o[i] > 0;
  KD_CHECK(positive, "Input and output sizes should be greater than 0, but got input ({}) and output ({})",
           in.sizesStr(), joinSizes(outSize));
  std::optional<double> sc[3];
  for (int i = 0; i < S && i < static_cast<int>(scales.size()); ++i) sc[3 - S + i] = scales[i];
  Tensor out = makeOut(sp, o, in.dtype());
  if (mode == Mode::Nearest || mode == Mode::NearestExact) {
    std::vector<int64_t> src[3];
    for (int i = 0; i < 3; ++i) {
      const float s = computeScale<float>(in3[i], o[i], false, sc[i], false);
      for (int64_t j = 0; j < o[i]; ++j) src[i].push_back(nearestSrc(j, in3[i], o[i], s, mode == Mode::NearestExact));
    }
    const size_t es = in.element_size();
    const char* X = static_cast<const char*>(sp.x.data_ptr());
    char* Y = static_cast<char*>(out.data_ptr());
    int64_t oi = 0;
    for (int64_t b = 0; b < sp.B; ++b)
      for (int64_t d = 0; d < o[0]; ++d)
        for (int64_t h = 0; h < o[1]; ++h)
          for (int64_t w = 0; w < o[2]; ++w, ++oi)
            std::memcpy(Y + oi * es, X + (((b * sp.D + src[0][d]) * sp.H + src[1][h]) * sp.W + src[2][w]) * es, es);
    return out;
  }
  KD_CHECK(isFloatingType(in.dtype()), "\"{}\" not implemented for '{}'", op, scalarTypeName(in.dtype()));
  dispatchLoopFloating(in.dtype(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* X = sp.x.data_ptr<T>();
    T* Y = out.data_ptr<T>();
    if (mode == Mode::Linear) {
      // per axis: two source indices and weights (a size-1 leading axis gives weights 1, 0)
      std::vector<int64_t> i0[3], i1[3];
      std::vector<T> l0[3], l1[3];
      for (int a = 0; a < 3; ++a) {
        const T s = computeScale<T>(in3[a], o[a], alignCorners, sc[a], true);
        for (int64_t j = 0; j < o[a]; ++j) {
          if (a < 3 - S) {
            i0[a].push_back(j); i1[a].push_back(j); l0[a].push_back(T(1)); l1[a].push_back(T(0));
            continue;
          }
          const T r = linearSrc<T>(s, j, alignCorners, false);
          const int64_t f = static_cast<int64_t>(r);
          const int64_t n = f + (f < in3[a] - 1 ? 1 : 0);
          const T lam = r - static_cast<T>(f);
          i0[a].push_back(f); i1[a].push_back(n); l0[a].push_back(T(1) - lam); l1[a].push_back(lam);
        }
      }
      int64_t oi = 0;
      for (int64_t b = 0; b < sp.B; ++b) {
        const T* xb = X + b * sp.D * sp.H * sp.W;
        auto at = [&](int64_t d, int64_t h, int64_t w) { return xb[(d * sp.H + h) * sp.W + w]; };
        for (int64_t d = 0; d < o[0]; ++d)
          for (int64_t h = 0; h < o[1]; ++h)
            for (int64_t w = 0; w < o[2]; ++w, ++oi) {
              const int64_t d0 = i0[0][d], d1 = i1[0][d], h0 = i0[1][h], h1 = i1[1][h], w0 = i0[2][w], w1 = i1[2][w];
              const T ld0 = l0[0][d], ld1 = l1[0][d], lh0 = l0[1][h], lh1 = l1[1][h], lw0 = l0[2][w], lw1 = l1[2][w];
              T v;
              if (S == 1) {
                v = lw0 * at(0, 0, w0) + lw1 * at(0, 0, w1);
              } else {
                v = ld0 * (lh0 * (lw0 * at(d0, h0, w0) + lw1 * at(d0, h0, w1)) +
                           lh1 * (lw0 * at(d0, h1, w0) + lw1 * at(d0, h1, w1))) +
                    ld1 * (lh0 * (lw0 * at(d1, h0, w0) + lw1 * at(d1, h0, w1)) +
                           lh1 * (lw0 * at(d1, h1, w0) + lw1 * at(d1, h1, w1)));
              }
              Y[oi] = v;
            }
      }
      return;
    }
    // bicubic (2-d): 4x4 neighbourhood with clamped indices
    const T A = T(-0.75);
    const T sh = computeScale<T>(sp.H, o[1], alignCorners, sc[1], true);
    const T sw = computeScale<T>(sp.W, o[2], alignCorners, sc[2], true);
    int64_t oi = 0;
    for (int64_t b = 0; b < sp.B; ++b) {
      const T* xb = X + b * sp.H * sp.W;
      auto at = [&](int64_t h, int64_t w) {
        h = std::min(std::max<int64_t>(h, 0), sp.H - 1);
        w = std::min(std::max<int64_t>(w, 0), sp.W - 1);
        return xb[h * sp.W + w];
      };
      for (int64_t h = 0; h < o[1]; ++h) {
        const T rh = linearSrc<T>(sh, h, alignCorners, true);
        const int64_t ih = static_cast<int64_t>(std::floor(rh));
        const T th = rh - static_cast<T>(ih);
        const T ch[4] = {cubic2<T>(th + 1, A), cubic1<T>(th, A), cubic1<T>(1 - th, A), cubic2<T>(2 - th, A)};
        for (int64_t w = 0; w < o[2]; ++w, ++oi) {
          const T rw = linearSrc<T>(sw, w, alignCorners, true);
          const int64_t iw = static_cast<int64_t>(std::floor(rw));
          const T tw = rw - static_cast<T>(iw);
          const T cw[4] = {cubic2<T>(tw + 1, A), cubic1<T>(tw, A), cubic1<T>(1 - tw, A), cubic2<T>(2 - tw, A)};
          T rows[4];
          for (int i = 0; i < 4; ++i) {
            rows[i] = at(ih - 1 + i, iw - 1) * cw[0] + at(ih - 1 + i, iw) * cw[1] + at(ih - 1 + i, iw + 1) * cw[2] +
                      at(ih - 1 + i, iw + 2) * cw[3];
          }
          Y[oi] = rows[0] * ch[0] + rows[1] * ch[1] + rows[2] * ch[2] + rows[3] * ch[3];
        }
      }
    }
  });
  return out;
}

IntArray vecSize(const Tensor& in, int S, const std::optional<IntArray>& size,
                 const std::optional<std::vector<double>>& scales, std::vector<std::optional<double>>& scOut) {
  KD_CHECK(size.has_value() != scales.has_value(), "Must specify exactly one of output_size and scale_factors");
  scOut.assign(static_cast<size_t>(S), std::nullopt);
  if (size) return *size;
  KD_CHECK(static_cast<int>(scales->size()) == S, "It is expected scale_factors equals to {}, but got size {}", S,
           scales->size());
  KD_CHECK(in.dim() == S + 2, "Expected {}D input (got {}D input)", S + 2, in.dim());
  IntArray o;
  for (int i = 0; i < S; ++i) {
    o.push_back(static_cast<int64_t>(std::floor(static_cast<double>(in.sizes()[2 + i]) * (*scales)[i])));
    scOut[i] = (*scales)[i];
  }
  return o;
}

std::optional<std::vector<double>> optDoubleList(const IValue& v) {
  if (v.isNone()) return std::nullopt;
  return v.toDoubleVector();
}

template <int S, Mode M>
void upsampleOp(Stack& s) {
  // (self, output_size, [align_corners,] scales...)
  constexpr bool hasAlign = M == Mode::Linear || M == Mode::Cubic;
  constexpr size_t n = 2 + (hasAlign ? 1 : 0) + S;
  Args a(s, n);
  std::vector<std::optional<double>> sc;
  for (int i = 0; i < S; ++i) sc.push_back(a.optDouble(2 + (hasAlign ? 1 : 0) + i));
  static const char* names[] = {"upsample_nearest", "_upsample_nearest_exact", "upsample_linear", "upsample_bicubic"};
  Tensor r = upsampleNd(names[static_cast<int>(M)], a.tensor(0), S, a.intList(1, S), M, hasAlign ? a.toBool(2) : false, sc);
  a.ret(std::move(r));
}

template <int S, Mode M>
void upsampleVecOp(Stack& s) {
  constexpr bool hasAlign = M == Mode::Linear || M == Mode::Cubic;
  Args a(s, hasAlign ? 4 : 3);
  const Tensor in = a.tensor(0);
  std::vector<std::optional<double>> sc;
  IntArray o = vecSize(in, S, a.optIntList(1), optDoubleList(a[hasAlign ? 3 : 2]), sc);
  static const char* names[] = {"upsample_nearest", "_upsample_nearest_exact", "upsample_linear", "upsample_bicubic"};
  Tensor r = upsampleNd(names[static_cast<int>(M)], in, S, o, M, hasAlign ? a.toBool(2) : false, sc);
  a.ret(std::move(r));
}

}  // namespace

void registerPoolNdOps(OperatorRegistry& r) {
  r.add("aten::max_pool1d_with_indices(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=[0], int[1] dilation=[1], bool ceil_mode=False) -> (Tensor, Tensor)", maxPool1dWithIndicesOp);
  r.add("aten::max_pool3d(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, int[3] dilation=1, bool ceil_mode=False) -> Tensor", maxPool3dOp);
  r.add("aten::max_pool3d_with_indices(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, int[3] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)", maxPool3dWithIndicesOp);
  r.add("aten::avg_pool3d(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor", avgPool3dOp);
  r.add("aten::adaptive_avg_pool3d(Tensor self, int[3] output_size) -> Tensor", adaptiveAvgPool3dOp);
  r.add("aten::adaptive_max_pool1d(Tensor self, int[1] output_size) -> (Tensor, Tensor)", adaptiveMaxPool1dOp);
  r.add("aten::adaptive_max_pool3d(Tensor self, int[3] output_size) -> (Tensor, Tensor)", adaptiveMaxPool3dOp);
  r.add("aten::upsample_nearest1d(Tensor self, SymInt[1] output_size, float? scales=None) -> Tensor", upsampleOp<1, Mode::Nearest>);
  r.add("aten::upsample_nearest1d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor", upsampleVecOp<1, Mode::Nearest>);
  r.add("aten::upsample_nearest3d(Tensor self, SymInt[3] output_size, float? scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor", upsampleOp<3, Mode::Nearest>);
  r.add("aten::upsample_nearest3d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor", upsampleVecOp<3, Mode::Nearest>);
  r.add("aten::_upsample_nearest_exact1d(Tensor self, SymInt[1] output_size, float? scales=None) -> Tensor", upsampleOp<1, Mode::NearestExact>);
  r.add("aten::_upsample_nearest_exact1d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor", upsampleVecOp<1, Mode::NearestExact>);
  r.add("aten::_upsample_nearest_exact2d(Tensor self, SymInt[2] output_size, float? scales_h=None, float? scales_w=None) -> Tensor", upsampleOp<2, Mode::NearestExact>);
  r.add("aten::_upsample_nearest_exact2d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor", upsampleVecOp<2, Mode::NearestExact>);
  r.add("aten::_upsample_nearest_exact3d(Tensor self, SymInt[3] output_size, float? scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor", upsampleOp<3, Mode::NearestExact>);
  r.add("aten::_upsample_nearest_exact3d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor", upsampleVecOp<3, Mode::NearestExact>);
  r.add("aten::upsample_linear1d(Tensor self, SymInt[1] output_size, bool align_corners, float? scales=None) -> Tensor", upsampleOp<1, Mode::Linear>);
  r.add("aten::upsample_linear1d.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor", upsampleVecOp<1, Mode::Linear>);
  r.add("aten::upsample_trilinear3d(Tensor self, SymInt[3] output_size, bool align_corners, float? scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor", upsampleOp<3, Mode::Linear>);
  r.add("aten::upsample_trilinear3d.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor", upsampleVecOp<3, Mode::Linear>);
  r.add("aten::upsample_bicubic2d(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor", upsampleOp<2, Mode::Cubic>);
  r.add("aten::upsample_bicubic2d.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor", upsampleVecOp<2, Mode::Cubic>);
}

}  // namespace kindling
