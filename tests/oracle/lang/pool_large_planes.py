# Max pooling of plain NCHW inputs with large planes (224x224 and more): oneDNN falls back to its reference
# kernel there and Kindling runs its own loop instead; these check that loop (borders, ceil_mode, dilation,
# NaN propagation) against PyTorch.
import torch
import torch.nn.functional as F
from typing import Tuple


def with_nans(x: torch.Tensor) -> torch.Tensor:
    x[0, 1, 5, 7] = float("nan")
    x[-1, -1, 100, 0] = float("nan")
    return x


# case: (torch.randn(2, 3, 230, 227),)
# case: (torch.randn(1, 2, 224, 224),)
def pools(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    x = with_nans(x)
    return (F.max_pool2d(x, 3, 2, 1), F.max_pool2d(x, (2, 3), (1, 2), (1, 0), (2, 1), True),
            F.max_pool2d(x, 5, 3, 2, ceil_mode=True))


# case: (torch.randn(3, 225, 300, dtype=torch.float64),)
def pool_3d_input(x: torch.Tensor) -> torch.Tensor:
    return F.max_pool2d(x, 2)
