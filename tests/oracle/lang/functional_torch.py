# torch/functional.py functions TorchScript compiles from Python source: torch.unique and
# torch.unique_consecutive (boolean dispatch on return_inverse/return_counts), torch.norm (overloads by the
# types of p and dim), torch.tensordot (overloads by the type of dims), torch.cdist (compute modes).
import torch
from typing import List, Optional, Tuple


# case: (torch.tensor([3, 1, 2, 3, 1, 5]),)
# case: (torch.tensor([[2.0, 1.0], [2.0, 0.5]]),)
def unique_flags(x: torch.Tensor) -> Tuple[torch.Tensor, Tuple[torch.Tensor, torch.Tensor],
                                           Tuple[torch.Tensor, torch.Tensor],
                                           Tuple[torch.Tensor, torch.Tensor, torch.Tensor]]:
    a = torch.unique(x)
    b = torch.unique(x, return_inverse=True)
    c = torch.unique(x, sorted=True, return_counts=True)
    d = torch.unique(x, True, True, True)
    return a, b, c, d


# case: (torch.tensor([[1, 2, 1], [0, 5, 0], [1, 2, 1], [0, 1, 0]]),)
def unique_dim(x: torch.Tensor) -> List[torch.Tensor]:
    a, inv, cnt = torch.unique(x, return_inverse=True, return_counts=True, dim=0)
    b, cnt1 = torch.unique(x, dim=1, return_counts=True)
    c = torch.unique(x, dim=-1, sorted=False)
    return [a, inv, cnt, b, cnt1, c]


# case: (torch.tensor([1, 1, 2, 2, 3, 1, 1, 2]),)
def unique_consecutive_flags(x: torch.Tensor) -> Tuple[torch.Tensor, Tuple[torch.Tensor, torch.Tensor],
                                                       Tuple[torch.Tensor, torch.Tensor]]:
    return (torch.unique_consecutive(x), torch.unique_consecutive(x, return_inverse=True),
            torch.unique_consecutive(x, return_counts=True))


# case: (torch.randn(3, 4),)
# case: (torch.randn(2, 3, 4, dtype=torch.float64),)
def norm_variants(x: torch.Tensor) -> List[torch.Tensor]:
    return [torch.norm(x), torch.norm(x, "fro"), torch.norm(x, p=1, dim=1), torch.norm(x, 2.5),
            torch.norm(x, float("inf"), dim=[0, 1], keepdim=True), torch.norm(x, dim=-1),
            torch.norm(x, "fro", dim=[0, 1]), torch.norm(x, "fro", dim=1, keepdim=True), torch.norm(x, p=0, dim=0),
            torch.norm(x, p=None, dim=0)]


# case: (torch.randn(3, 4),)
def norm_dtype(x: torch.Tensor) -> torch.Tensor:
    return torch.norm(x, 2.0, dim=[1], dtype=torch.float64)


# case-raises: (torch.randn(3, 4),)
def norm_bad_string(x: torch.Tensor) -> torch.Tensor:
    return torch.norm(x, "abc")


# case: (torch.randn(3, 4, 5), torch.randn(4, 5, 2))
def tensordot_variants(a: torch.Tensor, b: torch.Tensor) -> List[torch.Tensor]:
    return [torch.tensordot(a, b), torch.tensordot(a, b, 1 if a.size(2) == b.size(0) else 2),
            torch.tensordot(a, b, ([1, 2], [0, 1])), torch.tensordot(a, b, [[2, 1], [1, 0]]),
            torch.tensordot(a, b, dims=torch.tensor([[1], [0]])), torch.tensordot(a, b, torch.tensor(2)),
            torch.tensordot(a, b, 0)]


# case-raises: (torch.randn(3, 4), torch.randn(5, 4))
def tensordot_mismatch(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return torch.tensordot(a, b, 1)


# case: (torch.randn(5, 3), torch.randn(4, 3))
# case: (torch.randn(2, 30, 3, dtype=torch.float64), torch.randn(1, 28, 3, dtype=torch.float64))
def cdist_modes(a: torch.Tensor, b: torch.Tensor) -> List[torch.Tensor]:
    return [torch.cdist(a, b), torch.cdist(a, b, p=1.0), torch.cdist(a, b, 0.0), torch.cdist(a, b, 3.0),
            torch.cdist(a, b, float("inf")), torch.cdist(a, b, compute_mode="use_mm_for_euclid_dist"),
            torch.cdist(a, b, 2.0, "donot_use_mm_for_euclid_dist")]


# case-raises: (torch.randn(5, 3), torch.randn(4, 2))
# case-raises: (torch.randn(5, 3), torch.randn(4, 3), "bad")
def cdist_errors(a: torch.Tensor, b: torch.Tensor, mode: str = "use_mm_for_euclid_dist_if_necessary") -> torch.Tensor:
    return torch.cdist(a, b, compute_mode=mode)


# case: (torch.randn(4, 3), torch.randn(2, 3, 5, dtype=torch.float64))
def norm_nuclear(x: torch.Tensor, y: torch.Tensor) -> List[torch.Tensor]:
    return [torch.norm(x, "nuc"), torch.norm(x, p="nuc", keepdim=True), torch.norm(y, "nuc", dim=[1, 2]),
            torch.norm(y, "nuc", dim=[2, 0], keepdim=True)]


# case: (torch.randn(3, 4),)
def norm_out(x: torch.Tensor) -> List[torch.Tensor]:
    a = torch.empty(0)
    b = torch.empty(5)
    c = torch.empty(0)
    torch.norm(x, 2.0, dim=[1], out=a)
    torch.norm(x, "fro", dim=[0, 1], out=b)
    torch.tensordot(x, x, [[0], [0]], out=c)
    return [a, b, c]


def _pick(d: bool, p: str) -> int:
    if d:
        if p == "fro":
            return 1
    return 2


def _pick_optional(dim: Optional[List[int]], p: str, n: int) -> int:
    if dim is None:
        if p == "fro":
            if n > 2:
                return 10
            n = n + 100
    elif p == "nuc":
        return 20
    return n


# A return on one path of a nested if without else (the shape of torch/functional.py's norm body): the code
# after the outer if runs only on the paths that did not return.
# case: (True, "fro", None, 3)
# case: (True, "nuc", None, 1)
# case: (False, "fro", [0], 1)
# case: (False, "nuc", [0], 1)
def nested_early_return(d: bool, p: str, dim: Optional[List[int]], n: int) -> List[int]:
    return [_pick(d, p), _pick_optional(dim, p, n), _pick_optional(None, "fro", n)]
