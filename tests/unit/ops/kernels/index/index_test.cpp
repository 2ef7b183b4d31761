// index kernels (src/ops/kernels/index/index.cpp) against PyTorch 1.13 values from gen_kernel_cases.py.
#include "../kernel_cases.h"

namespace kindling {
namespace {

TEST(IndexKernels, MatchPyTorch) {
  OperatorRegistry r;
  registerIndexOps(r);
  testing::expectPyTorchSchemas(r);
  testing::runKernelFamily("index", r);
}

}  // namespace
}  // namespace kindling

namespace kindling {
namespace {

TEST(IndexKernels, ScatterRejectsOversizedIndex) {
  OperatorRegistry r;
  registerIndexOps(r);
  const Operator* op = r.find("aten::scatter.src");
  ASSERT_NE(op, nullptr);
  // index [3, 5] is larger than self [3, 4] outside the scatter dim 0: must raise, never write out of bounds
  Stack s{IValue(Tensor::zeros({3, 4})), IValue(int64_t(0)), IValue(Tensor::zeros({3, 5}, ScalarType::Long)),
          IValue(Tensor::zeros({3, 5}))};
  EXPECT_THROW(op->fn(s), RuntimeError);
}

}  // namespace
}  // namespace kindling
