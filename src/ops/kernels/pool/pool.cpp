// Pooling and resampling kernels: upsample_nearest2d / upsample_bilinear2d (ATen's index and weight
// formulas), max_pool2d_with_indices, max_pool{1,2}d (oneDNN for float32, direct loop otherwise), avg_pool{1,2}d and
// adaptive_{avg,max}_pool{1,2}d (direct loops: PyTorch's divisor rules for ceil_mode + count_include_pad and
// adaptive windows are not what oneDNN computes). Output sizes, windows and errors follow ATen's
// Pool.h / AdaptiveAveragePooling.cpp. Outputs keep a channels_last input's layout, as PyTorch does.
#include <dnnl.hpp>

#include <cmath>
#include <cstring>
#include <limits>

#include "ops/registry/kernel_args.h"
#include "ops/kernels/common/onednn_utils.h"
#include "ops/registry/operator.h"
#include "tensor/tensor_iterator.h"

namespace kindling {

namespace {

int64_t divRtn(int64_t x, int64_t y) {
  int64_t q = x / y, r = x % y;
  if (r != 0 && ((r < 0) != (y < 0))) --q;
  return q;
}

/// ATen's pooling_output_shape.
int64_t poolOutputSize(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil) {
  int64_t out = divRtn(in + 2 * pad - dil * (k - 1) - 1 + (ceil ? stride - 1 : 0), stride) + 1;
  if (ceil && (out - 1) * stride >= in + pad) --out;
  return out;
}

IntArray nchwStridesChannelsLast(const IntArray& sizes) {
  // [N, C, H, W] channels-last strides
  return {sizes[1] * sizes[2] * sizes[3], 1, sizes[3] * sizes[1], sizes[1]};
}

bool suggestsChannelsLast(const Tensor& t) {
  if (t.dim() != 4 || t.is_contiguous()) return false;
  const IntArray want = nchwStridesChannelsLast(t.sizes());
  for (int d = 0; d < 4; ++d)
    if (t.sizes()[d] != 1 && t.strides()[d] != want[d]) return false;
  return true;
}

Tensor emptyLike4d(const IntArray& sizes, ScalarType dt, bool channelsLast) {
  return channelsLast ? Tensor::emptyStrided(sizes, nchwStridesChannelsLast(sizes), dt) : Tensor::empty(sizes, dt);
}

struct Pool2dParams {
  int64_t kH, kW, sH, sW, pH, pW, dH, dW;
  bool ceil;
};

Pool2dParams parsePool2d(const char* op, const IntArray& k, const IntArray& st, const IntArray& pad,
                         const IntArray& dil, bool ceil) {
  KD_CHECK(k.size() == 1 || k.size() == 2, "{}: kernel_size must either be a single int, or a tuple of two ints", op);
  KD_CHECK(st.empty() || st.size() == 1 || st.size() == 2,
           "{}: stride must either be omitted, a single int, or a tuple of two ints", op);
  KD_CHECK(pad.size() == 1 || pad.size() == 2, "{}: padding must either be a single int, or a tuple of two ints", op);
  KD_CHECK(dil.size() == 1 || dil.size() == 2, "{}: dilation must be either a single int, or a tuple of two ints", op);
  Pool2dParams p;
  p.kH = k[0];
  p.kW = k.size() == 1 ? k[0] : k[1];
  p.sH = st.empty() ? p.kH : st[0];
  p.sW = st.empty() ? p.kW : st.size() == 1 ? st[0] : st[1];
  p.pH = pad[0];
  p.pW = pad.size() == 1 ? pad[0] : pad[1];
  p.dH = dil[0];
  p.dW = dil.size() == 1 ? dil[0] : dil[1];
  p.ceil = ceil;
  KD_CHECK(p.sH != 0 && p.sW != 0, "stride should not be zero");
  KD_CHECK(p.kH > 0 && p.kW > 0, "kernel size should be greater than zero, but got kH: {} kW: {}", p.kH, p.kW);
  KD_CHECK(p.sH > 0 && p.sW > 0, "stride should be greater than zero, but got dH: {} dW: {}", p.sH, p.sW);
  KD_CHECK(p.dH > 0 && p.dW > 0, "dilation should be greater than zero, but got dilationH: {} dilationW: {}", p.dH,
           p.dW);
  KD_CHECK(p.pH >= 0, "pad must be non-negative, but got pad: {}", p.pH);
  KD_CHECK(p.pW >= 0, "pad must be non-negative, but got pad: {}", p.pW);
  KD_CHECK(p.pH <= p.kH / 2 && p.pW <= p.kW / 2, "pad should be at most half of kernel size, but got pad={} and kernel_size={}",
           p.pH <= p.kH / 2 ? p.pW : p.pH, p.pH <= p.kH / 2 ? p.kW : p.kH);
  return p;
}

/// Validates a pooling input (3-d unbatched or 4-d) and returns it as 4-d with the output H/W.
Tensor poolInput4d(const Tensor& in, const Pool2dParams& p, int64_t& OH, int64_t& OW) {
  KD_CHECK(in.dim() == 3 || in.dim() == 4, "non-empty 3D or 4D (batch mode) tensor expected for input");
  for (int64_t d = 1; d < in.dim(); ++d)
    KD_CHECK(in.sizes()[d] > 0, "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:{}",
             in.sizesStr());
  Tensor x = in.dim() == 3 ? in.unsqueeze(0) : in;
  const int64_t C = x.sizes()[1], H = x.sizes()[2], W = x.sizes()[3];
  OH = poolOutputSize(H, p.kH, p.pH, p.sH, p.dH, p.ceil);
  OW = poolOutputSize(W, p.kW, p.pW, p.sW, p.dW, p.ceil);
  KD_CHECK(OH >= 1 && OW >= 1, "Given input size: ({}x{}x{}). Calculated output size: ({}x{}x{}). Output size is too small",
           C, H, W, C, OH, OW);
  return x;
}

// ---------------------------------------------------------------- max pool

struct PoolPrim {
  dnnl::pooling_v2_forward prim;
  dnnl::memory::desc scratchpad;
  // oneDNN fell back to its reference nchw kernel (it does for plain NCHW inputs with large planes, e.g.
  // 224x224): that one is 10-50x slower than maxPoolDirect, which runs instead.
  bool reference = false;
};

onednn::Cache<PoolPrim>& poolCache() {
  static auto* c = new onednn::Cache<PoolPrim>();
  return *c;
}

template <class T>
void maxPoolDirect(const Tensor& x, Tensor& out, const Pool2dParams& p) {
  const int64_t N = x.sizes()[0], C = x.sizes()[1], H = x.sizes()[2], W = x.sizes()[3];
  const int64_t OH = out.sizes()[2], OW = out.sizes()[3];
  const int64_t xs0 = x.strides()[0], xs1 = x.strides()[1], xs2 = x.strides()[2], xs3 = x.strides()[3];
  const int64_t os0 = out.strides()[0], os1 = out.strides()[1], os2 = out.strides()[2], os3 = out.strides()[3];
  const T* X = x.data_ptr<T>();
  T* Y = out.data_ptr<T>();
  // Output columns whose whole window lies inside the input: [owLo, owHi). Only the border columns need
  // the bounds test per tap.
  const int64_t owLo = std::min(OW, (p.pW + p.sW - 1) / p.sW);
  const int64_t owHi = std::max(owLo, std::min(OW, divRtn(W - 1 - (p.kW - 1) * p.dW + p.pW, p.sW) + 1));
#pragma omp parallel for collapse(2) if (N * C * OH * OW > kGrainSize)
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t oh = 0; oh < OH; ++oh) {
        const T* plane = X + n * xs0 + c * xs1;
        T* yrow = Y + n * os0 + c * os1 + oh * os2;
        const int64_t h0 = oh * p.sH - p.pH;
        int64_t iLo = 0, iHi = p.kH;  // kernel rows inside the input
        while (iLo < iHi && h0 + iLo * p.dH < 0) ++iLo;
        while (iHi > iLo && h0 + (iHi - 1) * p.dH >= H) --iHi;
        // PyTorch's rule: a larger value or a NaN replaces the running maximum; the first NaN ends the scan.
        auto window = [&](int64_t ow, bool interior) {
          const int64_t w0 = ow * p.sW - p.pW;
          T best = -std::numeric_limits<T>::infinity();
          for (int64_t i = iLo; i < iHi; ++i) {
            const T* row = plane + (h0 + i * p.dH) * xs2;
            for (int64_t j = 0; j < p.kW; ++j) {
              const int64_t w = w0 + j * p.dW;
              if (!interior && (w < 0 || w >= W)) continue;
              const T v = row[w * xs3];
              if (v > best || std::isnan(v)) {
                best = v;
                if (std::isnan(v)) return best;
              }
            }
          }
          return best;
        };
        for (int64_t ow = 0; ow < owLo; ++ow) yrow[ow * os3] = window(ow, false);
        for (int64_t ow = owLo; ow < owHi; ++ow) yrow[ow * os3] = window(ow, true);
        for (int64_t ow = owHi; ow < OW; ++ow) yrow[ow * os3] = window(ow, false);
      }
}

Tensor maxPool2d(const Tensor& in, const IntArray& k, const IntArray& st, const IntArray& pad, const IntArray& dil,
                 bool ceil) {
  const Pool2dParams p = parsePool2d("max_pool2d", k, st, pad, dil, ceil);
  int64_t OH, OW;
  const Tensor x0 = poolInput4d(in, p, OH, OW);
  KD_CHECK(x0.dtype() == ScalarType::Float || x0.dtype() == ScalarType::Double, "\"max_pool2d\" not implemented for '{}'",
           scalarTypeName(x0.dtype()));
  const bool cl = suggestsChannelsLast(x0);
  const Tensor x = cl || x0.is_contiguous() ? x0 : x0.contiguous();
  const IntArray outSizes{x.sizes()[0], x.sizes()[1], OH, OW};
  Tensor out = emptyLike4d(outSizes, x.dtype(), cl);
  if (out.numel() > 0) {
    if (x.dtype() == ScalarType::Float) {
      const int64_t H = x.sizes()[2], W = x.sizes()[3];
      // right padding so that oneDNN produces exactly PyTorch's output size (ceil_mode)
      const int64_t prH = (OH - 1) * p.sH + (p.kH - 1) * p.dH + 1 - H - p.pH;
      const int64_t prW = (OW - 1) * p.sW + (p.kW - 1) * p.dW + 1 - W - p.pW;
      onednn::Key key;
      key.add(3).add(x.sizes()).add(cl).add({p.kH, p.kW, p.sH, p.sW, p.pH, p.pW, p.dH, p.dW, prH, prW});
      auto prim = poolCache().get(key, [&] {
        using namespace dnnl;
        auto srcD = onednn::descOf(x);
        auto tagD = cl ? memory::format_tag::nhwc : memory::format_tag::nchw;
        memory::desc dstD(memory::dims(outSizes.begin(), outSizes.end()), memory::data_type::f32, tagD);
        pooling_v2_forward::desc d(prop_kind::forward_inference, algorithm::pooling_max, srcD, dstD, {p.sH, p.sW},
                                   {p.kH, p.kW}, {p.dH - 1, p.dW - 1}, {p.pH, p.pW}, {prH, prW});
        pooling_v2_forward::primitive_desc pd(d, onednn::userScratchpadAttr(), onednn::engine());
        auto r = std::make_shared<PoolPrim>();
        r->prim = pooling_v2_forward(pd);
        r->scratchpad = pd.scratchpad_desc();
        const std::string impl = pd.impl_info_str();
        r->reference = impl.rfind("simple", 0) == 0 || impl.rfind("ref", 0) == 0;
        return r;
      });
      if (prim->reference) {
        maxPoolDirect<float>(x, out, p);
        return in.dim() == 3 ? out.squeeze(0) : out;
      }
      auto& s = onednn::stream();
      onednn::guarded("max_pool2d", [&] {
        prim->prim.execute(s, {{DNNL_ARG_SRC, onednn::memoryOf(x, onednn::descOf(x))},
                               {DNNL_ARG_DST, onednn::memoryOf(out, onednn::descOf(out))},
                               {DNNL_ARG_SCRATCHPAD, onednn::scratchpadFor(prim->scratchpad)}});
      });
      s.wait();
    } else {
      maxPoolDirect<double>(x, out, p);
    }
  }
  return in.dim() == 3 ? out.squeeze(0) : out;
}

// ---------------------------------------------------------------- avg pool

template <class T>
void avgPoolDirect(const Tensor& x, Tensor& out, const Pool2dParams& p, bool countIncludePad,
                   std::optional<int64_t> divisor) {
  const int64_t N = x.sizes()[0], C = x.sizes()[1], H = x.sizes()[2], W = x.sizes()[3];
  const int64_t OH = out.sizes()[2], OW = out.sizes()[3];
  const int64_t xs0 = x.strides()[0], xs1 = x.strides()[1], xs2 = x.strides()[2], xs3 = x.strides()[3];
  const int64_t os0 = out.strides()[0], os1 = out.strides()[1], os2 = out.strides()[2], os3 = out.strides()[3];
  const T* X = x.data_ptr<T>();
  T* Y = out.data_ptr<T>();
  using Acc = std::conditional_t<std::is_floating_point_v<T>, T, int64_t>;
#pragma omp parallel for collapse(2) if (N * C * OH * OW > kGrainSize)
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t oh = 0; oh < OH; ++oh)
        for (int64_t ow = 0; ow < OW; ++ow) {
          int64_t hstart = oh * p.sH - p.pH, wstart = ow * p.sW - p.pW;
          int64_t hend = std::min(hstart + p.kH, H + p.pH), wend = std::min(wstart + p.kW, W + p.pW);
          const int64_t poolSize = (hend - hstart) * (wend - wstart);
          hstart = std::max<int64_t>(hstart, 0);
          wstart = std::max<int64_t>(wstart, 0);
          hend = std::min(hend, H);
          wend = std::min(wend, W);
          Acc sum = 0;
          for (int64_t h = hstart; h < hend; ++h)
            for (int64_t w = wstart; w < wend; ++w) sum += X[n * xs0 + c * xs1 + h * xs2 + w * xs3];
          int64_t div;
          if (divisor) div = *divisor;
          else if (countIncludePad) div = poolSize;
          else div = (hend - hstart) * (wend - wstart);
          T& y = Y[n * os0 + c * os1 + oh * os2 + ow * os3];
          if (hend <= hstart || wend <= wstart) {
            y = T(0);
          } else if constexpr (std::is_floating_point_v<T>) {
            y = sum / static_cast<T>(div);
          } else {
            y = static_cast<T>(sum / div);
          }
        }
}

Tensor avgPool2d(const Tensor& in, const IntArray& k, const IntArray& st, const IntArray& pad, bool ceil,
                 bool countIncludePad, std::optional<int64_t> divisor) {
  const Pool2dParams p = parsePool2d("avg_pool2d", k, st, pad, {1}, ceil);
  if (divisor) KD_CHECK(*divisor != 0, "divisor must be not zero");
  int64_t OH, OW;
  const Tensor x0 = poolInput4d(in, p, OH, OW);
  const bool cl = suggestsChannelsLast(x0);
  Tensor out = emptyLike4d({x0.sizes()[0], x0.sizes()[1], OH, OW}, x0.dtype(), cl);
  dispatchLoopTypesNoBool(x0.dtype(), "avg_pool2d", [&](auto tag) {
    using T = decltype(tag);
    avgPoolDirect<T>(x0, out, p, countIncludePad, divisor);
  });
  return in.dim() == 3 ? out.squeeze(0) : out;
}

// ---------------------------------------------------------------- adaptive pools

inline int64_t startIndex(int64_t o, int64_t outSize, int64_t inSize) { return (o * inSize) / outSize; }
inline int64_t endIndex(int64_t o, int64_t outSize, int64_t inSize) { return ((o + 1) * inSize + outSize - 1) / outSize; }

Tensor adaptiveInput(const char* op, const Tensor& in, const IntArray& outSize) {
  KD_CHECK(outSize.size() == 2, "{}: output_size must be 2", op);
  KD_CHECK(in.dim() == 3 || in.dim() == 4, "{}(): Expected 3D or 4D tensor, but got {}", op, in.sizesStr());
  // ATen computes a 1x1 adaptive average as mean() (NaN for empty inputs) and checks sizes otherwise.
  const bool global = std::string(op) == "adaptive_avg_pool2d" && outSize[0] == 1 && outSize[1] == 1;
  for (int64_t d = 1; d < in.dim() && !global; ++d)
    KD_CHECK(in.sizes()[d] > 0,
             "{}(): Expected input to have non-zero size for non-batch dimensions, but input has sizes {} with "
             "dimension {} being empty",
             op, in.sizesStr(), d);
  KD_CHECK(outSize[0] >= 0 && outSize[1] >= 0, "{}: elements of output_size must be greater than or equal to 0 but received {{{}, {}}}",
           op, outSize[0], outSize[1]);
  return in.dim() == 3 ? in.unsqueeze(0) : in;
}

template <class T>
void adaptiveAvgDirect(const Tensor& x, Tensor& out) {
  const int64_t N = x.sizes()[0], C = x.sizes()[1], H = x.sizes()[2], W = x.sizes()[3];
  const int64_t OH = out.sizes()[2], OW = out.sizes()[3];
  const int64_t xs0 = x.strides()[0], xs1 = x.strides()[1], xs2 = x.strides()[2], xs3 = x.strides()[3];
  const int64_t os0 = out.strides()[0], os1 = out.strides()[1], os2 = out.strides()[2], os3 = out.strides()[3];
  const T* X = x.data_ptr<T>();
  T* Y = out.data_ptr<T>();
#pragma omp parallel for collapse(2) if (N * C * H * W > kGrainSize)
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t oh = 0; oh < OH; ++oh) {
        const int64_t h0 = startIndex(oh, OH, H), h1 = endIndex(oh, OH, H);
        for (int64_t ow = 0; ow < OW; ++ow) {
          const int64_t w0 = startIndex(ow, OW, W), w1 = endIndex(ow, OW, W);
          T sum = 0;
          const T* base = X + n * xs0 + c * xs1;
          for (int64_t h = h0; h < h1; ++h)
            for (int64_t w = w0; w < w1; ++w) sum += base[h * xs2 + w * xs3];
          Y[n * os0 + c * os1 + oh * os2 + ow * os3] = sum / static_cast<T>((h1 - h0) * (w1 - w0));
        }
      }
}

/// Global average pool over a channels-last float tensor: a vectorizable sum over positions.
void globalAvgChannelsLast(const Tensor& x, Tensor& out) {
  const int64_t N = x.sizes()[0], C = x.sizes()[1], HW = x.sizes()[2] * x.sizes()[3];
  const float* X = x.data_ptr<float>();
  float* Y = out.data_ptr<float>();  // [N, C, 1, 1]: contiguous either way
  for (int64_t n = 0; n < N; ++n) {
    float* y = Y + n * C;
    for (int64_t c = 0; c < C; ++c) y[c] = 0.f;
    const float* xn = X + n * HW * C;
    for (int64_t i = 0; i < HW; ++i)
      for (int64_t c = 0; c < C; ++c) y[c] += xn[i * C + c];
    const float inv = 1.f / static_cast<float>(HW);
    for (int64_t c = 0; c < C; ++c) y[c] *= inv;
  }
}

Tensor adaptiveAvgPool2d(const Tensor& in, const IntArray& outSize) {
  const Tensor x = adaptiveInput("adaptive_avg_pool2d", in, outSize);
  const bool cl = suggestsChannelsLast(x);
  Tensor out = emptyLike4d({x.sizes()[0], x.sizes()[1], outSize[0], outSize[1]}, x.dtype(), cl);
  if (out.numel() > 0) {
    if (cl && outSize[0] == 1 && outSize[1] == 1 && x.dtype() == ScalarType::Float) {
      globalAvgChannelsLast(x, out);
    } else {
      dispatchFloatingTypes(x.dtype(), "adaptive_avg_pool2d", [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
          adaptiveAvgDirect<T>(x, out);
        } else {
          Tensor xf = x.to(ScalarType::Float);
          Tensor of = Tensor::empty(out.sizes(), ScalarType::Float);
          adaptiveAvgDirect<float>(xf, of);
          out.copy_(of);
        }
      });
    }
  }
  return in.dim() == 3 ? out.squeeze(0) : out;
}

std::pair<Tensor, Tensor> adaptiveMaxPool2d(const Tensor& in, const IntArray& outSize) {
  const Tensor x = adaptiveInput("adaptive_max_pool2d", in, outSize);
  const IntArray os{x.sizes()[0], x.sizes()[1], outSize[0], outSize[1]};
  Tensor out = Tensor::empty(os, x.dtype());
  Tensor idx = Tensor::empty(os, ScalarType::Long);
  dispatchLoopFloating(x.dtype(), "adaptive_max_pool2d", [&](auto tag) {
    using T = decltype(tag);
    const int64_t N = os[0], C = os[1], H = x.sizes()[2], W = x.sizes()[3], OH = os[2], OW = os[3];
    const int64_t xs0 = x.strides()[0], xs1 = x.strides()[1], xs2 = x.strides()[2], xs3 = x.strides()[3];
    const T* X = x.data_ptr<T>();
    T* Y = out.data_ptr<T>();
    int64_t* I = idx.data_ptr<int64_t>();
    for (int64_t n = 0; n < N; ++n)
      for (int64_t c = 0; c < C; ++c)
        for (int64_t oh = 0; oh < OH; ++oh)
          for (int64_t ow = 0; ow < OW; ++ow) {
            const int64_t h0 = startIndex(oh, OH, H), h1 = endIndex(oh, OH, H);
            const int64_t w0 = startIndex(ow, OW, W), w1 = endIndex(ow, OW, W);
            T best = -std::numeric_limits<T>::infinity();
            int64_t bi = h0 * W + w0;
            for (int64_t h = h0; h < h1; ++h)
              for (int64_t w = w0; w < w1; ++w) {
                const T v = X[n * xs0 + c * xs1 + h * xs2 + w * xs3];
                if (v > best || std::isnan(v)) {
                  best = v;
                  bi = h * W + w;
                }
              }
            const int64_t o = ((n * C + c) * OH + oh) * OW + ow;
            Y[o] = best;
            I[o] = bi;
          }
  });
  if (in.dim() == 3) return {out.squeeze(0), idx.squeeze(0)};
  return {out, idx};
}

// ---------------------------------------------------------------- boxed kernels

void maxPool2dOp(Stack& s) {
  Args a(s, 6);
  Tensor r = maxPool2d(a.tensor(0), a.intList(1, 2), a.intList(2), a.intList(3, 2), a.intList(4, 2), a.toBool(5));
  a.ret(std::move(r));
}

void maxPool1dOp(Stack& s) {
  Args a(s, 6);
  const Tensor in = a.tensor(0);
  KD_CHECK(in.dim() == 2 || in.dim() == 3, "max_pool1d() Expected 2D or 3D input tensor, but got {}", in.sizesStr());
  const IntArray k = a.intList(1, 1), st = a.intList(2), pad = a.intList(3, 1), dil = a.intList(4, 1);
  Tensor r = maxPool2d(in.unsqueeze(-2), {1, k[0]}, st.empty() ? IntArray{1, k[0]} : IntArray{1, st[0]}, {0, pad[0]},
                       {1, dil[0]}, a.toBool(5));
  a.ret(r.squeeze(-2));
}

void avgPool2dOp(Stack& s) {
  Args a(s, 7);
  Tensor r = avgPool2d(a.tensor(0), a.intList(1, 2), a.intList(2), a.intList(3, 2), a.toBool(4), a.toBool(5), a.optInt(6));
  a.ret(std::move(r));
}

void avgPool1dOp(Stack& s) {
  Args a(s, 6);
  const Tensor in = a.tensor(0);
  KD_CHECK(in.dim() == 2 || in.dim() == 3, "avg_pool1d() Expected 2D or 3D input tensor, but got {}", in.sizesStr());
  const IntArray k = a.intList(1, 1), st = a.intList(2), pad = a.intList(3, 1);
  Tensor r = avgPool2d(in.unsqueeze(-2), {1, k[0]}, st.empty() ? IntArray{1, k[0]} : IntArray{1, st[0]}, {0, pad[0]},
                       a.toBool(4), a.toBool(5), std::nullopt);
  a.ret(r.squeeze(-2));
}

void adaptiveAvgPool2dOp(Stack& s) {
  Args a(s, 2);
  Tensor r = adaptiveAvgPool2d(a.tensor(0), a.intList(1, 2));
  a.ret(std::move(r));
}

void adaptiveAvgPool1dOp(Stack& s) {
  Args a(s, 2);
  const Tensor in = a.tensor(0);
  KD_CHECK(in.dim() == 2 || in.dim() == 3, "adaptive_avg_pool1d() argument 'input' must be 2D or 3D, but got {}", in.sizesStr());
  Tensor r = adaptiveAvgPool2d(in.unsqueeze(-2), {1, a.intList(1, 1)[0]});
  a.ret(r.squeeze(-2));
}

void adaptiveMaxPool2dOp(Stack& s) {
  Args a(s, 2);
  auto [o, i] = adaptiveMaxPool2d(a.tensor(0), a.intList(1, 2));
  a.ret(std::move(o), std::move(i));
}


// ---------------------------------------------------------------- upsampling (nearest, bilinear)

/// ATen's compute_scales_value / area_pixel_compute_scale.
float nearestScale(int64_t in, int64_t out, std::optional<double> scale) {
  return scale && *scale > 0 ? static_cast<float>(1.0 / *scale) : static_cast<float>(in) / static_cast<float>(out);
}
int64_t nearestIndex(int64_t dst, int64_t in, int64_t out, float scale) {
  if (out == in) return dst;
  if (out == 2 * in) return dst >> 1;
  return std::min(static_cast<int64_t>(std::floor(static_cast<float>(dst) * scale)), in - 1);
}
/// ATen's area_pixel_compute_scale<T> / area_pixel_compute_source_index<T> in the kernel's opmath type T
/// (float for float32, double for float64). As in ATen, the half-pixel offset is applied in double
/// (dst + 0.5 is a double expression) and the result rounded to T.
template <class T>
T linearScale(int64_t in, int64_t out, bool alignCorners, std::optional<double> scale) {
  if (alignCorners) return out > 1 ? static_cast<T>(in - 1) / static_cast<T>(out - 1) : T(0);
  return scale && *scale > 0 ? static_cast<T>(1.0 / *scale) : static_cast<T>(in) / static_cast<T>(out);
}
template <class T>
T linearSource(T scale, int64_t dst, bool alignCorners) {
  if (alignCorners) return scale * static_cast<T>(dst);
  const T src = static_cast<T>(scale * (static_cast<double>(dst) + 0.5) - 0.5);
  return src < T(0) ? T(0) : src;
}

Tensor upsample2d(const char* op, const Tensor& in, const IntArray& outSize, bool bilinear, bool alignCorners,
                  std::optional<double> sh, std::optional<double> sw) {
  KD_CHECK(in.dim() == 4, "Non-empty 4D data tensor expected but got a tensor with sizes {}", in.sizesStr());
  KD_CHECK(outSize.size() == 2, "It is expected output_size equals to 2, but got size {}", outSize.size());
  const int64_t N = in.sizes()[0], C = in.sizes()[1], H = in.sizes()[2], W = in.sizes()[3];
  const int64_t OH = outSize[0], OW = outSize[1];
  KD_CHECK(H > 0 && W > 0 && OH > 0 && OW > 0,
           "Input and output sizes should be greater than 0, but got input (H: {}, W: {}) output (H: {}, W: {})", H, W,
           OH, OW);
  const bool cl = suggestsChannelsLast(in);
  Tensor out = emptyLike4d({N, C, OH, OW}, in.dtype(), cl);
  const ScalarType loopDt = in.dtype() == ScalarType::Double ? ScalarType::Double : ScalarType::Float;
  KD_CHECK(isFloatingType(in.dtype()) || !bilinear, "\"{}\" not implemented for '{}'", op, scalarTypeName(in.dtype()));
  if (!bilinear) {
    const float scH = nearestScale(H, OH, sh), scW = nearestScale(W, OW, sw);
    std::vector<int64_t> hi(OH), wi(OW);
    for (int64_t i = 0; i < OH; ++i) hi[i] = nearestIndex(i, H, OH, scH);
    for (int64_t j = 0; j < OW; ++j) wi[j] = nearestIndex(j, W, OW, scW);
    const size_t es = in.element_size();
    const char* X = static_cast<const char*>(in.data_ptr());
    char* Y = static_cast<char*>(out.data_ptr());
    const IntArray& xs = in.strides();
    const IntArray& ys = out.strides();
    for (int64_t n = 0; n < N; ++n)
      for (int64_t c = 0; c < C; ++c)
        for (int64_t i = 0; i < OH; ++i)
          for (int64_t j = 0; j < OW; ++j)
            std::memcpy(Y + (n * ys[0] + c * ys[1] + i * ys[2] + j * ys[3]) * es,
                        X + (n * xs[0] + c * xs[1] + hi[i] * xs[2] + wi[j] * xs[3]) * es, es);
    return out;
  }
  const Tensor x = in.dtype() == loopDt ? in : in.to(loopDt);
  Tensor y = out.dtype() == loopDt ? out : Tensor::empty({N, C, OH, OW}, loopDt);
  dispatchLoopFloating(loopDt, op, [&](auto tag) {
    using T = decltype(tag);
    const T scH = linearScale<T>(H, OH, alignCorners, sh), scW = linearScale<T>(W, OW, alignCorners, sw);
    const T* X = x.data_ptr<T>();
    T* Y = y.data_ptr<T>();
    const IntArray& xs = x.strides();
    const IntArray& ys = y.strides();
    // ATen's compute_source_index_and_lambda: equal sizes copy; lambda1 clamped to [0, 1]
    auto source = [alignCorners](T scale, int64_t dst, int64_t in, int64_t out, int64_t& i0, int64_t& i1, T& l0, T& l1) {
      if (in == out) {  // (index 1 is 0 with weight 0, as ATen: a non-finite x[0] propagates)
        i0 = dst;
        i1 = 0;
        l0 = T(1);
        l1 = T(0);
        return;
      }
      const T r = linearSource<T>(scale, dst, alignCorners);
      i0 = static_cast<int64_t>(r);
      i1 = i0 + (i0 < in - 1 ? 1 : 0);
      l1 = std::min(std::max(r - static_cast<T>(i0), T(0)), T(1));
      l0 = T(1) - l1;
    };
    for (int64_t i = 0; i < OH; ++i) {
      int64_t h0, h1;
      T lh0, lh1;
      source(scH, i, H, OH, h0, h1, lh0, lh1);
      for (int64_t j = 0; j < OW; ++j) {
        int64_t w0, w1;
        T lw0, lw1;
        source(scW, j, W, OW, w0, w1, lw0, lw1);
        for (int64_t n = 0; n < N; ++n)
          for (int64_t c = 0; c < C; ++c) {
            const T* b = X + n * xs[0] + c * xs[1];
            Y[n * ys[0] + c * ys[1] + i * ys[2] + j * ys[3]] =
                lh0 * (lw0 * b[h0 * xs[2] + w0 * xs[3]] + lw1 * b[h0 * xs[2] + w1 * xs[3]]) +
                lh1 * (lw0 * b[h1 * xs[2] + w0 * xs[3]] + lw1 * b[h1 * xs[2] + w1 * xs[3]]);
          }
      }
    }
  });
  if (!y.is_same(out)) out.copy_(y);
  return out;
}

/// Output size for the .vec overloads: output_size or floor(input * scale).
IntArray vecOutputSize(const Tensor& in, const std::optional<IntArray>& size, const std::optional<std::vector<double>>& scales) {
  KD_CHECK(size.has_value() != scales.has_value(), "Must specify exactly one of output_size and scale_factors");
  if (size) return *size;
  KD_CHECK(scales->size() == 2, "It is expected scale_factors equals to 2, but got size {}", scales->size());
  return {static_cast<int64_t>(std::floor(in.sizes()[2] * (*scales)[0])),
          static_cast<int64_t>(std::floor(in.sizes()[3] * (*scales)[1]))};
}

std::optional<std::vector<double>> optDoubles(const IValue& v) {
  if (v.isNone()) return std::nullopt;
  return v.toDoubleVector();
}

void upsampleNearest2dOp(Stack& s) {
  Args a(s, 4);
  Tensor r = upsample2d("upsample_nearest2d", a.tensor(0), a.intList(1, 2), false, false, a.optDouble(2), a.optDouble(3));
  a.ret(std::move(r));
}
void upsampleNearest2dVecOp(Stack& s) {
  Args a(s, 3);
  const Tensor in = a.tensor(0);
  const auto sc = optDoubles(a[2]);
  Tensor r = upsample2d("upsample_nearest2d", in, vecOutputSize(in, a.optIntList(1), sc), false, false,
                        sc ? std::optional<double>((*sc)[0]) : std::nullopt, sc ? std::optional<double>((*sc)[1]) : std::nullopt);
  a.ret(std::move(r));
}
void upsampleBilinear2dOp(Stack& s) {
  Args a(s, 5);
  Tensor r = upsample2d("upsample_bilinear2d", a.tensor(0), a.intList(1, 2), true, a.toBool(2), a.optDouble(3), a.optDouble(4));
  a.ret(std::move(r));
}
void upsampleBilinear2dVecOp(Stack& s) {
  Args a(s, 4);
  const Tensor in = a.tensor(0);
  const auto sc = optDoubles(a[3]);
  Tensor r = upsample2d("upsample_bilinear2d", in, vecOutputSize(in, a.optIntList(1), sc), true, a.toBool(2),
                        sc ? std::optional<double>((*sc)[0]) : std::nullopt, sc ? std::optional<double>((*sc)[1]) : std::nullopt);
  a.ret(std::move(r));
}

void maxPool2dWithIndicesOp(Stack& s) {
  Args a(s, 6);
  const Tensor in = a.tensor(0);
  const Pool2dParams p = parsePool2d("max_pool2d_with_indices", a.intList(1, 2), a.intList(2), a.intList(3, 2), a.intList(4, 2), a.toBool(5));
  int64_t OH, OW;
  const Tensor x = poolInput4d(in, p, OH, OW);
  const int64_t N = x.sizes()[0], C = x.sizes()[1], H = x.sizes()[2], W = x.sizes()[3];
  Tensor out = Tensor::empty({N, C, OH, OW}, x.dtype());
  Tensor idx = Tensor::empty({N, C, OH, OW}, ScalarType::Long);
  dispatchLoopFloating(x.dtype(), "max_pool2d_with_indices", [&](auto tag) {
    using T = decltype(tag);
    const T* X = x.data_ptr<T>();
    T* Y = out.data_ptr<T>();
    int64_t* I = idx.data_ptr<int64_t>();
    const IntArray& xs = x.strides();
    for (int64_t n = 0; n < N; ++n)
      for (int64_t c = 0; c < C; ++c)
        for (int64_t oh = 0; oh < OH; ++oh)
          for (int64_t ow = 0; ow < OW; ++ow) {
            T best = -std::numeric_limits<T>::infinity();
            int64_t bi = -1;
            for (int64_t i = 0; i < p.kH; ++i) {
              const int64_t h = oh * p.sH - p.pH + i * p.dH;
              if (h < 0 || h >= H) continue;
              for (int64_t j = 0; j < p.kW; ++j) {
                const int64_t w = ow * p.sW - p.pW + j * p.dW;
                if (w < 0 || w >= W) continue;
                const T v = X[n * xs[0] + c * xs[1] + h * xs[2] + w * xs[3]];
                if (bi < 0 || v > best || std::isnan(v)) {
                  best = v;
                  bi = h * W + w;
                  if (std::isnan(v)) break;
                }
              }
            }
            const int64_t o = ((n * C + c) * OH + oh) * OW + ow;
            Y[o] = best;
            I[o] = bi;
          }
  });
  if (in.dim() == 3) a.ret(out.squeeze(0), idx.squeeze(0));
  else a.ret(std::move(out), std::move(idx));
}

}  // namespace

void registerPoolNdOps(OperatorRegistry& r);  // pool_nd.cpp: 1-d and 3-d pools, other resamplers

void registerPoolOps(OperatorRegistry& r) {
  registerPoolNdOps(r);
  r.add("aten::max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> Tensor", maxPool2dOp);
  r.add("aten::max_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=[0], int[1] dilation=[1], bool ceil_mode=False) -> Tensor", maxPool1dOp);
  r.add("aten::avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor", avgPool2dOp);
  r.add("aten::avg_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=[0], bool ceil_mode=False, bool count_include_pad=True) -> Tensor", avgPool1dOp);
  r.add("aten::adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor", adaptiveAvgPool2dOp);
  r.add("aten::adaptive_avg_pool1d(Tensor self, int[1] output_size) -> Tensor", adaptiveAvgPool1dOp);
  r.add("aten::adaptive_max_pool2d(Tensor self, int[2] output_size) -> (Tensor, Tensor)", adaptiveMaxPool2dOp);
  r.add("aten::max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)", maxPool2dWithIndicesOp);
  r.add("aten::upsample_nearest2d(Tensor self, SymInt[2] output_size, float? scales_h=None, float? scales_w=None) -> Tensor", upsampleNearest2dOp);
  r.add("aten::upsample_nearest2d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor", upsampleNearest2dVecOp);
  r.add("aten::upsample_bilinear2d(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor", upsampleBilinear2dOp);
  r.add("aten::upsample_bilinear2d.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor", upsampleBilinear2dVecOp);
}

}  // namespace kindling
