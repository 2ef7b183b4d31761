# torch.linalg.norm / matrix_norm (aten::linalg_norm, linalg_norm.ord_str, linalg_matrix_norm): ATen's dispatch
# between the vector norm (ord None, or one dim) and the matrix norms fro, nuc, 1, -1, inf, -inf, 2, -2 over two
# dims.
import torch
from typing import List


# case: (torch.arange(24.0).reshape(2, 3, 4) - 10,)
# case: (torch.randn(3, 5, dtype=torch.float64),)
def norms(x: torch.Tensor) -> List[torch.Tensor]:
    return [torch.linalg.norm(x), torch.linalg.norm(x, dim=-1), torch.linalg.norm(x, 3.0, dim=0, keepdim=True),
            torch.linalg.norm(x, float("inf"), dim=(0, 1)), torch.linalg.norm(x, 1, dim=(-1, -2), keepdim=True),
            torch.linalg.norm(x, -1, dim=(0, -1)), torch.linalg.norm(x, "fro", dim=(0, 1)),
            torch.linalg.norm(x, "nuc", dim=(0, 1)), torch.linalg.matrix_norm(x, -float("inf")),
            torch.linalg.matrix_norm(x), torch.linalg.matrix_norm(x, "nuc", keepdim=True),
            torch.linalg.norm(x[0], 1), torch.linalg.norm(x.flatten(), 0.5), torch.linalg.matrix_norm(x, 2),
            torch.linalg.norm(x, -2, dim=(0, 1))]


# case-raises: (torch.ones(2, 3, 4),)
def norm_ord_needs_1d_or_2d(x: torch.Tensor) -> torch.Tensor:
    return torch.linalg.norm(x, 2.0)


# case-raises: (torch.ones(3, 3),)
def matrix_norm_bad_order(x: torch.Tensor) -> torch.Tensor:
    return torch.linalg.matrix_norm(x, 3.0)
