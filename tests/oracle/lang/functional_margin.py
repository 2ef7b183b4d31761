# F.multi_margin_loss, F.multilabel_margin_loss, F.triplet_margin_loss and F.max_unpool1d/2d/3d, compiled
# from source as PyTorch 1.13 does (ending in their aten operators).
import torch
import torch.nn.functional as F
from typing import List


# case: (torch.randn(4, 5), torch.tensor([1, 0, 4, 2]), torch.rand(5) + 0.5)
# case: (torch.randn(3, 3, dtype=torch.float64), torch.tensor([2, 2, 0]), torch.rand(3, dtype=torch.float64))
def multi_margin(x: torch.Tensor, y: torch.Tensor, w: torch.Tensor) -> List[torch.Tensor]:
    return [F.multi_margin_loss(x, y), F.multi_margin_loss(x, y, p=2, margin=0.5, reduction="none"),
            F.multi_margin_loss(x, y, weight=w, reduction="sum"), F.multi_margin_loss(x[0], y[0]),
            F.multi_margin_loss(x[0], y[:1], reduction="none")]


# case: (torch.randn(3, 4), torch.tensor([[3, 0, -1, 1], [0, 1, 2, 3], [-1, 1, 2, 0]]))
def multilabel_margin(x: torch.Tensor, y: torch.Tensor) -> List[torch.Tensor]:
    return [F.multilabel_margin_loss(x, y), F.multilabel_margin_loss(x, y, reduction="none"),
            F.multilabel_margin_loss(x, y, reduction="sum"), F.multilabel_margin_loss(x[0], y[0], reduction="none")]


# case: (torch.randn(5, 4), torch.randn(5, 4), torch.randn(5, 4))
def triplet(a: torch.Tensor, p: torch.Tensor, n: torch.Tensor) -> List[torch.Tensor]:
    return [F.triplet_margin_loss(a, p, n), F.triplet_margin_loss(a, p, n, margin=0.3, p=1.0, swap=True),
            F.triplet_margin_loss(a, p, n, reduction="none"), F.triplet_margin_loss(a, p, n, eps=0.1, reduction="sum")]


# case: (torch.randn(2, 3, 6, 8),)
def unpool_2d(x: torch.Tensor) -> List[torch.Tensor]:
    y, idx = F.max_pool2d(x, 2, return_indices=True)
    z, idz = F.max_pool2d(x, 3, stride=2, padding=1, return_indices=True)
    return [F.max_unpool2d(y, idx, 2), F.max_unpool2d(y, idx, 2, output_size=[7, 9]),
            F.max_unpool2d(z, idz, 3, 2, 1, output_size=x.size())]


# case: (torch.randn(2, 3, 9),)
def unpool_1d(x: torch.Tensor) -> List[torch.Tensor]:
    y, idx = F.max_pool1d(x, 3, return_indices=True)
    return [F.max_unpool1d(y, idx, 3), F.max_unpool1d(y, idx, 3, output_size=[10])]


# case: (torch.randn(1, 2, 4, 4, 6),)
def unpool_3d(x: torch.Tensor) -> torch.Tensor:
    y, idx = F.max_pool3d(x, 2, return_indices=True)
    return F.max_unpool3d(y, idx, 2)


# case-raises: (torch.randn(1, 1, 2, 2), [9, 9])
def unpool_bad_size(x: torch.Tensor, size: List[int]) -> torch.Tensor:
    y, idx = F.max_pool2d(x, 2, return_indices=True)
    return F.max_unpool2d(y, idx, 2, output_size=size)


# case-raises: (torch.randn(2, 3), torch.tensor([0, 3]))
def multi_margin_bad_target(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return F.multi_margin_loss(x, y)
