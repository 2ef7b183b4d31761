# Tensor idioms torch.jit desugars: x.type(dtype) is x.to(dtype), torch.Size([...]) is aten::Size (a list of
# ints), x.requires_grad_() sets the flag, builtin abs() of a tensor is torch.abs, list(t) are its rows, tuple +
# tuple is a tuple, torch.is_grad_enabled() is asked at run time.
import torch
from typing import List, Tuple


# case: (torch.tensor([[1.5, -2.0, 3.0], [0.0, -1.0, 4.5]]),)
def desugared(x: torch.Tensor) -> Tuple[torch.Tensor, bool, List[int], torch.Tensor, torch.Tensor]:
    return (x.type(torch.int32), x.shape[1:] == torch.Size([3]), torch.Size([2, 5]), abs(x[0]),
            x.clone().requires_grad_(False) + 1)


# case: (torch.arange(6).reshape(3, 2),)
def rows_and_tuples(x: torch.Tensor) -> Tuple[List[torch.Tensor], Tuple[int, int, int, int]]:
    rows = list(x)
    t = (1, 2) + (len(rows),)
    return rows, t + (x.dim(),)


# case: (torch.ones(2),)
def grad_mode(x: torch.Tensor) -> Tuple[bool, bool, torch.Tensor]:
    with torch.no_grad():
        inside = torch.is_grad_enabled()
    y = x + 1 if torch.is_grad_enabled() else x - 1
    return inside, torch.is_grad_enabled(), y
