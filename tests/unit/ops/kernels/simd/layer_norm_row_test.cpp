// layer_norm's row kernel (src/ops/kernels/simd/layer_norm_row.cpp): bit-identical to libtorch 1.13 on rows of large
// magnitude (expected values printed by torch.native_layer_norm on this row formula), and bit-identical on
// every target compiled in and usable on this CPU (the 32-byte Highway path and the per-lane fallback).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "ops/kernels/simd/layer_norm_row.h"
#include "ops/kernels/simd/vec_kernels.h"

namespace kindling::simd {
namespace {

struct TargetGuard {
  ~TargetGuard() { forceTarget(""); }
};

// x[i] = 1000 + 0.37 i - 0.011 i^2, w[i] = 0.5 + 0.01 i, b[i] = 0.25 - 0.003 i (computed in double, as the
// Python that printed the expected values, then rounded to float)
struct Row {
  std::vector<float> x, w, b;
  explicit Row(int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      const double d = static_cast<double>(i);
      x.push_back(static_cast<float>(1000 + 0.37 * d - 0.011 * d * d));
      w.push_back(static_cast<float>(0.5 + 0.01 * d));
      b.push_back(static_cast<float>(0.25 - 0.003 * d));
    }
  }
};

struct Expected {
  int64_t n;
  float mean, rstd;
  std::vector<std::pair<int64_t, float>> affine, plain;
};

const std::vector<Expected>& libtorchValues() {
  static const std::vector<Expected> v = {
      {37, 0x1.f4ebc6p+9f, 0x1.bb936p-1f,
       {{0, -0x1.188880p-1f}, {1, -0x1.a20c16p-2f}, {7, 0x1.5431f8p-2f}, {8, 0x1.bc6feep-2f}, {18, 0x1.de99b2p-1f},
        {35, -0x1.991c54p+0f}, {36, -0x1.ed8312p+0f}},
       {{0, -0x1.988880p+0f}, {1, -0x1.48e8d0p+0f}, {7, 0x1.72dfd4p-3f}, {8, 0x1.6f43a4p-2f}, {18, 0x1.161fb2p+0f},
        {35, -0x1.067d16p+1f}, {36, -0x1.340f7ap+1f}}},
      {300, 0x1.6b7b4cp+9f, 0x1.f1ba6ep-9f,
       {{0, 0x1.896d0ap-1f}, {1, 0x1.8d8df0p-1f}, {7, 0x1.a61b48p-1f}, {8, 0x1.aa266cp-1f}, {150, 0x1.a96c40p-2f},
        {298, -0x1.0f9aa4p+3f}, {299, -0x1.130ca4p+3f}},
       {{0, 0x1.096d0ap+0f}, {1, 0x1.09c664p+0f}, {7, 0x1.0b6b78p+0f}, {8, 0x1.0b9e7ap+0f}, {150, 0x1.3b1c86p-2f},
        {298, -0x1.208050p+1f}, {299, -0x1.23836ap+1f}}},
  };
  return v;
}

TEST(LayerNormRow, MatchesLibtorchBitForBitOnEveryTarget) {
  TargetGuard guard;
  for (const auto& target : availableTargets()) {
    forceTarget(target);
    for (const Expected& e : libtorchValues()) {
      const Row r(e.n);
      std::vector<float> y(e.n), y2(e.n);
      float mean = 0, rstd = 0;
      layerNormRow(r.x.data(), y.data(), e.n, 1e-5f, r.w.data(), r.b.data(), &mean, &rstd);
      EXPECT_EQ(mean, e.mean) << target << " n=" << e.n;
      EXPECT_EQ(rstd, e.rstd) << target << " n=" << e.n;
      for (auto [i, want] : e.affine) EXPECT_EQ(y[i], want) << target << " n=" << e.n << " i=" << i;
      layerNormRow(r.x.data(), y2.data(), e.n, 1e-5f, nullptr, nullptr, &mean, &rstd);
      for (auto [i, want] : e.plain) EXPECT_EQ(y2[i], want) << target << " n=" << e.n << " i=" << i;
    }
  }
}

TEST(LayerNormRow, SameBitsOnEveryTargetForAllLengthClasses) {
  TargetGuard guard;
  const auto targets = availableTargets();
  ASSERT_FALSE(targets.empty());
  // lengths: pure tail (< 8), one chunk, cascades of 2..9 chunks (depths 1..4), with tails
  for (int64_t n : {1, 2, 5, 7, 8, 9, 31, 64, 127, 128, 129, 255, 256, 263, 384, 520, 1000, 1031, 1152}) {
    std::vector<double> xd(n), wd(n), bd(n);
    for (int64_t i = 0; i < n; ++i) {
      xd[i] = 1e4 + std::sin(0.7 * static_cast<double>(i)) * 3.0;
      wd[i] = 1.0 + 0.001 * static_cast<double>(i % 17);
      bd[i] = -0.5 + 0.01 * static_cast<double>(i % 5);
    }
    std::vector<float> xf(xd.begin(), xd.end()), wf(wd.begin(), wd.end()), bf(bd.begin(), bd.end());
    std::vector<float> refF;
    std::vector<double> refD;
    float refMeanF = 0, refRstdF = 0;
    double refMeanD = 0, refRstdD = 0;
    for (size_t t = 0; t < targets.size(); ++t) {
      forceTarget(targets[t]);
      std::vector<float> yf(n);
      std::vector<double> yd(n);
      float mf, rf;
      double md, rd;
      layerNormRow(xf.data(), yf.data(), n, 1e-5f, wf.data(), bf.data(), &mf, &rf);
      layerNormRow(xd.data(), yd.data(), n, 1e-5, wd.data(), bd.data(), &md, &rd);
      // sanity against the exact statistics (float: within float rounding of a 1e4-magnitude row)
      double s = 0, ss = 0;
      for (double v : xd) s += v;
      const double mean = s / static_cast<double>(n);
      for (double v : xd) ss += (v - mean) * (v - mean);
      const double rstd = 1.0 / std::sqrt(ss / static_cast<double>(n) + 1e-5);
      EXPECT_NEAR(md, mean, 1e-9 * 1e4) << n;
      EXPECT_NEAR(rd, rstd, 1e-9 * rstd) << n;
      EXPECT_NEAR(mf, mean, 1e-2) << n;
      if (t == 0) {
        refF = yf;
        refD = yd;
        refMeanF = mf;
        refRstdF = rf;
        refMeanD = md;
        refRstdD = rd;
        continue;
      }
      EXPECT_EQ(mf, refMeanF) << targets[t] << " n=" << n;
      EXPECT_EQ(rf, refRstdF) << targets[t] << " n=" << n;
      EXPECT_EQ(md, refMeanD) << targets[t] << " n=" << n;
      EXPECT_EQ(rd, refRstdD) << targets[t] << " n=" << n;
      for (int64_t i = 0; i < n; ++i) {
        ASSERT_EQ(yf[i], refF[i]) << targets[t] << " n=" << n << " i=" << i;
        ASSERT_EQ(yd[i], refD[i]) << targets[t] << " n=" << n << " i=" << i;
      }
    }
  }
}

}  // namespace
}  // namespace kindling::simd
