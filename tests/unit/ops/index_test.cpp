// index kernels (src/ops/index.cpp) against PyTorch 1.13 values from gen_kernel_cases.py.
#include "kernel_cases.h"

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
