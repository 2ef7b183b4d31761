// TensorIterator: broadcasting, dtype promotion and casting, in-place checks, strided and channels_last
// operands, the parallel path.
#include "tensor/tensor_iterator.h"

#include <gtest/gtest.h>
#include <omp.h>

namespace kindling {
namespace {

Tensor arange(int64_t n, ScalarType dt = ScalarType::Float) {
  std::vector<double> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<double>(i);
  return Tensor::fromVector<double>(v, ScalarType::Double).to(dt);
}

Tensor addFloat(const Tensor& a, const Tensor& b, const Tensor& out = Tensor()) {
  TensorIterator it;
  it.addOutput(out).addInput(a).addInput(b).build();
  dispatchLoopTypes(it.loopComputeDtype(), "add", [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [](T x, T y) -> T { return static_cast<T>(x + y); });
  });
  return it.output();
}

TEST(TensorIterator, BroadcastsAndPromotes) {
  Tensor a = arange(6, ScalarType::Long).view({2, 3});
  Tensor b = arange(3, ScalarType::Float);
  Tensor r = addFloat(a, b);
  EXPECT_EQ(r.dtype(), ScalarType::Float);
  EXPECT_EQ(r.sizes(), (IntArray{2, 3}));
  for (int64_t i = 0; i < 6; ++i) EXPECT_EQ(r.doubleAt(i), static_cast<double>(i + i % 3));
}

TEST(TensorIterator, ScalarInputIsWrappedNumber) {
  TensorIterator it;
  it.addOutput(Tensor()).addInput(arange(3, ScalarType::Int)).addInput(Scalar(int64_t(2))).build();
  EXPECT_EQ(it.commonDtype(), ScalarType::Int);
  TensorIterator it2;
  it2.addOutput(Tensor()).addInput(arange(3, ScalarType::Int)).addInput(Scalar(0.5)).build();
  EXPECT_EQ(it2.commonDtype(), ScalarType::Float);
}

TEST(TensorIterator, IntegerToFloat) {
  TensorIterator it;
  it.addOutput(Tensor()).addInput(arange(3, ScalarType::Long)).promoteIntegerInputsToFloat(true).build();
  EXPECT_EQ(it.loopComputeDtype(), ScalarType::Float);
  EXPECT_EQ(it.output().dtype(), ScalarType::Float);
}

TEST(TensorIterator, InPlaceChecks) {
  Tensor self = arange(3, ScalarType::Long);
  try {
    addFloat(self, arange(3, ScalarType::Float), self);
    FAIL() << "expected an error";
  } catch (const RuntimeError& e) {
    EXPECT_EQ(e.message(), "result type Float can't be cast to the desired output type Long");
  }
  Tensor small = arange(3);
  try {
    addFloat(small, arange(6).view({2, 3}), small);
    FAIL() << "expected an error";
  } catch (const RuntimeError& e) {
    EXPECT_EQ(e.message(), "output with shape [3] doesn't match the broadcast shape [2, 3]");
  }
  // float32 self += float64 tensor: computed in float64, written back as float32
  Tensor f = arange(3);
  Tensor r = addFloat(f, arange(3, ScalarType::Double), f);
  EXPECT_TRUE(r.is_same(f));
  EXPECT_EQ(f.dtype(), ScalarType::Float);
  EXPECT_EQ(f.doubleAt(2), 4.0);
}

TEST(TensorIterator, StridedInputs) {
  Tensor a = arange(12).view({3, 4}).transpose(0, 1);  // [4, 3], non-contiguous
  Tensor b = arange(12).view({4, 3});
  Tensor r = addFloat(a, b);
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 3; ++j) EXPECT_EQ(r.doubleAt(i * 3 + j), static_cast<double>(j * 4 + i + i * 3 + j));
}

TEST(TensorIterator, KeepsChannelsLast) {
  const IntArray sizes{1, 3, 2, 2};
  Tensor x = Tensor::emptyStrided(sizes, {12, 1, 6, 3}, ScalarType::Float);
  x.copy_(arange(12).view(sizes));
  Tensor r = addFloat(x, x);
  EXPECT_EQ(r.strides(), (IntArray{12, 1, 6, 3}));
  Tensor c = r.contiguous();
  for (int64_t i = 0; i < 12; ++i) EXPECT_EQ(c.doubleAt(i), 2.0 * i);
}

TEST(TensorIterator, ParallelMatchesSerial) {
  const int64_t n = 300000;
  Tensor a = arange(n), b = arange(n);
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  Tensor serial = addFloat(a, b);
  omp_set_num_threads(std::max(2, saved));
  Tensor par = addFloat(a, b);
  omp_set_num_threads(saved);
  for (int64_t i = 0; i < n; i += 997) EXPECT_EQ(serial.doubleAt(i), par.doubleAt(i));
  EXPECT_EQ(par.doubleAt(n - 1), 2.0 * (n - 1));
}

TEST(TensorIterator, HalfComputesInFloat) {
  Tensor h = arange(4, ScalarType::Half);
  Tensor r = addFloat(h, h);
  EXPECT_EQ(r.dtype(), ScalarType::Half);
  EXPECT_EQ(r.doubleAt(3), 6.0);
}

TEST(TensorIterator, ZeroDimAndEmpty) {
  Tensor r = addFloat(Tensor::full({}, Scalar(1.5), ScalarType::Float), Tensor::full({}, Scalar(2.0), ScalarType::Float));
  EXPECT_EQ(r.dim(), 0);
  EXPECT_EQ(r.item().toDouble(), 3.5);
  Tensor e = addFloat(Tensor::empty({0, 3}), arange(3));
  EXPECT_EQ(e.sizes(), (IntArray{0, 3}));
}

}  // namespace
}  // namespace kindling
