// Concurrent forward calls on one Module: 8 threads x KINDLING_CONCURRENCY_CALLS (default 1,000) calls each,
// every output compared bit-exactly with the single-threaded result, on (1) a CNN whose forward also builds
// lists and dicts, and (2) a module whose forward forks tasks (torch.jit.fork of submodules, of a method
// that itself forks, waited in order). The archives and PyTorch's outputs are written by the oracle.
#include <kindling/kindling.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "../unit/serialize/test_util.h"

namespace {

using kindling::testing::readFile;
using kindling::testing::runPython;
using kindling::testing::scratchPath;

constexpr int kThreads = 8;

int callsPerThread() {
  const char* e = std::getenv("KINDLING_CONCURRENCY_CALLS");
  int n = e ? std::atoi(e) : 0;
  return n > 0 ? n : 1000;
}

const std::string& fixtures() {
  static std::string dir = [] {
    std::string d = scratchPath("");
    int rc = runPython(R"PY(
import torch, torch.nn as nn
from typing import Dict, List, Tuple
from torch.jit import Future
torch.manual_seed(0)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.AdaptiveAvgPool2d(2))
        self.fc = nn.Linear(32, 10)
    def forward(self, x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        y = self.fc(torch.flatten(self.features(x), 1))
        parts: List[torch.Tensor] = []
        for i in range(3):
            parts.append(y * float(i + 1))
        d: Dict[str, torch.Tensor] = {"a": parts[0], "b": parts[2]}
        return torch.cat(parts, 1), torch.softmax(d["b"], 1) + d["a"].sum()

def scale(x: torch.Tensor, k: int) -> torch.Tensor:
    return torch.sin(x * float(k))

class Leaf(nn.Module):
    def __init__(self, n: int):
        super().__init__()
        self.lin = nn.Linear(n, n)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.tanh(self.lin(x))

class ForkNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.leaves = nn.ModuleList([Leaf(16) for _ in range(4)])
    def branch(self, x: torch.Tensor, k: int) -> torch.Tensor:
        futs: List[Future[torch.Tensor]] = []
        for j in range(3):
            futs.append(torch.jit.fork(scale, x, k + j))
        r = x
        for f in futs:
            r = r + torch.jit.wait(f)
        return r
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        futs: List[Future[torch.Tensor]] = []
        for leaf in self.leaves:
            futs.append(torch.jit.fork(leaf, x))
        branches: List[Future[torch.Tensor]] = []
        for i in range(4):
            branches.append(torch.jit.fork(self.branch, x, i))
        y = torch.zeros_like(x)
        for f in futs:
            y = y + torch.jit.wait(f)
        for f in branches:
            y = y * 0.5 + torch.jit.wait(f)
        return y

net = Net().eval()
for m in net.modules():
    if isinstance(m, nn.BatchNorm2d):
        m.running_mean.uniform_(-1, 1); m.running_var.uniform_(0.5, 2)
torch.jit.script(net).save('conc_net.pt')
x = torch.rand(2, 3, 16, 16)
open('conc_net_in.bin', 'wb').write(x.numpy().tobytes())
a, b = net(x)
open('conc_net_out0.bin', 'wb').write(a.detach().numpy().tobytes())
open('conc_net_out1.bin', 'wb').write(b.detach().numpy().tobytes())

fn = torch.jit.script(ForkNet().eval())
fn.save('conc_fork.pt')
x = torch.rand(5, 16)
open('conc_fork_in.bin', 'wb').write(x.numpy().tobytes())
open('conc_fork_out.bin', 'wb').write(fn(x).detach().numpy().tobytes())
)PY");
    EXPECT_EQ(rc, 0);
    return d;
  }();
  return dir;
}

std::vector<float> floats(const std::string& name) {
  std::string b = readFile(fixtures() + name);
  std::vector<float> v(b.size() / 4);
  std::memcpy(v.data(), b.data(), v.size() * 4);
  return v;
}

/// PyTorch's output within float32 reordering error (the bit-exact check is between Kindling's calls).
void expectClose(const kindling::Tensor& t, const std::vector<float>& want) {
  ASSERT_EQ(t.numel(), static_cast<int64_t>(want.size()));
  kindling::Tensor c = t.contiguous();
  const float* p = c.data_ptr<float>();
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(p[i], want[i], 1e-5 + 1e-4 * std::fabs(want[i])) << "at " << i;
}

/// The tensors of a forward result (a Tensor, or a tuple of Tensors), contiguous.
std::vector<kindling::Tensor> tensorsOf(const kindling::IValue& v) {
  std::vector<kindling::Tensor> r;
  if (v.isTensor()) {
    r.push_back(v.toTensor().contiguous());
  } else {
    for (const kindling::IValue& e : v.toTuple().elements()) r.push_back(e.toTensor().contiguous());
  }
  return r;
}

bool sameBits(const std::vector<kindling::Tensor>& a, const std::vector<kindling::Tensor>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].sizes() != b[i].sizes() || a[i].scalar_type() != b[i].scalar_type()) return false;
    if (std::memcmp(a[i].data_ptr(), b[i].data_ptr(), a[i].nbytes()) != 0) return false;
  }
  return true;
}

/// Calls m.forward({x}) from kThreads threads, `calls` times each (odd threads on a private copy of x),
/// and expects every result to have the bits of `want`.
void hammer(kindling::jit::Module& m, const kindling::Tensor& x, const std::vector<kindling::Tensor>& want, int calls) {
  std::atomic<int> mismatches{0}, failures{0};
  std::mutex mu;
  std::string firstError;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      try {
        kindling::Tensor xi = t % 2 ? x.clone() : x;
        for (int i = 0; i < calls; ++i)
          if (!sameBits(tensorsOf(m.forward({xi})), want)) ++mismatches;
      } catch (const std::exception& e) {
        ++failures;
        std::lock_guard<std::mutex> g(mu);
        if (firstError.empty()) firstError = e.what();
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0) << firstError;
  EXPECT_EQ(mismatches.load(), 0) << "of " << kThreads * calls << " calls";
}

TEST(ConcurrentForward, CnnWithContainersBitExactAcrossThreads) {
  kindling::jit::Module m = kindling::jit::load(fixtures() + "conc_net.pt");
  std::vector<float> in = floats("conc_net_in.bin");
  kindling::Tensor x = kindling::from_blob(in.data(), {2, 3, 16, 16});
  std::vector<kindling::Tensor> want = tensorsOf(m.forward({x}));
  ASSERT_EQ(want.size(), 2u);
  expectClose(want[0], floats("conc_net_out0.bin"));
  expectClose(want[1], floats("conc_net_out1.bin"));
  hammer(m, x, want, callsPerThread());
}

TEST(ConcurrentForward, ForkWaitHeavyModuleBitExactAcrossThreads) {
  kindling::jit::Module m = kindling::jit::load(fixtures() + "conc_fork.pt");
  std::vector<float> in = floats("conc_fork_in.bin");
  kindling::Tensor x = kindling::from_blob(in.data(), {5, 16});
  std::vector<kindling::Tensor> want = tensorsOf(m.forward({x}));
  ASSERT_EQ(want.size(), 1u);
  expectClose(want[0], floats("conc_fork_out.bin"));
  hammer(m, x, want, callsPerThread());
}

}  // namespace
