// Tensor::repr against PyTorch 1.13 (expected strings obtained by running the Python expression in each
// comment with /usr/bin/python3 and torch 1.13.1, default print options).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tensor/tensor.h"

using namespace kindling;

namespace {
Tensor arangeF(int64_t n, ScalarType t = ScalarType::Float) {
  std::vector<double> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<double>(i);
  return Tensor::fromVector(v, t);
}
}  // namespace

TEST(TensorPrint, Basic) {
  // repr(torch.tensor([1., 2.]))
  EXPECT_EQ(Tensor::fromVector<float>({1.f, 2.f}, ScalarType::Float).repr(), "tensor([1., 2.])");
  // repr(torch.tensor([1.5, 2.0]))
  EXPECT_EQ(Tensor::fromVector<float>({1.5f, 2.f}, ScalarType::Float).repr(), "tensor([1.5000, 2.0000])");
  // repr(torch.tensor(1.5))
  EXPECT_EQ(Tensor::scalarTensor(Scalar(1.5)).repr(), "tensor(1.5000)");
  // repr(torch.tensor([1, 2, 3]))
  EXPECT_EQ(Tensor::fromVector<int64_t>({1, 2, 3}, ScalarType::Long).repr(), "tensor([1, 2, 3])");
  // repr(torch.tensor([1, 2, 3], dtype=torch.int32))
  EXPECT_EQ(Tensor::fromVector<int64_t>({1, 2, 3}, ScalarType::Int).repr(), "tensor([1, 2, 3], dtype=torch.int32)");
  // repr(torch.tensor([True, False]))
  EXPECT_EQ(Tensor::fromVector<bool>({true, false}, ScalarType::Bool).repr(), "tensor([ True, False])");
  // repr(torch.tensor([1., 2.], dtype=torch.float64))
  EXPECT_EQ(Tensor::fromVector<double>({1., 2.}, ScalarType::Double).repr(), "tensor([1., 2.], dtype=torch.float64)");
  // repr(torch.tensor([])) ; repr(torch.zeros(0, 3)) ; repr(torch.zeros(0, dtype=torch.int64))
  EXPECT_EQ(Tensor::empty({0}).repr(), "tensor([])");
  EXPECT_EQ(Tensor::empty({0, 3}).repr(), "tensor([], size=(0, 3))");
  EXPECT_EQ(Tensor::empty({0}, ScalarType::Long).repr(), "tensor([], dtype=torch.int64)");
}
