# Iteration: for over lists, tuples (unrolled, heterogeneous), dict keys/items/values (insertion
# order), strings, enumerate (with start), zip (incl. nested and unequal lengths), list/dict
# comprehensions over those.
import torch
from typing import Dict, List, Tuple


# case: ([1.5, 2.5, -1.0],)
def for_list(xs: List[float]) -> float:
    s = 0.0
    for x in xs:
        s += x * x
    return s


# case: ((1, 2.5, "ab", True),)
def for_tuple_heterogeneous(t: Tuple[int, float, str, bool]) -> List[str]:
    out: List[str] = []
    for v in t:
        out.append(str(v))
    return out


# case: (3,)
def for_tuple_literal(n: int) -> int:
    acc = 0
    for k in (1, 10, 100):
        acc += k * n
    return acc


# case: ({"b": 2, "a": 1, "c": 3},)
def dict_keys_order(d: Dict[str, int]) -> List[str]:
    out: List[str] = []
    for k in d:
        out.append(k)
    for k in d.keys():
        out.append(k.upper())
    return out


# case: ({"x": 1.5, "y": -2.0},)
def dict_items(d: Dict[str, float]) -> List[str]:
    out: List[str] = []
    for k, v in d.items():
        out.append(k + "=" + str(v))
    return out


# case: ({3: 30, 1: 10, 2: 20},)
def dict_values_sum(d: Dict[int, int]) -> int:
    s = 0
    for v in d.values():
        s = s * 100 + v
    return s


# case: ("hello",)
# case: ("",)
def for_string(s: str) -> List[str]:
    out: List[str] = []
    for ch in s:
        out.append(ch + ch)
    return out


# case: (["a", "b", "c"],)
def enumerate_list(xs: List[str]) -> List[str]:
    out: List[str] = []
    for i, x in enumerate(xs):
        out.append(str(i) + x)
    return out


# case: (["a", "b", "c"], 5)
def enumerate_start(xs: List[str], start: int) -> List[Tuple[int, str]]:
    out: List[Tuple[int, str]] = []
    for i, x in enumerate(xs, start):
        out.append((i, x))
    return out


# case: ([1, 2, 3], [10.0, 20.0])
def zip_unequal(a: List[int], b: List[float]) -> List[float]:
    out: List[float] = []
    for x, y in zip(a, b):
        out.append(x * y)
    return out


# case: ([1, 2, 3], ["x", "y", "z"], [True, False, True])
def zip_three(a: List[int], b: List[str], c: List[bool]) -> List[str]:
    out: List[str] = []
    for x, y, z in zip(a, b, c):
        if z:
            out.append(y + str(x))
    return out


# case: ([1, 2, 3], [4, 5, 6])
def zip_enumerate_nested(a: List[int], b: List[int]) -> List[int]:
    out: List[int] = []
    for i, (x, y) in enumerate(zip(a, b)):
        out.append(i * 100 + x * y)
    return out


# case: ([1, 2], [3, 4], [5, 6])
def zip_of_zip(a: List[int], b: List[int], c: List[int]) -> List[int]:
    out: List[int] = []
    for (x, y), z in zip(zip(a, b), c):
        out.append(x + y * z)
    return out


# case: (torch.arange(6.).reshape(3, 2), [1.0, 2.0, 3.0])
def zip_tensor_list(x: torch.Tensor, w: List[float]) -> torch.Tensor:
    acc = torch.zeros(2)
    for row, s in zip(x, w):
        acc += row * s
    return acc


# case: (5,)
def list_comprehension(n: int) -> List[int]:
    return [i * i - 1 for i in range(n)]


# case: (["ab", "c", "def"],)
def list_comprehension_over_list(xs: List[str]) -> List[int]:
    return [len(x) for x in xs]


# case: (["ab", "c", "def"],)
def dict_comprehension(xs: List[str]) -> Dict[str, int]:
    return {x: len(x) for x in xs}


# case: (torch.arange(3.),)
def comprehension_over_tensor(x: torch.Tensor) -> List[torch.Tensor]:
    return [t * 2 for t in x]


# case: (3,)
def nested_comprehension(n: int) -> List[List[int]]:
    return [[i * j for j in range(i + 1)] for i in range(n)]


# case: ([[1, 2], [3], []],)
def nested_lists_iteration(rows: List[List[int]]) -> List[int]:
    flat: List[int] = []
    for row in rows:
        for v in row:
            flat.append(v)
    return flat


# case: ({"a": [1, 2], "b": [3]},)
def dict_of_lists(d: Dict[str, List[int]]) -> int:
    total = 0
    for k, vs in d.items():
        for v in vs:
            total += v * len(k)
    return total


# case: ([3, 1, 2],)
def mutate_list_while_iterating_copy(xs: List[int]) -> List[int]:
    out = xs.copy()
    for x in xs:
        out.append(x * 2)
    return out


# case: (2,)
def for_over_range_in_range(n: int) -> List[int]:
    out: List[int] = []
    for i in range(n):
        for j in range(i, i + 3):
            out.append(j)
    return out
