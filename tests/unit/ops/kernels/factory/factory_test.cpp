// factory kernels (src/ops/kernels/factory/factory.cpp) against PyTorch 1.13 values from gen_kernel_cases.py.
#include "../kernel_cases.h"

namespace kindling {
namespace {

TEST(FactoryKernels, MatchPyTorch) {
  OperatorRegistry r;
  registerFactoryOps(r);
  testing::expectPyTorchSchemas(r);
  testing::runKernelFamily("factory", r);
}

}  // namespace
}  // namespace kindling
