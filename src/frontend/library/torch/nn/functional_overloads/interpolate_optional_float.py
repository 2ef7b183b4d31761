# torch.nn.functional.interpolate overload: scale_factor: Optional[float] (PyTorch declares interpolate with
# @_overload signatures taking Optional[int] / Optional[List[int]] sizes and Optional[float] /
# Optional[List[float]] scale factors; the BroadcastingList definition of torch/nn/functional.py covers all but
# an Optional[float] scale factor, e.g. torchvision's GeneralizedRCNNTransform). Compiled as
# "__torch__.torch.nn.functional.___torch_mangle_1.interpolate"; calls try torch/nn/functional.py's first.
# TorchScript, embedded at build time.

import torch
from torch import Tensor
from typing import List, Optional


def interpolate(input: Tensor, size: Optional[BroadcastingList1[int]] = None, scale_factor: Optional[float] = None,
                mode: str = "nearest", align_corners: Optional[bool] = None,
                recompute_scale_factor: Optional[bool] = None, antialias: bool = False) -> Tensor:
    scale_factors: Optional[List[float]] = None
    if scale_factor is not None:
        scale_factors = [scale_factor]
    return torch.nn.functional.interpolate(input, size, scale_factors, mode, align_corners, recompute_scale_factor,
                                           antialias)
