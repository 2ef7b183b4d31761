# aten kernels beyond the core families: torch.where(cond) and nonzero_numpy, torch.meshgrid (both
# overloads, "ij"/"xy", 0-d inputs, errors), unsafe_chunk / unsafe_split / unsafe_split_with_sizes.
import torch
import torch.nn.functional as F
from typing import List, Optional, Tuple


# case: (torch.tensor([[1, 0, 2], [0, 0, 3]]),)
# case: (torch.tensor(True),)
# case: (torch.tensor(0.0),)
# case: (torch.zeros(2, 0, 3),)
# case: (torch.tensor([[[True, False], [False, True]], [[True, True], [False, False]]]),)
def where_condition(c: torch.Tensor) -> List[torch.Tensor]:
    return torch.where(c)


# case: (torch.randn(3, 4),)
def where_condition_index(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    rows, cols = torch.where(x > 0)
    return x[rows, cols], rows * 10 + cols


# case: (torch.tensor([[0.5, 0.0], [0.0, -1.0]]),)
def nonzero_numpy_method(x: torch.Tensor) -> List[torch.Tensor]:
    return x.nonzero_numpy()


# case: (torch.arange(3), torch.arange(4) * 2)
# case: (torch.tensor(2.5), torch.randn(3))
def meshgrid_varargs(a: torch.Tensor, b: torch.Tensor) -> List[torch.Tensor]:
    return torch.meshgrid(a, b)


# case: (torch.arange(2.0), torch.arange(3.0), torch.arange(4.0))
# case: (torch.tensor([1, 2]), torch.tensor([3]), torch.tensor(7))
def meshgrid_indexing(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> Tuple[List[torch.Tensor], List[torch.Tensor], List[torch.Tensor]]:
    return (torch.meshgrid([a, b, c], indexing="ij"), torch.meshgrid(a, b, c, indexing="xy"),
            torch.meshgrid([a], indexing="xy"))


# case: ([torch.linspace(-1.0, 1.0, 5), torch.linspace(0.0, 2.0, 3)],)
def meshgrid_list(ts: List[torch.Tensor]) -> torch.Tensor:
    ys, xs = torch.meshgrid(ts, indexing="ij")
    return torch.stack([xs, ys], dim=-1) + 0.5


# case-raises: ([],)
# case-raises: ([torch.zeros(2, 2)],)
# case-raises: ([torch.zeros(2), torch.zeros(3, dtype=torch.int64)],)
def meshgrid_errors(ts: List[torch.Tensor]) -> List[torch.Tensor]:
    return torch.meshgrid(ts, indexing="ij")


# case-raises: (torch.zeros(2), "ji")
def meshgrid_bad_indexing(x: torch.Tensor, indexing: str) -> List[torch.Tensor]:
    return torch.meshgrid([x, x], indexing=indexing)


# case: (torch.randn(4, 7),)
# case: (torch.randn(5, 0),)
def unsafe_chunk_split(x: torch.Tensor) -> Tuple[List[torch.Tensor], List[torch.Tensor], List[torch.Tensor], List[torch.Tensor]]:
    return (x.unsafe_chunk(3, 1), torch.unsafe_chunk(x, 2), x.unsafe_split(2, dim=0),
            torch.unsafe_split(x, 3, -1))


# case: (torch.randn(6, 3),)
def unsafe_split_sizes(x: torch.Tensor) -> List[torch.Tensor]:
    return torch.unsafe_split_with_sizes(x, [1, 2, 3]) + x.unsafe_split_with_sizes([2, 1], dim=1)


# case-raises: (torch.randn(6, 3),)
def unsafe_split_sizes_bad(x: torch.Tensor) -> List[torch.Tensor]:
    return x.unsafe_split_with_sizes([2, 2])


# case: (torch.randn(3, 8), torch.randn(3, 2))
def lstm_gates_unsafe_chunk(gates: torch.Tensor, c: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    i, f, g, o = gates.unsafe_chunk(4, 1)
    c2 = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
    return c2, torch.sigmoid(o) * torch.tanh(c2)


# F.interpolate(..., antialias=True): aten::_upsample_bilinear2d_aa / _upsample_bicubic2d_aa (.vec), PIL-style
# separable filters; downscale, upscale, mixed, align_corners both, scale_factor and size.
# case: (torch.randn(2, 3, 17, 23),)
# case: (torch.rand(1, 1, 64, 48) * 255.0,)
# case: (torch.randn(1, 2, 5, 4, dtype=torch.float64),)
def interpolate_antialias_bilinear(x: torch.Tensor) -> List[torch.Tensor]:
    return [F.interpolate(x, size=(7, 5), mode="bilinear", antialias=True),
            F.interpolate(x, size=(7, 5), mode="bilinear", align_corners=True, antialias=True),
            F.interpolate(x, size=(40, 3), mode="bilinear", antialias=True),
            F.interpolate(x, size=(40, 31), mode="bilinear", align_corners=True, antialias=True),
            F.interpolate(x, scale_factor=0.3, mode="bilinear", antialias=True),
            F.interpolate(x, scale_factor=(2.5, 0.45), mode="bilinear", antialias=True),
            F.interpolate(x, size=(1, 1), mode="bilinear", align_corners=True, antialias=True),
            F.interpolate(x, size=(x.size(2), 2), mode="bilinear", antialias=True)]


# case: (torch.randn(2, 3, 17, 23),)
# case: (torch.rand(1, 1, 64, 48) * 255.0,)
# case: (torch.randn(1, 2, 5, 4, dtype=torch.float64),)
def interpolate_antialias_bicubic(x: torch.Tensor) -> List[torch.Tensor]:
    return [F.interpolate(x, size=(7, 5), mode="bicubic", antialias=True),
            F.interpolate(x, size=(7, 5), mode="bicubic", align_corners=True, antialias=True),
            F.interpolate(x, size=(40, 3), mode="bicubic", antialias=True),
            F.interpolate(x, size=(40, 31), mode="bicubic", align_corners=True, antialias=True),
            F.interpolate(x, scale_factor=0.3, mode="bicubic", antialias=True),
            F.interpolate(x, scale_factor=(2.5, 0.45), mode="bicubic", recompute_scale_factor=True, antialias=True),
            F.interpolate(x, size=(1, 2), mode="bicubic", antialias=True)]


# case-raises: (torch.ones(1, 1, 4, 4, dtype=torch.int64),)
# case-raises: (torch.ones(1, 0, 4, 4),)
# case-raises: (torch.ones(4, 4, 4),)
def interpolate_antialias_errors(x: torch.Tensor) -> torch.Tensor:
    return F.interpolate(x, size=(2, 2), mode="bilinear", antialias=True)


# case-raises: (torch.ones(1, 1, 4, 4),)
def interpolate_antialias_nearest(x: torch.Tensor) -> torch.Tensor:
    return F.interpolate(x, size=(2, 2), mode="nearest", antialias=True)
