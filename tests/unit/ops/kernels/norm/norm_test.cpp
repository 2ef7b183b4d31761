// norm kernels (src/ops/kernels/norm/norm.cpp) against PyTorch 1.13 values from gen_kernel_cases.py.
#include "../kernel_cases.h"

namespace kindling {
namespace {

TEST(NormKernels, MatchPyTorch) {
  OperatorRegistry r;
  registerNormOps(r);
  testing::expectPyTorchSchemas(r);
  testing::runKernelFamily("norm", r);
}

}  // namespace
}  // namespace kindling
