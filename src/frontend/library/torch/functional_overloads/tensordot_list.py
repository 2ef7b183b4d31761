# torch.tensordot overload: dims: List[List[int]], compiled as
# "__torch__.torch.functional.___torch_mangle_5.tensordot". TorchScript, embedded at build time.

import torch
from torch import Tensor
from typing import List, Optional


def tensordot(a: Tensor, b: Tensor, dims: List[List[int]], out: Optional[Tensor] = None) -> Tensor:
    dims_a, dims_b = dims
    if out is None:
        return torch._VF.tensordot(a, b, dims_a, dims_b)
    else:
        return torch._VF.tensordot(a, b, dims_a, dims_b, out=out)
