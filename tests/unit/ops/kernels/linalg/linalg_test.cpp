// linalg kernels (src/ops/kernels/linalg/linalg.cpp) against PyTorch 1.13 values from gen_kernel_cases.py.
#include "../kernel_cases.h"

namespace kindling {
namespace {

TEST(LinalgKernels, MatchPyTorch) {
  OperatorRegistry r;
  registerLinalgOps(r);
  testing::expectPyTorchSchemas(r);
  testing::runKernelFamily("linalg", r);
}

}  // namespace
}  // namespace kindling
