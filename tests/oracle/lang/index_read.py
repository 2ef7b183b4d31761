# Tensor indexing on the right of `=`: ints, negative ints, slices with steps, None, ..., boolean
# masks, index tensors, lists of ints, and mixtures of those (basic + advanced indexing).
import torch
from typing import List, Tuple


# case: (torch.arange(24).reshape(2, 3, 4),)
def int_and_negative(x: torch.Tensor) -> List[torch.Tensor]:
    return [x[0], x[-1], x[1, 2], x[-1, -1, -1], x[0][1]]


# case: (torch.arange(24).reshape(2, 3, 4),)
def slices_with_steps(x: torch.Tensor) -> List[torch.Tensor]:
    return [x[:, 1:], x[..., ::2], x[:, ::2, 1:3], x[1:, :, -2:], x[:, 5:], x[:, -100:100]]


# case: (torch.arange(12.).reshape(3, 4),)
def none_and_ellipsis(x: torch.Tensor) -> List[torch.Tensor]:
    return [x[None], x[:, None], x[..., None], x[None, ..., None], x[..., 1], x[1, ...], x[None, 1, None, :2]]


# case: (torch.tensor([1.0, -2.0, 3.0, -4.0]),)
def boolean_mask(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    return x[x > 0], x[x < -10]


# case: (torch.arange(12).reshape(3, 4),)
def boolean_mask_2d(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    rows = torch.tensor([True, False, True])
    return x[rows], x[x % 3 == 0]


# case: (torch.arange(12).reshape(3, 4), torch.tensor([2, 0, 2]))
def index_tensor(x: torch.Tensor, idx: torch.Tensor) -> List[torch.Tensor]:
    return [x[idx], x[:, idx], x[idx, idx], x[idx, 1:3], x[1:, idx[:2]]]


# case: (torch.arange(12).reshape(3, 4),)
def list_of_ints(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    return x[[0, 2]], x[:, [3, 0, -1]]


# case: (torch.arange(60).reshape(3, 4, 5),)
def advanced_separated(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    i = torch.tensor([0, 2])
    j = torch.tensor([1, 4])
    return x[i, :, j], x[:, i, j]


# case: (torch.arange(24.).reshape(2, 3, 4), 1)
def int_variable_index(x: torch.Tensor, k: int) -> List[torch.Tensor]:
    return [x[k], x[:, k], x[..., -k], x[k:, k:k + 2]]


# case: (torch.arange(10),)
def views_share_storage(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    y = x[2:6]
    y[0] = 100
    z = x[torch.tensor([7])]
    z[0] = -1          # advanced indexing copies: x unchanged at 7
    return x, y


# case-raises: (torch.arange(6).reshape(2, 3),)
def index_out_of_range(x: torch.Tensor) -> torch.Tensor:
    return x[2]


# case-raises: (torch.arange(6).reshape(2, 3),)
def too_many_indices(x: torch.Tensor) -> torch.Tensor:
    return x[0, 0, 0]


# case: (torch.arange(6.).reshape(2, 3),)
def index_zero_dim_result(x: torch.Tensor) -> Tuple[torch.Tensor, float, int]:
    v = x[1, 2]
    return v, v.item(), v.dim()


# case: (torch.arange(8).reshape(2, 4), torch.tensor(1))
def zero_dim_tensor_index(x: torch.Tensor, i: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    return x[i], x[:, i]


# case: (torch.arange(5.),)
def negative_step_not_allowed_use_flip(x: torch.Tensor) -> torch.Tensor:
    return x.flip(0)[::2]
