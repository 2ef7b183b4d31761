# F.softmax / log_softmax / softmin: explicit and implicit dims, the dtype argument, and
# F.normalize (p-norms along a dim, eps clamping).
import torch
import torch.nn.functional as F
from typing import List, Tuple


# case: (torch.randn(3, 5),)
def softmax_dims(x: torch.Tensor) -> List[torch.Tensor]:
    return [F.softmax(x, dim=1), F.softmax(x, 0), F.log_softmax(x, dim=-1), F.softmin(x, dim=1)]


# case: (torch.randn(2, 3, 4),)
# case: (torch.randn(4),)
# case: (torch.randn(2, 3),)
def softmax_implicit_dim(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    return F.softmax(x), F.log_softmax(x)


# case: (torch.randn(3, 4),)
def softmax_dtype(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    return F.softmax(x, dim=1, dtype=torch.float64), F.log_softmax(x, 1, dtype=torch.float64)


# case: (torch.randn(4, 3),)
# case: (torch.zeros(2, 2),)
def normalize_variants(x: torch.Tensor) -> List[torch.Tensor]:
    return [F.normalize(x), F.normalize(x, dim=0), F.normalize(x, p=1.0, dim=1), F.normalize(x, 3.0, -1, 1e-3)]
