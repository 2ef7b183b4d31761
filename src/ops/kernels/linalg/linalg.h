// The matrix-product kernels' internal entry points (the kernels themselves are registered by linalg.cpp).
#pragma once
#include "tensor/tensor.h"

namespace kindling {

/// Packs a float32 linear weight [N, K] for the oneDNN matmul that aten::linear runs, and keeps the packed copy
/// with the weight's storage (ops/kernels/common/onednn_utils.h), so the first call finds it
/// (passes/optimize/prepack_weights.h). Other weights are left alone.
void prepackLinearWeight(const Tensor& weight, bool hasBias);

}  // namespace kindling
