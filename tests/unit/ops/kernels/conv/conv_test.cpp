// conv kernels (src/ops/kernels/conv/conv.cpp) against PyTorch 1.13 values from gen_kernel_cases.py, plus the internal
// convolution() API: packed weights (kept with the weight, repacked after writes), fused post-ops and the channels-last layout policy.
#include "ops/kernels/conv/conv.h"

#include <cstring>

#include "../kernel_cases.h"
#include "ops/kernels/common/onednn_utils.h"

namespace kindling {
namespace {

TEST(ConvKernels, MatchPyTorch) {
  OperatorRegistry r;
  registerConvOps(r);
  testing::expectPyTorchSchemas(r);
  testing::runKernelFamily("conv", r);
}

Tensor ramp(const IntArray& sizes, double scale, double shift) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<double> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = std::sin(i * scale) + shift;
  return Tensor::fromVector<double>(v, ScalarType::Double).reshape(sizes).to(ScalarType::Float);
}

void expectClose(const Tensor& a, const Tensor& b) {
  ASSERT_EQ(a.sizes(), b.sizes());
  const Tensor x = a.contiguous(), y = b.contiguous();
  for (int64_t i = 0; i < x.numel(); ++i) ASSERT_NEAR(x.doubleAt(i), y.doubleAt(i), 1e-4) << "element " << i;
}

TEST(Convolution, WeightsArePackedOnceAndAgainAfterAWrite) {
  const Tensor x = ramp({1, 8, 10, 10}, 0.37, 0.0), w = ramp({16, 8, 3, 3}, 0.11, 0.0), b = ramp({16}, 0.5, 0.0);
  const Tensor y1 = convolution(x, w, b, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1);
  const size_t packed = w.storage()->derivedCount();  // 0 when oneDNN takes the weights as they are
  EXPECT_LE(packed, 1u);
  const Tensor y2 = convolution(x, w, b, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1);
  EXPECT_EQ(w.storage()->derivedCount(), packed) << "second call must reuse the packed weights";
  expectClose(y1, y2);
  // A different weight tensor with the same shape is packed separately and gives its own result.
  const Tensor w2 = ramp({16, 8, 3, 3}, 0.23, 0.1);
  const Tensor y3 = convolution(x, w2, b, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1);
  double diff = 0;
  for (int64_t i = 0; i < y3.numel(); ++i) diff += std::abs(y3.contiguous().doubleAt(i) - y1.contiguous().doubleAt(i));
  EXPECT_GT(diff, 1.0);
  // Written in place (the whole tensor, then one output channel through a view): the next call sees the values.
  Tensor(w).copy_(w2);
  expectClose(convolution(x, w, b, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1), y3);
  Tensor(w).select(0, 3).fill_(Scalar(0.5));
  Tensor w3 = w2.clone();
  w3.select(0, 3).fill_(Scalar(0.5));
  expectClose(convolution(x, w, b, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1),
              convolution(x, w3, b, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1));
  EXPECT_EQ(w.storage()->derivedCount(), packed) << "a stale packed copy is replaced, not kept beside";
}

TEST(Convolution, PrepackedWeightIsFoundByTheCall) {
  const Tensor w = ramp({32, 16, 3, 3}, 0.11, 0.0), b = ramp({32}, 0.5, 0.0);
  prepackConvolutionWeight(w, true, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1);
  const size_t packed = w.storage()->derivedCount();
  const Tensor y = convolution(ramp({1, 16, 56, 56}, 0.37, 0.0), w, b, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1);
  EXPECT_EQ(w.storage()->derivedCount(), packed);
  expectClose(y, convolution(ramp({1, 16, 56, 56}, 0.37, 0.0), w.clone(), b, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1));
  // Parameters the kernel rejects are left for the call to report.
  const Tensor w2 = ramp({32, 16, 3, 3}, 0.11, 0.0);
  prepackConvolutionWeight(w2, true, {0, 1}, {1, 1}, {1, 1}, {1, 1}, 1);
  prepackConvolutionWeight(w2, true, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 3);
  EXPECT_EQ(w2.storage()->derivedCount(), 0u);
}

TEST(Convolution, ReleasedWeightBytesAreWrittenBackBeforeAnotherPacking) {
  using tag = dnnl::memory::format_tag;
  // 256x64x3x3 floats: 576 KiB, many whole pages.
  const Tensor w = ramp({256, 64, 3, 3}, 0.013, 0.5), original = w.clone();
  const auto have = onednn::descOf(w);
  const auto blocked16 = onednn::descOf(w.sizes(), ScalarType::Float, tag::OIhw16i16o);
  const auto blocked8 = onednn::descOf(w.sizes(), ScalarType::Float, tag::OIhw8i8o);
  const dnnl::memory packed = onednn::packedWeights(w, have, blocked16);
  onednn::releasePlainBytes(w, have, packed);
  const size_t bytes = w.nbytes();
  EXPECT_NE(std::memcmp(w.data_ptr(), original.data_ptr(), bytes), 0) << "the whole pages were given back";
  // Packing for another layout reads the bytes: they are written back from the packed copy first, exactly.
  onednn::packedWeights(w, have, blocked8);
  EXPECT_EQ(std::memcmp(w.data_ptr(), original.data_ptr(), bytes), 0);
  const Tensor x = ramp({1, 64, 9, 9}, 0.29, 0.0), b = ramp({256}, 0.5, 0.0);
  expectClose(convolution(x, w, b, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1),
              convolution(x, original, b, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1));
}

TEST(Convolution, WeightBytesAreKeptWhereReleasingIsNotAllowed) {
  using tag = dnnl::memory::format_tag;
  const Tensor base = ramp({2, 256, 64, 3, 3}, 0.013, 0.5);
  const Tensor view = base.select(0, 1), original = view.clone();  // does not span its storage
  const auto have = onednn::descOf(view);
  const dnnl::memory packed =
      onednn::packedWeights(view, have, onednn::descOf(view.sizes(), ScalarType::Float, tag::OIhw16i16o));
  onednn::releasePlainBytes(view, have, packed);
  EXPECT_EQ(std::memcmp(view.data_ptr(), original.data_ptr(), view.nbytes()), 0);
  // A packed layout equal to the weight's own is the weight's bytes: nothing to release.
  const Tensor w = ramp({256, 64, 3, 3}, 0.013, 0.5), copy = w.clone();
  onednn::releasePlainBytes(w, onednn::descOf(w), onednn::packedWeights(w, onednn::descOf(w), onednn::descOf(w)));
  EXPECT_EQ(std::memcmp(w.data_ptr(), copy.data_ptr(), w.nbytes()), 0);
}

TEST(Convolution, FusedPostOps) {
  const Tensor x = ramp({1, 4, 9, 9}, 0.37, 0.0), w = ramp({6, 4, 3, 3}, 0.11, 0.0), b = ramp({6}, 0.5, 0.0);
  const Tensor plain = convolution(x, w, b, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1);
  ConvPostOp relu;
  relu.act = ConvPostOp::Act::Relu;
  const Tensor fusedRelu = convolution(x, w, b, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1, relu);
  const Tensor pc = plain.contiguous();
  Tensor want = Tensor::empty(plain.sizes());
  for (int64_t i = 0; i < pc.numel(); ++i) want.data_ptr<float>()[i] = std::max(0.f, pc.data_ptr<float>()[i]);
  expectClose(fusedRelu, want);
  // residual + clamp(0, 6): relu6(conv(x) + r)
  ConvPostOp add6;
  add6.residual = ramp(plain.sizes(), 0.7, 0.5);
  add6.act = ConvPostOp::Act::Clamp;
  add6.lo = 0.f;
  add6.hi = 6.f;
  const Tensor fused = convolution(x, w, b, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1, add6);
  const Tensor rc = add6.residual.contiguous();
  for (int64_t i = 0; i < pc.numel(); ++i)
    want.data_ptr<float>()[i] = std::min(6.f, std::max(0.f, pc.data_ptr<float>()[i] + rc.data_ptr<float>()[i]));
  expectClose(fused, want);
}

TEST(Convolution, ChannelsLastPolicyKeepsValues) {
  const Tensor x = ramp({1, 8, 7, 7}, 0.31, 0.0), w = ramp({8, 1, 3, 3}, 0.17, 0.0);
  const Tensor nchw = convolution(x, w, Tensor(), {1, 1}, {1, 1}, {1, 1}, {1, 1}, 8);
  EXPECT_TRUE(nchw.is_contiguous());
  setPreferChannelsLast(true);
  const Tensor nhwc = convolution(x, w, Tensor(), {1, 1}, {1, 1}, {1, 1}, {1, 1}, 8);
  setPreferChannelsLast(false);
  EXPECT_EQ(nhwc.strides(), (IntArray{7 * 7 * 8, 1, 7 * 8, 8}));
  expectClose(nchw, nhwc);
}

}  // namespace
}  // namespace kindling

namespace kindling {
namespace {

TEST(Convolution, BadInputsRaiseRuntimeErrors) {
  const Tensor x = ramp({1, 2, 5, 5}, 0.3, 0.0);
  // zero-size kernel
  EXPECT_THROW(convolution(x, Tensor::zeros({4, 2, 0, 3}), Tensor(), {1, 1}, {0, 0}, {0, 0}, {1, 1}, 1), RuntimeError);
  // expanded (stride-0) input is materialized, not rejected
  const Tensor row = ramp({1, 2, 1, 5}, 0.3, 0.0);
  const Tensor w = ramp({3, 2, 3, 3}, 0.2, 0.0);
  const Tensor viaExpand = convolution(row.expand({1, 2, 5, 5}), w, Tensor(), {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1);
  const Tensor viaCopy = convolution(row.expand({1, 2, 5, 5}).contiguous(), w, Tensor(), {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1);
  expectClose(viaExpand, viaCopy);
}

}  // namespace
}  // namespace kindling
