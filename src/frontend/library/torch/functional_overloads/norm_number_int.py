# torch.norm overload: norm(input, p: Optional[number], dim: Optional[int], ...), compiled as
# "__torch__.torch.functional.___torch_mangle_2.norm". TorchScript, embedded at build time.

import torch
from torch import Tensor
from typing import List, Optional


def norm(input: Tensor, p: Optional[number] = 2.0, dim: Optional[int] = None, keepdim: bool = False,
         out: Optional[Tensor] = None, dtype: Optional[int] = None) -> Tensor:
    ndim = input.dim()
    if dim is None and out is None and dtype is None and p is not None:
        _all = [i for i in range(ndim)]
        return torch._VF.norm(input, p, dim=_all, keepdim=keepdim)
    if dim is not None:
        _dim = [dim]
    else:
        _dim = list(range(ndim))
    if out is None:
        if dtype is None:
            return torch._VF.norm(input, p, _dim, keepdim=keepdim)
        else:
            return torch._VF.norm(input, p, _dim, keepdim=keepdim, dtype=dtype)
    else:
        if dtype is None:
            return torch._VF.norm(input, p, _dim, keepdim=keepdim, out=out)
        else:
            return torch._VF.norm(input, p, _dim, keepdim=keepdim, dtype=dtype, out=out)
