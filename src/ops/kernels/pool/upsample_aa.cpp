// Anti-aliased 2-d resizing: aten::_upsample_bilinear2d_aa and aten::_upsample_bicubic2d_aa (+ .vec), what
// F.interpolate(x, mode="bilinear"|"bicubic", antialias=True) calls (PIL's resampling, as PyTorch 1.13's
// separable CPU kernel computes it).
//
// The resize is separable: the width (contiguous) axis is resampled first, then the height axis; an axis
// whose size does not change is left alone. Along one axis, output index i reads the input window
// [xmin, xmin + xsize) with normalized filter weights:
//   scale   = area_pixel_compute_scale (align_corners: (in-1)/(out-1), else 1/scale_factor or in/out)
//   support = filter half-width (1 bilinear, 2 bicubic), times scale when downscaling (scale >= 1)
//   center  = scale * (i + 0.5);  xmin = max(int(center - support + 0.5), 0)
//   xsize   = min(int(center + support + 0.5), in) - xmin
//   w[j]    = filter((j + xmin - center + 0.5) / max(scale, 1)), then divided by their sum
// Filters: triangle (1 - |x|) for bilinear, Keys cubic with a = -0.5 for bicubic. Weights and sums are in
// the input's dtype (float or double; other dtypes raise PyTorch's "not implemented" error), with PyTorch's
// float/double promotions, so float32 results match PyTorch's to rounding.
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "ops/registry/kernel_args.h"
#include "ops/registry/operator.h"
#include "ops/kernels/simd/vec_loop.h"
#include "tensor/tensor_iterator.h"

namespace kindling {

namespace {

enum class AAFilter { Bilinear, Bicubic };

template <class T> T triangleFilter(T x) {
  if (x < 0.0) x = -x;
  if (x < 1.0) return static_cast<T>(1.0 - x);
  return T(0);
}

// Keys' cubic with a = -0.5, evaluated with fused multiply-adds as PyTorch's x86 build contracts it (closer
// to its float32 weights than separate multiplies and adds).
template <class T> T cubicFilter(T x) {
  const T a = T(-0.5);
  if (x < 0.0) x = -x;
  if (x < 1.0) return std::fma(std::fma(a + 2, x, -(a + 3)) * x, x, T(1));
  if (x < 2.0) return std::fma(std::fma(std::fma(a, x, -5 * a), x, 8 * a), x, -4 * a);
  return T(0);
}

/// Input window and weights of every output index along one axis.
template <class T> struct AxisWeights {
  std::vector<int64_t> xmin, xsize;
  std::vector<T> w;  // out * stride entries, the first xsize of each row used
  int64_t stride = 0;
};

template <class T>
AxisWeights<T> axisWeights(int64_t in, int64_t out, bool alignCorners, std::optional<double> scaleFactor, AAFilter f) {
  T scale;
  if (alignCorners) scale = out > 1 ? static_cast<T>(in - 1) / static_cast<T>(out - 1) : T(0);
  else scale = scaleFactor && *scaleFactor > 0. ? static_cast<T>(1.0 / *scaleFactor) : static_cast<T>(in) / static_cast<T>(out);
  const int interp = f == AAFilter::Bilinear ? 2 : 4;
  const T support = static_cast<T>(scale >= 1.0 ? (interp * 0.5) * scale : interp * 0.5);
  const T invscale = static_cast<T>(scale >= 1.0 ? 1.0 / scale : 1.0);
  AxisWeights<T> r;
  r.stride = static_cast<int64_t>(std::ceil(support)) * 2 + 1;
  r.xmin.resize(out);
  r.xsize.resize(out);
  r.w.assign(static_cast<size_t>(out * r.stride), T(0));
  for (int64_t i = 0; i < out; ++i) {
    const T center = static_cast<T>(scale * (i + 0.5));
    const int64_t xmin = std::max(static_cast<int64_t>(center - support + 0.5), int64_t{0});
    const int64_t xsize = std::min(static_cast<int64_t>(center + support + 0.5), in) - xmin;
    T* w = r.w.data() + i * r.stride;
    T total = 0;
    for (int64_t j = 0; j < xsize; ++j) {
      const T x = static_cast<T>((static_cast<T>(j + xmin) - center + 0.5) * invscale);
      w[j] = f == AAFilter::Bilinear ? triangleFilter<T>(x) : cubicFilter<T>(x);
      total += w[j];
    }
    if (total != 0.0)
      for (int64_t j = 0; j < xsize; ++j) w[j] /= total;
    r.xmin[i] = xmin;
    r.xsize[i] = xsize;
  }
  return r;
}

/// Resamples the last axis: x (rows, in) -> y (rows, out), both contiguous.
template <class T> void resampleRows(const T* x, T* y, int64_t rows, int64_t in, int64_t out, const AxisWeights<T>& wt) {
  parallelFor(rows, rows * out * wt.stride >= 32768, [&](int64_t r) {
    const T* xr = x + r * in;
    T* yr = y + r * out;
    for (int64_t i = 0; i < out; ++i) {
      const T* w = wt.w.data() + i * wt.stride;
      const T* src = xr + wt.xmin[i];
      T acc = src[0] * w[0];
      for (int64_t j = 1; j < wt.xsize[i]; ++j) acc += src[j] * w[j];
      yr[i] = acc;
    }
  });
}

/// Resamples the middle axis: x (planes, in, inner) -> y (planes, out, inner), both contiguous.
template <class T>
void resampleCols(const T* x, T* y, int64_t planes, int64_t in, int64_t out, int64_t inner, const AxisWeights<T>& wt) {
  parallelFor(planes * out, planes * out * inner * wt.stride >= 32768, [&](int64_t po) {
    const int64_t p = po / out, i = po % out;
    const T* w = wt.w.data() + i * wt.stride;
    const T* src = x + (p * in + wt.xmin[i]) * inner;
    T* yr = y + (p * out + i) * inner;
    for (int64_t k = 0; k < inner; ++k) yr[k] = src[k] * w[0];
    for (int64_t j = 1; j < wt.xsize[i]; ++j) {
      const T* s = src + j * inner;
      const T wj = w[j];
      for (int64_t k = 0; k < inner; ++k) yr[k] += s[k] * wj;
    }
  });
}

const char* opName(AAFilter f) { return f == AAFilter::Bilinear ? "upsample_bilinear2d_aa" : "upsample_bicubic2d_aa"; }

Tensor upsample2dAA(const Tensor& input, const IntArray& outSize, bool alignCorners, std::optional<double> scaleH,
                    std::optional<double> scaleW, AAFilter f) {
  KD_CHECK(outSize.size() == 2, "It is expected output_size equals to 2, but got size {}", outSize.size());
  KD_CHECK(input.dim() == 4, "It is expected input_size equals to 4, but got size {}", input.dim());
  const int64_t N = input.sizes()[0], C = input.sizes()[1], H = input.sizes()[2], W = input.sizes()[3];
  const int64_t OH = outSize[0], OW = outSize[1];
  KD_CHECK(H > 0 && W > 0 && OH > 0 && OW > 0,
           "Input and output sizes should be greater than 0, but got input (H: {}, W: {}) output (H: {}, W: {})", H, W,
           OH, OW);
  KD_CHECK(input.numel() != 0 || C * H * W != 0, "Non-empty 4D data tensor expected but got a tensor with sizes {}",
           input.sizesStr());
  KD_CHECK(input.dtype() == ScalarType::Float || input.dtype() == ScalarType::Double,
           "\"compute_indices_weights_aa\" not implemented for '{}'", scalarTypeName(input.dtype()));
  Tensor out = Tensor::empty({N, C, OH, OW}, input.dtype());
  if (out.numel() == 0) return out;
  const Tensor x = input.contiguous();
  dispatchLoopFloating(input.dtype(), opName(f), [&](auto tag) {
    using T = decltype(tag);
    const int64_t planes = N * C;
    const T* src = x.data_ptr<T>();
    T* dst = out.data_ptr<T>();
    const bool doW = W != OW, doH = H != OH;
    if (!doW && !doH) {
      std::copy(src, src + x.numel(), dst);
      return;
    }
    std::vector<T> tmp;
    if (doW) {
      const AxisWeights<T> ww = axisWeights<T>(W, OW, alignCorners, scaleW, f);
      T* y = dst;
      if (doH) {
        tmp.resize(static_cast<size_t>(planes * H * OW));
        y = tmp.data();
      }
      resampleRows<T>(src, y, planes * H, W, OW, ww);
      src = y;
    }
    if (doH) {
      const AxisWeights<T> wh = axisWeights<T>(H, OH, alignCorners, scaleH, f);
      resampleCols<T>(src, dst, planes, H, OH, OW, wh);
    }
  });
  return out;
}

template <AAFilter F> void upsampleAAOp(Stack& s) {
  // (self, output_size, align_corners, scales_h, scales_w)
  Args a(s, 5);
  Tensor r = upsample2dAA(a.tensor(0), a.intList(1, 2), a.toBool(2), a.optDouble(3), a.optDouble(4), F);
  a.ret(std::move(r));
}

template <AAFilter F> void upsampleAAVecOp(Stack& s) {
  // (input, output_size?, align_corners, scale_factors?)
  Args a(s, 4);
  const Tensor in = a.tensor(0);
  const std::optional<IntArray> size = a.optIntList(1);
  const bool hasScales = !a[3].isNone();
  KD_CHECK(size.has_value() != hasScales, "Must specify exactly one of output_size and scale_factors");
  std::optional<double> sh, sw;
  IntArray o;
  if (size) {
    o = *size;
  } else {
    const std::vector<double> sc = a[3].toDoubleVector();
    KD_CHECK(static_cast<int64_t>(sc.size()) == in.dim() - 2,
             "Expected static_cast<int64_t>(scale_factors->size()) == spatial_dimensions to be true, but got false.  "
             "(Could this error message be improved?  If so, please report an enhancement request to PyTorch.)");
    for (size_t i = 0; i < sc.size(); ++i)
      o.push_back(static_cast<int64_t>(std::floor(static_cast<double>(in.sizes()[2 + i]) * sc[i])));
    if (sc.size() == 2) {
      sh = sc[0];
      sw = sc[1];
    }
  }
  Tensor r = upsample2dAA(in, o, a.toBool(2), sh, sw, F);
  a.ret(std::move(r));
}

}  // namespace

void registerUpsampleAAOps(OperatorRegistry& r) {
  r.add("aten::_upsample_bilinear2d_aa(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, "
        "float? scales_w=None) -> Tensor",
        upsampleAAOp<AAFilter::Bilinear>);
  r.add("aten::_upsample_bilinear2d_aa.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? "
        "scale_factors) -> Tensor",
        upsampleAAVecOp<AAFilter::Bilinear>);
  r.add("aten::_upsample_bicubic2d_aa(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, "
        "float? scales_w=None) -> Tensor",
        upsampleAAOp<AAFilter::Bicubic>);
  r.add("aten::_upsample_bicubic2d_aa.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? "
        "scale_factors) -> Tensor",
        upsampleAAVecOp<AAFilter::Bicubic>);
}

}  // namespace kindling
