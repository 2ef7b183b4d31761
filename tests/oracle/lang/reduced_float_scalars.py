# Half and bfloat16 tensors with Python scalars and 0-dim tensors of other dtypes: the other operand is
# rounded to the tensor's dtype before the float computation (half * 1e5 is inf, half == 0.1 compares
# with 0.1 rounded to half), as PyTorch 1.13 casts every input to the common dtype.
import torch
from typing import List


# case: (torch.tensor([0.1, 1.0, 1000.0, -3.5], dtype=torch.float16),)
# case: (torch.tensor([0.1, 1.0, 1000.0, -3.5], dtype=torch.bfloat16),)
def arithmetic(h: torch.Tensor) -> List[torch.Tensor]:
    return [h * 1e5, h - 65520.0, h * 0.0001, h.div(1e-5), h + 1e5, h / 1e-8, h * 70000, h + 0.1,
            h * 3.14159, h.mul(2.5).add(0.3333), torch.add(h, 0.1, alpha=3)]


# case: (torch.tensor([0.1, 0.2, 0.30004, 1.0], dtype=torch.float16),)
# case: (torch.tensor([0.1, 0.2, 0.30004, 1.0], dtype=torch.bfloat16),)
def comparisons(h: torch.Tensor) -> List[torch.Tensor]:
    return [h == 0.1, h < 0.2, h >= 0.30004, h != 1.0, torch.eq(h, 0.2), h.gt(0.1)]


# case: (torch.tensor([0.1, 1.0, 1000.0], dtype=torch.float16), torch.tensor(1e-4, dtype=torch.float64))
# case: (torch.tensor([0.1, 1.0, 1000.0], dtype=torch.bfloat16), torch.tensor(3.3))
def zero_dim_tensor(h: torch.Tensor, t: torch.Tensor) -> List[torch.Tensor]:
    return [h * t, h + t, t - h, torch.where(h > 0.5, h, t)]


# case: (torch.tensor([0.1, 1.0, 1000.0], dtype=torch.float16),)
def in_place(h: torch.Tensor) -> torch.Tensor:
    h.mul_(1e-4)
    h.add_(0.1)
    return h
