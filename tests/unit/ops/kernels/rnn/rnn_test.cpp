// rnn kernels (src/ops/kernels/rnn/rnn.cpp): lstm/gru/rnn_tanh/rnn_relu networks (multi-layer, bidirectional, batch_first,
// projections, no bias) and their cells, against PyTorch 1.13 values from gen_kernel_cases.py.
#include "../kernel_cases.h"

namespace kindling {
namespace {

TEST(RnnKernels, MatchPyTorch) {
  OperatorRegistry r;
  registerRnnOps(r);
  testing::expectPyTorchSchemas(r);
  testing::runKernelFamily("rnn", r);
}

}  // namespace
}  // namespace kindling
