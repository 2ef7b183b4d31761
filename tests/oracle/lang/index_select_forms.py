# torch.index_select over every dim of contiguous and strided inputs, int32 and int64 indices, repeated
# indices, 0-dim inputs and empty slices; negative or too large indices raise (PyTorch does not wrap them).
import torch
from typing import List


# case: (torch.arange(24.).reshape(2, 3, 4), torch.tensor([2, 0, 0, 1]))
# case: (torch.arange(24).reshape(2, 3, 4).transpose(0, 2), torch.tensor([1, 0], dtype=torch.int32))
# case: (torch.randn(5, 0, 3), torch.tensor([1, 1]))
def every_dim(x: torch.Tensor, i: torch.Tensor) -> List[torch.Tensor]:
    out: List[torch.Tensor] = []
    for d in range(x.dim()):
        j = i.clamp(max=x.size(d) - 1) if x.size(d) > 0 else i[:0]
        out.append(torch.index_select(x, d, j))
        out.append(x.index_select(-1 - d, j.clamp(max=x.size(-1 - d) - 1)) if x.size(-1 - d) > 0 else x)
    return out


# case: (torch.tensor(3.5), torch.tensor([0]))
# case: (torch.arange(10.), torch.tensor(3))
def small(x: torch.Tensor, i: torch.Tensor) -> torch.Tensor:
    return torch.index_select(x, 0, i)


# case-raises: (torch.arange(6.).reshape(3, 2), 1, torch.tensor([2]))
# case-raises: (torch.arange(6).reshape(3, 2), 1, torch.tensor([-1]))
# case-raises: (torch.arange(24.).reshape(2, 3, 4), 2, torch.tensor([4]))
# case-raises: (torch.arange(24.).reshape(2, 3, 4), 0, torch.tensor([-1]))
# case-raises: (torch.arange(6.).reshape(3, 2), 0, torch.tensor([[0]]))
# case: (torch.arange(6.).reshape(3, 2), 0, torch.tensor([2, 2, 0]))
def bounds(x: torch.Tensor, d: int, i: torch.Tensor) -> torch.Tensor:
    return torch.index_select(x, d, i)
