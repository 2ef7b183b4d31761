// Weight packing at load for frozen graphs (the role of PyTorch's prepacking passes, e.g.
// torch/csrc/jit/passes/xnnpack_rewrite.h and mkldnn_rewrite.h): every convolution (aten::conv1d/conv2d/conv3d
// with int[] padding, aten::_convolution and aten::convolution with transposed=False) and aten::linear whose
// weight is a float32 constant, with constant geometry, has its weight reordered into the layout oneDNN's
// primitive prefers now, instead of on the first call. The packed copy is kept with the constant's own
// storage (tensor/tensor.h, ops/kernels/common/onednn_utils.h), so it is owned by the graph (and by the module
// when the constant is one of its parameters), is checked against the storage's version counter on every use
// (a parameter written in place is packed again), and dies with the tensor. The graph is not changed.
// A weight that is only part of its storage is left to its first call when the whole storage is packed too
// (a fused projection used whole on one branch and as chunks on another: packing both holds it twice more).
// Run after freezing and folding (passes/pipeline.h: runFrozenGraphPasses).
#pragma once
#include "ir/ir.h"

namespace kindling {

/// Returns the number of weights packed.
size_t prepackWeights(Graph& graph);

}  // namespace kindling
