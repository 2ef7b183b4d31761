# Comprehensions past TorchScript (PyTorch 1.13 rejects `if` clauses and several `for` clauses): `if`
# clauses (several, refining Optional like an if statement), several `for` clauses (later iterables see
# earlier targets), dict comprehensions with both, targets local to the comprehension (a name of another
# type outside is untouched), tuples unrolled, generator expressions in sum/any/all/min/max/list/tuple.
# Each function is saved by Kindling and run by torch.jit.load (`# save: loads`).
import torch
from typing import Dict, List, Optional, Tuple


# save: loads
# case: (10,)
# case: (0,)
def list_if(n: int) -> List[int]:
    return [i * i for i in range(n) if i % 2 == 0]


# save: loads
# case: (20,)
def list_two_ifs(n: int) -> List[int]:
    return [i for i in range(n) if i % 2 == 0 if i % 3 == 0]


# save: loads
# case: ([1, 2, 3], [10, 20])
# case: ([], [1])
def two_fors(a: List[int], b: List[int]) -> List[int]:
    return [x + y for x in a for y in b]


# save: loads
# case: (4,)
def dependent_fors(n: int) -> List[Tuple[int, int]]:
    return [(i, j) for i in range(n) for j in range(i) if (i + j) % 2 == 1]


# save: loads
# case: ([[1, 2], [3], [], [4, 5, 6]],)
def flatten(rows: List[List[int]]) -> List[int]:
    return [v for row in rows for v in row]


# save: loads
# case: ([1, None, 3, None, 5],)
def refine_optional(xs: List[Optional[int]]) -> List[int]:
    return [x + 1 for x in xs if x is not None]


# save: loads
# case: (['a', 'bb', 'ccc', 'dd'],)
def dict_if(words: List[str]) -> Dict[str, int]:
    return {w: len(w) for w in words if len(w) > 1}


# save: loads
# case: (3,)
def dict_two_fors(n: int) -> Dict[str, int]:
    return {str(i) + "," + str(j): i * j for i in range(n) for j in range(n) if i != j}


# save: loads
# case: (torch.tensor([1.0, 2.0]), 3)
def shadowing(x: torch.Tensor, n: int) -> Tuple[torch.Tensor, List[int]]:
    ys = [x * 2 for x in range(n)]
    return x, ys


# save: loads
# case: (torch.arange(6.0),)
def tensor_rows(t: torch.Tensor) -> List[float]:
    return [float(v) for v in t if float(v) > 2.0]


# save: loads
# case: ((1, 2, 3),)
def tuple_iter(t: Tuple[int, int, int]) -> List[int]:
    return [v * 10 for v in t if v != 2]


# save: loads
# case: ([3, 1, 4, 1, 5],)
# case: ([],)
def gen_sum(xs: List[int]) -> int:
    return sum(x * x for x in xs if x > 1)


# save: loads
# case: ([0.5, 1.5, 2.5],)
def gen_sum_float(xs: List[float]) -> float:
    return sum(x * 2.0 for x in xs)


# save: loads
# case: ([3, 1, 4, 1, 5],)
# case: ([1, 1],)
def gen_any_all(xs: List[int]) -> Tuple[bool, bool, bool]:
    return any(x > 3 for x in xs), all(x > 0 for x in xs), any(x == y for x in xs for y in xs if x < y)


# save: loads
# case: ([3, 1, 4, 1, 5],)
def gen_min_max(xs: List[int]) -> Tuple[int, int]:
    return min(x * 2 for x in xs if x > 1), max(x - 10 for x in xs)


# save: loads
# case: ([3, 1, 4],)
def gen_list(xs: List[int]) -> List[int]:
    return list(x + 1 for x in xs if x != 1)


# save: loads
# case: ((1, 2.5, 3),)
def gen_tuple(t: Tuple[int, float, int]) -> Tuple[float, float, float]:
    return tuple(float(v) * 2.0 for v in t)


# save: loads
# case: (4,)
def nested_comprehension(n: int) -> List[List[int]]:
    return [[i * j for j in range(n) if j <= i] for i in range(n) if i > 0]


# save: loads
# case: (5,)
def comprehension_in_loop(n: int) -> List[int]:
    out: List[int] = []
    for i in range(n):
        out.append(sum(j for j in range(i) if j % 2 == 1))
    return out


# case-raises: ([],)
def gen_min_empty(xs: List[int]) -> int:
    return min(x for x in xs if x > 0)
