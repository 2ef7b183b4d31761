// conv kernels (src/ops/conv.cpp) against PyTorch 1.13 values from gen_kernel_cases.py.
#include "kernel_cases.h"

namespace kindling {
namespace {

TEST(ConvKernels, MatchPyTorch) {
  OperatorRegistry r;
  registerConvOps(r);
  testing::expectPyTorchSchemas(r);
  testing::runKernelFamily("conv", r);
}

}  // namespace
}  // namespace kindling
