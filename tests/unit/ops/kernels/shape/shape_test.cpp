// shape kernels (src/ops/kernels/shape/shape.cpp) against PyTorch 1.13 values from gen_kernel_cases.py.
#include "../kernel_cases.h"

namespace kindling {
namespace {

TEST(ShapeKernels, MatchPyTorch) {
  OperatorRegistry r;
  registerShapeOps(r);
  testing::expectPyTorchSchemas(r);
  testing::runKernelFamily("shape", r);
}

}  // namespace
}  // namespace kindling
