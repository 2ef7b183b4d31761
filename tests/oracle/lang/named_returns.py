# Operators whose schema names every return ("-> (Tensor values, Tensor indices)") give an anonymous
# NamedTuple: fields by name (.values, .indices, .eigenvalues ...), by index, unpacked, or returned whole.
import torch
from typing import List, Tuple


# case: (torch.tensor([[3.0, 1.0, 2.0], [0.5, 0.5, -1.0]]),)
def fields(x: torch.Tensor) -> List[torch.Tensor]:
    r = x.min(dim=1)
    s = torch.sort(x, descending=True)
    return [r.values, r.indices, torch.max(x, 1).indices, s.values, s[1], torch.topk(x, 2).values,
            x.kthvalue(2, 1).indices, torch.median(x, 0).values, x.mode(1).indices, x.cummax(1).values]


# case: (torch.tensor([[3.0, 1.0, 2.0], [0.5, 0.5, -1.0]]),)
def whole(x: torch.Tensor) -> Tuple[Tuple[torch.Tensor, torch.Tensor], torch.Tensor]:
    r = x.max(0)
    v, i = r
    return r, v + i


# case: (torch.tensor([[3.0, 1.0, 2.0], [0.5, 0.5, -1.0]]), True)
# case: (torch.tensor([[3.0, 1.0, 2.0], [0.5, 0.5, -1.0]]), False)
def in_branches(x: torch.Tensor, b: bool) -> torch.Tensor:
    if b:
        r = x.min(1)
    else:
        r = x.max(1)
    return r.values * 10 + r.indices
