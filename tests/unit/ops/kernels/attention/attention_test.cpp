// attention kernels (src/ops/kernels/attention/attention.cpp): _native_multi_head_attention (self/cross, key padding mask,
// per-head weights, no weights), _transformer_encoder_layer_fwd (post- and pre-norm, relu and gelu),
// _transform_bias_rescale_qkv, _masked_softmax (incl. fully masked rows and PyTorch's errors), and
// _nested_tensor_from_mask_left_aligned, against PyTorch 1.13 values from gen_kernel_cases.py.
#include "../kernel_cases.h"

namespace kindling {
namespace {

TEST(AttentionKernels, MatchPyTorch) {
  OperatorRegistry r;
  registerAttentionOps(r);
  testing::expectPyTorchSchemas(r);
  testing::runKernelFamily("attention", r);
}

}  // namespace
}  // namespace kindling
