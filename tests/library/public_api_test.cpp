// The public C++ API as a program using libkindling.so sees it: only <kindling/...> headers, linked
// against the shared library. Archives are written at test time by the PyTorch oracle, with the
// expected outputs as raw little-endian bytes.
#include <kindling/kindling.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <fstream>
#include <sstream>
#include <thread>

#include "../unit/serialize/test_util.h"

namespace {

using kindling::testing::readFile;
using kindling::testing::runPython;
using kindling::testing::scratchPath;

/// Writes the oracle's archives once: a small CNN (conv, batch norm, pool, linear) in eval mode with
/// its output on a fixed input, and a module exercising attributes, methods and return kinds.
const std::string& fixtures() {
  static std::string dir = [] {
    std::string d = scratchPath("");
    int rc = runPython(R"PY(
import torch, torch.nn as nn
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.AdaptiveAvgPool2d(2))
        self.fc = nn.Linear(32, 10)
    def forward(self, x):
        return self.fc(torch.flatten(self.features(x), 1))
net = Net().eval()
for m in net.modules():
    if isinstance(m, nn.BatchNorm2d):
        m.running_mean.uniform_(-1, 1); m.running_var.uniform_(0.5, 2)
s = torch.jit.script(net)
s.save('net.pt', _extra_files={'labels.txt': 'a b c'})
x = torch.rand(2, 3, 16, 16)
open('net_in.bin', 'wb').write(x.numpy().tobytes())
open('net_out.bin', 'wb').write(net(x).detach().numpy().tobytes())
open('net_params.txt', 'w').write('\n'.join(n for n, _ in s.named_parameters()))
open('net_buffers.txt', 'w').write('\n'.join(n for n, _ in s.named_buffers()))
open('net_modules.txt', 'w').write('\n'.join(n for n, _ in s.named_modules()))

from typing import Dict, List, Optional, Tuple
class Kinds(nn.Module):
    scale: float
    def __init__(self):
        super().__init__()
        self.scale = 2.0
        self.sub = nn.Linear(2, 2)
    def forward(self, x: torch.Tensor, n: int = 3, label: str = 'z') -> Tuple[torch.Tensor, int, List[str], Dict[str, float], Optional[int]]:
        y = x * self.scale
        if self.training:
            y = y + 100
        return y, n * 2, [label, 'b'], {'s': self.scale, 'n': float(n)}, None
    @torch.jit.export
    def add(self, a: int, b: int) -> int:
        return a + b
    @torch.jit.export
    def total(self, xs: List[torch.Tensor]) -> torch.Tensor:
        r = torch.zeros(1)
        for t in xs:
            r = r + t.sum()
        return r
    @torch.jit.export
    def lookup(self, d: Dict[str, int], k: str) -> int:
        return d[k]
k = Kinds().eval()
torch.jit.script(k).save('kinds.pt')
)PY");
    EXPECT_EQ(rc, 0);
    return d;
  }();
  return dir;
}

std::vector<float> floats(const std::string& path) {
  std::string b = readFile(fixtures() + path);
  std::vector<float> v(b.size() / 4);
  std::memcpy(v.data(), b.data(), v.size() * 4);
  return v;
}

std::vector<std::string> lines(const std::string& path) {
  std::istringstream in(readFile(fixtures() + path));
  std::vector<std::string> r;
  for (std::string l; std::getline(in, l);) r.push_back(l);
  return r;
}

/// |a - b| <= 1e-5 + 1e-4 |b| elementwise: float32 convolution sums of 27 products reordered.
void expectClose(const kindling::Tensor& t, const std::vector<float>& want) {
  ASSERT_EQ(t.numel(), static_cast<int64_t>(want.size()));
  kindling::Tensor c = t.contiguous();
  const float* p = c.data_ptr<float>();
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(p[i], want[i], 1e-5 + 1e-4 * std::fabs(want[i])) << "at " << i;
}

TEST(PublicApi, LoadAndForwardMatchesPyTorch) {
  std::vector<float> in = floats("net_in.bin");
  kindling::jit::Module m = kindling::jit::load(fixtures() + "net.pt");
  kindling::Tensor x = kindling::from_blob(in.data(), {2, 3, 16, 16});
  EXPECT_EQ(x.data_ptr(), static_cast<void*>(in.data()));  // no copy
  kindling::IValue y = m.forward({x});
  ASSERT_TRUE(y.isTensor());
  kindling::Tensor t = y.toTensor();
  EXPECT_EQ(t.sizes(), kindling::IntArrayRef({2, 10}));
  EXPECT_EQ(t.dtype(), kindling::kFloat);
  expectClose(t, floats("net_out.bin"));
  // The same through operator() and get_method.
  expectClose(m({x}).toTensor(), floats("net_out.bin"));
  expectClose(m.get_method("forward")({x}).toTensor(), floats("net_out.bin"));
}

TEST(PublicApi, LoadFromStreamAndBufferWithExtraFiles) {
  std::string bytes = readFile(fixtures() + "net.pt");
  std::istringstream s(bytes);
  kindling::jit::ExtraFilesMap extra{{"labels.txt", ""}, {"absent", "kept"}};
  kindling::jit::Module a = kindling::jit::load(s, kindling::Device("cpu"), extra);
  EXPECT_EQ(extra.at("labels.txt"), "a b c");
  EXPECT_EQ(extra.at("absent"), "kept");
  std::vector<char> buf(bytes.begin(), bytes.end());
  kindling::jit::Module b = kindling::jit::load(buf.data(), buf.size());
  buf.assign(buf.size(), 0);  // the buffer may go away after load
  std::vector<float> in = floats("net_in.bin");
  kindling::Tensor x = kindling::from_blob(in.data(), {2, 3, 16, 16});
  expectClose(a.forward({x}).toTensor(), floats("net_out.bin"));
  expectClose(b.forward({x}).toTensor(), floats("net_out.bin"));
  EXPECT_THROW(kindling::jit::load(fixtures() + "net.pt", kindling::Device("cuda:0")), kindling::UsageError);
  std::istringstream junk("not an archive");
  EXPECT_THROW(kindling::jit::load(junk), kindling::LoadError);
}

TEST(PublicApi, Errors) {
  try {
    kindling::jit::load("/nonexistent/model.pt");
    FAIL();
  } catch (const kindling::LoadError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/model.pt"), std::string::npos);
  }
  kindling::jit::Module m = kindling::jit::load(fixtures() + "kinds.pt");
  try {
    m.forward({kindling::IValue(int64_t(1))});
    FAIL();
  } catch (const kindling::RuntimeError& e) {
    EXPECT_EQ(std::string(e.what()),
              "forward() Expected a value of type 'Tensor' for argument 'x' but instead found type 'int'.");
  }
  EXPECT_THROW(m.get_method("nope"), kindling::UsageError);
  EXPECT_FALSE(m.find_method("nope").has_value());
  EXPECT_THROW(m.attr("nope"), kindling::UsageError);
  EXPECT_THROW(kindling::IValue(1.5).toInt(), kindling::UsageError);
  EXPECT_THROW(kindling::zeros({2}).data_ptr<int64_t>(), kindling::UsageError);
  EXPECT_THROW(kindling::zeros({2}).item<float>(), kindling::RuntimeError);
  EXPECT_THROW(kindling::Tensor().dim(), kindling::UsageError);
  EXPECT_THROW(kindling::jit::Module().forward({}), kindling::UsageError);
  EXPECT_THROW(kindling::set_num_threads(0), kindling::UsageError);
  // Every public exception is a kindling::Error and a std::runtime_error.
  try {
    kindling::IValue("s").toTensor();
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "Expected Tensor but got String");
  }
}

TEST(PublicApi, IValueKindsAndMethods) {
  kindling::jit::Module m = kindling::jit::load(fixtures() + "kinds.pt");
  kindling::IValue out = m.forward({kindling::ones({2})}, {{"label", kindling::IValue("q")}});
  ASSERT_TRUE(out.isTuple());
  auto elems = out.toTuple()->elements();
  ASSERT_EQ(elems.size(), 5u);
  EXPECT_EQ(elems[0].toTensor().double_at(1), 2.0);  // eval: no +100
  EXPECT_EQ(elems[1].toInt(), 6);
  EXPECT_EQ(elems[2].toStringVector(), (std::vector<std::string>{"q", "b"}));
  kindling::GenericDict d = elems[3].toGenericDict();
  EXPECT_EQ(d.size(), 2u);
  EXPECT_EQ(d.at("s").toDouble(), 2.0);
  std::vector<std::string> keys;
  for (const auto& e : d) keys.push_back(e.key().toStringRef());
  EXPECT_EQ(keys, (std::vector<std::string>{"s", "n"}));
  EXPECT_TRUE(elems[4].isNone());
  EXPECT_EQ(out.type_str(), "Tuple[Tensor, int, List[str], Dict[str, float], NoneType]");

  EXPECT_EQ(m.run_method("add", 2, 40).toInt(), 42);
  EXPECT_EQ(m.get_method("add").schema(), "add(__torch__.Kinds self, int a, int b) -> int");
  std::vector<kindling::Tensor> ts{kindling::ones({2}), kindling::full({3}, 2.0)};
  EXPECT_EQ(m.run_method("total", ts).toTensor().item<double>(), 8.0);
  kindling::GenericDict in("str", "int");
  in.insert_or_assign("k", 7);
  EXPECT_EQ(m.run_method("lookup", in, "k").toInt(), 7);
  EXPECT_THROW(in.insert_or_assign("k", "not an int"), kindling::UsageError);
  kindling::List l("int");
  l.push_back(1);
  l.push_back(2);
  EXPECT_TRUE(kindling::IValue(l).isIntList());
  EXPECT_EQ(kindling::IValue(l).toIntVector(), (std::vector<int64_t>{1, 2}));
}

TEST(PublicApi, AttributesTrainEvalAndRespecialization) {
  kindling::jit::Module m = kindling::jit::load(fixtures() + "kinds.pt");
  auto first = [&] { return m.forward({kindling::ones({1})}).toTuple()->get(0).toTensor().item<double>(); };
  EXPECT_EQ(first(), 2.0);
  EXPECT_EQ(m.attr("scale").toDouble(), 2.0);
  m.setattr("scale", 3);  // int converts to the declared float
  EXPECT_EQ(m.attr("scale").toDouble(), 3.0);
  EXPECT_EQ(first(), 3.0);  // the specialized forward sees the new value
  EXPECT_FALSE(m.is_training());
  m.train();
  EXPECT_TRUE(m.is_training());
  EXPECT_TRUE(m.attr("sub").toModule().is_training());
  EXPECT_EQ(first(), 103.0);
  m.eval();
  EXPECT_EQ(first(), 3.0);
  EXPECT_THROW(m.setattr("scale", "x"), kindling::UsageError);
  EXPECT_EQ(m.type_name(), "__torch__.Kinds");
}

TEST(PublicApi, TraversalNamesMatchPyTorch) {
  kindling::jit::Module m = kindling::jit::load(fixtures() + "net.pt");
  std::vector<std::string> params, buffers, modules;
  for (const auto& p : m.named_parameters()) params.push_back(p.name);
  for (const auto& b : m.named_buffers()) buffers.push_back(b.name);
  for (const auto& c : m.named_modules()) modules.push_back(c.name);
  EXPECT_EQ(params, lines("net_params.txt"));
  EXPECT_EQ(buffers, lines("net_buffers.txt"));
  EXPECT_EQ(modules, lines("net_modules.txt"));
  EXPECT_EQ(m.parameters().size(), params.size());
  std::vector<std::string> children;
  for (const auto& c : m.named_children()) children.push_back(c.name);
  EXPECT_EQ(children, (std::vector<std::string>{"features", "fc"}));
  EXPECT_EQ(m.attr("fc").toModule().named_parameters(false)[0].value.sizes(), kindling::IntArrayRef({10, 32}));
}

TEST(PublicApi, SaveToFileAndStream) {
  kindling::jit::Module m = kindling::jit::load(fixtures() + "net.pt");
  std::string path = scratchPath("public_saved.pt");
  m.save(path, {{"meta.json", "{}"}});
  std::ostringstream os;
  m.save(os);
  std::istringstream is(os.str());
  kindling::jit::ExtraFilesMap extra{{"meta.json", ""}};
  kindling::jit::Module a = kindling::jit::load(path, std::nullopt, extra);
  EXPECT_EQ(extra.at("meta.json"), "{}");
  kindling::jit::Module b = kindling::jit::load(is);
  std::vector<float> in = floats("net_in.bin");
  kindling::Tensor x = kindling::from_blob(in.data(), {2, 3, 16, 16});
  expectClose(a.forward({x}).toTensor(), floats("net_out.bin"));
  expectClose(b.forward({x}).toTensor(), floats("net_out.bin"));
}

TEST(PublicApi, FromBlobDeleterRunsOnceWhenTheLastTensorDies) {
  std::atomic<int> calls{0};
  float* data = new float[6]{1, 2, 3, 4, 5, 6};
  {
    kindling::Tensor t = kindling::from_blob(data, {2, 3}, [&](void* p) {
      ++calls;
      delete[] static_cast<float*>(p);
    });
    kindling::Tensor v = t.slice(1, 1, 3);  // a view keeps the memory
    t = kindling::Tensor();
    EXPECT_EQ(calls.load(), 0);
    EXPECT_EQ(v.sizes(), kindling::IntArrayRef({2, 2}));
    EXPECT_EQ(v.strides(), kindling::IntArrayRef({3, 1}));
    EXPECT_EQ(v.contiguous().data_ptr<float>()[3], 6.0f);
  }
  EXPECT_EQ(calls.load(), 1);
  // Strided memory, int64.
  int64_t ints[] = {1, 2, 3, 4, 5, 6};
  kindling::Tensor s = kindling::from_blob(ints, {3}, {2}, kindling::kLong);
  EXPECT_EQ(s.sum().item<int64_t>(), 9);
  EXPECT_THROW(kindling::from_blob(nullptr, {2}), kindling::UsageError);
}

TEST(PublicApi, TensorOperations) {
  kindling::Tensor x = kindling::tensor<float>({1, 5, 2, 4, 3});
  auto [values, indices] = x.topk(2);
  EXPECT_EQ(indices.data_ptr<int64_t>()[0], 1);
  EXPECT_EQ(values.data_ptr<float>()[1], 4.0f);
  EXPECT_EQ(x.argmax().item<int64_t>(), 1);
  EXPECT_NEAR(x.softmax(0).sum().item<double>(), 1.0, 1e-6);
  EXPECT_TRUE((x * 2 + 1).equal(kindling::tensor<float>({3, 11, 5, 9, 7})));
  EXPECT_TRUE(x.view({5, 1}).t().sizes() == kindling::IntArrayRef({1, 5}));
  kindling::Tensor img = kindling::arange(24, kindling::kByte).reshape({2, 3, 4});
  kindling::Tensor f = img.permute({2, 0, 1}).to(kindling::kFloat).div(255);
  EXPECT_EQ(f.sizes(), kindling::IntArrayRef({4, 2, 3}));
  EXPECT_FALSE(f.is_contiguous() && img.is_contiguous() && f.stride(0) == 12);
  EXPECT_NEAR(f.contiguous().data_ptr<float>()[1], 4.0 / 255, 1e-7);
  f.sub_(0.5).div_(0.25);
  EXPECT_NEAR(f.double_at(0), (0 / 255.0 - 0.5) / 0.25, 1e-6);
  std::ostringstream os;
  os << kindling::tensor<int64_t>({1, 2});
  EXPECT_EQ(os.str(), " 1\n 2\n[ CPULongType{2} ]");
  EXPECT_EQ(kindling::tensor<double>({0.5}).repr(), "tensor([0.5000], dtype=torch.float64)");
  kindling::IValue r = kindling::call_op("aten::add", {x, 1.0}, {{"alpha", kindling::IValue(2)}});
  EXPECT_EQ(r.toTensor().double_at(0), 3.0);
  EXPECT_THROW(kindling::call_op("aten::nonexistent_op", {}), kindling::UsageError);
  kindling::manual_seed(1);
  kindling::Tensor a = kindling::rand({4});
  kindling::manual_seed(1);
  EXPECT_TRUE(a.equal(kindling::rand({4})));
  EXPECT_EQ(kindling::Half(1.5f), 1.5f);
}

// Concurrent forward calls on one Module: every thread gets the single-threaded result.
TEST(PublicApi, ConcurrentForwardOnOneModule) {
  kindling::jit::Module m = kindling::jit::load(fixtures() + "net.pt");
  std::vector<float> in = floats("net_in.bin");
  kindling::Tensor x = kindling::from_blob(in.data(), {2, 3, 16, 16});
  kindling::Tensor want = m.forward({x}).toTensor();
  std::atomic<int> mismatches{0}, failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      try {
        for (int i = 0; i < 25; ++i) {
          kindling::Tensor xi = t % 2 ? x : x.clone();
          kindling::Tensor y = m.forward({xi}).toTensor();
          if (!y.equal(want)) ++mismatches;
        }
      } catch (...) {
        ++failures;
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(mismatches.load(), 0);
}

TEST(PublicApi, Version) {
  EXPECT_STREQ(kindling::version(), KINDLING_VERSION_STRING);
  kindling::NoGradGuard g;
  kindling::InferenceMode im;
  (void)g;
  (void)im;
}

}  // namespace
