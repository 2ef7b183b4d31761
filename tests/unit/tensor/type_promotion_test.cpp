// Type promotion and broadcast shapes against PyTorch 1.13's torch.result_type / broadcasting results
// (values checked with /usr/bin/python3: e.g. torch.result_type(torch.tensor([1]), 2.5) == torch.float32).
#include "tensor/type_promotion.h"

#include <gtest/gtest.h>

namespace kindling {
namespace {

Tensor t1(ScalarType dt) { return Tensor::zeros({2}, dt); }
Tensor t0(ScalarType dt) { return Tensor::zeros({}, dt); }

TEST(TypePromotion, DimTensorsPromote) {
  EXPECT_EQ(resultType(t1(ScalarType::Int), t1(ScalarType::Long)), ScalarType::Long);
  EXPECT_EQ(resultType(t1(ScalarType::Long), t1(ScalarType::Float)), ScalarType::Float);
  EXPECT_EQ(resultType(t1(ScalarType::Byte), t1(ScalarType::Char)), ScalarType::Short);
  EXPECT_EQ(resultType(t1(ScalarType::Bool), t1(ScalarType::Bool)), ScalarType::Bool);
  EXPECT_EQ(resultType(t1(ScalarType::Half), t1(ScalarType::Float)), ScalarType::Float);
}

TEST(TypePromotion, ZeroDimTensorsOnlyRaiseTheCategory) {
  // torch.tensor([1.], dtype=float32) + torch.tensor(1., dtype=float64) -> float32
  EXPECT_EQ(resultType(t1(ScalarType::Float), t0(ScalarType::Double)), ScalarType::Float);
  // uint8 tensor + int64 0-dim -> uint8
  EXPECT_EQ(resultType(t1(ScalarType::Byte), t0(ScalarType::Long)), ScalarType::Byte);
  // int64 tensor + float64 0-dim -> float64 (higher category: promoteTypes)
  EXPECT_EQ(resultType(t1(ScalarType::Long), t0(ScalarType::Double)), ScalarType::Double);
  // two 0-dim tensors promote normally
  EXPECT_EQ(resultType(t0(ScalarType::Int), t0(ScalarType::Double)), ScalarType::Double);
}

TEST(TypePromotion, WrappedNumbers) {
  EXPECT_EQ(resultType(t1(ScalarType::Long), Scalar(2.5)), ScalarType::Float);  // default dtype
  EXPECT_EQ(resultType(t1(ScalarType::Int), Scalar(int64_t(2))), ScalarType::Int);
  EXPECT_EQ(resultType(t1(ScalarType::Bool), Scalar(int64_t(2))), ScalarType::Long);
  EXPECT_EQ(resultType(t1(ScalarType::Bool), Scalar(true)), ScalarType::Bool);
  EXPECT_EQ(resultType(t1(ScalarType::Half), Scalar(2.5)), ScalarType::Half);
  EXPECT_EQ(resultType(t1(ScalarType::Double), Scalar(int64_t(1))), ScalarType::Double);
  EXPECT_EQ(resultType(t0(ScalarType::Long), Scalar(2.5)), ScalarType::Float);
  ResultTypeState s;
  s.add(Scalar(int64_t(1)));
  s.add(Scalar(2.0));
  EXPECT_EQ(s.result(), ScalarType::Float);
}

TEST(TypePromotion, CanCast) {
  EXPECT_TRUE(canCast(ScalarType::Long, ScalarType::Float));
  EXPECT_FALSE(canCast(ScalarType::Float, ScalarType::Long));
  EXPECT_FALSE(canCast(ScalarType::Long, ScalarType::Bool));
  EXPECT_TRUE(canCast(ScalarType::Bool, ScalarType::Bool));
  EXPECT_TRUE(canCast(ScalarType::Double, ScalarType::Half));
}

TEST(Broadcast, InferSize) {
  EXPECT_EQ(inferSize({2, 1, 4}, {3, 1}), (IntArray{2, 3, 4}));
  EXPECT_EQ(inferSize({}, {5}), (IntArray{5}));
  EXPECT_EQ(inferSize({0, 1}, {1, 3}), (IntArray{0, 3}));
  try {
    inferSize({2, 3}, {4});
    FAIL() << "expected an error";
  } catch (const RuntimeError& e) {
    EXPECT_EQ(e.message(), "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
  }
  try {
    inferSize({5, 3}, {4, 3});
    FAIL() << "expected an error";
  } catch (const RuntimeError& e) {
    EXPECT_EQ(e.message(), "The size of tensor a (5) must match the size of tensor b (4) at non-singleton dimension 0");
  }
}

TEST(Broadcast, MaybeWrapDim) {
  EXPECT_EQ(maybeWrapDim(-1, 3), 2);
  EXPECT_EQ(maybeWrapDim(0, 0), 0);
  EXPECT_EQ(maybeWrapDim(-1, 0), 0);
  try {
    maybeWrapDim(2, 2);
    FAIL() << "expected an error";
  } catch (const RuntimeError& e) {
    EXPECT_EQ(e.message(), "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
    EXPECT_EQ(e.pythonClass(), "builtins.IndexError");
  }
}

}  // namespace
}  // namespace kindling
