# Parameter defaults of every type PyTorch accepts: Tensors (computed by torch factory calls when the
# function is defined), dtypes, devices, expressions of constants, Optional and containers.
import torch
from typing import List, Optional, Tuple


def with_tensor(x: torch.Tensor, bias: torch.Tensor = torch.ones(3), scale: torch.Tensor = torch.tensor(2.0)) -> torch.Tensor:
    return x * scale + bias


def with_misc(n: int, k: int = 2 * 3, dt: torch.dtype = torch.float64,
              t: Tuple[int, str] = (1, "a"), o: Optional[float] = None) -> Tuple[int, int, torch.Tensor, List[int], str, float]:
    z = torch.zeros(2, dtype=dt)
    return n, k, z, [n], t[1], (o if o is not None else -1.0)


# case: (torch.arange(3.0),)
def tensor_default(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    return with_tensor(x), with_tensor(x, torch.zeros(3))


# case: (5,)
def misc_defaults(n: int) -> Tuple[int, int, torch.Tensor, List[int], str, float]:
    return with_misc(n)


# case: (torch.arange(3.0),)
def tensor_default_entry(x: torch.Tensor, y: torch.Tensor = torch.full([3], 4.0)) -> torch.Tensor:
    return x + y
