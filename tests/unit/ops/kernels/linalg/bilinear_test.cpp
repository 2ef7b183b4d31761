// aten::bilinear (src/ops/kernels/linalg/bilinear.cpp): values and error messages printed by PyTorch 1.13
// (torch.nn.functional.bilinear); tests/oracle/test_opinfo.py compares the OpInfo samples live.
#include "../kernel_cases.h"

namespace kindling {
namespace {

Tensor floats(std::vector<double> v, IntArray sizes) {
  return Tensor::fromVector<double>(v, ScalarType::Double).reshape(sizes).to(ScalarType::Float, /*copy=*/true);
}

Tensor bilinear(const Tensor& a, const Tensor& b, const Tensor& w, const IValue& bias) {
  Stack st{IValue(a), IValue(b), IValue(w), bias};
  OperatorRegistry::global().find("aten::bilinear")->fn(st);
  return st.back().toTensor();
}

std::string errorOf(const Tensor& a, const Tensor& b, const Tensor& w, const IValue& bias) {
  try {
    bilinear(a, b, w, bias);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

const Tensor x1 = floats({1, 2, 3, -1, 0.5, 0}, {3, 2});
const Tensor x2 = floats({1, 0, 2, -1, 1, 1, 2, 2, 2}, {3, 3});
Tensor weight() {
  std::vector<double> w;
  for (int i = 0; i < 12; ++i) w.push_back(i - 5);
  return floats(w, {2, 2, 3});  // torch.arange(12.).reshape(2, 2, 3) - 5
}

TEST(BilinearKernel, MatchesPyTorch) {
  Tensor out = bilinear(x1, x2, weight(), IValue(floats({0.5, -1}, {2})));
  ASSERT_EQ(out.sizes(), (IntArray{3, 2}));
  const std::vector<float> expected{-14.5f, 38.0f, -6.5f, 4.0f, -11.5f, 5.0f};
  const float* p = out.contiguous().data_ptr<float>();
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_FLOAT_EQ(p[i], expected[i]) << i;
  // leading dimensions are kept: (3, 1, 2) x (3, 1, 3) -> (3, 1, 2)
  EXPECT_EQ(bilinear(x1.reshape({3, 1, 2}), x2.reshape({3, 1, 3}), weight(), IValue()).sizes(), (IntArray{3, 1, 2}));
}

TEST(BilinearKernel, ErrorsAsPyTorch) {
  EXPECT_NE(errorOf(x1, x2.reshape({3, 1, 3}), weight(), IValue()).find("bilinear(): input dimensions do not match: got 2 and 3"), std::string::npos);
  EXPECT_NE(errorOf(x1, x2.narrow(0, 0, 2), weight(), IValue()).find("bilinear(): input batch dimensions do not match at dim 0: got 3 and 2"), std::string::npos);
  EXPECT_NE(errorOf(x1.narrow(1, 0, 1), x2, weight(), IValue()).find("bilinear(): input1 size does not match weight size: got 1 but expected 2"), std::string::npos);
  EXPECT_NE(errorOf(x1, x2.narrow(1, 0, 2), weight(), IValue()).find("bilinear(): input2 size does not match weight size: got 2 but expected 3"), std::string::npos);
  EXPECT_NE(errorOf(x1, x2, weight(), IValue(floats({1, 1, 1}, {3}))).find("bilinear(): bias size does not match weight size: got 3 but expected 2"), std::string::npos);
}

}  // namespace
}  // namespace kindling
