// torchvision::nms and torchvision::roi_align (src/ops/kernels/torchvision/torchvision_ops.cpp) on cases worked out by hand from
// torchvision 0.14's CPU kernels; the detection models of tests/oracle/test_zoo.py compare them with
// torchvision itself on real data.
#include <gtest/gtest.h>

#include "ops/registry/operator.h"
#include "tensor/tensor.h"

namespace kindling {
namespace {

const Operator& op(const OperatorRegistry& r, const char* name) {
  const Operator* o = r.find(name);
  EXPECT_NE(o, nullptr) << name;
  return *o;
}

OperatorRegistry& reg() {
  static OperatorRegistry r = [] {
    OperatorRegistry x;
    registerTorchvisionOps(x);
    return x;
  }();
  return r;
}

std::vector<int64_t> runNms(const std::vector<float>& boxes, const std::vector<float>& scores, double thr) {
  const int64_t n = static_cast<int64_t>(scores.size());
  Stack s;
  s.emplace_back(Tensor::fromVector<float>(boxes, ScalarType::Float).view({n, 4}));
  s.emplace_back(Tensor::fromVector<float>(scores, ScalarType::Float));
  s.emplace_back(thr);
  op(reg(), "torchvision::nms").fn(s);
  EXPECT_EQ(s.size(), 1u);
  Tensor k = s.back().toTensor();
  EXPECT_EQ(k.dtype(), ScalarType::Long);
  return std::vector<int64_t>(k.data_ptr<int64_t>(), k.data_ptr<int64_t>() + k.numel());
}

TEST(TorchvisionNms, KeepsByScoreAndSuppressesOverlaps) {
  // Box 0 and 1 overlap with IoU 81/100 = 0.81; box 2 is apart; box 3 equals box 2 (IoU 1).
  const std::vector<float> boxes{0, 0, 10, 10, 1, 1, 10, 10, 20, 20, 30, 30, 20, 20, 30, 30};
  EXPECT_EQ(runNms(boxes, {0.9f, 0.8f, 0.7f, 0.6f}, 0.5), (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(runNms(boxes, {0.8f, 0.9f, 0.6f, 0.7f}, 0.5), (std::vector<int64_t>{1, 3}));
  // IoU 0.81 is not > 0.85: both kept, ordered by score.
  EXPECT_EQ(runNms(boxes, {0.8f, 0.9f, 0.6f, 0.7f}, 0.85), (std::vector<int64_t>{1, 0, 3}));
  // Equal scores keep their order (stable sort).
  EXPECT_EQ(runNms(boxes, {0.5f, 0.5f, 0.5f, 0.5f}, 0.99), (std::vector<int64_t>{0, 1, 2}));
  EXPECT_TRUE(runNms({}, {}, 0.5).empty());
}

TEST(TorchvisionNms, RejectsBadShapes) {
  Stack s;
  s.emplace_back(Tensor::zeros({3, 5}));
  s.emplace_back(Tensor::zeros({3}));
  s.emplace_back(0.5);
  EXPECT_THROW(op(reg(), "torchvision::nms").fn(s), RuntimeError);
}

Tensor runRoiAlign(const Tensor& input, const std::vector<float>& rois, double scale, int64_t ph, int64_t pw, int64_t sr,
                   bool aligned) {
  Stack s;
  s.emplace_back(input);
  s.emplace_back(Tensor::fromVector<float>(rois, ScalarType::Float).view({static_cast<int64_t>(rois.size() / 5), 5}));
  s.emplace_back(scale);
  s.emplace_back(ph);
  s.emplace_back(pw);
  s.emplace_back(sr);
  s.emplace_back(aligned);
  op(reg(), "torchvision::roi_align").fn(s);
  return s.back().toTensor();
}

TEST(TorchvisionRoiAlign, BilinearSamplesOfALinearRamp) {
  // input[y][x] = x + 10 y on a 6x6 plane: bilinear interpolation is exact, so each bin's average is the
  // ramp at the bin's centre of samples.
  std::vector<float> v;
  for (int y = 0; y < 6; ++y)
    for (int x = 0; x < 6; ++x) v.push_back(static_cast<float>(x + 10 * y));
  Tensor in = Tensor::fromVector<float>(v, ScalarType::Float).view({1, 1, 6, 6});
  // aligned=true, box (1,1)-(3,3) in pixels -> shifted by -0.5: (0.5,0.5)-(2.5,2.5); 2x2 bins of size 1,
  // sampling_ratio 2: samples at 0.75/1.25 and 1.75/2.25; bin centres 1.0 and 2.0.
  Tensor out = runRoiAlign(in, {0, 1, 1, 3, 3}, 1.0, 2, 2, 2, true);
  ASSERT_EQ(out.sizes(), (IntArray{1, 1, 2, 2}));
  const float* o = out.data_ptr<float>();
  EXPECT_NEAR(o[0], 1.0f + 10.0f, 1e-5);
  EXPECT_NEAR(o[1], 2.0f + 10.0f, 1e-5);
  EXPECT_NEAR(o[2], 1.0f + 20.0f, 1e-5);
  EXPECT_NEAR(o[3], 2.0f + 20.0f, 1e-5);
  // spatial_scale 0.5 on a box given at twice the size, adaptive sampling (ceil(2/2) = 1 sample per bin),
  // aligned=false: box (2,2)-(6,6) -> (1,1)-(3,3), bins of size 1, samples at the bin centres 1.5 and 2.5.
  Tensor out2 = runRoiAlign(in, {0, 2, 2, 6, 6}, 0.5, 2, 2, 0, false);
  const float* p = out2.data_ptr<float>();
  EXPECT_NEAR(p[0], 1.5f + 15.0f, 1e-5);
  EXPECT_NEAR(p[3], 2.5f + 25.0f, 1e-5);
}

TEST(TorchvisionRoiAlign, OutsideSamplesAreZeroAndBadBatchIndexIsAnError) {
  Tensor in = Tensor::full({1, 2, 4, 4}, Scalar(1.0), ScalarType::Float);
  // Entirely outside the image (x, y > W + 1): every sample counts as 0.
  Tensor out = runRoiAlign(in, {0, 10, 10, 12, 12}, 1.0, 1, 1, 2, false);
  EXPECT_EQ(out.sizes(), (IntArray{1, 2, 1, 1}));
  EXPECT_EQ(out.data_ptr<float>()[0], 0.0f);
  // Inside a constant image: 1 everywhere, for every channel.
  Tensor in2 = Tensor::full({1, 2, 4, 4}, Scalar(1.0), ScalarType::Float);
  Tensor out2 = runRoiAlign(in2, {0, 0.5f, 0.5f, 2.5f, 3.0f}, 1.0, 2, 3, -1, false);
  for (int64_t i = 0; i < out2.numel(); ++i) EXPECT_NEAR(out2.data_ptr<float>()[i], 1.0f, 1e-6);
  EXPECT_THROW(runRoiAlign(in, {1, 0, 0, 2, 2}, 1.0, 1, 1, 2, false), RuntimeError);
}

}  // namespace
}  // namespace kindling
