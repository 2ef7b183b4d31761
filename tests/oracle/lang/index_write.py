# Tensor indexing on the left of `=` and in-place ops: assignment of scalars and broadcast tensors to
# ints, slices with steps, None/..., boolean masks, index tensors; add_/mul_/clamp_ and friends;
# x.tolist() with an annotation, x.item(), torch.jit.is_scripting(), torch.jit.annotate.
import torch
from typing import List


# case: (torch.zeros(3, 4),)
def assign_scalar(x: torch.Tensor) -> torch.Tensor:
    x[0] = 1.0
    x[-1, -1] = 5
    x[1, 1:3] = 2.5
    x[:, ::3] = -1.0
    return x


# case: (torch.zeros(3, 4),)
def assign_broadcast(x: torch.Tensor) -> torch.Tensor:
    x[1:] = torch.arange(4.)
    x[:, 2] = torch.tensor([7.0, 8.0, 9.0])
    x[0, ...] = torch.tensor(3.0)
    return x


# case: (torch.arange(6.),)
def assign_mask(x: torch.Tensor) -> torch.Tensor:
    x[x > 2] = 0.0
    x[x == 1] = torch.tensor(-5.0)
    return x


# case: (torch.zeros(5), torch.tensor([0, 3]))
def assign_index_tensor(x: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
    x[idx] = 1.0
    x[idx + 1] = torch.tensor([2.0, 3.0])
    return x


# case: (torch.zeros(3, 3),)
def assign_with_none_and_ellipsis(x: torch.Tensor) -> torch.Tensor:
    x[..., 0] = 4.0
    x[None, 1] = 2.0
    return x


# case: (torch.zeros(2, 3, dtype=torch.int64),)
def assign_int_tensor_float_value(x: torch.Tensor) -> torch.Tensor:
    x[0] = 2.7     # cast to int64 by copy_
    x[1, 1] = -1
    return x


# case: (torch.ones(4),)
def inplace_ops(x: torch.Tensor) -> torch.Tensor:
    x.add_(2)
    x.mul_(torch.tensor([1.0, 2.0, 3.0, 4.0]))
    x.sub_(1, alpha=2)
    x.clamp_(2.0, 8.0)
    x.div_(2)
    return x


# case: (torch.arange(6.).reshape(2, 3),)
def inplace_on_views(x: torch.Tensor) -> torch.Tensor:
    x[0].mul_(10)
    x[:, 1].zero_()
    x[1, 2:].fill_(-1)
    return x


# case: (torch.arange(6.).reshape(2, 3),)
def inplace_result_aliases(x: torch.Tensor) -> torch.Tensor:
    y = x.add_(1)
    y.mul_(2)
    return x


# case: (torch.tensor([[1.5, 2.0], [3.0, -4.0]]),)
def tolist_annotated(x: torch.Tensor) -> List[List[float]]:
    a: List[List[float]] = x.tolist()
    a[0][0] = 9.0
    return a


# case: (torch.tensor([1, 2, 3]),)
def tolist_int(x: torch.Tensor) -> List[int]:
    xs = torch.jit.annotate(List[int], x.tolist())
    xs.append(4)
    return xs


# case: (torch.tensor([2.5]), torch.tensor(7))
def item_values(x: torch.Tensor, y: torch.Tensor) -> List[float]:
    a = x.item()
    b = y.item()
    return [float(a) * 2, float(b) + 0.5]


# case: (3,)
def is_scripting(n: int) -> int:
    if torch.jit.is_scripting():
        return n * 2
    return n


# case: (2,)
def annotate_empty(n: int) -> List[List[int]]:
    out = torch.jit.annotate(List[List[int]], [])
    for i in range(n):
        out.append([i])
    return out


# case: (torch.zeros(2, 2), 1, 3.0)
def assign_variable_index(x: torch.Tensor, i: int, v: float) -> torch.Tensor:
    x[i] = v
    x[i - 1, i] = v * 2
    return x


# case: (torch.arange(6.).reshape(2, 3),)
def aug_assign_index_tensor(x: torch.Tensor) -> torch.Tensor:
    idx = torch.tensor([0, 2])
    x[:, idx] += 10.0
    return x


# case: (torch.zeros(4),)
def aug_assign_mask(x: torch.Tensor) -> torch.Tensor:
    x[torch.tensor([True, False, True, False])] -= 3.0
    return x


# case: (torch.arange(4.),)
def inplace_keeps_dtype(x: torch.Tensor) -> torch.Tensor:
    y = x.to(torch.int32)
    y += 2
    y *= 3
    return y


# case-raises: (torch.zeros(2, 3),)
def assign_shape_mismatch(x: torch.Tensor) -> torch.Tensor:
    x[0] = torch.ones(2)
    return x
