# torch.tensordot overload: dims: Tensor, compiled as
# "__torch__.torch.functional.___torch_mangle_6.tensordot". TorchScript, embedded at build time.

import torch
from torch import Tensor
from typing import List, Optional


def tensordot(a: Tensor, b: Tensor, dims: Tensor, out: Optional[Tensor] = None) -> Tensor:
    dims_a: List[int] = []
    dims_b: List[int] = []
    num_elements = dims.numel()
    if num_elements > 1:
        assert dims.size()[0] == 2
        dims_a = torch.jit.annotate(List[int], dims[0].tolist())
        dims_b = torch.jit.annotate(List[int], dims[1].tolist())
    else:
        dims_val = int(dims.item())
        if dims_val < 0:
            raise RuntimeError("tensordot expects dims >= 0, but got dims={}".format(dims))
        dims_a = list(range(-dims_val, 0))
        dims_b = list(range(dims_val))
    if out is None:
        return torch._VF.tensordot(a, b, dims_a, dims_b)
    else:
        return torch._VF.tensordot(a, b, dims_a, dims_b, out=out)
