// The vectorized kernels (src/ops/kernels/simd/vec_kernels.cpp) on every target compiled in and usable on this CPU
// (SSE4, AVX2, AVX3, EMU128): exact operations bit-identical to the scalar C++ result on every target,
// transcendental ones within SLEEF's 1-ULP bound of the C library (a few ULP for the composed formulas),
// all lengths 0..70 (tails), special values (±0, ±inf, NaN), and through TensorIterator
// (ops/kernels/simd/vec_loop.h) for contiguous, transposed, broadcast and in-place operands.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "ops/kernels/simd/vec_kernels.h"
#include "ops/kernels/simd/vec_loop.h"
#include "tensor/tensor.h"

namespace kindling::simd {
namespace {

struct TargetGuard {
  ~TargetGuard() { forceTarget(""); }
};

template <class T>
std::vector<T> sampleValues(int64_t n, uint32_t seed, T lo = T(-4), T hi = T(4)) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<T> u(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) x = u(g);
  return v;
}

template <class T>
std::vector<T> specials() {
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  return {T(0), -T(0), inf, -inf, nan, T(1), T(-1), T(0.5), T(-0.5), T(1e-30), T(-1e-30), T(30), T(-30), T(88), T(-88),
          T(100), T(-100), std::numeric_limits<T>::min(), std::numeric_limits<T>::denorm_min()};
}

template <class T>
T reference(Unary op, T x) {
  using L = long double;
  const L X = x;
  switch (op) {
    case Unary::Exp: return T(std::exp(X));
    case Unary::Exp2: return T(std::exp2(X));
    case Unary::Expm1: return T(std::expm1(X));
    case Unary::Log: return T(std::log(X));
    case Unary::Log2: return T(std::log2(X));
    case Unary::Log10: return T(std::log10(X));
    case Unary::Log1p: return T(std::log1p(X));
    case Unary::Sin: return T(std::sin(X));
    case Unary::Cos: return T(std::cos(X));
    case Unary::Tan: return T(std::tan(X));
    case Unary::Asin: return T(std::asin(X));
    case Unary::Acos: return T(std::acos(X));
    case Unary::Atan: return T(std::atan(X));
    case Unary::Sinh: return T(std::sinh(X));
    case Unary::Cosh: return T(std::cosh(X));
    case Unary::Tanh: return T(std::tanh(X));
    case Unary::Asinh: return T(std::asinh(X));
    case Unary::Acosh: return T(std::acosh(X));
    case Unary::Atanh: return T(std::atanh(X));
    case Unary::Erf: return T(std::erf(X));
    case Unary::Erfc: return T(std::erfc(X));
    case Unary::Lgamma: return T(std::lgamma(X));
    case Unary::Sqrt: return std::sqrt(x);
    case Unary::Rsqrt: return T(1) / std::sqrt(x);
    case Unary::Reciprocal: return T(1) / x;
    case Unary::Abs: return std::fabs(x);
    case Unary::Neg: return -x;
    case Unary::Sigmoid: return T(L(1) / (L(1) + std::exp(-X)));
    case Unary::Silu: return T(X / (L(1) + std::exp(-X)));
    case Unary::GeluErf: return T(X * 0.5L * (1.0L + std::erf(X / std::sqrt(2.0L))));
    case Unary::GeluTanh: {
      const L inner = std::sqrt(2.0L / 3.14159265358979323846264338327950288L) * (X + 0.044715L * X * X * X);
      return T(0.5L * X * (1.0L + std::tanh(inner)));
    }
    case Unary::Relu: return x < T(0) ? T(0) : x;
    case Unary::Mish: return T(X * std::tanh(std::log1p(std::exp(X))));
    default: return x;
  }
}

bool isExact(Unary op) {
  return op == Unary::Sqrt || op == Unary::Rsqrt || op == Unary::Reciprocal || op == Unary::Abs || op == Unary::Neg ||
         op == Unary::Relu;
}

template <class T>
bool sameBits(T a, T b) {
  if (std::isnan(a) && std::isnan(b)) return true;
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

/// |got - want| within `ulps` units in the last place of want (or an absolute floor near zero, where
/// composed formulas like gelu lose relative accuracy).
template <class T>
bool close(T got, T want, double ulps, double absFloor) {
  if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got);
  if (std::isinf(want) || std::isinf(got)) return got == want;
  const double ulp = std::max<double>(std::numeric_limits<T>::denorm_min(),
                                      std::nextafter(std::fabs(want), std::numeric_limits<T>::infinity()) - std::fabs(want));
  return std::fabs(double(got) - double(want)) <= ulps * ulp + absFloor;
}

// Domain of the random samples per op (tests of the special values cover the rest).
template <class T>
void domain(Unary op, T& lo, T& hi) {
  lo = T(-4), hi = T(4);
  if (op == Unary::Log || op == Unary::Log2 || op == Unary::Log10 || op == Unary::Sqrt || op == Unary::Rsqrt) lo = T(1e-3);
  if (op == Unary::Log1p) lo = T(-0.99);
  if (op == Unary::Asin || op == Unary::Acos || op == Unary::Atanh) lo = T(-0.999), hi = T(0.999);
  if (op == Unary::Acosh) lo = T(1), hi = T(8);
  if (op == Unary::Lgamma) lo = T(0.1), hi = T(8);  // away from lgamma's zeros at 1 and 2 (relative error)
}

template <class T>
void checkUnaryAllTargets() {
  TargetGuard guard;
  const auto targets = availableTargets();
  ASSERT_FALSE(targets.empty());
  for (const auto& target : targets) {
    forceTarget(target);
    ASSERT_EQ(currentTarget(), target);
    for (int o = 0; o < static_cast<int>(Unary::kCount); ++o) {
      const Unary op = static_cast<Unary>(o);
      T lo, hi;
      domain(op, lo, hi);
      for (int64_t n : {0, 1, 3, 7, 8, 15, 16, 17, 31, 33, 64, 70, 1000}) {
        std::vector<T> x = sampleValues<T>(n, static_cast<uint32_t>(n * 31 + o), lo, hi);
        std::vector<T> y(n, T(-7));
        unary(op, x.data(), y.data(), n);
        const double ulps = isExact(op) ? 0 : 4;
        double floor = (op == Unary::GeluErf || op == Unary::GeluTanh || op == Unary::Silu || op == Unary::Mish)
                           ? 4 * std::numeric_limits<T>::epsilon()
                           : 0;
        for (int64_t i = 0; i < n; ++i) {
          const T want = reference(op, x[i]);
          // float erf (and gelu) use PyTorch's A&S 7.1.26 polynomial: absolute error < 1.5e-7
          if (std::is_same_v<T, float> && (op == Unary::Erf || op == Unary::GeluErf))
            floor = 5e-7 * (1 + std::fabs(double(x[i])));
          if (isExact(op)) {
            ASSERT_TRUE(sameBits(y[i], want)) << target << " op " << o << " n " << n << " x " << x[i] << ": " << y[i] << " vs " << want;
          } else {
            ASSERT_TRUE(close(y[i], want, ulps, floor))
                << target << " op " << o << " n " << n << " x " << x[i] << ": " << y[i] << " vs " << want;
          }
        }
      }
      // special values: exact ops bit-exact; the others agree on NaN/inf/zero-ness with the C library
      std::vector<T> x = specials<T>();
      std::vector<T> y(x.size());
      unary(op, x.data(), y.data(), static_cast<int64_t>(x.size()));
      for (size_t i = 0; i < x.size(); ++i) {
        const T want = reference(op, x[i]);
        if (isExact(op)) {
          EXPECT_TRUE(sameBits(y[i], want)) << target << " op " << o << " x " << x[i] << ": " << y[i] << " vs " << want;
        } else if (std::isnan(want) || std::isinf(want)) {
          EXPECT_TRUE(sameBits(y[i], want) || (std::isnan(want) && std::isnan(y[i])))
              << target << " op " << o << " x " << x[i] << ": " << y[i] << " vs " << want;
        }
      }
    }
  }
}

TEST(VecKernels, UnaryFloatEveryTarget) { checkUnaryAllTargets<float>(); }
TEST(VecKernels, UnaryDoubleEveryTarget) { checkUnaryAllTargets<double>(); }

TEST(VecKernels, ListsTargets) {
  const auto t = availableTargets();
  ASSERT_FALSE(t.empty());
  std::string names;
  for (const auto& n : t) names += " " + n;
  RecordProperty("targets", names);
  std::printf("targets:%s\n", names.c_str());
  // the dispatcher runs the best target by default
  EXPECT_EQ(currentTarget(), t.front());
}

template <class T>
void checkBinaryAllTargets() {
  TargetGuard guard;
  for (const auto& target : availableTargets()) {
    forceTarget(target);
    for (int o = 0; o < static_cast<int>(Binary::kCount); ++o) {
      const Binary op = static_cast<Binary>(o);
      for (int64_t n : {0, 1, 5, 16, 17, 33, 100}) {
        std::vector<T> a = sampleValues<T>(n, 1 + n), b = sampleValues<T>(n, 2 + n);
        if (n > 4) a[3] = std::numeric_limits<T>::quiet_NaN(), b[4] = std::numeric_limits<T>::infinity();
        for (Bcast mode : {Bcast::None, Bcast::B, Bcast::A}) {
          std::vector<T> y(n);
          const T* pa = a.data();
          const T* pb = b.data();
          if (n == 0) {
            binary(op, pa, pb, y.data(), 0, mode);
            continue;
          }
          binary(op, pa, pb, y.data(), n, mode);
          for (int64_t i = 0; i < n; ++i) {
            const T u = mode == Bcast::A ? a[0] : a[i], v = mode == Bcast::B ? b[0] : b[i];
            T want;
            switch (op) {
              case Binary::Add: want = u + v; break;
              case Binary::Sub: want = u - v; break;
              case Binary::Mul: want = u * v; break;
              case Binary::Div: want = u / v; break;
              case Binary::Max: want = (std::isnan(u) || std::isnan(v)) ? u + v : std::max(u, v); break;
              default: want = (std::isnan(u) || std::isnan(v)) ? u + v : std::min(u, v); break;
            }
            ASSERT_TRUE(sameBits(y[i], want)) << target << " op " << o << " i " << i << ": " << y[i] << " vs " << want;
          }
        }
      }
    }
  }
}

TEST(VecKernels, BinaryBitExactEveryTarget) {
  checkBinaryAllTargets<float>();
  checkBinaryAllTargets<double>();
}

TEST(VecKernels, ClampKeepsNaNAndFollowsMinOfMax) {
  TargetGuard guard;
  for (const auto& target : availableTargets()) {
    forceTarget(target);
    std::vector<float> x = {-2.f, -0.5f, 0.f, 0.5f, 2.f, std::nanf(""), -INFINITY, INFINITY, 0.25f};
    std::vector<float> y(x.size());
    clamp(x.data(), y.data(), static_cast<int64_t>(x.size()), true, -1.f, true, 1.f);
    const std::vector<float> want = {-1.f, -0.5f, 0.f, 0.5f, 1.f, NAN, -1.f, 1.f, 0.25f};
    for (size_t i = 0; i < x.size(); ++i) EXPECT_TRUE(sameBits(y[i], want[i]) || (std::isnan(want[i]) && std::isnan(y[i]))) << target << " " << i;
    // lo > hi gives hi, as min(max(x, lo), hi)
    clamp(x.data(), y.data(), 5, true, 1.f, true, 0.f);
    for (int i = 0; i < 5; ++i) EXPECT_EQ(y[i], 0.f) << target;
    clamp(x.data(), y.data(), 5, false, 0.f, true, 0.f);
    EXPECT_EQ(y[0], -2.f);
    EXPECT_EQ(y[4], 0.f);
  }
}

TEST(VecKernels, ReductionsEveryTarget) {
  TargetGuard guard;
  for (const auto& target : availableTargets()) {
    forceTarget(target);
    for (int64_t n : {1, 2, 7, 16, 31, 32, 33, 1000, 4097}) {
      std::vector<float> x = sampleValues<float>(n, static_cast<uint32_t>(n));
      long double ref = 0, sq = 0, absSum = 0;
      for (float v : x) ref += v, absSum += std::fabs(v);
      const double mean = static_cast<double>(ref / n);
      for (float v : x) sq += (v - (long double)mean) * (v - (long double)mean);
      // float sums add blocks of 16 values per lane in float, block totals in double
      EXPECT_NEAR(sum(x.data(), n), static_cast<double>(ref), 1e-7 * static_cast<double>(absSum)) << target;
      std::vector<double> xd0(x.begin(), x.end());
      EXPECT_NEAR(sum(xd0.data(), n), static_cast<double>(ref), 1e-12 * n) << target;
      EXPECT_NEAR(sumSquaredDiff(x.data(), n, mean), static_cast<double>(sq), 1e-10 * n) << target;
      EXPECT_EQ(maxMin(x.data(), n, true), *std::max_element(x.begin(), x.end())) << target;
      EXPECT_EQ(maxMin(x.data(), n, false), *std::min_element(x.begin(), x.end())) << target;
      x[n / 2] = std::numeric_limits<float>::quiet_NaN();
      EXPECT_TRUE(std::isnan(maxMin(x.data(), n, true))) << target << " " << n;
      EXPECT_TRUE(std::isnan(maxMin(x.data(), n, false))) << target << " " << n;
      std::vector<double> acc(n, 1.0);
      std::vector<double> xd(x.begin(), x.end());
      accumulate(xd.data(), acc.data(), n);
      for (int64_t i = 0; i < n; ++i)
        if (!std::isnan(xd[i])) {
          ASSERT_EQ(acc[i], 1.0 + xd[i]);
        }
    }
  }
}

TEST(VecKernels, AffineRowAndWideSumInDoubleEveryTarget) {
  TargetGuard guard;
  for (const auto& target : availableTargets()) {
    forceTarget(target);
    for (int64_t n : {1, 7, 16, 33, 100}) {
      // large-magnitude rows: the output step must not lose the small deviations (layer_norm)
      std::vector<float> x = sampleValues<float>(n, 3 + n, 1e4f, 1e4f + 2.f), w = sampleValues<float>(n, 4),
                         b = sampleValues<float>(n, 5), y(n);
      long double s = 0;
      for (float v : x) s += v;
      EXPECT_NEAR(sumWide(x.data(), n), static_cast<double>(s), 1e-9 * n) << target;
      const double mean = static_cast<double>(s / n), rstd = 0.75;
      affineRow(x.data(), y.data(), n, mean, rstd, w.data(), b.data());
      for (int64_t i = 0; i < n; ++i) {
        const float want = static_cast<float>((static_cast<double>(x[i]) - mean) * rstd * w[i] + b[i]);
        ASSERT_EQ(y[i], want) << target << " " << i;
      }
      affineRow(x.data(), y.data(), n, mean, rstd, nullptr, nullptr);
      for (int64_t i = 0; i < n; ++i) ASSERT_EQ(y[i], static_cast<float>((static_cast<double>(x[i]) - mean) * rstd));
    }
  }
}

TEST(VecKernels, SoftmaxEveryTarget) {
  TargetGuard guard;
  for (const auto& target : availableTargets()) {
    forceTarget(target);
    for (int64_t n : {1, 5, 16, 17, 100}) {
      std::vector<float> x = sampleValues<float>(n, 9 + n, -10.f, 10.f), y(n), ly(n);
      softmaxRow(x.data(), y.data(), n, false);
      softmaxRow(x.data(), ly.data(), n, true);
      long double mx = *std::max_element(x.begin(), x.end()), s = 0;
      for (float v : x) s += std::exp((long double)v - mx);
      for (int64_t i = 0; i < n; ++i) {
        const long double p = std::exp((long double)x[i] - mx) / s;
        EXPECT_NEAR(y[i], (double)p, 1e-6) << target;
        EXPECT_NEAR(ly[i], (double)std::log(p), 1e-5) << target;
      }
      // columns: [n, 3] softmax over dim 0 equals the rows of the transpose
      std::vector<float> c(3 * n), cy(3 * n), scratch(6), row(n), rowy(n);
      for (int64_t j = 0; j < n; ++j)
        for (int i = 0; i < 3; ++i) c[j * 3 + i] = x[(j + i) % n];
      softmaxColumns(c.data(), cy.data(), n, 3, false, scratch.data());
      for (int i = 0; i < 3; ++i) {
        for (int64_t j = 0; j < n; ++j) row[j] = c[j * 3 + i];
        softmaxRow(row.data(), rowy.data(), n, false);
        for (int64_t j = 0; j < n; ++j) EXPECT_NEAR(cy[j * 3 + i], rowy[j], 1e-6) << target;
      }
    }
    std::vector<float> x = {1.f, NAN, 2.f}, y(3);
    softmaxRow(x.data(), y.data(), 3, false);
    for (float v : y) EXPECT_TRUE(std::isnan(v)) << target;
  }
}

// Through TensorIterator: a transposed (strided) input and a broadcast operand give the same values as
// contiguous ones, element for element; in-place writes over the input.
TEST(VecLoop, StridedBroadcastAndInPlace) {
  const int64_t R = 37, C = 29;
  Tensor a = Tensor::empty({C, R}, ScalarType::Float);
  std::vector<float> vals = sampleValues<float>(R * C, 5);
  std::memcpy(a.data_ptr<float>(), vals.data(), vals.size() * sizeof(float));
  const Tensor at = a.transpose(0, 1);  // [R, C], not contiguous
  const Tensor ac = at.contiguous();
  auto runUnary = [](const Tensor& x) {
    TensorIterator it;
    it.addOutput(Tensor()).addInput(x).build();
    EXPECT_TRUE(tryUnary(it, Unary::Tanh));
    return it.output().contiguous();
  };
  const Tensor u1 = runUnary(at), u2 = runUnary(ac);
  ASSERT_EQ(u1.sizes(), u2.sizes());
  EXPECT_EQ(std::memcmp(u1.data_ptr<float>(), u2.data_ptr<float>(), R * C * sizeof(float)), 0);

  Tensor row = Tensor::empty({C}, ScalarType::Float);
  for (int64_t i = 0; i < C; ++i) row.data_ptr<float>()[i] = 0.5f + i;
  auto runBinary = [&](const Tensor& x) {
    TensorIterator it;
    it.addOutput(Tensor()).addInput(x).addInput(row).build();
    EXPECT_TRUE(tryBinary(it, Binary::Div));
    return it.output().contiguous();
  };
  const Tensor b1 = runBinary(at), b2 = runBinary(ac);
  for (int64_t r = 0; r < R; ++r)
    for (int64_t c = 0; c < C; ++c) {
      const float want = ac.data_ptr<float>()[r * C + c] / row.data_ptr<float>()[c];
      ASSERT_EQ(b1.data_ptr<float>()[r * C + c], want);
      ASSERT_EQ(b2.data_ptr<float>()[r * C + c], want);
    }

  Tensor inplace = ac.clone();
  TensorIterator it;
  it.addOutput(inplace).addInput(inplace).build();
  EXPECT_TRUE(tryUnary(it, Unary::Tanh));
  EXPECT_EQ(std::memcmp(inplace.data_ptr<float>(), u2.data_ptr<float>(), R * C * sizeof(float)), 0);

  // integer loops are left to the caller's scalar code
  TensorIterator ii;
  ii.addOutput(Tensor()).addInput(Tensor::empty({3}, ScalarType::Long)).build();
  EXPECT_FALSE(tryUnary(ii, Unary::Abs));
}

}  // namespace
}  // namespace kindling::simd
