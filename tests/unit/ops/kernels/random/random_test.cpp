// The random family (src/ops/kernels/random/random.cpp): exact PyTorch 1.13 schemas, and draws equal to PyTorch's CPU
// generator after torch.manual_seed (expected values printed by PyTorch 1.13: float.hex / tolist).
// The language corpus (tests/oracle/lang/functional_random.py) compares many more draws live.
#include "../kernel_cases.h"

namespace kindling {

void registerRandomOps(OperatorRegistry& r);

namespace {

const OperatorRegistry& randomRegistry() {
  static OperatorRegistry* r = [] {
    auto* reg = new OperatorRegistry();
    registerRandomOps(*reg);
    return reg;
  }();
  return *r;
}

TEST(RandomKernels, EvalDropoutMatchesPyTorch) { testing::runKernelFamily("random", randomRegistry()); }

void seed(int64_t s) {
  Stack st{IValue(s)};
  randomRegistry().find("aten::manual_seed")->fn(st);
}

Tensor call(const std::string& op, Stack st) {
  randomRegistry().find(op)->fn(st);
  return st.back().toTensor();
}

IValue intList(std::vector<int64_t> v) { return IValue(makeList(IntType(), std::vector<IValue>(v.begin(), v.end()))); }

TEST(RandomKernels, PyTorchSchemas) { testing::expectPyTorchSchemas(randomRegistry()); }

TEST(RandomKernels, RandMatchesTorchManualSeed0) {
  seed(0);
  // torch.manual_seed(0); torch.rand(5)
  Tensor t = call("aten::rand", {intList({5}), IValue(), IValue(), IValue(), IValue()});
  const double want[5] = {0x1.fc2abp-2, 0x1.89545ep-1, 0x1.6a675p-4, 0x1.0e66p-3, 0x1.3acd0cp-2};
  ASSERT_EQ(t.dtype(), ScalarType::Float);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(static_cast<double>(t.data_ptr<float>()[i]), want[i]) << i;
  // the generator continues: the next torch.rand(2)
  Tensor u = call("aten::rand", {intList({2}), IValue(), IValue(), IValue(), IValue()});
  EXPECT_EQ(static_cast<double>(u.data_ptr<float>()[0]), 0x1.44a5f6p-1);
  EXPECT_EQ(static_cast<double>(u.data_ptr<float>()[1]), 0x1.f5db0cp-2);
}

TEST(RandomKernels, RandintRandpermRandnMatchPyTorch) {
  seed(0);
  Tensor r = call("aten::randint.low", {IValue(int64_t(0)), IValue(int64_t(10)), intList({6}), IValue(), IValue(), IValue(), IValue()});
  const int64_t wantR[6] = {4, 9, 3, 0, 3, 9};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(r.data_ptr<int64_t>()[i], wantR[i]) << i;
  seed(3);
  Tensor p = call("aten::randperm", {IValue(int64_t(7)), IValue(), IValue(), IValue(), IValue()});
  const int64_t wantP[7] = {5, 3, 4, 6, 0, 2, 1};
  for (int i = 0; i < 7; ++i) EXPECT_EQ(p.data_ptr<int64_t>()[i], wantP[i]) << i;
  seed(0);
  Tensor n = call("aten::randn", {intList({3}), IValue(static_cast<int64_t>(ScalarType::Double)), IValue(), IValue(), IValue()});
  const double wantN[3] = {0x1.8a7eb8902be3ap+0, -0x1.2c78a087c6feap-2, -0x1.16e2920a70ee5p+1};
  for (int i = 0; i < 3; ++i) EXPECT_EQ(n.data_ptr<double>()[i], wantN[i]) << i;
}

TEST(RandomKernels, ErrorsAreRuntimeErrors) {
  EXPECT_THROW(call("aten::randint.low", {IValue(int64_t(5)), IValue(int64_t(5)), intList({2}), IValue(), IValue(), IValue(), IValue()}),
               RuntimeError);
  EXPECT_THROW(call("aten::rand", {intList({-1}), IValue(), IValue(), IValue(), IValue()}), RuntimeError);
}

}  // namespace
}  // namespace kindling
