// Convolution kernels (aten::conv1d/conv2d/conv3d, aten::_convolution, aten::convolution) on oneDNN.
//
// Layout: oneDNN's fast fp32 kernels (brgconv, depthwise brdgmm) want channels-last activations, so the
// primitive always runs NHWC. An input that is already channels_last is used in place and the output is
// channels_last (PyTorch's suggest_memory_format rule); a contiguous NCHW input is reordered in and the
// output reordered back to contiguous NCHW, so results have PyTorch's strides. Weights are packed once into
// the primitive's preferred layout and kept with the weight (ops/kernels/common/onednn_utils.h), at load for
// the constant weights of frozen graphs (prepackConvolutionWeight); primitives are cached by shape.
//
// `convolution()` is the internal entry point the fusion passes build on: PostOp adds a residual sum and/or
// an activation (ReLU, clamp = relu6/hardtanh) inside the primitive. Folding batch_norm into the weights is
// done by a pass producing new weight/bias tensors, packed like any other.
#pragma once
#include "tensor/tensor.h"

namespace kindling {

struct ConvPostOp {
  enum class Act : uint8_t { None, Relu, Clamp };
  /// When defined: output = act(conv(x) + residual), residual of the output's shape (any strides).
  Tensor residual;
  Act act = Act::None;
  float lo = 0.f, hi = 0.f;  // Clamp bounds
};

/// Layout policy for 2-d convolutions of NCHW inputs. Off (default): the output is NCHW-contiguous, as
/// PyTorch returns it. On: the output stays channels_last (NHWC strides, same values and sizes), so a chain
/// of conv / batch_norm / relu / add / pool runs without any layout reorders between layers — 1.2-2x faster on
/// CNNs. Only observable through strides: .stride(), .is_contiguous(), and view() of a non-trivial spatial
/// shape failing where PyTorch's would succeed, so enable it only for graphs that do not observe layout
/// (a frozen inference graph without view/stride/is_contiguous/data_ptr on conv outputs). The environment
/// variable KINDLING_CHANNELS_LAST=1 sets the initial value.
void setPreferChannelsLast(bool on);
bool preferChannelsLast();

/// N-d convolution (1 to 3 spatial dims), PyTorch semantics:
///   input  [N, C, *spatial] (or unbatched [C, *spatial]), weight [O, C/groups, *kernel], bias [O] or undefined.
///   stride/dilation/paddingL/paddingR have one entry per spatial dim (paddingR differs from paddingL only
///   for padding="same" with an even kernel). Float32 runs on oneDNN; float64 and integer dtypes on a direct loop.
/// Throws RuntimeError with PyTorch's messages for rank, channel and size mismatches.
Tensor convolution(const Tensor& input, const Tensor& weight, const Tensor& bias, const IntArray& stride,
                   const IntArray& paddingL, const IntArray& paddingR, const IntArray& dilation, int64_t groups,
                   const ConvPostOp& post = {});

/// Packs a float32 weight [O, C/groups, *kernel] (contiguous) for the oneDNN convolution that convolution()
/// runs with these parameters on a contiguous input, and keeps the packed copy with the weight's storage, so
/// the first call finds it (passes/optimize/prepack_weights.h). Weights or parameters convolution() would
/// reject, or that it runs without oneDNN, are left alone; the call reports them. `releasePlain`: the caller
/// knows nothing but convolution() reads the weight, so its own bytes go back to the system while the packed
/// copy stands in for them (onednn::releasePlainBytes).
void prepackConvolutionWeight(const Tensor& weight, bool hasBias, const IntArray& stride, const IntArray& paddingL,
                              const IntArray& paddingR, const IntArray& dilation, int64_t groups,
                              bool releasePlain = false);

/// Transposed convolution (aten::conv_transpose*, _convolution with transposed=True):
///   weight [C, O/groups, *kernel]; output size (in-1)*stride - 2*pad + dilation*(k-1) + output_padding + 1.
///   Float32 runs on oneDNN; float64 and integer dtypes on a direct loop.
Tensor convolutionTransposed(const Tensor& input, const Tensor& weight, const Tensor& bias, const IntArray& stride,
                             const IntArray& padding, const IntArray& outputPadding, const IntArray& dilation,
                             int64_t groups);

}  // namespace kindling
