# torch.nn.functional for Kindling's frontend, compiled on first use as "__torch__.torch.nn.functional.<name>".
# The bodies follow torch/nn/functional.py of PyTorch 1.13 in behaviour (signatures, defaults, checks,
# error messages, the aten operators they end in), written for Kindling. Warnings PyTorch prints are
# not reproduced (TorchScript's warnings go to stderr and do not change values).
# Embedded into the frontend at build time (frontend/library_sources.h); this file is TorchScript.

import math
import torch
from torch import Tensor
from typing import List, Optional, Tuple


def _legacy_reduction(size_average: Optional[bool], reduce: Optional[bool]) -> str:
    # the deprecated size_average/reduce pair → reduction string (None means True for both)
    avg = True
    if size_average is not None:
        avg = size_average
    red = True
    if reduce is not None:
        red = reduce
    if avg and red:
        return "mean"
    if red:
        return "sum"
    return "none"


def _dropout_p_check(p: float):
    if p < 0.0 or p > 1.0:
        raise ValueError("dropout probability has to be between 0 and 1, but got {}".format(p))


def _softmax_dim(ndim: int) -> int:
    # the implicit dimension of softmax & co. (deprecated in PyTorch)
    if ndim == 0 or ndim == 1 or ndim == 3:
        return 0
    return 1


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        result = torch.relu_(input)
    else:
        result = torch.relu(input)
    return result


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        result = torch.relu6_(input)
    else:
        result = torch.relu6(input)
    return result


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    if inplace:
        result = torch.elu_(input, alpha)
    else:
        result = torch.elu(input, alpha)
    return result


def selu(input: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        result = torch.selu_(input)
    else:
        result = torch.selu(input)
    return result


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    if inplace:
        result = torch.celu_(input, alpha)
    else:
        result = torch.celu(input, alpha)
    return result


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    if inplace:
        result = torch.leaky_relu_(input, negative_slope)
    else:
        result = torch.leaky_relu(input, negative_slope)
    return result


def rrelu(input: Tensor, lower: float = 0.125, upper: float = 0.3333333333333333, training: bool = False,
          inplace: bool = False) -> Tensor:
    if inplace:
        result = torch.rrelu_(input, lower, upper, training)
    else:
        result = torch.rrelu(input, lower, upper, training)
    return result


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> Tensor:
    if inplace:
        result = torch.hardtanh_(input, min_val, max_val)
    else:
        result = torch.hardtanh(input, min_val, max_val)
    return result


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        return torch.hardsigmoid_(input)
    return torch.hardsigmoid(input)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        return torch.hardswish_(input)
    return torch.hardswish(input)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        return torch.silu_(input)
    return torch.silu(input)


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        return torch.mish_(input)
    return torch.mish(input)


def _threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    if inplace:
        result = torch.threshold_(input, threshold, value)
    else:
        result = torch.threshold(input, threshold, value)
    return result


def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    return _threshold(input, threshold, value, inplace)


def glu(input: Tensor, dim: int = -1) -> Tensor:
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    return torch.glu(input, dim)


def sigmoid(input: Tensor) -> Tensor:
    return input.sigmoid()


def tanh(input: Tensor) -> Tensor:
    return input.tanh()


def tanhshrink(input: Tensor) -> Tensor:
    return input - input.tanh()


def softsign(input: Tensor) -> Tensor:
    return input / (input.abs() + 1)


def softmax(input: Tensor, dim: Optional[int] = None, _stacklevel: int = 3, dtype: Optional[int] = None) -> Tensor:
    if dim is None:
        dim = _softmax_dim(input.dim())
    if dtype is None:
        ret = input.softmax(dim)
    else:
        ret = input.softmax(dim, dtype=dtype)
    return ret


def softmin(input: Tensor, dim: Optional[int] = None, _stacklevel: int = 3, dtype: Optional[int] = None) -> Tensor:
    if dim is None:
        dim = _softmax_dim(input.dim())
    if dtype is None:
        ret = (-input).softmax(dim)
    else:
        ret = (-input).softmax(dim, dtype=dtype)
    return ret


def log_softmax(input: Tensor, dim: Optional[int] = None, _stacklevel: int = 3, dtype: Optional[int] = None) -> Tensor:
    if dim is None:
        dim = _softmax_dim(input.dim())
    if dtype is None:
        ret = input.log_softmax(dim)
    else:
        ret = input.log_softmax(dim, dtype=dtype)
    return ret


def gumbel_softmax(logits: Tensor, tau: float = 1, hard: bool = False, eps: float = 1e-10, dim: int = -1) -> Tensor:
    # Gumbel(0, 1) noise as -log of an Exponential(1) sample (eps is deprecated and unused, as in PyTorch)
    noise = -torch.empty_like(logits, memory_format=torch.legacy_contiguous_format).exponential_().log()
    y_soft = ((logits + noise) / tau).softmax(dim)
    if hard:
        # straight-through: the one-hot of the argmax, with y_soft's gradient
        index = y_soft.max(dim, keepdim=True)[1]
        y_hard = torch.zeros_like(logits, memory_format=torch.legacy_contiguous_format).scatter_(dim, index, 1.0)
        return y_hard - y_soft.detach() + y_soft
    return y_soft


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    _dropout_p_check(p)
    if inplace:
        return torch.dropout_(input, p, training)
    return torch.dropout(input, p, training)


def alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False) -> Tensor:
    _dropout_p_check(p)
    if inplace:
        return torch.alpha_dropout_(input, p, training)
    return torch.alpha_dropout(input, p, training)


def feature_alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False) -> Tensor:
    _dropout_p_check(p)
    if inplace:
        return torch.feature_alpha_dropout_(input, p, training)
    return torch.feature_alpha_dropout(input, p, training)


def _feature_dropout_unbatched(input: Tensor, p: float, training: bool, inplace: bool, batched: bool) -> Tensor:
    # channel-wise dropout; an unbatched input gets a batch dimension of 1 for the duration
    if not batched:
        if inplace:
            input = input.unsqueeze_(0)
        else:
            input = input.unsqueeze(0)
    if inplace:
        result = torch.feature_dropout_(input, p, training)
    else:
        result = torch.feature_dropout(input, p, training)
    if not batched:
        if inplace:
            result = result.squeeze_(0)
        else:
            result = result.squeeze(0)
    return result


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    _dropout_p_check(p)
    inp_dim = input.dim()
    if inp_dim != 2 and inp_dim != 3:
        raise RuntimeError("dropout1d: Expected 2D or 3D input, but received a {}D input. Note that dropout1d "
                           "exists to provide channel-wise dropout on inputs with 1 spatial dimension, a channel "
                           "dimension, and an optional batch dimension (i.e. 2D or 3D inputs).".format(inp_dim))
    return _feature_dropout_unbatched(input, p, training, inplace, inp_dim == 3)


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    _dropout_p_check(p)
    if inplace:
        return torch.feature_dropout_(input, p, training)
    return torch.feature_dropout(input, p, training)


def dropout3d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    _dropout_p_check(p)
    return _feature_dropout_unbatched(input, p, training, inplace, input.dim() == 5)


def _verify_batch_size(size: List[int]) -> None:
    prod = size[0]
    for i in range(len(size) - 2):
        prod *= size[i + 2]
    if prod == 1:
        raise ValueError("Expected more than 1 value per channel when training, got input size {}".format(size))


def _verify_spatial_size(size: List[int]) -> None:
    prod = 1
    for i in range(2, len(size)):
        prod *= size[i]
    if prod == 1:
        raise ValueError("Expected more than 1 spatial element when training, got input size {}".format(size))


def batch_norm(input: Tensor, running_mean: Optional[Tensor], running_var: Optional[Tensor],
               weight: Optional[Tensor] = None, bias: Optional[Tensor] = None, training: bool = False,
               momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    if training:
        _verify_batch_size(input.size())
    return torch.batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, False)


def instance_norm(input: Tensor, running_mean: Optional[Tensor] = None, running_var: Optional[Tensor] = None,
                  weight: Optional[Tensor] = None, bias: Optional[Tensor] = None, use_input_stats: bool = True,
                  momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    if use_input_stats:
        _verify_spatial_size(input.size())
    return torch.instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps,
                               False)


def layer_norm(input: Tensor, normalized_shape: List[int], weight: Optional[Tensor] = None,
               bias: Optional[Tensor] = None, eps: float = 1e-5) -> Tensor:
    return torch.layer_norm(input, normalized_shape, weight, bias, eps, False)


def group_norm(input: Tensor, num_groups: int, weight: Optional[Tensor] = None, bias: Optional[Tensor] = None,
               eps: float = 1e-5) -> Tensor:
    if input.dim() < 2:
        raise RuntimeError("Expected at least 2 dimensions for input tensor but received {}".format(input.dim()))
    sizes = [input.size(0) * input.size(1) // num_groups, num_groups]
    for i in range(2, input.dim()):
        sizes.append(input.size(i))
    _verify_batch_size(sizes)
    return torch.group_norm(input, num_groups, weight, bias, eps, False)


def local_response_norm(input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> Tensor:
    dim = input.dim()
    if dim < 3:
        raise ValueError("Expected 3D or higher dimensionality input (got {} dimensions)".format(dim))
    if input.numel() == 0:
        return input
    div = input.mul(input).unsqueeze(1)
    if dim == 3:
        div = torch.constant_pad_nd(div, [0, 0, size // 2, (size - 1) // 2])
        div = torch.avg_pool2d(div, [size, 1], stride=[1, 1]).squeeze(1)
    else:
        sizes = input.size()
        div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)
        div = torch.constant_pad_nd(div, [0, 0, 0, 0, size // 2, (size - 1) // 2])
        div = torch.avg_pool3d(div, [size, 1, 1], stride=[1, 1, 1]).squeeze(1)
        div = div.view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12, out: Optional[Tensor] = None) -> Tensor:
    if out is None:
        denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
        return input / denom
    else:
        denom = input.norm(p, dim, keepdim=True).clamp_min_(eps).expand_as(input)
        out.copy_(input / denom)
        return out


def embedding(input: Tensor, weight: Tensor, padding_idx: Optional[int] = None, max_norm: Optional[float] = None,
              norm_type: float = 2.0, scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    if padding_idx is not None:
        if padding_idx > 0:
            assert padding_idx < weight.size(0), "Padding_idx must be within num_embeddings"
        elif padding_idx < 0:
            assert padding_idx >= -weight.size(0), "Padding_idx must be within num_embeddings"
            padding_idx = weight.size(0) + padding_idx
    else:
        padding_idx = -1
    if max_norm is not None:
        input = input.contiguous()
        # PyTorch 1.13 calls _no_grad_embedding_renorm_ here, which TorchScript binds to the builtin
        # aten::_no_grad_embedding_renorm_: its schema returns a Tensor and mutates nothing, so dead code
        # elimination removes the unused call and a scripted F.embedding never renormalizes the weight.
    return torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)


def embedding_bag(input: Tensor, weight: Tensor, offsets: Optional[Tensor] = None, max_norm: Optional[float] = None,
                  norm_type: float = 2, scale_grad_by_freq: bool = False, mode: str = "mean", sparse: bool = False,
                  per_sample_weights: Optional[Tensor] = None, include_last_offset: bool = False,
                  padding_idx: Optional[int] = None) -> Tensor:
    if weight.dtype == torch.long and input.is_floating_point():
        # the old argument order embedding_bag(weight, input, ...)
        weight, input = input, weight
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError("embedding_bag: If per_sample_weights ({}) is not None, then it must have the same shape "
                         "as the input ({})".format(per_sample_weights.shape, input.shape))
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             "fixed length sequences. However, found offsets of type <unknown>")
        offsets = torch.arange(0, input.numel(), input.size(1), dtype=input.dtype, device=input.device)
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError("input has to be 1D or 2D Tensor, but got Tensor of dimension {}".format(input.dim()))
    if mode == "sum":
        mode_enum = 0
    elif mode == "mean":
        mode_enum = 1
    elif mode == "max":
        mode_enum = 2
        if scale_grad_by_freq:
            raise ValueError("max mode does not support scaling the gradient by the frequency")
        if sparse:
            raise ValueError("max mode does not support sparse weights")
    else:
        raise ValueError("mode has to be one of sum, mean or max")
    # (no max_norm step: PyTorch 1.13's scripted call to aten::_no_grad_embedding_renorm_ is dead code, as in
    # embedding above)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError("embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  "supported for mode='sum' (got mode='{}'). Please open a feature request on "
                                  "GitHub.".format(mode))
    ret, _, _, _ = torch.embedding_bag(weight, input, offsets, scale_grad_by_freq, mode_enum, sparse,
                                       per_sample_weights, include_last_offset, padding_idx)
    return ret


def max_pool1d_with_indices(input: Tensor, kernel_size: BroadcastingList1[int],
                            stride: Optional[BroadcastingList1[int]] = None, padding: BroadcastingList1[int] = 0,
                            dilation: BroadcastingList1[int] = 1, ceil_mode: bool = False,
                            return_indices: bool = False) -> Tuple[Tensor, Tensor]:
    if stride is None:
        stride = torch.jit.annotate(List[int], [])
    return torch.max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)


def _max_pool1d(input: Tensor, kernel_size: BroadcastingList1[int], stride: Optional[BroadcastingList1[int]] = None,
                padding: BroadcastingList1[int] = 0, dilation: BroadcastingList1[int] = 1, ceil_mode: bool = False,
                return_indices: bool = False) -> Tensor:
    if stride is None:
        stride = torch.jit.annotate(List[int], [])
    return torch.max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool2d_with_indices(input: Tensor, kernel_size: BroadcastingList2[int],
                            stride: Optional[BroadcastingList2[int]] = None, padding: BroadcastingList2[int] = 0,
                            dilation: BroadcastingList2[int] = 1, ceil_mode: bool = False,
                            return_indices: bool = False) -> Tuple[Tensor, Tensor]:
    if stride is None:
        stride = torch.jit.annotate(List[int], [])
    return torch.max_pool2d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)


def _max_pool2d(input: Tensor, kernel_size: BroadcastingList2[int], stride: Optional[BroadcastingList2[int]] = None,
                padding: BroadcastingList2[int] = 0, dilation: BroadcastingList2[int] = 1, ceil_mode: bool = False,
                return_indices: bool = False) -> Tensor:
    if stride is None:
        stride = torch.jit.annotate(List[int], [])
    return torch.max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool3d_with_indices(input: Tensor, kernel_size: BroadcastingList3[int],
                            stride: Optional[BroadcastingList3[int]] = None, padding: BroadcastingList3[int] = 0,
                            dilation: BroadcastingList3[int] = 1, ceil_mode: bool = False,
                            return_indices: bool = False) -> Tuple[Tensor, Tensor]:
    if stride is None:
        stride = torch.jit.annotate(List[int], [])
    return torch.max_pool3d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)


def _max_pool3d(input: Tensor, kernel_size: BroadcastingList3[int], stride: Optional[BroadcastingList3[int]] = None,
                padding: BroadcastingList3[int] = 0, dilation: BroadcastingList3[int] = 1, ceil_mode: bool = False,
                return_indices: bool = False) -> Tensor:
    if stride is None:
        stride = torch.jit.annotate(List[int], [])
    return torch.max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode)


def adaptive_max_pool1d_with_indices(input: Tensor, output_size: BroadcastingList1[int],
                                     return_indices: bool = False) -> Tuple[Tensor, Tensor]:
    return torch.adaptive_max_pool1d(input, output_size)


def _adaptive_max_pool1d(input: Tensor, output_size: BroadcastingList1[int], return_indices: bool = False) -> Tensor:
    return adaptive_max_pool1d_with_indices(input, output_size)[0]


def adaptive_max_pool2d_with_indices(input: Tensor, output_size: BroadcastingList2[int],
                                     return_indices: bool = False) -> Tuple[Tensor, Tensor]:
    return torch.adaptive_max_pool2d(input, output_size)


def _adaptive_max_pool2d(input: Tensor, output_size: BroadcastingList2[int], return_indices: bool = False) -> Tensor:
    return adaptive_max_pool2d_with_indices(input, output_size)[0]


def adaptive_max_pool3d_with_indices(input: Tensor, output_size: BroadcastingList3[int],
                                     return_indices: bool = False) -> Tuple[Tensor, Tensor]:
    return torch.adaptive_max_pool3d(input, output_size)


def _adaptive_max_pool3d(input: Tensor, output_size: BroadcastingList3[int], return_indices: bool = False) -> Tensor:
    return adaptive_max_pool3d_with_indices(input, output_size)[0]


def adaptive_avg_pool2d(input: Tensor, output_size: BroadcastingList2[int]) -> Tensor:
    return torch.adaptive_avg_pool2d(input, output_size)


def adaptive_avg_pool3d(input: Tensor, output_size: BroadcastingList3[int]) -> Tensor:
    return torch.adaptive_avg_pool3d(input, output_size)


def lp_pool1d(input: Tensor, norm_type: float, kernel_size: int, stride: Optional[BroadcastingList1[int]] = None,
              ceil_mode: bool = False) -> Tensor:
    if stride is not None:
        out = torch.avg_pool1d(input.pow(norm_type), [kernel_size], stride, [0], ceil_mode)
    else:
        out = torch.avg_pool1d(input.pow(norm_type), [kernel_size], padding=[0], ceil_mode=ceil_mode)
    return (torch.sign(out) * torch.relu(torch.abs(out))).mul(kernel_size).pow(1.0 / norm_type)


def lp_pool2d(input: Tensor, norm_type: float, kernel_size: BroadcastingList2[int],
              stride: Optional[BroadcastingList2[int]] = None, ceil_mode: bool = False) -> Tensor:
    kw = kernel_size[0]
    kh = kernel_size[1]
    if stride is not None:
        out = torch.avg_pool2d(input.pow(norm_type), kernel_size, stride, [0, 0], ceil_mode)
    else:
        out = torch.avg_pool2d(input.pow(norm_type), kernel_size, padding=[0, 0], ceil_mode=ceil_mode)
    return (torch.sign(out) * torch.relu(torch.abs(out))).mul(kw * kh).pow(1.0 / norm_type)


def interpolate(input: Tensor, size: Optional[BroadcastingList1[int]] = None,
                scale_factor: Optional[BroadcastingList1[float]] = None, mode: str = "nearest",
                align_corners: Optional[bool] = None, recompute_scale_factor: Optional[bool] = None,
                antialias: bool = False) -> Tensor:
    if mode == "nearest" or mode == "area" or mode == "nearest-exact":
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: "
                             "linear | bilinear | bicubic | trilinear")
    else:
        if align_corners is None:
            align_corners = False
    dim = input.dim() - 2
    output_size: Optional[List[int]] = None
    scale_factors: Optional[List[float]] = None
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    elif size is not None:
        if len(size) == 1 and dim != 1:
            output_size = [size[0] for _ in range(dim)]
        else:
            if len(size) != dim:
                raise ValueError("Input and output must have the same number of spatial dimensions, but got input "
                                 "with spatial dimensions of {} and output size of {}. Please provide input tensor "
                                 "in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) "
                                 "format.".format(input.size()[2:], size))
            output_size = size
    elif scale_factor is not None:
        if len(scale_factor) == 1 and dim != 1:
            scale_factors = [scale_factor[0] for _ in range(dim)]
        else:
            if len(scale_factor) != dim:
                raise ValueError("Input and scale_factor must have the same number of spatial dimensions, but got "
                                 "input with spatial dimensions of {} and scale_factor of shape {}. Please provide "
                                 "input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) "
                                 "format.".format(input.size()[2:], scale_factor))
            scale_factors = scale_factor
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor is not None and recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and output_size is None:
        recompute_scale_factor = True
    if recompute_scale_factor is not None and recompute_scale_factor:
        assert scale_factors is not None
        output_size = [int(math.floor(float(input.size(i + 2)) * scale_factors[i])) for i in range(dim)]
        scale_factors = None
    if antialias and not ((mode == "bilinear" or mode == "bicubic") and input.dim() == 4):
        raise ValueError("Anti-alias option is only supported for bilinear and bicubic modes")
    if input.dim() == 3 and mode == "nearest":
        return torch.upsample_nearest1d(input, output_size, scale_factors)
    if input.dim() == 4 and mode == "nearest":
        return torch.upsample_nearest2d(input, output_size, scale_factors)
    if input.dim() == 5 and mode == "nearest":
        return torch.upsample_nearest3d(input, output_size, scale_factors)
    if input.dim() == 3 and mode == "nearest-exact":
        return torch._upsample_nearest_exact1d(input, output_size, scale_factors)
    if input.dim() == 4 and mode == "nearest-exact":
        return torch._upsample_nearest_exact2d(input, output_size, scale_factors)
    if input.dim() == 5 and mode == "nearest-exact":
        return torch._upsample_nearest_exact3d(input, output_size, scale_factors)
    if input.dim() == 3 and mode == "area":
        assert output_size is not None
        return torch.adaptive_avg_pool1d(input, output_size)
    if input.dim() == 4 and mode == "area":
        assert output_size is not None
        return adaptive_avg_pool2d(input, output_size)
    if input.dim() == 5 and mode == "area":
        assert output_size is not None
        return adaptive_avg_pool3d(input, output_size)
    if input.dim() == 3 and mode == "linear":
        assert align_corners is not None
        return torch.upsample_linear1d(input, output_size, align_corners, scale_factors)
    if input.dim() == 4 and mode == "bilinear":
        assert align_corners is not None
        if antialias:
            return torch._upsample_bilinear2d_aa(input, output_size, align_corners, scale_factors)
        return torch.upsample_bilinear2d(input, output_size, align_corners, scale_factors)
    if input.dim() == 5 and mode == "trilinear":
        assert align_corners is not None
        return torch.upsample_trilinear3d(input, output_size, align_corners, scale_factors)
    if input.dim() == 4 and mode == "bicubic":
        assert align_corners is not None
        if antialias:
            return torch._upsample_bicubic2d_aa(input, output_size, align_corners, scale_factors)
        return torch.upsample_bicubic2d(input, output_size, align_corners, scale_factors)
    if input.dim() == 3 and mode == "bilinear":
        raise NotImplementedError("Got 3D input, but bilinear mode needs 4D input")
    if input.dim() == 3 and mode == "trilinear":
        raise NotImplementedError("Got 3D input, but trilinear mode needs 5D input")
    if input.dim() == 4 and mode == "linear":
        raise NotImplementedError("Got 4D input, but linear mode needs 3D input")
    if input.dim() == 4 and mode == "trilinear":
        raise NotImplementedError("Got 4D input, but trilinear mode needs 5D input")
    if input.dim() == 5 and mode == "linear":
        raise NotImplementedError("Got 5D input, but linear mode needs 3D input")
    if input.dim() == 5 and mode == "bilinear":
        raise NotImplementedError("Got 5D input, but bilinear mode needs 4D input")
    raise NotImplementedError("Input Error: Only 3D, 4D and 5D input Tensors supported (got {}D) for the modes: "
                              "nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact (got "
                              "{})".format(input.dim(), mode))


def upsample(input: Tensor, size: Optional[BroadcastingList1[int]] = None,
             scale_factor: Optional[BroadcastingList1[float]] = None, mode: str = "nearest",
             align_corners: Optional[bool] = None) -> Tensor:
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input: Tensor, size: Optional[BroadcastingList1[int]] = None,
                     scale_factor: Optional[BroadcastingList1[float]] = None) -> Tensor:
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input: Tensor, size: Optional[BroadcastingList1[int]] = None,
                      scale_factor: Optional[BroadcastingList1[float]] = None) -> Tensor:
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


def grid_sample(input: Tensor, grid: Tensor, mode: str = "bilinear", padding_mode: str = "zeros",
                align_corners: Optional[bool] = None) -> Tensor:
    if mode != "bilinear" and mode != "nearest" and mode != "bicubic":
        raise ValueError("nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but "
                         "got: '{}'".format(mode))
    if padding_mode != "zeros" and padding_mode != "border" and padding_mode != "reflection":
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                         "'reflection', but got: '{}'".format(padding_mode))
    if mode == "bilinear":
        mode_enum = 0
    elif mode == "nearest":
        mode_enum = 1
    else:
        mode_enum = 2
    if padding_mode == "zeros":
        padding_mode_enum = 0
    elif padding_mode == "border":
        padding_mode_enum = 1
    else:
        padding_mode_enum = 2
    if align_corners is None:
        align_corners = False
    return torch.grid_sampler(input, grid, mode_enum, padding_mode_enum, align_corners)


def affine_grid(theta: Tensor, size: List[int], align_corners: Optional[bool] = None) -> Tensor:
    if align_corners is None:
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError("Expected theta to have floating point type, but got {}".format(theta.dtype))
    if len(size) == 4:
        if theta.dim() != 3 or theta.shape[-2] != 2 or theta.shape[-1] != 3:
            raise ValueError("Expected a batch of 2D affine matrices of shape Nx2x3 for size {}. Got {}.".format(
                size, theta.shape))
        spatial_size = size[-2:]
    elif len(size) == 5:
        if theta.dim() != 3 or theta.shape[-2] != 3 or theta.shape[-1] != 4:
            raise ValueError("Expected a batch of 3D affine matrices of shape Nx3x4 for size {}. Got {}.".format(
                size, theta.shape))
        spatial_size = size[-3:]
    else:
        raise NotImplementedError("affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
                                  "respectively. Got size {}.".format(size))
    if align_corners and min(spatial_size) == 1:
        pass
    elif min(size) <= 0:
        raise ValueError("Expected non-zero, positive output size. Got {}".format(size))
    return torch.affine_grid_generator(theta, size, align_corners)


def unfold(input: Tensor, kernel_size: BroadcastingList2[int], dilation: BroadcastingList2[int] = 1,
           padding: BroadcastingList2[int] = 0, stride: BroadcastingList2[int] = 1) -> Tensor:
    return torch.im2col(input, kernel_size, dilation, padding, stride)


def fold(input: Tensor, output_size: BroadcastingList2[int], kernel_size: BroadcastingList2[int],
         dilation: BroadcastingList2[int] = 1, padding: BroadcastingList2[int] = 0,
         stride: BroadcastingList2[int] = 1) -> Tensor:
    return torch.col2im(input, output_size, kernel_size, dilation, padding, stride)


def _in_projection_packed(q: Tensor, k: Tensor, v: Tensor, w: Tensor, b: Optional[Tensor] = None) -> List[Tensor]:
    # one packed (3E, E) projection; a shared input is projected with one matrix product
    E = q.size(-1)
    if k is v:
        if q is k:
            return torch.linear(q, w, b).chunk(3, dim=-1)
        else:
            w_q, w_kv = w.split([E, E * 2])
            if b is None:
                b_q: Optional[Tensor] = None
                b_kv: Optional[Tensor] = None
            else:
                b_q, b_kv = b.split([E, E * 2])
            return [torch.linear(q, w_q, b_q)] + torch.linear(k, w_kv, b_kv).chunk(2, dim=-1)
    else:
        w_q, w_k, w_v = w.chunk(3)
        if b is None:
            b_q1: Optional[Tensor] = None
            b_k1: Optional[Tensor] = None
            b_v1: Optional[Tensor] = None
        else:
            b_q1, b_k1, b_v1 = b.chunk(3)
        return [torch.linear(q, w_q, b_q1), torch.linear(k, w_k, b_k1), torch.linear(v, w_v, b_v1)]


def _in_projection(q: Tensor, k: Tensor, v: Tensor, w_q: Tensor, w_k: Tensor, w_v: Tensor,
                   b_q: Optional[Tensor] = None, b_k: Optional[Tensor] = None,
                   b_v: Optional[Tensor] = None) -> Tuple[Tensor, Tensor, Tensor]:
    Eq, Ek, Ev = q.size(-1), k.size(-1), v.size(-1)
    assert w_q.shape == [Eq, Eq], "expecting query weights shape of {}, but got {}".format((Eq, Eq), w_q.shape)
    assert w_k.shape == [Eq, Ek], "expecting key weights shape of {}, but got {}".format((Eq, Ek), w_k.shape)
    assert w_v.shape == [Eq, Ev], "expecting value weights shape of {}, but got {}".format((Eq, Ev), w_v.shape)
    return torch.linear(q, w_q, b_q), torch.linear(k, w_k, b_k), torch.linear(v, w_v, b_v)


def _mha_shape_check(query: Tensor, key: Tensor, value: Tensor, key_padding_mask: Optional[Tensor],
                     attn_mask: Optional[Tensor], num_heads: int) -> bool:
    if query.dim() == 3:
        is_batched = True
        assert key.dim() == 3 and value.dim() == 3, ("For batched (3-D) `query`, expected `key` and `value` to be "
                                                     "3-D but found {}-D and {}-D tensors respectively".format(
                                                         key.dim(), value.dim()))
        if key_padding_mask is not None:
            assert key_padding_mask.dim() == 2, ("For batched (3-D) `query`, expected `key_padding_mask` to be "
                                                 "`None` or 2-D but found {}-D tensor instead".format(
                                                     key_padding_mask.dim()))
        if attn_mask is not None:
            assert attn_mask.dim() == 2 or attn_mask.dim() == 3, (
                "For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D but found {}-D tensor "
                "instead".format(attn_mask.dim()))
    elif query.dim() == 2:
        is_batched = False
        assert key.dim() == 2 and value.dim() == 2, ("For unbatched (2-D) `query`, expected `key` and `value` to be "
                                                     "2-D but found {}-D and {}-D tensors respectively".format(
                                                         key.dim(), value.dim()))
        if key_padding_mask is not None:
            assert key_padding_mask.dim() == 1, ("For unbatched (2-D) `query`, expected `key_padding_mask` to be "
                                                 "`None` or 1-D but found {}-D tensor instead".format(
                                                     key_padding_mask.dim()))
        if attn_mask is not None:
            assert attn_mask.dim() == 2 or attn_mask.dim() == 3, (
                "For unbatched (2-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D but found {}-D tensor "
                "instead".format(attn_mask.dim()))
            if attn_mask.dim() == 3:
                expected_shape = [num_heads, query.shape[0], key.shape[0]]
                assert attn_mask.shape == expected_shape, (
                    "Expected `attn_mask` shape to be {} but got {}".format(expected_shape, attn_mask.shape))
    else:
        raise AssertionError("query should be unbatched 2D or batched 3D tensor but received {}-D query "
                             "tensor".format(query.dim()))
    return is_batched


def multi_head_attention_forward(query: Tensor, key: Tensor, value: Tensor, embed_dim_to_check: int, num_heads: int,
                                 in_proj_weight: Optional[Tensor], in_proj_bias: Optional[Tensor],
                                 bias_k: Optional[Tensor], bias_v: Optional[Tensor], add_zero_attn: bool,
                                 dropout_p: float, out_proj_weight: Tensor, out_proj_bias: Optional[Tensor],
                                 training: bool = True, key_padding_mask: Optional[Tensor] = None,
                                 need_weights: bool = True, attn_mask: Optional[Tensor] = None,
                                 use_separate_proj_weight: bool = False, q_proj_weight: Optional[Tensor] = None,
                                 k_proj_weight: Optional[Tensor] = None, v_proj_weight: Optional[Tensor] = None,
                                 static_k: Optional[Tensor] = None, static_v: Optional[Tensor] = None,
                                 average_attn_weights: bool = True) -> Tuple[Tensor, Optional[Tensor]]:
    is_batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not is_batched:
        # an unbatched call runs as a batch of one
        query = query.unsqueeze(1)
        key = key.unsqueeze(1)
        value = value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len, _, _ = key.shape
    if key_padding_mask is not None:
        _kpm_dtype = key_padding_mask.dtype
        if _kpm_dtype != torch.bool and not torch.is_floating_point(key_padding_mask):
            raise AssertionError("only bool and floating types of key_padding_mask are supported")
    assert embed_dim == embed_dim_to_check, "was expecting embedding dimension of {}, but got {}".format(
        embed_dim_to_check, embed_dim)
    head_dim = embed_dim // num_heads
    assert head_dim * num_heads == embed_dim, "embed_dim {} not divisible by num_heads {}".format(embed_dim, num_heads)
    if use_separate_proj_weight:
        assert key.shape[:2] == value.shape[:2], "key's sequence and batch dims {} do not match value's {}".format(
            key.shape[:2], value.shape[:2])
    else:
        assert key.shape == value.shape, "key shape {} does not match value shape {}".format(key.shape, value.shape)
    if not use_separate_proj_weight:
        assert in_proj_weight is not None, "use_separate_proj_weight is False but in_proj_weight is None"
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    else:
        assert q_proj_weight is not None, "use_separate_proj_weight is True but q_proj_weight is None"
        assert k_proj_weight is not None, "use_separate_proj_weight is True but k_proj_weight is None"
        assert v_proj_weight is not None, "use_separate_proj_weight is True but v_proj_weight is None"
        if in_proj_bias is None:
            b_q: Optional[Tensor] = None
            b_k: Optional[Tensor] = None
            b_v: Optional[Tensor] = None
        else:
            b_q, b_k, b_v = in_proj_bias.chunk(3)
        q, k, v = _in_projection(query, key, value, q_proj_weight, k_proj_weight, v_proj_weight, b_q, b_k, b_v)
    if attn_mask is not None:
        if attn_mask.dtype == torch.uint8:
            attn_mask = attn_mask.to(torch.bool)
        else:
            assert attn_mask.is_floating_point() or attn_mask.dtype == torch.bool, (
                "Only float, byte, and bool types are supported for attn_mask, not {}".format(attn_mask.dtype))
        if attn_mask.dim() == 2:
            correct_2d_size = [tgt_len, src_len]
            if attn_mask.shape != correct_2d_size:
                raise RuntimeError("The shape of the 2D attn_mask is {}, but should be {}.".format(
                    attn_mask.shape, (tgt_len, src_len)))
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() == 3:
            correct_3d_size = [bsz * num_heads, tgt_len, src_len]
            if attn_mask.shape != correct_3d_size:
                raise RuntimeError("The shape of the 3D attn_mask is {}, but should be {}.".format(
                    attn_mask.shape, (bsz * num_heads, tgt_len, src_len)))
        else:
            raise RuntimeError("attn_mask's dimension {} is not supported".format(attn_mask.dim()))
    if bias_k is not None and bias_v is not None:
        assert static_k is None, "bias cannot be added to static key."
        assert static_v is None, "bias cannot be added to static value."
        k = torch.cat([k, bias_k.repeat(1, bsz, 1)])
        v = torch.cat([v, bias_v.repeat(1, bsz, 1)])
        if attn_mask is not None:
            attn_mask = torch.constant_pad_nd(attn_mask, [0, 1])
        if key_padding_mask is not None:
            key_padding_mask = torch.constant_pad_nd(key_padding_mask, [0, 1])
    else:
        assert bias_k is None
        assert bias_v is None
    # heads become part of the batch: (bsz * num_heads, len, head_dim)
    q = q.contiguous().view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    if static_k is None:
        k = k.contiguous().view(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    else:
        assert static_k.size(0) == bsz * num_heads, "expecting static_k.size(0) of {}, but got {}".format(
            bsz * num_heads, static_k.size(0))
        assert static_k.size(2) == head_dim, "expecting static_k.size(2) of {}, but got {}".format(
            head_dim, static_k.size(2))
        k = static_k
    if static_v is None:
        v = v.contiguous().view(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    else:
        assert static_v.size(0) == bsz * num_heads, "expecting static_v.size(0) of {}, but got {}".format(
            bsz * num_heads, static_v.size(0))
        assert static_v.size(2) == head_dim, "expecting static_v.size(2) of {}, but got {}".format(
            head_dim, static_v.size(2))
        v = static_v
    if add_zero_attn:
        zero_attn_shape = [bsz * num_heads, 1, head_dim]
        k = torch.cat([k, torch.zeros(zero_attn_shape, dtype=k.dtype, device=k.device)], dim=1)
        v = torch.cat([v, torch.zeros(zero_attn_shape, dtype=v.dtype, device=v.device)], dim=1)
        if attn_mask is not None:
            attn_mask = torch.constant_pad_nd(attn_mask, [0, 1])
        if key_padding_mask is not None:
            key_padding_mask = torch.constant_pad_nd(key_padding_mask, [0, 1])
    src_len = k.size(1)
    if key_padding_mask is not None:
        assert key_padding_mask.shape == [bsz, src_len], "expecting key_padding_mask shape of {}, but got {}".format(
            (bsz, src_len), key_padding_mask.shape)
        key_padding_mask = key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, num_heads, -1, -1).reshape(
            bsz * num_heads, 1, src_len)
        if attn_mask is None:
            attn_mask = key_padding_mask
        elif attn_mask.dtype == torch.bool:
            attn_mask = attn_mask.logical_or(key_padding_mask)
        else:
            attn_mask = attn_mask.masked_fill(key_padding_mask, float("-inf"))
    if attn_mask is not None and attn_mask.dtype == torch.bool:
        new_attn_mask = torch.zeros_like(attn_mask, dtype=q.dtype)
        new_attn_mask.masked_fill_(attn_mask, float("-inf"))
        attn_mask = new_attn_mask
    if not training:
        dropout_p = 0.0
    B, Nt, E = q.shape
    q_scaled = q / math.sqrt(E)
    if attn_mask is not None:
        attn_output_weights = torch.baddbmm(attn_mask, q_scaled, k.transpose(-2, -1))
    else:
        attn_output_weights = torch.bmm(q_scaled, k.transpose(-2, -1))
    attn_output_weights = softmax(attn_output_weights, dim=-1)
    if dropout_p > 0.0:
        attn_output_weights = dropout(attn_output_weights, p=dropout_p)
    attn_output = torch.bmm(attn_output_weights, v)
    attn_output = attn_output.transpose(0, 1).contiguous().view(tgt_len * bsz, embed_dim)
    attn_output = torch.linear(attn_output, out_proj_weight, out_proj_bias)
    attn_output = attn_output.view(tgt_len, bsz, attn_output.size(1))
    if need_weights:
        attn_output_weights = attn_output_weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            attn_output_weights = attn_output_weights.sum(dim=1) / num_heads
        if not is_batched:
            attn_output = attn_output.squeeze(1)
            attn_output_weights = attn_output_weights.squeeze(0)
        return attn_output, attn_output_weights
    else:
        if not is_batched:
            attn_output = attn_output.squeeze(1)
        return attn_output, None


def _get_enum(reduction: str) -> int:
    # torch.nn._reduction.get_enum: the reduction argument of the aten loss operators
    if reduction == "none":
        ret = 0
    elif reduction == "mean":
        ret = 1
    elif reduction == "elementwise_mean":
        ret = 1
    elif reduction == "sum":
        ret = 2
    else:
        ret = -1
        raise ValueError("{} is not a valid value for reduction".format(reduction))
    return ret


def l1_loss(input: Tensor, target: Tensor, size_average: Optional[bool] = None, reduce: Optional[bool] = None,
            reduction: str = "mean") -> Tensor:
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    expanded_input, expanded_target = torch.broadcast_tensors(input, target)
    return torch.l1_loss(expanded_input, expanded_target, _get_enum(reduction))


def mse_loss(input: Tensor, target: Tensor, size_average: Optional[bool] = None, reduce: Optional[bool] = None,
             reduction: str = "mean") -> Tensor:
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    expanded_input, expanded_target = torch.broadcast_tensors(input, target)
    return torch.mse_loss(expanded_input, expanded_target, _get_enum(reduction))


def smooth_l1_loss(input: Tensor, target: Tensor, size_average: Optional[bool] = None,
                   reduce: Optional[bool] = None, reduction: str = "mean", beta: float = 1.0) -> Tensor:
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    expanded_input, expanded_target = torch.broadcast_tensors(input, target)
    return torch.smooth_l1_loss(expanded_input, expanded_target, _get_enum(reduction), beta)


def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0) -> Tensor:
    expanded_input, expanded_target = torch.broadcast_tensors(input, target)
    return torch.huber_loss(expanded_input, expanded_target, _get_enum(reduction), delta)


def nll_loss(input: Tensor, target: Tensor, weight: Optional[Tensor] = None, size_average: Optional[bool] = None,
             ignore_index: int = -100, reduce: Optional[bool] = None, reduction: str = "mean") -> Tensor:
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    return torch.nll_loss_nd(input, target, weight, _get_enum(reduction), ignore_index)


def cross_entropy(input: Tensor, target: Tensor, weight: Optional[Tensor] = None,
                  size_average: Optional[bool] = None, ignore_index: int = -100, reduce: Optional[bool] = None,
                  reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    return torch.cross_entropy_loss(input, target, weight, _get_enum(reduction), ignore_index, label_smoothing)


def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths: Tensor, target_lengths: Tensor, blank: int = 0,
             reduction: str = "mean", zero_infinity: bool = False) -> Tensor:
    return torch.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, _get_enum(reduction),
                          zero_infinity)


def multi_margin_loss(input: Tensor, target: Tensor, p: int = 1, margin: float = 1.0, weight: Optional[Tensor] = None,
                      size_average: Optional[bool] = None, reduce: Optional[bool] = None,
                      reduction: str = "mean") -> Tensor:
    if size_average is not None or reduce is not None:
        reduction_enum = _get_enum(_legacy_reduction(size_average, reduce))
    else:
        reduction_enum = _get_enum(reduction)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None:
        if weight.dim() != 1:
            raise ValueError("weight must be one-dimensional")
    return torch.multi_margin_loss(input, target, p, margin, weight, reduction_enum)


def multilabel_margin_loss(input: Tensor, target: Tensor, size_average: Optional[bool] = None,
                           reduce: Optional[bool] = None, reduction: str = "mean") -> Tensor:
    if size_average is not None or reduce is not None:
        reduction_enum = _get_enum(_legacy_reduction(size_average, reduce))
    else:
        reduction_enum = _get_enum(reduction)
    return torch.multilabel_margin_loss(input, target, reduction_enum)


def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0, p: float = 2,
                        eps: float = 1e-6, swap: bool = False, size_average: Optional[bool] = None,
                        reduce: Optional[bool] = None, reduction: str = "mean") -> Tensor:
    if size_average is not None or reduce is not None:
        reduction_enum = _get_enum(_legacy_reduction(size_average, reduce))
    else:
        reduction_enum = _get_enum(reduction)
    return torch.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, reduction_enum)


def _unpool_output_size(input: Tensor, kernel_size: List[int], stride: List[int], padding: List[int],
                        output_size: Optional[List[int]]) -> List[int]:
    # the default output size of max_unpool, or the requested one checked against it (within one stride)
    input_size = input.size()
    default_size = torch.jit.annotate(List[int], [])
    for d in range(len(kernel_size)):
        default_size.append((input_size[-len(kernel_size) + d] - 1) * stride[d] + kernel_size[d] - 2 * padding[d])
    if output_size is None:
        ret = default_size
    else:
        if len(output_size) == len(kernel_size) + 2:
            output_size = output_size[2:]
        if len(output_size) != len(kernel_size):
            raise ValueError("output_size should be a sequence containing {} or {} elements, but it has a length of "
                             "'{}'".format(len(kernel_size), len(kernel_size) + 2, len(output_size)))
        for d in range(len(kernel_size)):
            min_size = default_size[d] - stride[d]
            max_size = default_size[d] + stride[d]
            if not (min_size < output_size[d] and output_size[d] < max_size):
                raise ValueError('invalid output_size "{}" (dim {} must be between {} and {})'.format(
                    output_size, d, min_size, max_size))
        ret = output_size
    return ret


def max_unpool1d(input: Tensor, indices: Tensor, kernel_size: BroadcastingList1[int],
                 stride: Optional[BroadcastingList1[int]] = None, padding: BroadcastingList1[int] = 0,
                 output_size: Optional[BroadcastingList1[int]] = None) -> Tensor:
    if stride is not None:
        _stride = stride
    else:
        _stride = kernel_size
    output_size = _unpool_output_size(input, kernel_size, _stride, padding, output_size)
    output_size = output_size + [1]
    return torch.max_unpool2d(input.unsqueeze(-1), indices.unsqueeze(-1), output_size).squeeze(-1)


def max_unpool2d(input: Tensor, indices: Tensor, kernel_size: BroadcastingList2[int],
                 stride: Optional[BroadcastingList2[int]] = None, padding: BroadcastingList2[int] = 0,
                 output_size: Optional[BroadcastingList2[int]] = None) -> Tensor:
    if stride is not None:
        _stride = stride
    else:
        _stride = kernel_size
    output_size = _unpool_output_size(input, kernel_size, _stride, padding, output_size)
    return torch.max_unpool2d(input, indices, output_size)


def max_unpool3d(input: Tensor, indices: Tensor, kernel_size: BroadcastingList3[int],
                 stride: Optional[BroadcastingList3[int]] = None, padding: BroadcastingList3[int] = 0,
                 output_size: Optional[BroadcastingList3[int]] = None) -> Tensor:
    if stride is not None:
        _stride = stride
    else:
        _stride = kernel_size
    output_size = _unpool_output_size(input, kernel_size, _stride, padding, output_size)
    return torch.max_unpool3d(input, indices, output_size, _stride, padding)


def soft_margin_loss(input: Tensor, target: Tensor, size_average: Optional[bool] = None,
                     reduce: Optional[bool] = None, reduction: str = "mean") -> Tensor:
    if size_average is not None or reduce is not None:
        reduction_enum = _get_enum(_legacy_reduction(size_average, reduce))
    else:
        reduction_enum = _get_enum(reduction)
    return torch.soft_margin_loss(input, target, reduction_enum)


def kl_div(input: Tensor, target: Tensor, size_average: Optional[bool] = None, reduce: Optional[bool] = None,
           reduction: str = "mean", log_target: bool = False) -> Tensor:
    if size_average is not None or reduce is not None:
        reduction_enum = _get_enum(_legacy_reduction(size_average, reduce))
    else:
        if reduction == "batchmean":
            reduction_enum = _get_enum("sum")
        else:
            reduction_enum = _get_enum(reduction)
    reduced = torch.kl_div(input, target, reduction_enum, log_target=log_target)
    if reduction == "batchmean" and input.dim() != 0:
        reduced = reduced / input.size()[0]
    return reduced


def binary_cross_entropy(input: Tensor, target: Tensor, weight: Optional[Tensor] = None,
                         size_average: Optional[bool] = None, reduce: Optional[bool] = None,
                         reduction: str = "mean") -> Tensor:
    if size_average is not None or reduce is not None:
        reduction_enum = _get_enum(_legacy_reduction(size_average, reduce))
    else:
        reduction_enum = _get_enum(reduction)
    if target.size() != input.size():
        raise ValueError("Using a target size ({}) that is different to the input size ({}) is deprecated. Please "
                         "ensure they have the same size.".format(target.size(), input.size()))
    if weight is not None:
        new_size = torch._infer_size(target.size(), weight.size())
        weight = weight.expand(new_size)
    return torch.binary_cross_entropy(input, target, weight, reduction_enum)


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Optional[Tensor] = None,
                                     size_average: Optional[bool] = None, reduce: Optional[bool] = None,
                                     reduction: str = "mean", pos_weight: Optional[Tensor] = None) -> Tensor:
    if size_average is not None or reduce is not None:
        reduction_enum = _get_enum(_legacy_reduction(size_average, reduce))
    else:
        reduction_enum = _get_enum(reduction)
    if not (target.size() == input.size()):
        raise ValueError("Target size ({}) must be the same as input size ({})".format(target.size(), input.size()))
    return torch.binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction_enum)


def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                        size_average: Optional[bool] = None, reduce: Optional[bool] = None,
                        reduction: str = "mean") -> Tensor:
    if size_average is not None or reduce is not None:
        reduction_enum = _get_enum(_legacy_reduction(size_average, reduce))
    else:
        reduction_enum = _get_enum(reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError("margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                           "input1: {}, input2: {}, target: {} ".format(input1.size(), input2.size(), target.size()))
    return torch.margin_ranking_loss(input1, input2, target, margin, reduction_enum)


def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0, size_average: Optional[bool] = None,
                         reduce: Optional[bool] = None, reduction: str = "mean") -> Tensor:
    if size_average is not None or reduce is not None:
        reduction_enum = _get_enum(_legacy_reduction(size_average, reduce))
    else:
        reduction_enum = _get_enum(reduction)
    return torch.hinge_embedding_loss(input, target, margin, reduction_enum)


def multilabel_soft_margin_loss(input: Tensor, target: Tensor, weight: Optional[Tensor] = None,
                                size_average: Optional[bool] = None, reduce: Optional[bool] = None,
                                reduction: str = "mean") -> Tensor:
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    loss = -(target * torch.log_sigmoid(input) + (1 - target) * torch.log_sigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    C = input.size(class_dim)
    loss = loss.sum(dim=class_dim) / C
    if reduction == "none":
        ret = loss
    elif reduction == "mean":
        ret = loss.mean()
    elif reduction == "sum":
        ret = loss.sum()
    else:
        ret = input
        raise ValueError(reduction + " is not valid")
    return ret


def gaussian_nll_loss(input: Tensor, target: Tensor, var: Tensor, full: bool = False, eps: float = 1e-6,
                      reduction: str = "mean") -> Tensor:
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = torch.unsqueeze(var, -1)
        elif input.size()[:-1] == var.size()[:-1] and var.size(-1) == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction != "none" and reduction != "mean" and reduction != "sum":
        raise ValueError(reduction + " is not valid")
    if torch.any(var < 0):
        raise ValueError("var has negative entry/entries")
    var = var.clone()
    var.clamp_(min=eps)
    loss = 0.5 * (torch.log(var) + (input - target) ** 2 / var)
    if full:
        loss += 0.5 * math.log(2 * math.pi)
    if reduction == "mean":
        return loss.mean()
    elif reduction == "sum":
        return loss.sum()
    else:
        return loss


def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool = True, full: bool = False,
                     size_average: Optional[bool] = None, eps: float = 1e-8, reduce: Optional[bool] = None,
                     reduction: str = "mean") -> Tensor:
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if reduction != "none" and reduction != "mean" and reduction != "sum":
        raise ValueError(reduction + " is not valid")
    return torch.poisson_nll_loss(input, target, log_input, full, eps, _get_enum(reduction))


def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                          size_average: Optional[bool] = None, reduce: Optional[bool] = None,
                          reduction: str = "mean") -> Tensor:
    if size_average is not None or reduce is not None:
        reduction_enum = _get_enum(_legacy_reduction(size_average, reduce))
    else:
        reduction_enum = _get_enum(reduction)
    return torch.cosine_embedding_loss(input1, input2, target, margin, reduction_enum)
