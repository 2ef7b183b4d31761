// The vectorized arg-reductions (src/ops/kernels/simd/arg_reduce.cpp) on every target compiled in and usable on
// this CPU, against a scalar reference of PyTorch's rule (first NaN wins, ties to the first index, -0.0
// equals 0.0): rows of every length 1..70 and 1000, columns of several widths (vector part and tails),
// with many ties, NaN at the start / middle / end, and infinities.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "ops/kernels/simd/arg_reduce.h"
#include "ops/kernels/simd/vec_kernels.h"

namespace kindling::simd {
namespace {

struct TargetGuard {
  ~TargetGuard() { forceTarget(""); }
};

template <class T>
int64_t refArg(const T* x, int64_t n, int64_t stride, bool max) {
  int64_t bi = 0;
  T best = x[0];
  for (int64_t i = 1; i < n; ++i) {
    if (std::isnan(best)) break;
    const T v = x[i * stride];
    if (std::isnan(v) || (max ? v > best : v < best)) {
      best = v;
      bi = i;
    }
  }
  return bi;
}

// Small integers (many ties), signed zeros and infinities; `nanAt` >= 0 puts a NaN there (and one later).
template <class T>
std::vector<T> row(int64_t n, uint32_t seed, int64_t nanAt) {
  std::mt19937 g(seed);
  std::uniform_int_distribution<int> u(-4, 4);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(u(g));
  for (int64_t i = 0; i < n; i += 5) v[i] = (i / 5) % 2 ? -T(0) : T(0);
  if (n > 9 && seed % 3 == 0) v[7] = std::numeric_limits<T>::infinity(), v[9] = -std::numeric_limits<T>::infinity();
  if (nanAt >= 0 && nanAt < n) {
    v[nanAt] = std::numeric_limits<T>::quiet_NaN();
    if (nanAt + 3 < n) v[nanAt + 3] = std::numeric_limits<T>::quiet_NaN();
  }
  return v;
}

template <class T>
void checkRows() {
  TargetGuard guard;
  for (const auto& target : availableTargets()) {
    forceTarget(target);
    std::vector<int64_t> lengths;
    for (int64_t n = 1; n <= 70; ++n) lengths.push_back(n);
    lengths.push_back(1000);
    for (int64_t n : lengths) {
      for (int64_t nanAt : {int64_t(-1), int64_t(0), n / 2, n - 1}) {
        for (bool max : {true, false}) {
          const std::vector<T> x = row<T>(n, static_cast<uint32_t>(n * 7 + nanAt + 2), nanAt);
          ASSERT_EQ(argMaxMin(x.data(), n, max), refArg(x.data(), n, 1, max))
              << target << " n " << n << " nanAt " << nanAt << " max " << max;
        }
      }
    }
  }
}

template <class T>
void checkColumns() {
  TargetGuard guard;
  for (const auto& target : availableTargets()) {
    forceTarget(target);
    for (int64_t dimSize : {1, 2, 5, 21}) {
      for (int64_t cols : {1, 3, 8, 17, 40, 600}) {
        // [dimSize, cols + 2] layout, reducing the first `cols` columns (stride wider than n)
        const int64_t stride = cols + 2;
        std::vector<T> x = row<T>(dimSize * stride, static_cast<uint32_t>(dimSize * 100 + cols), -1);
        for (int64_t c = 0; c < cols; c += 7) x[(c % dimSize) * stride + c] = std::numeric_limits<T>::quiet_NaN();
        for (bool max : {true, false}) {
          std::vector<T> vals(cols + 1, T(-99));
          std::vector<int64_t> idx(cols + 1, -99);
          argMaxMinColumns(x.data(), dimSize, stride, cols, vals.data(), idx.data(), max);
          for (int64_t c = 0; c < cols; ++c) {
            const int64_t want = refArg(x.data() + c, dimSize, stride, max);
            ASSERT_EQ(idx[c], want) << target << " dim " << dimSize << " cols " << cols << " c " << c;
            const T wv = x[want * stride + c];
            ASSERT_TRUE(vals[c] == wv || (std::isnan(vals[c]) && std::isnan(wv))) << target << " c " << c;
          }
          ASSERT_EQ(idx[cols], -99) << target << " wrote past the end";
        }
      }
    }
  }
}

TEST(ArgReduce, RowsFloatEveryTarget) { checkRows<float>(); }
TEST(ArgReduce, RowsDoubleEveryTarget) { checkRows<double>(); }
TEST(ArgReduce, ColumnsFloatEveryTarget) { checkColumns<float>(); }
TEST(ArgReduce, ColumnsDoubleEveryTarget) { checkColumns<double>(); }

}  // namespace
}  // namespace kindling::simd
