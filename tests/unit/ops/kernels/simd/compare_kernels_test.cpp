// The vectorized comparisons (src/ops/kernels/simd/compare_kernels.cpp) on every target compiled in and usable on
// this CPU: each of eq/ne/lt/le/gt/ge equals C++'s operator on float, double, int64 and int32, for all
// lengths 0..70 (tails), the three broadcast modes, special values (±0, ±inf, NaN: false except ne), and
// through TensorIterator for contiguous, transposed (strided) and scalar operands.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "ops/kernels/simd/compare_kernels.h"
#include "tensor/tensor.h"

namespace kindling::simd {
namespace {

struct TargetGuard {
  ~TargetGuard() { forceTarget(""); }
};

template <class T>
bool ref(Compare op, T a, T b) {
  switch (op) {
    case Compare::Eq: return a == b;
    case Compare::Ne: return a != b;
    case Compare::Lt: return a < b;
    case Compare::Le: return a <= b;
    case Compare::Gt: return a > b;
    default: return a >= b;
  }
}

// Values with many ties (small integers) and, for floats, the special values.
template <class T>
std::vector<T> values(int64_t n, uint32_t seed) {
  std::mt19937 g(seed);
  std::uniform_int_distribution<int> u(-3, 3);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(u(g));
  if constexpr (std::is_floating_point_v<T>) {
    const T specials[] = {-T(0), std::numeric_limits<T>::infinity(), -std::numeric_limits<T>::infinity(),
                          std::numeric_limits<T>::quiet_NaN(), T(0.5)};
    for (int64_t i = 0; i < n; i += 3) v[i] = specials[(i / 3 + seed) % 5];
  } else {
    if (n > 2) v[1] = std::numeric_limits<T>::max(), v[2] = std::numeric_limits<T>::min();
  }
  return v;
}

template <class T>
void checkAllTargets() {
  TargetGuard guard;
  for (const auto& target : availableTargets()) {
    forceTarget(target);
    for (int o = 0; o < static_cast<int>(Compare::kCount); ++o) {
      const Compare op = static_cast<Compare>(o);
      for (int64_t n = 0; n <= 70; ++n) {
        const std::vector<T> a = values<T>(n, static_cast<uint32_t>(n)), b = values<T>(n, static_cast<uint32_t>(n + 1));
        for (Bcast mode : {Bcast::None, Bcast::B, Bcast::A}) {
          if (n == 0 && mode != Bcast::None) continue;
          std::vector<char> y(n + 1, 7);  // one guard byte past the end
          compare(op, a.data(), b.data(), reinterpret_cast<bool*>(y.data()), n, mode);
          for (int64_t i = 0; i < n; ++i) {
            const T u = mode == Bcast::A ? a[0] : a[i], v = mode == Bcast::B ? b[0] : b[i];
            ASSERT_EQ(static_cast<int>(y[i]), ref(op, u, v) ? 1 : 0)
                << target << " op " << o << " n " << n << " mode " << static_cast<int>(mode) << " i " << i << ": " << u
                << " vs " << v;
          }
          ASSERT_EQ(y[n], 7) << target << " wrote past the end, n " << n;
        }
      }
    }
  }
}

TEST(CompareKernels, FloatEveryTarget) { checkAllTargets<float>(); }
TEST(CompareKernels, DoubleEveryTarget) { checkAllTargets<double>(); }
TEST(CompareKernels, Int64EveryTarget) { checkAllTargets<int64_t>(); }
TEST(CompareKernels, Int32EveryTarget) { checkAllTargets<int32_t>(); }

TEST(CompareKernels, ThroughTensorIterator) {
  TargetGuard guard;
  for (const auto& target : availableTargets()) {
    forceTarget(target);
    // [7, 300] against its own transpose's transpose (strided) and a broadcast row
    const int64_t R = 300, C = 7;
    Tensor a = Tensor::empty({C, R}, ScalarType::Float);
    float* pa = a.data_ptr<float>();
    for (int64_t i = 0; i < C * R; ++i) pa[i] = static_cast<float>((i * 7919) % 11) - 5.f;
    pa[5] = std::numeric_limits<float>::quiet_NaN();
    const Tensor at = a.transpose(0, 1);  // [R, C], strided
    Tensor b = Tensor::empty({R, C}, ScalarType::Float);
    float* pb = b.data_ptr<float>();
    for (int64_t i = 0; i < R * C; ++i) pb[i] = static_cast<float>((i * 31) % 11) - 5.f;
    TensorIterator it;
    it.addOutput(Tensor()).addInput(at).addInput(b).outputDtype(ScalarType::Bool);
    it.build();
    ASSERT_TRUE(tryCompare(it, Compare::Le));
    const Tensor y = it.output().contiguous();
    ASSERT_EQ(y.dtype(), ScalarType::Bool);
    const bool* py = y.data_ptr<bool>();
    for (int64_t r = 0; r < R; ++r)
      for (int64_t c = 0; c < C; ++c) ASSERT_EQ(py[r * C + c], pa[c * R + r] <= pb[r * C + c]) << target << " " << r << "," << c;
    // a Python scalar on the right
    TensorIterator is;
    is.addOutput(Tensor()).addInput(a).addInput(Scalar(0.0)).outputDtype(ScalarType::Bool);
    is.build();
    ASSERT_TRUE(tryCompare(is, Compare::Ne));
    const bool* ps = is.output().data_ptr<bool>();
    for (int64_t i = 0; i < C * R; ++i) ASSERT_EQ(ps[i], pa[i] != 0.f) << target << " " << i;
    // dtypes without a vector kernel are left to the caller
    TensorIterator iu;
    iu.addOutput(Tensor()).addInput(Tensor::empty({3}, ScalarType::Byte)).addInput(Tensor::empty({3}, ScalarType::Byte));
    iu.outputDtype(ScalarType::Bool);
    iu.build();
    EXPECT_FALSE(tryCompare(iu, Compare::Eq));
  }
}

}  // namespace
}  // namespace kindling::simd
