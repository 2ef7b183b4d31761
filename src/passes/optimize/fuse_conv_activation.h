// Conv + residual add + activation fusion on frozen graphs (the oneDNN post-op fusions of PyTorch's
// frozen_conv_add_relu_fusion / mkldnn_rewrite): a convolution whose output goes only into
//   relu / relu_ / hardtanh(lo, hi) / hardtanh_ / relu6 ... ("act"), or
//   add / add_ with a Tensor and alpha == 1 (the residual), optionally followed by an act,
// becomes one `kindling::conv_fused` node that runs ops/kernels/conv/conv.h convolution() with ConvPostOp, so the
// activation and the residual sum happen inside the oneDNN primitive instead of extra passes over memory.
//
//   kindling::conv_fused(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding,
//                        int[] dilation, int groups, Tensor? residual, int act, float lo, float hi) -> Tensor
//   act: 0 none, 1 relu, 2 clamp(lo, hi)
//
// The node's operator is a static Operator owned by this pass (not in the global registry). At run time
// a float32 input with a residual of exactly the output's shape runs fused; anything else (float64,
// broadcasting residuals) runs the unfused ops (conv, add_, relu_/hardtanh_) with identical results.
// Accepted convolutions: aten::conv1d/conv2d/conv3d (int[] padding) and aten::_convolution with
// transposed=False; other uses of the conv output may only read metadata (dim/size/dtype/device).
#pragma once
#include "ir/ir.h"

namespace kindling {

/// Returns the number of fused nodes created. `withResidual` = false fuses only conv + activation.
size_t fuseConvActivation(Graph& graph, bool withResidual = true);

}  // namespace kindling
