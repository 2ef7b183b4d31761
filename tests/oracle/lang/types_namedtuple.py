# typing.NamedTuple classes: construction (positional and keyword), fields by name and by index, unpacking,
# returned from functions (compared as tuples), nested, in lists, passed to helpers, len().
from typing import List, NamedTuple, Optional, Tuple

import torch


class Pair(NamedTuple):
    first: int
    second: float


class Box(NamedTuple):
    lo: torch.Tensor
    hi: torch.Tensor
    label: str


class Wrapped(NamedTuple):
    inner: Pair
    tags: List[str]


# case: (3, 1.5)
def namedtuple_fields(a: int, b: float) -> Tuple[int, float, int, float]:
    p = Pair(a, b)
    return p.first, p.second, p[0], p[1]


# case: (2, 0.5)
def namedtuple_returned(a: int, b: float) -> Pair:
    return Pair(second=b * 2.0, first=a + 1)


# case: (torch.randn(3),)
def namedtuple_with_tensors(x: torch.Tensor) -> Box:
    return Box(x.min().reshape(1), x.max().reshape(1), "minmax")


# case: (4, 2.5)
def namedtuple_unpack(a: int, b: float) -> float:
    p = Pair(a, b)
    x, y = p
    return x * y


def make_pair(n: int) -> Pair:
    return Pair(n, float(n) / 2.0)


# case: (7,)
def namedtuple_from_helper(n: int) -> Tuple[int, float]:
    p = make_pair(n)
    return p.first, p.second


# case: (3,)
def namedtuple_list(n: int) -> List[float]:
    ps: List[Pair] = []
    for i in range(n):
        ps.append(make_pair(i))
    return [p.second + float(p.first) for p in ps]


# case: (5, ["a", "b"])
def namedtuple_nested(n: int, tags: List[str]) -> Wrapped:
    w = Wrapped(make_pair(n), tags)
    w.tags.append(str(w.inner.first))
    return w


def sum_pair(p: Pair) -> float:
    return float(p.first) + p.second


# case: (1, 0.25)
def namedtuple_argument_to_helper(a: int, b: float) -> Tuple[float, int]:
    p = Pair(a, b)
    return sum_pair(p), len(p)


# case: (torch.ones(2), torch.zeros(2))
def namedtuple_tensor_math(lo: torch.Tensor, hi: torch.Tensor) -> torch.Tensor:
    b = Box(lo, hi, "x")
    return (b.hi - b.lo) * 2 + b[1]


# case: (True,)
# case: (False,)
def namedtuple_in_branches(flag: bool) -> Pair:
    if flag:
        p = Pair(1, 1.0)
    else:
        p = Pair(2, 2.0)
    return p
