# Pooling through torch.nn.functional: max pools with and without indices (PyTorch's boolean
# dispatch on return_indices), average and adaptive pools, lp pools; int and tuple arguments.
import torch
import torch.nn.functional as F
from typing import List, Tuple


# case: (torch.randn(1, 2, 8, 8),)
def max_pool2d_forms(x: torch.Tensor) -> List[torch.Tensor]:
    return [F.max_pool2d(x, 2), F.max_pool2d(x, (3, 2), stride=(2, 1)), F.max_pool2d(x, 3, 2, 1),
            F.max_pool2d(x, 2, ceil_mode=True)]


# case: (torch.randn(2, 3, 7, 7),)
def max_pool2d_indices(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    return F.max_pool2d(x, 3, 2, return_indices=True)


# case: (torch.randn(2, 3, 9),)
def max_pool1d_forms(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    out, idx = F.max_pool1d(x, 2, return_indices=True)
    return F.max_pool1d(x, 3, stride=2, padding=1), out, idx


# case: (torch.randn(1, 2, 6, 6),)
def avg_pools(x: torch.Tensor) -> List[torch.Tensor]:
    return [F.avg_pool2d(x, 2), F.avg_pool2d(x, 3, stride=1, padding=1, count_include_pad=False),
            F.avg_pool1d(x[0], 2), F.adaptive_avg_pool2d(x, 1), F.adaptive_avg_pool2d(x, (2, 3)),
            F.adaptive_avg_pool1d(x[0], 4)]


# case: (torch.randn(2, 3, 8, 8),)
def adaptive_max(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    v, i = F.adaptive_max_pool2d(x, (3, 2), return_indices=True)
    return F.adaptive_max_pool2d(x, 2), v, i


# case: (torch.rand(1, 2, 6, 6) + 0.1,)
def lp_pools(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    return F.lp_pool2d(x, 2.0, 2), F.lp_pool1d(x[0], 3.0, 3, stride=1)
