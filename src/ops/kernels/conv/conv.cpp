// Convolution kernels on oneDNN (see conv.h) and their registrations.
#include "ops/kernels/conv/conv.h"

#include <dnnl.hpp>

#include <atomic>
#include <cmath>
#include <cstdlib>

#include "ops/registry/kernel_args.h"
#include "ops/kernels/common/onednn_utils.h"
#include "ops/registry/operator.h"
#include "ops/kernels/common/out_variant.h"
#include "tensor/tensor_iterator.h"

namespace kindling {

namespace {

using tag = dnnl::memory::format_tag;

std::string joinX(const IntArray& v) {
  std::string r;
  for (size_t i = 0; i < v.size(); ++i) r += (i ? " x " : "") + std::to_string(v[i]);
  return r;
}

tag channelsLastTag(size_t spatial) { return spatial == 1 ? tag::nwc : spatial == 2 ? tag::nhwc : tag::ndhwc; }
tag channelsFirstTag(size_t spatial) { return spatial == 1 ? tag::ncw : spatial == 2 ? tag::nchw : tag::ncdhw; }
tag weightTag(size_t spatial, bool grouped) {
  if (grouped) return spatial == 1 ? tag::goiw : spatial == 2 ? tag::goihw : tag::goidhw;
  return spatial == 1 ? tag::oiw : spatial == 2 ? tag::oihw : tag::oidhw;
}

/// Dense channels-last strides for sizes [N, C, *spatial].
IntArray channelsLastStrides(const IntArray& sizes) {
  const size_t nd = sizes.size();
  IntArray st(nd);
  int64_t s = 1;
  st[1] = 1;
  s = sizes[1];
  for (size_t d = nd - 1; d >= 2; --d) {
    st[d] = s;
    s *= sizes[d];
  }
  st[0] = s;
  return st;
}

/// True when memory is dense channels-last (size-1 dims ignored).
bool isChannelsLastDense(const Tensor& t) {
  const IntArray want = channelsLastStrides(t.sizes());
  for (int64_t d = 0; d < t.dim(); ++d)
    if (t.sizes()[d] != 1 && t.strides()[d] != want[d]) return false;
  return true;
}

/// PyTorch's suggest_memory_format: channels_last only when it is not also plain contiguous.
bool suggestsChannelsLast(const Tensor& t) { return t.dim() >= 3 && !t.is_contiguous() && isChannelsLastDense(t); }

struct ConvPrim {
  dnnl::primitive prim;
  dnnl::memory::desc src, weights, bias, dst, userWeights, scratchpad;
};

onednn::Cache<ConvPrim>& convCache() {
  static auto* c = new onednn::Cache<ConvPrim>();
  return *c;
}

void checkConvArgs(const char* opName, const Tensor& input, const Tensor& weight, const Tensor& bias,
                   const IntArray& stride, const IntArray& paddingL, const IntArray& dilation, int64_t groups,
                   size_t spatial) {
  for (int64_t s : stride) KD_CHECK(s > 0, "non-positive stride is not supported");
  for (int64_t p : paddingL) KD_CHECK(p >= 0, "negative padding is not supported");
  for (int64_t d : dilation) KD_CHECK(d > 0, "dilation should be greater than zero");
  for (size_t k = 0; k < spatial; ++k)
    KD_CHECK(weight.sizes()[2 + k] > 0, "non-positive kernel size is not supported (weight of size {})", weight.sizesStr());
  KD_CHECK(groups > 0, "non-positive groups is not supported");
  KD_CHECK(stride.size() == spatial && paddingL.size() == spatial && dilation.size() == spatial,
           "expected stride, padding and dilation to have {} elements", spatial);
  const int64_t C = input.sizes()[1];
  const int64_t O = weight.sizes()[0];
  KD_CHECK(C == weight.sizes()[1] * groups,
           "Given groups={}, weight of size {}, expected input{} to have {} channels, but got {} channels instead",
           groups, weight.sizesStr(), input.sizesStr(), weight.sizes()[1] * groups, C);
  KD_CHECK(O % groups == 0,
           "Given groups={}, expected weight to be divisible by {} at dimension 0, but got weight of size {} instead",
           groups, groups, weight.sizesStr());
  if (bias.defined()) {
    KD_CHECK(bias.dim() == 1 && bias.numel() == O,
             "Given weight of size {}, expected bias to be 1-dimensional with {} elements, but got bias of size {} "
             "instead",
             weight.sizesStr(), O, bias.sizesStr());
  }
  KD_CHECK(input.dtype() == weight.dtype(), "expected scalar type {} but found {}", scalarTypeName(input.dtype()),
           scalarTypeName(weight.dtype()));
  (void)opName;
}

/// Sizes and parameters of a 1-, 2- or 3-d convolution seen as 3-d (missing leading spatial dims are 1,
/// their stride/dilation 1 and padding 0): in [N, C, ID, IH, IW], weight [*, *, KD, KH, KW], out [N, O, OD, OH, OW].
struct ConvGeometry {
  int64_t N, C, O, ID, IH, IW, KD, KH, KW, OD, OH, OW, sd, sh, sw, pd, ph, pw, dd, dh, dw;
  ConvGeometry(const Tensor& in, const Tensor& w, const Tensor& out, const IntArray& stride, const IntArray& pad,
               const IntArray& dil) {
    const size_t spatial = in.dim() - 2;
    auto sp = [spatial](const Tensor& t, size_t k) { return k + spatial >= 3 ? t.sizes()[2 + k + spatial - 3] : int64_t(1); };
    auto par = [spatial](const IntArray& v, size_t k, int64_t dflt) { return k + spatial >= 3 ? v[k + spatial - 3] : dflt; };
    N = in.sizes()[0], C = in.sizes()[1], O = out.sizes()[1];
    ID = sp(in, 0), IH = sp(in, 1), IW = sp(in, 2);
    KD = sp(w, 0), KH = sp(w, 1), KW = sp(w, 2);
    OD = sp(out, 0), OH = sp(out, 1), OW = sp(out, 2);
    sd = par(stride, 0, 1), sh = par(stride, 1, 1), sw = par(stride, 2, 1);
    pd = par(pad, 0, 0), ph = par(pad, 1, 0), pw = par(pad, 2, 0);
    dd = par(dil, 0, 1), dh = par(dil, 1, 1), dw = par(dil, 2, 1);
  }
};

/// Direct loop for the dtypes oneDNN does not run here: float64 and the integer types (PyTorch's slow_conv
/// path supports them; integers accumulate in their own type, wrapping as ATen's integer gemm does).
template <class T>
void directConv(const Tensor& in, const Tensor& w, const Tensor& b, Tensor& out, const IntArray& stride,
                const IntArray& pad, const IntArray& dil, int64_t groups) {
  const ConvGeometry g(in, w, out, stride, pad, dil);
  const int64_t N = g.N, C = g.C, O = g.O, ID = g.ID, IH = g.IH, IW = g.IW, KD = g.KD, KH = g.KH, KW = g.KW;
  const int64_t OD = g.OD, OH = g.OH, OW = g.OW, sd = g.sd, sh = g.sh, sw = g.sw, pd = g.pd, ph = g.ph, pw = g.pw;
  const int64_t dd = g.dd, dh = g.dh, dw = g.dw;
  const Tensor x = in.contiguous(), wc = w.contiguous();
  const Tensor bc = b.defined() ? b.to(scalarTypeOf<T>()).contiguous() : Tensor();
  const T* X = x.data_ptr<T>();
  const T* W = wc.data_ptr<T>();
  const T* B = bc.defined() ? bc.data_ptr<T>() : nullptr;
  T* Y = out.data_ptr<T>();
  const int64_t Cg = C / groups, Og = O / groups;
#pragma omp parallel for collapse(2) if (N * O * OD * OH * OW > 4096)
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t o = 0; o < O; ++o) {
      const int64_t g = o / Og;
      for (int64_t od = 0; od < OD; ++od)
        for (int64_t oh = 0; oh < OH; ++oh)
          for (int64_t ow = 0; ow < OW; ++ow) {
            T acc = B ? B[o] : T(0);
            for (int64_t c = 0; c < Cg; ++c)
              for (int64_t kd = 0; kd < KD; ++kd) {
                const int64_t id = od * sd - pd + kd * dd;
                if (id < 0 || id >= ID) continue;
                for (int64_t kh = 0; kh < KH; ++kh) {
                  const int64_t ih = oh * sh - ph + kh * dh;
                  if (ih < 0 || ih >= IH) continue;
                  for (int64_t kw = 0; kw < KW; ++kw) {
                    const int64_t iw = ow * sw - pw + kw * dw;
                    if (iw < 0 || iw >= IW) continue;
                    acc += X[(((n * C + g * Cg + c) * ID + id) * IH + ih) * IW + iw] *
                           W[(((o * Cg + c) * KD + kd) * KH + kh) * KW + kw];
                  }
                }
              }
            Y[(((n * O + o) * OD + od) * OH + oh) * OW + ow] = acc;
          }
    }
  }
}

/// Direct transposed convolution with the arithmetic of PyTorch 1.13's slow_conv_transpose{2,3}d (the only CPU
/// path 1.13 has for transposed convolutions): a gemm makes one column value per (output channel, kernel
/// offset, input position) as a multiply-add chain over the group's input channels in order (OpenBLAS: fused
/// multiply-adds), col2im adds the column values into a zeroed output in kernel-offset order, then the bias
/// is added. Here each output element gathers the same terms in the same order:
///   out[n, g*Og + o, p] = (sum over k ascending with p = i*stride - pad + k*dilation of
///                          (sum over c ascending of in[n, g*Cg + c, i] * w[g*Cg + c, o, k])) + bias[g*Og + o]
/// weight [C, O/groups, *kernel]. Parallel over (n, o) without write conflicts.
template <class T>
void directConvTransposed(const Tensor& in, const Tensor& w, const Tensor& b, Tensor& out, const IntArray& stride,
                          const IntArray& pad, const IntArray& dil, int64_t groups) {
  const ConvGeometry g(in, w, out, stride, pad, dil);
  const int64_t N = g.N, C = g.C, O = g.O, ID = g.ID, IH = g.IH, IW = g.IW, KD = g.KD, KH = g.KH, KW = g.KW;
  const int64_t OD = g.OD, OH = g.OH, OW = g.OW, sd = g.sd, sh = g.sh, sw = g.sw, pd = g.pd, ph = g.ph, pw = g.pw;
  const int64_t dd = g.dd, dh = g.dh, dw = g.dw;
  const Tensor x = in.contiguous(), wc = w.contiguous();
  const Tensor bc = b.defined() ? b.to(scalarTypeOf<T>()).contiguous() : Tensor();
  const T* X = x.data_ptr<T>();
  const T* W = wc.data_ptr<T>();
  const T* B = bc.defined() ? bc.data_ptr<T>() : nullptr;
  T* Y = out.data_ptr<T>();
  const int64_t Cg = C / groups, Og = O / groups;
  const int64_t inPlane = ID * IH * IW, wChan = Og * KD * KH * KW;
  // input index along one dim for output position p and kernel offset k, or -1 when none
  auto src = [](int64_t p, int64_t k, int64_t st, int64_t pa, int64_t di, int64_t size) -> int64_t {
    const int64_t t = p + pa - k * di;
    if (t < 0 || t % st != 0) return -1;
    const int64_t i = t / st;
    return i < size ? i : -1;
  };
#pragma omp parallel for collapse(2) if (N * O * OD * OH * OW > 4096)
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t o = 0; o < O; ++o) {
      const int64_t g = o / Og, oo = o % Og;
      const T* Xg = X + (n * C + g * Cg) * inPlane;
      const T* Wg = W + (g * Cg) * wChan + oo * KD * KH * KW;
      for (int64_t od = 0; od < OD; ++od)
        for (int64_t oh = 0; oh < OH; ++oh)
          for (int64_t ow = 0; ow < OW; ++ow) {
            T acc = T(0);
            for (int64_t kd = 0; kd < KD; ++kd) {
              const int64_t id = src(od, kd, sd, pd, dd, ID);
              if (id < 0) continue;
              for (int64_t kh = 0; kh < KH; ++kh) {
                const int64_t ih = src(oh, kh, sh, ph, dh, IH);
                if (ih < 0) continue;
                for (int64_t kw = 0; kw < KW; ++kw) {
                  const int64_t iw = src(ow, kw, sw, pw, dw, IW);
                  if (iw < 0) continue;
                  const T* xp = Xg + (id * IH + ih) * IW + iw;
                  const T* wp = Wg + (kd * KH + kh) * KW + kw;
                  T col = T(0);
                  for (int64_t c = 0; c < Cg; ++c) {
                    if constexpr (std::is_floating_point_v<T>) col = std::fma(xp[c * inPlane], wp[c * wChan], col);
                    else col += xp[c * inPlane] * wp[c * wChan];
                  }
                  acc += col;
                }
              }
            }
            if (B) acc += B[o];
            Y[(((n * O + o) * OD + od) * OH + oh) * OW + ow] = acc;
          }
    }
  }
}

/// What a float32 oneDNN convolution primitive is made from: sizes of input, output and weight, the
/// geometry, and the activation layout (`pointwise`: NCHW, otherwise channels-last).
struct ConvShape {
  const IntArray& src;
  const IntArray& dst;
  const IntArray& weight;
  const IntArray& stride;
  const IntArray& paddingL;
  const IntArray& paddingR;
  const IntArray& dilation;
  int64_t groups;
  bool hasBias;
  bool pointwise;
};

/// The weight as oneDNN names it: [O, C/g, k...], or [g, O/g, C/g, k...] when grouped, in PyTorch's plain layout.
dnnl::memory::desc userWeightsDesc(const IntArray& weight, int64_t groups) {
  const size_t spatial = weight.size() - 2;
  dnnl::memory::dims wdims;
  if (groups > 1) wdims = {groups, weight[0] / groups, weight[1]};
  else wdims = {weight[0], weight[1]};
  for (size_t k = 0; k < spatial; ++k) wdims.push_back(weight[2 + k]);
  return dnnl::memory::desc(wdims, dnnl::memory::data_type::f32, weightTag(spatial, groups > 1));
}

/// The primitive descriptor of a forward-inference convolution, weights in the layout oneDNN prefers.
dnnl::convolution_forward::primitive_desc convPrimitiveDesc(const ConvShape& c, const ConvPostOp& post) {
  using namespace dnnl;
  const size_t spatial = c.weight.size() - 2;
  const memory::dims src(c.src.begin(), c.src.end());
  const memory::dims dst(c.dst.begin(), c.dst.end());
  memory::dims st(c.stride.begin(), c.stride.end()), pl(c.paddingL.begin(), c.paddingL.end()),
      pr(c.paddingR.begin(), c.paddingR.end()), dl;
  for (int64_t d : c.dilation) dl.push_back(d - 1);
  const auto f32 = memory::data_type::f32;
  const tag act = c.pointwise ? channelsFirstTag(spatial) : channelsLastTag(spatial);
  memory::desc srcD(src, f32, act);
  memory::desc dstD(dst, f32, act);
  memory::desc weiAny(userWeightsDesc(c.weight, c.groups).dims(), f32, tag::any);
  memory::desc biasD = c.hasBias ? memory::desc({c.weight[0]}, f32, tag::x) : memory::desc();
  auto desc = convolution_forward::desc(prop_kind::forward_inference, algorithm::convolution_direct, srcD, weiAny,
                                        biasD, dstD, st, dl, pl, pr);
  primitive_attr attr = onednn::userScratchpadAttr();
  post_ops ops;
  if (post.residual.defined()) ops.append_sum(1.f);
  if (post.act == ConvPostOp::Act::Relu) ops.append_eltwise(1.f, algorithm::eltwise_relu, 0.f, 0.f);
  if (post.act == ConvPostOp::Act::Clamp) ops.append_eltwise(1.f, algorithm::eltwise_clip, post.lo, post.hi);
  attr.set_post_ops(ops);
  return convolution_forward::primitive_desc(desc, attr, onednn::engine());
}

/// 1x1 / stride 1 / no padding convolutions on NCHW data are GEMMs that oneDNN runs as fast in the plain
/// layout: they skip the channels-last round trip (two reorders that cost more than they save here).
bool isPointwise(const IntArray& weight, const IntArray& stride, const IntArray& paddingL, const IntArray& paddingR,
                 int64_t groups) {
  bool pointwise = groups == 1;
  for (size_t k = 0; k + 2 < weight.size(); ++k)
    pointwise = pointwise && weight[2 + k] == 1 && stride[k] == 1 && paddingL[k] == 0 && paddingR[k] == 0;
  return pointwise;
}

std::atomic<int>& channelsLastSetting() {
  static std::atomic<int> v{[] {
    const char* e = std::getenv("KINDLING_CHANNELS_LAST");
    return e && e[0] == '1' ? 1 : 0;
  }()};
  return v;
}

}  // namespace

void setPreferChannelsLast(bool on) { channelsLastSetting().store(on ? 1 : 0); }
bool preferChannelsLast() { return channelsLastSetting().load(std::memory_order_relaxed) != 0; }

Tensor convolution(const Tensor& inputArg, const Tensor& weight, const Tensor& bias, const IntArray& stride,
                   const IntArray& paddingL, const IntArray& paddingR, const IntArray& dilation, int64_t groups,
                   const ConvPostOp& post) {
  const int64_t wdim = weight.dim();
  KD_CHECK(wdim >= 3 && wdim <= 5, "Expected 3D, 4D or 5D weight for convolution, but got weight of size {}",
           weight.sizesStr());
  const size_t spatial = static_cast<size_t>(wdim - 2);
  const char* opName = spatial == 1 ? "conv1d" : spatial == 2 ? "conv2d" : "conv3d";
  const bool unbatched = inputArg.dim() == wdim - 1;
  KD_CHECK(unbatched || inputArg.dim() == wdim, "Expected {}D (unbatched) or {}D (batched) input to {}, but got input of size: {}",
           wdim - 1, wdim, opName, inputArg.sizesStr());
  Tensor input = unbatched ? inputArg.unsqueeze(0) : inputArg;
  for (int64_t d = 0; d < input.dim(); ++d)
    if (input.sizes()[d] > 1 && input.strides()[d] <= 0) {  // expanded / overlapping views: materialize
      input = input.contiguous();
      break;
    }
  checkConvArgs(opName, input, weight, bias, stride, paddingL, dilation, groups, spatial);

  const int64_t N = input.sizes()[0], O = weight.sizes()[0];
  IntArray outSizes{N, O};
  {
    IntArray padded, kernel;
    bool tooSmall = false;
    for (size_t k = 0; k < spatial; ++k) {
      const int64_t in = input.sizes()[2 + k] + paddingL[k] + paddingR[k];
      const int64_t ke = dilation[k] * (weight.sizes()[2 + k] - 1) + 1;
      padded.push_back(in);
      kernel.push_back(ke);
      if (ke > in) tooSmall = true;
      outSizes.push_back((in - ke) / stride[k] + 1);
    }
    KD_CHECK(!tooSmall,
             "Calculated padded input size per channel: ({}). Kernel size: ({}). Kernel size can't be greater than "
             "actual input size",
             joinX(padded), joinX(kernel));
  }

  const bool channelsLastOut = suggestsChannelsLast(input) || (preferChannelsLast() && spatial == 2);
  Tensor out = channelsLastOut ? Tensor::emptyStrided(outSizes, channelsLastStrides(outSizes), input.dtype())
                               : Tensor::empty(outSizes, input.dtype());
  if (out.numel() == 0) return unbatched ? out.squeeze(0) : out;
  const bool pointwise =
      !channelsLastOut && input.is_contiguous() && isPointwise(weight.sizes(), stride, paddingL, paddingR, groups);

  if (input.dtype() != ScalarType::Float) {  // float64 and integers: the direct loop
    KD_CHECK(!post.residual.defined() && post.act == ConvPostOp::Act::None,
             "fused convolution is only supported for float32");
    KD_CHECK(input.dtype() != ScalarType::Half && input.dtype() != ScalarType::BFloat16,
             "\"{}\" not implemented for '{}'", opName, scalarTypeName(input.dtype()));
    Tensor tmp = Tensor::empty(outSizes, input.dtype());
    dispatchLoopTypesNoBool(input.dtype(), "slow_conv2d_cpu", [&](auto t) {
      directConv<decltype(t)>(input, weight, bias, tmp, stride, paddingL, dilation, groups);
    });
    out.copy_(tmp);
    return unbatched ? out.squeeze(0) : out;
  }

  // --- primitive (cached by shapes and attributes) ---
  onednn::Key key;
  key.add(1).add(input.sizes()).add(weight.sizes()).add(stride).add(paddingL).add(paddingR).add(dilation);
  key.add(groups).add(bias.defined()).add(static_cast<int64_t>(post.act)).addFloat(post.lo).addFloat(post.hi);
  key.add(post.residual.defined()).add(pointwise);
  auto prim = convCache().get(key, [&] {
    ConvShape shape{input.sizes(), outSizes, weight.sizes(), stride, paddingL, paddingR, dilation, groups,
                    bias.defined(), pointwise};
    auto pd = convPrimitiveDesc(shape, post);
    auto p = std::make_shared<ConvPrim>();
    p->prim = dnnl::convolution_forward(pd);
    p->scratchpad = pd.scratchpad_desc();
    p->src = pd.src_desc();
    p->weights = pd.weights_desc();
    p->bias = bias.defined() ? dnnl::memory::desc({O}, dnnl::memory::data_type::f32, tag::x) : dnnl::memory::desc();
    p->dst = pd.dst_desc();
    p->userWeights = userWeightsDesc(weight.sizes(), groups);
    return p;
  });

  // --- operands ---
  const Tensor w = weight.is_contiguous() ? weight : weight.contiguous();
  dnnl::memory wMem = onednn::packedWeights(w, prim->userWeights, prim->weights);

  dnnl::memory srcMem;
  if (pointwise || isChannelsLastDense(input)) {
    srcMem = onednn::memoryOf(input, prim->src);
  } else {
    Tensor srcTmp = onednn::scratch(0, input.sizes(), channelsLastStrides(input.sizes()), ScalarType::Float);
    srcMem = onednn::memoryOf(srcTmp, prim->src);
    onednn::reorder(onednn::memoryOf(input, onednn::descOf(input)), srcMem);
  }
  // The primitive writes channels-last (or NCHW when pointwise); when the output layout differs, go through
  // a scratch buffer and reorder.
  const bool direct = pointwise || channelsLastOut || isChannelsLastDense(out);
  Tensor dstTmp = direct ? out : onednn::scratch(1, outSizes, channelsLastStrides(outSizes), ScalarType::Float);
  dnnl::memory dstMem = onednn::memoryOf(dstTmp, prim->dst);
  if (post.residual.defined()) {
    KD_CHECK(post.residual.sizes() == outSizes, "fused convolution: residual of size {} does not match output {}",
             post.residual.sizesStr(), out.sizesStr());
    bool dense = post.residual.dtype() == ScalarType::Float && post.residual.numel() > 0;
    for (int64_t d = 0; d < post.residual.dim(); ++d)
      dense = dense && (post.residual.sizes()[d] == 1 || post.residual.strides()[d] > 0);
    if (dense) {
      onednn::reorder(onednn::memoryOf(post.residual, onednn::descOf(post.residual)), dstMem);
    } else {
      dstTmp.copy_(post.residual);
    }
  }
  std::unordered_map<int, dnnl::memory> args{{DNNL_ARG_SRC, srcMem}, {DNNL_ARG_WEIGHTS, wMem}, {DNNL_ARG_DST, dstMem}};
  Tensor b;
  if (bias.defined()) {
    b = bias.dtype() == ScalarType::Float ? bias.contiguous() : bias.to(ScalarType::Float).contiguous();
    args.emplace(DNNL_ARG_BIAS, onednn::memoryOf(b, prim->bias));
  }
  args.emplace(DNNL_ARG_SCRATCHPAD, onednn::scratchpadFor(prim->scratchpad));
  auto& s = onednn::stream();
  onednn::guarded("convolution", [&] { prim->prim.execute(s, args); });
  s.wait();
  if (!direct) onednn::reorder(dstMem, onednn::memoryOf(out, onednn::descOf(out)));
  return unbatched ? out.squeeze(0) : out;
}

void prepackConvolutionWeight(const Tensor& weight, bool hasBias, const IntArray& stride, const IntArray& paddingL,
                              const IntArray& paddingR, const IntArray& dilation, int64_t groups, bool releasePlain) {
  const int64_t wdim = weight.dim();
  if (wdim < 3 || wdim > 5 || weight.dtype() != ScalarType::Float || !weight.is_contiguous() || groups <= 0) return;
  const size_t spatial = static_cast<size_t>(wdim - 2);
  if (stride.size() != spatial || paddingL.size() != spatial || paddingR.size() != spatial ||
      dilation.size() != spatial || weight.sizes()[0] % groups != 0)
    return;
  // The input's size is not known before the first call: pack for a nominal one, batch 1 and an output of
  // kNominalOutput per spatial dim. The layout oneDNN picks for the weights depends on the channels and the
  // kernel, and for its brgemm convolutions on the image size too (56 gives the layout of all but one of
  // resnet18's convolutions at 224x224, 14 misses nine); a call whose primitive wants another layout packs
  // its own copy.
  constexpr int64_t kNominalOutput = 56;
  IntArray src{1, weight.sizes()[1] * groups}, dst{1, weight.sizes()[0]};
  for (size_t k = 0; k < spatial; ++k) {
    if (stride[k] <= 0 || dilation[k] <= 0 || paddingL[k] < 0 || paddingR[k] < 0) return;
    const int64_t ke = dilation[k] * (weight.sizes()[2 + k] - 1) + 1;
    const int64_t in = std::max<int64_t>((kNominalOutput - 1) * stride[k] + ke - paddingL[k] - paddingR[k], 1);
    if (ke > in + paddingL[k] + paddingR[k]) return;
    src.push_back(in);
    dst.push_back((in + paddingL[k] + paddingR[k] - ke) / stride[k] + 1);
  }
  // The layout the kernel picks for a contiguous NCHW input (see convolution()).
  const bool pointwise = !(preferChannelsLast() && spatial == 2) && isPointwise(weight.sizes(), stride, paddingL, paddingR, groups);
  ConvShape shape{src, dst, weight.sizes(), stride, paddingL, paddingR, dilation, groups, hasBias, pointwise};
  try {
    const auto pd = convPrimitiveDesc(shape, ConvPostOp{});
    const auto have = userWeightsDesc(weight.sizes(), groups);
    const dnnl::memory packed = onednn::packedWeights(weight, have, pd.weights_desc());
    if (releasePlain) onednn::releasePlainBytes(weight, have, packed);
  } catch (const RuntimeError&) {
    // oneDNN has no primitive for these parameters (its errors arrive as RuntimeError): the call raises it.
  } catch (const dnnl::error&) {
  }
}

Tensor convolutionTransposed(const Tensor& inputArg, const Tensor& weight, const Tensor& bias, const IntArray& stride,
                             const IntArray& padding, const IntArray& outputPadding, const IntArray& dilation,
                             int64_t groups) {
  const int64_t wdim = weight.dim();
  KD_CHECK(wdim >= 3 && wdim <= 5, "Expected 3D, 4D or 5D weight for conv_transpose, but got weight of size {}",
           weight.sizesStr());
  const size_t spatial = static_cast<size_t>(wdim - 2);
  const bool unbatched = inputArg.dim() == wdim - 1;
  KD_CHECK(unbatched || inputArg.dim() == wdim,
           "Expected {}D (unbatched) or {}D (batched) input to conv_transpose{}d, but got input of size: {}", wdim - 1,
           wdim, spatial, inputArg.sizesStr());
  const Tensor input = (unbatched ? inputArg.unsqueeze(0) : inputArg).contiguous();
  for (int64_t s : stride) KD_CHECK(s > 0, "non-positive stride is not supported");
  for (int64_t p : padding) KD_CHECK(p >= 0, "negative padding is not supported");
  KD_CHECK(groups > 0, "non-positive groups is not supported");
  const int64_t N = input.sizes()[0], C = input.sizes()[1];
  KD_CHECK(C == weight.sizes()[0],
           "Given transposed=1, weight of size {}, expected input{} to have {} channels, but got {} channels instead",
           weight.sizesStr(), input.sizesStr(), weight.sizes()[0], C);
  KD_CHECK(input.dtype() == weight.dtype(), "expected scalar type {} but found {}", scalarTypeName(input.dtype()),
           scalarTypeName(weight.dtype()));
  KD_CHECK(C % groups == 0 && weight.sizes()[0] % groups == 0,
           "Given groups={}, expected weight to be divisible by {} at dimension 0, but got weight of size {} instead",
           groups, groups, weight.sizesStr());
  const int64_t O = weight.sizes()[1] * groups;
  if (bias.defined())
    KD_CHECK(bias.dtype() == input.dtype(), "expected scalar type {} but found {}", scalarTypeName(input.dtype()),
             scalarTypeName(bias.dtype()));
  if (bias.defined())
    KD_CHECK(bias.numel() == O, "Given transposed=1, weight of size {}, expected bias to be 1-dimensional with {} elements",
             weight.sizesStr(), O);
  IntArray outSizes{N, O};
  for (size_t k = 0; k < spatial; ++k) {
    const int64_t o = (input.sizes()[2 + k] - 1) * stride[k] - 2 * padding[k] +
                      dilation[k] * (weight.sizes()[2 + k] - 1) + outputPadding[k] + 1;
    KD_CHECK(o > 0, "Given input size per channel: ({}). Calculated output size per channel: ({}). Output size is too small",
             input.sizes()[2 + k], o);
    outSizes.push_back(o);
  }
  // float64 and integers run the direct loop; so do small float32 problems (up to 2^20 multiply-adds, well
  // under a millisecond), where it gives PyTorch's own rounding; larger float32 ones run on oneDNN.
  int64_t macs = N * C * (O / groups);
  for (size_t k = 0; k < spatial; ++k) macs *= input.sizes()[2 + k] * weight.sizes()[2 + k];
  if (input.dtype() != ScalarType::Float || macs <= (int64_t(1) << 20)) {
    KD_CHECK(input.dtype() != ScalarType::Half && input.dtype() != ScalarType::BFloat16,
             "\"slow_conv_transpose{}d_out_cpu\" not implemented for '{}'", spatial, scalarTypeName(input.dtype()));
    Tensor out = Tensor::empty(outSizes, input.dtype());
    dispatchLoopTypesNoBool(input.dtype(), spatial == 3 ? "slow_conv_transpose3d_out_cpu" : "slow_conv_transpose2d_out_cpu",
                            [&](auto t) {
      directConvTransposed<decltype(t)>(input, weight, bias, out, stride, padding, dilation, groups);
    });
    return unbatched ? out.squeeze(0) : out;
  }
  Tensor out = Tensor::empty(outSizes, ScalarType::Float);
  onednn::Key key;
  key.add(2).add(input.sizes()).add(weight.sizes()).add(stride).add(padding).add(outputPadding).add(dilation);
  key.add(groups).add(bias.defined());
  auto prim = convCache().get(key, [&] {
    using namespace dnnl;
    const auto f32 = memory::data_type::f32;
    memory::dims wdims = groups > 1 ? memory::dims{groups, O / groups, C / groups} : memory::dims{O, C};
    for (size_t k = 0; k < spatial; ++k) wdims.push_back(weight.sizes()[2 + k]);
    memory::dims st(stride.begin(), stride.end()), pl(padding.begin(), padding.end()), pr, dl;
    for (size_t k = 0; k < spatial; ++k) {
      // right padding absorbs output_padding
      pr.push_back(padding[k] - outputPadding[k]);
      dl.push_back(dilation[k] - 1);
    }
    memory::desc srcD(memory::dims(input.sizes().begin(), input.sizes().end()), f32, channelsFirstTag(spatial));
    memory::desc dstD(memory::dims(outSizes.begin(), outSizes.end()), f32, channelsFirstTag(spatial));
    memory::desc biasD = bias.defined() ? memory::desc({O}, f32, tag::x) : memory::desc();
    auto desc = deconvolution_forward::desc(prop_kind::forward_inference, algorithm::deconvolution_direct, srcD,
                                            memory::desc(wdims, f32, tag::any), biasD, dstD, st, dl, pl, pr);
    deconvolution_forward::primitive_desc pd(desc, onednn::userScratchpadAttr(), onednn::engine());
    auto p = std::make_shared<ConvPrim>();
    p->prim = deconvolution_forward(pd);
    p->scratchpad = pd.scratchpad_desc();
    p->src = pd.src_desc();
    p->weights = pd.weights_desc();
    p->bias = biasD;
    p->dst = pd.dst_desc();
    // PyTorch's transposed weight is [C, O/g, k...] = (g, i, o, k...) in oneDNN's naming.
    // strides for logical (g, o, i, k...) over memory order (g, i, o, k...)
    int64_t ks = 1;
    for (size_t k = 0; k < spatial; ++k) ks *= weight.sizes()[2 + k];
    const int64_t og = O / groups, ig = C / groups;
    memory::dims wst = groups > 1 ? memory::dims{ig * og * ks, ks, og * ks} : memory::dims{ks, og * ks};
    for (size_t k = 0; k < spatial; ++k) {
      int64_t inner = 1;
      for (size_t j = k + 1; j < spatial; ++j) inner *= weight.sizes()[2 + j];
      wst.push_back(inner);
    }
    p->userWeights = memory::desc(wdims, f32, wst);
    return p;
  });
  const Tensor w = weight.contiguous();
  dnnl::memory wMem = onednn::packedWeights(w, prim->userWeights, prim->weights, 1);
  dnnl::memory srcMem = onednn::memoryOf(input, prim->src);
  dnnl::memory dstMem = onednn::memoryOf(out, prim->dst);
  std::unordered_map<int, dnnl::memory> args{{DNNL_ARG_SRC, srcMem}, {DNNL_ARG_WEIGHTS, wMem}, {DNNL_ARG_DST, dstMem}};
  Tensor b;
  if (bias.defined()) {
    b = bias.contiguous();
    args.emplace(DNNL_ARG_BIAS, onednn::memoryOf(b, prim->bias));
  }
  args.emplace(DNNL_ARG_SCRATCHPAD, onednn::scratchpadFor(prim->scratchpad));
  auto& s = onednn::stream();
  onednn::guarded("convolution", [&] { prim->prim.execute(s, args); });
  s.wait();
  return unbatched ? out.squeeze(0) : out;
}

namespace {

IntArray expandParam(const IntArray& v, size_t n, const char* name) {
  if (v.size() == n) return v;
  KD_CHECK(v.size() == 1, "expected {} to be a single integer value or a list of {} values to match the convolution "
           "dimensions, but got {}={}", name, n, name, v.size());
  return IntArray(n, v[0]);
}

/// aten::conv2d (only the 2-d entry point, as in ATen) requires the bias dtype to be the input's; conv1d and
/// conv3d convert the bias instead.
void checkConv2dBias(const Tensor& input, const Tensor& bias) {
  KD_CHECK(!bias.defined() || bias.dtype() == input.dtype(), "Input type ({}) and bias type ({}) should be the same",
           typeMetaName(input.dtype()), typeMetaName(bias.dtype()));
}

/// aten::conv{1,2,3}d(input, weight, bias, stride, padding, dilation, groups)
template <size_t S>
void convNd(Stack& s) {
  Args a(s, 7);
  if constexpr (S == 2) checkConv2dBias(a.tensor(0), a.optTensor(2));
  const IntArray st = expandParam(a.intList(3, S), S, "stride");
  const IntArray pad = expandParam(a.intList(4, S), S, "padding");
  const IntArray dil = expandParam(a.intList(5, S), S, "dilation");
  Tensor r = convolution(a.tensor(0), a.tensor(1), a.optTensor(2), st, pad, pad, dil, a.toInt(6));
  a.ret(std::move(r));
}

/// aten::conv{1,2,3}d.padding(..., str padding="valid"|"same", ...)
template <size_t S>
void convNdPadding(Stack& s) {
  Args a(s, 7);
  if constexpr (S == 2) checkConv2dBias(a.tensor(0), a.optTensor(2));
  const Tensor w = a.tensor(1);
  const IntArray st = expandParam(a.intList(3, S), S, "stride");
  const IntArray dil = expandParam(a.intList(5, S), S, "dilation");
  const std::string mode = a[4].toStringRef();
  IntArray pl(S, 0), pr(S, 0);
  if (mode == "same") {
    for (int64_t x : st) KD_CHECK(x == 1, "padding='same' is not supported for strided convolutions");
    KD_CHECK(w.dim() == static_cast<int64_t>(S) + 2, "conv{}d: expected a {}D weight", S, S + 2);
    for (size_t k = 0; k < S; ++k) {
      const int64_t total = dil[k] * (w.sizes()[2 + k] - 1);
      pl[k] = total / 2;
      pr[k] = total - pl[k];
    }
  } else {
    KD_CHECK(mode == "valid", "Invalid padding string: '{}'", mode);
  }
  Tensor r = convolution(a.tensor(0), w, a.optTensor(2), st, pl, pr, dil, a.toInt(6));
  a.ret(std::move(r));
}

Tensor convolutionDispatch(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArray stride,
                           IntArray padding, IntArray dilation, bool transposed, IntArray outputPadding,
                           int64_t groups) {
  KD_CHECK(weight.dim() >= 3, "weight should have at least three dimensions");
  const size_t S = static_cast<size_t>(weight.dim() - 2);
  stride = expandParam(stride, S, "stride");
  padding = expandParam(padding, S, "padding");
  dilation = expandParam(dilation, S, "dilation");
  if (transposed) {
    outputPadding = expandParam(outputPadding.empty() ? IntArray{0} : outputPadding, S, "output_padding");
    return convolutionTransposed(input, weight, bias, stride, padding, outputPadding, dilation, groups);
  }
  return convolution(input, weight, bias, stride, padding, padding, dilation, groups);
}

/// aten::_convolution (13 args; traced graphs) and _convolution.deprecated (12 args).
template <size_t NArgs>
void underscoreConvolution(Stack& s) {
  Args a(s, NArgs);
  Tensor r = convolutionDispatch(a.tensor(0), a.tensor(1), a.optTensor(2), a.intList(3), a.intList(4), a.intList(5),
                                 a.toBool(6), a.intList(7), a.toInt(8));
  a.ret(std::move(r));
}

void convolutionOp(Stack& s) {
  Args a(s, 9);
  Tensor r = convolutionDispatch(a.tensor(0), a.tensor(1), a.optTensor(2), a.intList(3), a.intList(4), a.intList(5),
                                 a.toBool(6), a.intList(7), a.toInt(8));
  a.ret(std::move(r));
}

/// aten::conv_transpose{1,2,3}d(input, weight, bias, stride, padding, output_padding, groups, dilation)
template <size_t S>
void convTransposeNd(Stack& s) {
  Args a(s, 8);
  Tensor r = convolutionTransposed(a.tensor(0), a.tensor(1), a.optTensor(2), expandParam(a.intList(3, S), S, "stride"),
                                   expandParam(a.intList(4, S), S, "padding"),
                                   expandParam(a.intList(5, S), S, "output_padding"),
                                   expandParam(a.intList(7, S), S, "dilation"), a.toInt(6));
  a.ret(std::move(r));
}

}  // namespace

void registerConvOps(OperatorRegistry& r) {
  r.add("aten::conv1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=[1], int[1] padding=[0], int[1] dilation=[1], int groups=1) -> Tensor", convNd<1>);
  r.add("aten::conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0, int[2] dilation=1, int groups=1) -> Tensor", convNd<2>);
  r.add("aten::conv3d(Tensor input, Tensor weight, Tensor? bias=None, int[3] stride=1, int[3] padding=0, int[3] dilation=1, int groups=1) -> Tensor", convNd<3>);
  r.add("aten::conv1d.padding(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=[1], str padding=\"valid\", int[1] dilation=[1], int groups=1) -> Tensor", convNdPadding<1>);
  r.add("aten::conv2d.padding(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, str padding=\"valid\", int[2] dilation=1, int groups=1) -> Tensor", convNdPadding<2>);
  r.add("aten::conv3d.padding(Tensor input, Tensor weight, Tensor? bias=None, int[3] stride=1, str padding=\"valid\", int[3] dilation=1, int groups=1) -> Tensor", convNdPadding<3>);
  r.add("aten::_convolution(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding, int[] dilation, bool transposed, int[] output_padding, int groups, bool benchmark, bool deterministic, bool cudnn_enabled, bool allow_tf32) -> Tensor", underscoreConvolution<13>);
  r.add("aten::_convolution.deprecated(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding, int[] dilation, bool transposed, int[] output_padding, int groups, bool benchmark, bool deterministic, bool cudnn_enabled) -> Tensor", underscoreConvolution<12>);
  r.add("aten::convolution(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding, int[] dilation, bool transposed, int[] output_padding, int groups) -> Tensor", convolutionOp);
  r.add("aten::conv_transpose1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=[1], int[1] padding=[0], int[1] output_padding=[0], int groups=1, int[1] dilation=[1]) -> Tensor", convTransposeNd<1>);
  r.add("aten::conv_transpose2d.input(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0, int[2] output_padding=0, int groups=1, int[2] dilation=1) -> Tensor", convTransposeNd<2>);
  r.add("aten::conv_transpose3d.input(Tensor input, Tensor weight, Tensor? bias=None, int[3] stride=1, int[3] padding=0, int[3] output_padding=0, int groups=1, int[3] dilation=1) -> Tensor", convTransposeNd<3>);
}

}  // namespace kindling
