// elementwise kernels (src/ops/kernels/elementwise/elementwise.cpp) against PyTorch 1.13 values from gen_kernel_cases.py.
#include "../kernel_cases.h"

namespace kindling {
namespace {

TEST(ElementwiseKernels, MatchPyTorch) {
  OperatorRegistry r;
  registerElementwiseOps(r);
  testing::expectPyTorchSchemas(r);
  testing::runKernelFamily("elementwise", r);
}

}  // namespace
}  // namespace kindling
