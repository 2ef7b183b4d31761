# torch/functional.py functions TorchScript compiles from source (torch.jit._builtins'
# _functional_registered_ops: unique, unique_consecutive, norm, tensordot, cdist), as bodies of our own
# following 1.13's behaviour, compiled as "__torch__.torch.functional.<name>". Overloaded functions (norm,
# tensordot: torch.jit._overload) are compiled by PyTorch once per overload, the later ones in mangled
# namespaces; each later overload is its own file in functional/.
# Embedded into the frontend at build time (frontend/library_sources.h); this file is TorchScript.

import torch
from torch import Tensor
from typing import List, Optional, Tuple


def _unique_impl(input: Tensor, sorted: bool = True, return_inverse: bool = False, return_counts: bool = False,
                 dim: Optional[int] = None) -> Tuple[Tensor, Tensor, Tensor]:
    if dim is not None:
        output, inverse_indices, counts = torch._VF.unique_dim(input, dim, sorted=sorted, return_inverse=return_inverse,
                                                           return_counts=return_counts)
    else:
        output, inverse_indices, counts = torch._VF._unique2(input, sorted=sorted, return_inverse=return_inverse,
                                                         return_counts=return_counts)
    return output, inverse_indices, counts


def _return_counts(input: Tensor, sorted: bool = True, return_inverse: bool = False, return_counts: bool = False,
                   dim: Optional[int] = None) -> Tuple[Tensor, Tensor]:
    output, _, counts = _unique_impl(input, sorted, return_inverse, return_counts, dim)
    return output, counts


def _return_output(input: Tensor, sorted: bool = True, return_inverse: bool = False, return_counts: bool = False,
                   dim: Optional[int] = None) -> Tensor:
    output, _, _ = _unique_impl(input, sorted, return_inverse, return_counts, dim)
    return output


def _return_inverse(input: Tensor, sorted: bool = True, return_inverse: bool = False, return_counts: bool = False,
                    dim: Optional[int] = None) -> Tuple[Tensor, Tensor]:
    output, inverse_indices, _ = _unique_impl(input, sorted, return_inverse, return_counts, dim)
    return output, inverse_indices


def _unique_consecutive_impl(input: Tensor, return_inverse: bool = False, return_counts: bool = False,
                             dim: Optional[int] = None) -> Tuple[Tensor, Tensor, Tensor]:
    output, inverse_indices, counts = torch._VF.unique_consecutive(input, return_inverse=return_inverse,
                                                               return_counts=return_counts, dim=dim)
    return output, inverse_indices, counts


def _consecutive_return_counts(input: Tensor, return_inverse: bool = False, return_counts: bool = False,
                               dim: Optional[int] = None) -> Tuple[Tensor, Tensor]:
    output, _, counts = _unique_consecutive_impl(input, return_inverse, return_counts, dim)
    return output, counts


def _consecutive_return_output(input: Tensor, return_inverse: bool = False, return_counts: bool = False,
                               dim: Optional[int] = None) -> Tensor:
    output, _, _ = _unique_consecutive_impl(input, return_inverse, return_counts, dim)
    return output


def _consecutive_return_inverse(input: Tensor, return_inverse: bool = False, return_counts: bool = False,
                                dim: Optional[int] = None) -> Tuple[Tensor, Tensor]:
    output, inverse_indices, _ = _unique_consecutive_impl(input, return_inverse, return_counts, dim)
    return output, inverse_indices


def cdist(x1: Tensor, x2: Tensor, p: float = 2.0, compute_mode: str = "use_mm_for_euclid_dist_if_necessary") -> Tensor:
    if compute_mode == "use_mm_for_euclid_dist_if_necessary":
        return torch._VF.cdist(x1, x2, p, None)
    elif compute_mode == "use_mm_for_euclid_dist":
        return torch._VF.cdist(x1, x2, p, 1)
    elif compute_mode == "donot_use_mm_for_euclid_dist":
        return torch._VF.cdist(x1, x2, p, 2)
    else:
        raise ValueError("{} is not a valid value for compute_mode".format(compute_mode))


def tensordot(a: Tensor, b: Tensor, dims: int = 2, out: Optional[Tensor] = None) -> Tensor:
    if dims < 0:
        raise RuntimeError("tensordot expects dims >= 0, but got dims={}".format(dims))
    dims_a = list(range(-dims, 0))
    dims_b = list(range(dims))
    if out is None:
        return torch._VF.tensordot(a, b, dims_a, dims_b)
    else:
        return torch._VF.tensordot(a, b, dims_a, dims_b, out=out)


def norm(input: Tensor, p: str = "fro", dim: Optional[List[int]] = None, keepdim: bool = False,
         out: Optional[Tensor] = None, dtype: Optional[int] = None) -> Tensor:
    ndim = input.dim()
    if dim is None and out is None and dtype is None and p == "fro":
        return torch._VF.frobenius_norm(input, dim=torch.jit.annotate(List[int], []), keepdim=keepdim)
    if p == "fro":
        if dtype is not None:
            raise ValueError("dtype argument is not supported in frobenius norm")
        if dim is None:
            dim = list(range(ndim))
        if out is None:
            return torch._VF.frobenius_norm(input, dim, keepdim=keepdim)
        else:
            return torch._VF.frobenius_norm(input, dim, keepdim=keepdim, out=out)
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
                return torch._VF.nuclear_norm(input, dim, keepdim=keepdim)
            else:
                return torch._VF.nuclear_norm(input, dim, keepdim=keepdim, out=out)
    raise RuntimeError("only valid string values are 'fro' and 'nuc', found {}".format(p))
