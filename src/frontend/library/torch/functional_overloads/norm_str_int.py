# torch.norm overload: norm(input, p: str, dim: Optional[int], ...), compiled as
# "__torch__.torch.functional.___torch_mangle_3.norm". TorchScript, embedded at build time.

import torch
from torch import Tensor
from typing import List, Optional


def norm(input: Tensor, p: str = "fro", dim: Optional[int] = None, keepdim: bool = False,
         out: Optional[Tensor] = None, dtype: Optional[int] = None) -> Tensor:
    ndim = input.dim()
    if dim is None and out is None and dtype is None and p == "fro":
        return torch._VF.frobenius_norm(input, dim=torch.jit.annotate(List[int], []), keepdim=keepdim)
    if dim is not None:
        _dim = [dim]
    else:
        _dim = list(range(ndim))
    if p == "fro":
        if dtype is not None:
            raise ValueError("dtype argument is not supported in frobenius norm")
        if out is None:
            return torch._VF.frobenius_norm(input, _dim, keepdim=keepdim)
        else:
            return torch._VF.frobenius_norm(input, _dim, keepdim=keepdim, out=out)
    elif p == "nuc":
        if dtype is not None:
            raise ValueError("dtype argument is not supported in nuclear norm")
        if dim is None:
            if out is None:
                return torch._VF.nuclear_norm(input, keepdim=keepdim)
            else:
                return torch._VF.nuclear_norm(input, keepdim=keepdim, out=out)
        else:
            if out is None:
                return torch._VF.nuclear_norm(input, _dim, keepdim=keepdim)
            else:
                return torch._VF.nuclear_norm(input, _dim, keepdim=keepdim, out=out)
    raise RuntimeError("only valid string values are 'fro' and 'nuc', found {}".format(p))
