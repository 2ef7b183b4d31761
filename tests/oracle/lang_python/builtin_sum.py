# Python's builtin sum() of tensors: `start + e0 + e1 + ...` (PyTorch 1.13 maps sum() to aten::sum, which
# rejects a list of tensors, "Expected a value of type 'Tensor' for argument 'self' but instead found type
# 'List[Tensor]'", and sums every element of a tensor where Python adds its rows). Lists, generators, tuples
# and tensors, with and without start; numbers keep aten::sum. Saved by Kindling and run by torch.jit.load.
import torch
from typing import List, Tuple


# save: loads
# case: (torch.tensor([1.0, 2.0]),)
def list_of_tensors(x: torch.Tensor) -> torch.Tensor:
    return sum([x, x * 2, x * 3])


# save: loads
# case: ([0.5, 2.0, -1.0], torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
def generator_of_tensors(ws: List[float], x: torch.Tensor) -> torch.Tensor:
    return sum(w * x for w in ws)


# save: loads
# case: ([torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])],)
def with_start(xs: List[torch.Tensor]) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    return sum(xs, torch.ones(2)), sum(xs, 1.5), sum(xs, start=10)


# save: loads
# case: (torch.arange(6.0).reshape(2, 3),)
# case: (torch.arange(24).reshape(2, 3, 4),)
def rows_of_a_tensor(x: torch.Tensor) -> torch.Tensor:
    return sum(x)


# save: loads
# case: (torch.tensor([1, 2]), torch.tensor([0.5, 0.25]))
def tuple_of_tensors(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return sum((a, b, a))


# save: loads
# case: (torch.tensor([True, False, True]),)
def bool_tensors_promote(m: torch.Tensor) -> torch.Tensor:
    return sum([m, m, torch.tensor([True, True, False])])


# save: loads
# case: ([1, 2, 3],)
def numbers_with_start(xs: List[int]) -> Tuple[int, int, float]:
    return sum(xs), sum(xs, 10), sum([0.5, 0.25], start=1.0)


# save: loads
# case: (torch.tensor([1.0, -1.0]),)
def sum_of_one(x: torch.Tensor) -> torch.Tensor:
    return sum([x])


# save: loads
# case: (3,)
def loss_terms(n: int) -> torch.Tensor:
    losses: List[torch.Tensor] = []
    for i in range(n):
        losses.append(torch.full([2], float(i)))
    return sum(losses) / len(losses)
