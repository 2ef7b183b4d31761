// torchvision's own operators, which its detection models call from TorchScript (torch.ops.torchvision.*):
//
//   torchvision::nms(dets (N, 4) x1y1x2y2, scores (N), iou_threshold) -> int64 (K) indices of the kept boxes,
//       by decreasing score (stable sort, so ties keep their order); a box is dropped when its IoU with an
//       already kept box is > iou_threshold. Arithmetic in the boxes' dtype, as torchvision's CPU kernel.
//   torchvision::roi_align(input (N, C, H, W), rois (K, 5) [batch, x1, y1, x2, y2], spatial_scale,
//       pooled_height, pooled_width, sampling_ratio, aligned) -> (K, C, pooled_height, pooled_width):
//       the average of bilinear samples on a sampling_ratio x sampling_ratio grid per bin (adaptive
//       ceil(roi_size / pooled_size) when sampling_ratio <= 0); aligned shifts boxes by -0.5 pixel. Samples
//       outside [-1, size] count as 0, as torchvision's roi_align_kernel.cpp computes them.
// Schemas are torchvision 0.14's. Float and double.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "ops/registry/kernel_args.h"
#include "ops/registry/operator.h"

namespace kindling {

namespace {

template <class T>
Tensor nmsImpl(const Tensor& dets, const Tensor& scores, double iouThreshold) {
  const int64_t n = dets.size(0);
  const T* d = dets.data_ptr<T>();
  const T* s = scores.data_ptr<T>();
  std::vector<int64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return s[a] > s[b]; });
  std::vector<T> areas(n);
  for (int64_t i = 0; i < n; ++i) areas[i] = (d[i * 4 + 2] - d[i * 4 + 0]) * (d[i * 4 + 3] - d[i * 4 + 1]);
  std::vector<char> suppressed(n, 0);
  std::vector<int64_t> keep;
  const T thr = static_cast<T>(iouThreshold);
  for (int64_t oi = 0; oi < n; ++oi) {
    const int64_t i = order[oi];
    if (suppressed[i]) continue;
    keep.push_back(i);
    const T ix1 = d[i * 4 + 0], iy1 = d[i * 4 + 1], ix2 = d[i * 4 + 2], iy2 = d[i * 4 + 3], iarea = areas[i];
    for (int64_t oj = oi + 1; oj < n; ++oj) {
      const int64_t j = order[oj];
      if (suppressed[j]) continue;
      const T xx1 = std::max(ix1, d[j * 4 + 0]), yy1 = std::max(iy1, d[j * 4 + 1]);
      const T xx2 = std::min(ix2, d[j * 4 + 2]), yy2 = std::min(iy2, d[j * 4 + 3]);
      const T w = std::max(static_cast<T>(0), xx2 - xx1), h = std::max(static_cast<T>(0), yy2 - yy1);
      const T inter = w * h;
      const T ovr = inter / (iarea + areas[j] - inter);
      if (ovr > thr) suppressed[j] = 1;
    }
  }
  return Tensor::fromVector<int64_t>(keep, ScalarType::Long);
}

void nmsOp(Stack& st) {
  Args a(st, 3);
  Tensor dets = a.tensor(0), scores = a.tensor(1);
  const double thr = a.toDouble(2);
  KD_CHECK(dets.dim() == 2, "boxes should be a 2d tensor, got {}D", dets.dim());
  KD_CHECK(dets.size(1) == 4, "boxes should have 4 elements in dimension 1, got {}", dets.size(1));
  KD_CHECK(scores.dim() == 1, "scores should be a 1d tensor, got {}D", scores.dim());
  KD_CHECK(dets.size(0) == scores.size(0), "boxes and scores should have same number of elements in dimension 0, got {} and {}",
           dets.size(0), scores.size(0));
  KD_CHECK(dets.dtype() == scores.dtype(), "boxes and scores must have the same dtype");
  if (dets.numel() == 0) {
    a.ret(Tensor::empty({0}, ScalarType::Long));
    return;
  }
  dets = dets.contiguous();
  scores = scores.contiguous();
  Tensor r;
  switch (dets.dtype()) {
    case ScalarType::Float: r = nmsImpl<float>(dets, scores, thr); break;
    case ScalarType::Double: r = nmsImpl<double>(dets, scores, thr); break;
    default: KD_CHECK(false, "nms: unsupported dtype {} (float and double are)", scalarTypeName(dets.dtype()));
  }
  a.ret(r);
}

template <class T>
struct Sample {
  int64_t p1, p2, p3, p4;
  T w1, w2, w3, w4;
};

/// The bilinear sample at (y, x) of an H x W plane, as torchvision's pre_calc_for_bilinear_interpolate.
template <class T>
Sample<T> bilinear(int64_t H, int64_t W, T y, T x) {
  if (y < -1.0 || y > H || x < -1.0 || x > W) return {0, 0, 0, 0, 0, 0, 0, 0};
  if (y <= 0) y = 0;
  if (x <= 0) x = 0;
  int64_t yl = static_cast<int64_t>(y), xl = static_cast<int64_t>(x), yh, xh;
  if (yl >= H - 1) {
    yh = yl = H - 1;
    y = static_cast<T>(yl);
  } else {
    yh = yl + 1;
  }
  if (xl >= W - 1) {
    xh = xl = W - 1;
    x = static_cast<T>(xl);
  } else {
    xh = xl + 1;
  }
  const T ly = y - yl, lx = x - xl, hy = 1. - ly, hx = 1. - lx;
  return {yl * W + xl, yl * W + xh, yh * W + xl, yh * W + xh, hy * hx, hy * lx, ly * hx, ly * lx};
}

template <class T>
void roiAlignImpl(const Tensor& input, const Tensor& rois, double spatialScale, int64_t PH, int64_t PW,
                  int64_t samplingRatio, bool aligned, Tensor& out) {
  const int64_t C = input.size(1), H = input.size(2), W = input.size(3), K = rois.size(0);
  const T* X = input.data_ptr<T>();
  const T* R = rois.data_ptr<T>();
  T* Y = out.data_ptr<T>();
  const T scale = static_cast<T>(spatialScale);
#pragma omp parallel for if (K * C * PH * PW > 4096)
  for (int64_t n = 0; n < K; ++n) {
    const T* r = R + n * 5;
    const int64_t b = static_cast<int64_t>(r[0]);
    const T off = aligned ? static_cast<T>(0.5) : static_cast<T>(0.0);
    const T x1 = r[1] * scale - off, y1 = r[2] * scale - off, x2 = r[3] * scale - off, y2 = r[4] * scale - off;
    T rw = x2 - x1, rh = y2 - y1;
    if (!aligned) {
      rw = std::max(rw, static_cast<T>(1.));
      rh = std::max(rh, static_cast<T>(1.));
    }
    const T binH = rh / static_cast<T>(PH), binW = rw / static_cast<T>(PW);
    const int64_t gh = samplingRatio > 0 ? samplingRatio : static_cast<int64_t>(std::ceil(rh / PH));
    const int64_t gw = samplingRatio > 0 ? samplingRatio : static_cast<int64_t>(std::ceil(rw / PW));
    const T count = std::max(gh * gw, int64_t(1));
    std::vector<Sample<T>> pre;
    pre.reserve(PH * PW * gh * gw);
    for (int64_t ph = 0; ph < PH; ++ph)
      for (int64_t pw = 0; pw < PW; ++pw)
        for (int64_t iy = 0; iy < gh; ++iy) {
          const T yy = y1 + ph * binH + static_cast<T>(iy + .5f) * binH / static_cast<T>(gh);
          for (int64_t ix = 0; ix < gw; ++ix) {
            const T xx = x1 + pw * binW + static_cast<T>(ix + .5f) * binW / static_cast<T>(gw);
            pre.push_back(bilinear<T>(H, W, yy, xx));
          }
        }
    for (int64_t c = 0; c < C; ++c) {
      const T* plane = X + (b * C + c) * H * W;
      T* o = Y + ((n * C + c) * PH) * PW;
      size_t idx = 0;
      for (int64_t p = 0; p < PH * PW; ++p) {
        T v = 0;
        for (int64_t g = 0; g < gh * gw; ++g, ++idx) {
          const Sample<T>& s = pre[idx];
          v += s.w1 * plane[s.p1] + s.w2 * plane[s.p2] + s.w3 * plane[s.p3] + s.w4 * plane[s.p4];
        }
        o[p] = v / count;
      }
    }
  }
}

void roiAlignOp(Stack& st) {
  Args a(st, 7);
  Tensor input = a.tensor(0), rois = a.tensor(1);
  const double scale = a.toDouble(2);
  const int64_t PH = a.toInt(3), PW = a.toInt(4), sr = a.toInt(5);
  const bool aligned = a.toBool(6);
  KD_CHECK(input.dim() == 4, "roi_align: input must be 4-D (N, C, H, W), got {}D", input.dim());
  KD_CHECK(rois.dim() == 2 && rois.size(1) == 5, "rois must have shape as Tensor[K, 5], got {}", rois.sizesStr());
  KD_CHECK(input.dtype() == rois.dtype(), "roi_align: input and rois must have the same dtype");
  KD_CHECK(PH > 0 && PW > 0, "roi_align: pooled sizes must be positive");
  Tensor out = Tensor::zeros({rois.size(0), input.size(1), PH, PW}, input.dtype());
  if (out.numel() == 0) {
    a.ret(out);
    return;
  }
  input = input.contiguous();
  rois = rois.contiguous();
  const int64_t N = input.size(0);
  {  // batch indices must name an image
    Tensor b = rois.select(1, 0).to(ScalarType::Long).contiguous();
    const int64_t* bp = b.data_ptr<int64_t>();
    for (int64_t i = 0; i < b.numel(); ++i)
      KD_CHECK(bp[i] >= 0 && bp[i] < N, "roi_align: roi {} has batch index {} outside [0, {})", i, bp[i], N);
  }
  switch (input.dtype()) {
    case ScalarType::Float: roiAlignImpl<float>(input, rois, scale, PH, PW, sr, aligned, out); break;
    case ScalarType::Double: roiAlignImpl<double>(input, rois, scale, PH, PW, sr, aligned, out); break;
    default: KD_CHECK(false, "roi_align: unsupported dtype {} (float and double are)", scalarTypeName(input.dtype()));
  }
  a.ret(out);
}

}  // namespace

void registerTorchvisionOps(OperatorRegistry& r) {
  r.add("torchvision::nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor", nmsOp);
  r.add("torchvision::roi_align(Tensor input, Tensor rois, float spatial_scale, int pooled_height, int pooled_width, "
        "int sampling_ratio, bool aligned) -> Tensor", roiAlignOp);
}

}  // namespace kindling
