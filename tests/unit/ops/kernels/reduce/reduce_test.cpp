// reduce kernels (src/ops/kernels/reduce/reduce.cpp) against PyTorch 1.13 values from gen_kernel_cases.py.
#include "../kernel_cases.h"

namespace kindling {
namespace {

TEST(ReduceKernels, MatchPyTorch) {
  OperatorRegistry r;
  registerReduceOps(r);
  testing::expectPyTorchSchemas(r);
  testing::runKernelFamily("reduce", r);
}

}  // namespace
}  // namespace kindling
