// Convolution and linear weights are kept re-laid out for oneDNN between calls. These tests load, free and
// re-load archives of the same architecture with different weights in one process, keep several loaded at
// once, and write parameters in place through the public API between calls; every output must equal the one
// PyTorch 1.13 computes for that archive's weights (written by the oracle at test time).
#include <kindling/kindling.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "../unit/serialize/test_util.h"

namespace {

using kindling::testing::readFile;
using kindling::testing::runPython;
using kindling::testing::scratchPath;

constexpr int kArchives = 3;

/// tower_<k>.pt (k < kArchives): the same convolutions and linears with the weights of seed k; bn_<k>.pt the
/// same with a batch norm after the first convolution (folded into its weights at load). Outputs on one input:
/// tower_<k>_out.bin, bn_<k>_out.bin, and tower_<k>_added.bin after every parameter had 0.125 added in place, tower_2_filled.bin with
/// channel 0 of c1.weight filled with 0.5, bn_0_written.bin after bn.running_var *= 2, c1.weight += 0.125.
const std::string& fixtures() {
  static std::string dir = [] {
    int rc = runPython(R"PY(
import torch, torch.nn as nn
class Tower(nn.Module):
    def __init__(self, bn: bool):
        super().__init__()
        self.c1 = nn.Conv2d(3, 16, 3, padding=1)
        self.bn = nn.BatchNorm2d(16) if bn else nn.Identity()
        self.c2 = nn.Conv2d(16, 16, 3, padding=1, bias=False)
        self.c3 = nn.Conv2d(16, 16, 1)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.f1 = nn.Linear(16, 16)
        self.f2 = nn.Linear(16, 4)
    def forward(self, x):
        x = torch.relu(self.bn(self.c1(x)))
        x = torch.relu(self.c3(torch.relu(self.c2(x))))
        return self.f2(torch.relu(self.f1(torch.flatten(self.pool(x), 1))))
torch.manual_seed(100)
x = torch.rand(1, 3, 12, 12)
open('x.bin', 'wb').write(x.numpy().tobytes())
for k in range(3):
    for bn in (False, True):
        torch.manual_seed(k)
        m = Tower(bn).eval()
        if bn:
            m.bn.running_mean.uniform_(-1, 1); m.bn.running_var.uniform_(0.5, 2)
            m.bn.weight.data.uniform_(0.5, 1.5); m.bn.bias.data.uniform_(-0.5, 0.5)
        s = torch.jit.script(m)
        name = ('bn_%d' if bn else 'tower_%d') % k
        s.save(name + '.pt')
        with torch.no_grad():
            open(name + '_out.bin', 'wb').write(s(x).numpy().tobytes())
            if not bn:
                for p in s.parameters():
                    p.add_(0.125)
                open(name + '_added.bin', 'wb').write(s(x).numpy().tobytes())
            if bn and k == 0:
                s = torch.jit.load(name + '.pt')
                s.bn.running_var.mul_(2.0)
                s.c1.weight.add_(0.125)
                open(name + '_written.bin', 'wb').write(s(x).numpy().tobytes())
            if not bn:
                if k == 2:
                    s = torch.jit.load(name + '.pt')
                    s.c1.weight[0].fill_(0.5)
                    open(name + '_filled.bin', 'wb').write(s(x).numpy().tobytes())
)PY");
    EXPECT_EQ(rc, 0);
    return scratchPath("");
  }();
  return dir;
}

std::vector<float> floats(const std::string& name) {
  std::string b = readFile(fixtures() + name);
  std::vector<float> v(b.size() / 4);
  std::memcpy(v.data(), b.data(), v.size() * 4);
  return v;
}

std::string archive(const char* kind, int k) { return fixtures() + kind + std::to_string(k) + ".pt"; }

/// |a - b| <= 1e-5 + 1e-4 |b| elementwise (float32 sums reordered by oneDNN).
::testing::AssertionResult close(const kindling::Tensor& t, const std::vector<float>& want) {
  if (t.numel() != static_cast<int64_t>(want.size()))
    return ::testing::AssertionFailure() << t.numel() << " elements, want " << want.size();
  kindling::Tensor c = t.contiguous();
  const float* p = c.data_ptr<float>();
  for (size_t i = 0; i < want.size(); ++i)
    if (!(std::fabs(p[i] - want[i]) <= 1e-5 + 1e-4 * std::fabs(want[i])))
      return ::testing::AssertionFailure() << "element " << i << ": " << p[i] << ", want " << want[i];
  return ::testing::AssertionSuccess();
}

class WeightPacking : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    kindling::set_num_threads(GetParam());
    x_ = floats("x.bin");
  }
  kindling::Tensor input() { return kindling::from_blob(x_.data(), {1, 3, 12, 12}); }
  std::vector<float> x_;
};

TEST_P(WeightPacking, ArchivesOfTheSameShapesLoadedFreedAndReloaded) {
  for (const char* kind : {"tower_", "bn_"}) {
    std::vector<std::vector<float>> want;
    for (int k = 0; k < kArchives; ++k) want.push_back(floats(std::string(kind) + std::to_string(k) + "_out.bin"));
    // One at a time: each module is freed before the next is loaded, so its memory is free for the next one's
    // weights, of the same sizes.
    for (int round = 0; round < 4; ++round)
      for (int k = 0; k < kArchives; ++k) {
        kindling::jit::Module m = kindling::jit::load(archive(kind, k));
        for (int call = 0; call < 2; ++call)
          EXPECT_TRUE(close(m.forward({input()}).toTensor(), want[k])) << kind << k << " round " << round;
      }
    // Several loaded at once, called in turn, then freed in a different order than loaded.
    std::vector<kindling::jit::Module> live;
    for (int k = 0; k < kArchives; ++k) live.push_back(kindling::jit::load(archive(kind, k)));
    for (int round = 0; round < 2; ++round)
      for (int k = kArchives - 1; k >= 0; --k) EXPECT_TRUE(close(live[k].forward({input()}).toTensor(), want[k]));
    live.erase(live.begin() + 1);
    kindling::jit::Module again = kindling::jit::load(archive(kind, 1));
    EXPECT_TRUE(close(again.forward({input()}).toTensor(), want[1]));
    EXPECT_TRUE(close(live[0].forward({input()}).toTensor(), want[0]));
    EXPECT_TRUE(close(live[1].forward({input()}).toTensor(), want[2]));
  }
}

TEST_P(WeightPacking, ParametersWrittenInPlaceThroughTheApi) {
  kindling::jit::Module m = kindling::jit::load(archive("tower_", 0));
  ASSERT_TRUE(close(m.forward({input()}).toTensor(), floats("tower_0_out.bin")));
  for (kindling::Tensor& p : m.parameters()) p.add_(0.125);
  EXPECT_TRUE(close(m.forward({input()}).toTensor(), floats("tower_0_added.bin")));
  // copy_ every parameter from another archive's: the module then computes that archive's outputs.
  kindling::jit::Module other = kindling::jit::load(archive("tower_", 2));
  std::vector<kindling::Tensor> mine = m.parameters(), theirs = other.parameters();
  ASSERT_EQ(mine.size(), theirs.size());
  for (size_t i = 0; i < mine.size(); ++i) mine[i].copy_(theirs[i]);
  EXPECT_TRUE(close(m.forward({input()}).toTensor(), floats("tower_2_out.bin")));
  EXPECT_TRUE(close(other.forward({input()}).toTensor(), floats("tower_2_out.bin")));
  // A write through a view (one output channel of the first convolution) is a write to the weight.
  ASSERT_EQ(m.named_parameters()[0].name, "c1.weight");
  m.named_parameters()[0].value.select(0, 0).fill_(0.5);
  EXPECT_TRUE(close(m.forward({input()}).toTensor(), floats("tower_2_filled.bin")));
}

TEST_P(WeightPacking, FoldedBatchNormWrittenInPlaceThroughTheApi) {
  // The batch norm is folded into c1's weights at load; writing its statistics or c1's weight in place
  // must reach the folded weights.
  kindling::jit::Module m = kindling::jit::load(archive("bn_", 0));
  ASSERT_TRUE(close(m.forward({input()}).toTensor(), floats("bn_0_out.bin")));
  int written = 0;
  for (kindling::jit::NamedTensor& b : m.named_buffers())
    if (b.name == "bn.running_var") b.value.mul_(2.0), ++written;
  for (kindling::jit::NamedTensor& p : m.named_parameters())
    if (p.name == "c1.weight") p.value.add_(0.125), ++written;
  ASSERT_EQ(written, 2);
  EXPECT_TRUE(close(m.forward({input()}).toTensor(), floats("bn_0_written.bin")));
}

INSTANTIATE_TEST_SUITE_P(Threads, WeightPacking, ::testing::Values(1, 2));

}  // namespace
