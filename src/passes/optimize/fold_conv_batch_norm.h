// Conv + BatchNorm folding on frozen graphs (torch/csrc/jit/passes/frozen_conv_folding.h): a batch_norm in
// inference mode (`training` a constant False) whose input is the only use of a convolution with constant
// weight (and constant or None bias) is folded into new conv weights and bias:
//   scale = gamma / sqrt(running_var + eps)      (gamma = 1 when None)
//   W' = W * scale[o]                            (per output channel)
//   b' = (b - running_mean) * scale + beta       (b, beta = 0 when None)
// computed in double and stored in the weight's dtype (float32/float64). The original tensors are not
// modified. Handles aten::conv1d/conv2d/conv3d (int[] padding overloads) and aten::_convolution with
// transposed=False. Besides the batch_norm, the conv output may only be used by metadata reads (aten::dim,
// aten::size, prim::dtype, prim::device — BatchNorm's _check_input_dim calls input.dim()).
#pragma once
#include "ir/ir.h"

namespace kindling {

/// Returns the number of batch_norm nodes folded away.
size_t foldConvBatchNorm(Graph& graph);

}  // namespace kindling
