// activation kernels (src/ops/kernels/activation/activation.cpp) against PyTorch 1.13 values from gen_kernel_cases.py.
#include "../kernel_cases.h"

namespace kindling {
namespace {

TEST(ActivationKernels, MatchPyTorch) {
  OperatorRegistry r;
  registerActivationOps(r);
  testing::expectPyTorchSchemas(r);
  testing::runKernelFamily("activation", r);
}

}  // namespace
}  // namespace kindling
