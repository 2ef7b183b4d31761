// pool kernels (src/ops/kernels/pool/pool.cpp) against PyTorch 1.13 values from gen_kernel_cases.py.
#include "../kernel_cases.h"

namespace kindling {
namespace {

TEST(PoolKernels, MatchPyTorch) {
  OperatorRegistry r;
  registerPoolOps(r);
  testing::expectPyTorchSchemas(r);
  testing::runKernelFamily("pool", r);
}

}  // namespace
}  // namespace kindling
