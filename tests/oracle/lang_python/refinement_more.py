# More refinements PyTorch 1.13 does not make (it never refines attributes or loop bodies): Optional
# attributes of TorchScript classes and NamedTuple fields refined by `is not None`, `!= None`, `is None`
# with an early return or raise, in `or`, in a comprehension's condition, in a while condition, and a local
# refined by a while condition; each with the value eager Python computes, and saved archives run by
# torch.jit.load.
from typing import List, NamedTuple, Optional, Tuple


class Config:
    def __init__(self, eps: Optional[float], name: Optional[str], limit: Optional[int]):
        self.eps = eps
        self.name = name
        self.limit = limit


class Pair(NamedTuple):
    a: Optional[int]
    b: Optional[int]


# save: loads
# case: (0.5,)
# case: (None,)
def attribute_ne_none(eps: Optional[float]) -> float:
    c = Config(eps, None, None)
    if c.eps != None:  # noqa: E711
        return c.eps * 2.0
    return -1.0


# save: loads
# case: ("cfg",)
# case-raises: (None,)
def attribute_raise_if_none(name: Optional[str]) -> str:
    c = Config(None, name, None)
    if c.name is None:
        raise ValueError("no name")
    return c.name.upper()


# save: loads
# case: (3,)
# case: (None,)
def attribute_or(limit: Optional[int]) -> bool:
    c = Config(None, None, limit)
    return c.limit is None or c.limit > 2


# save: loads
# case: ([1, 5, 9], 4)
# case: ([1, 5, 9], None)
def attribute_in_comprehension(xs: List[int], limit: Optional[int]) -> List[int]:
    c = Config(None, None, limit)
    return [x for x in xs if c.limit is not None and x > c.limit]


# save: loads
# case: (1, 2)
# case: (None, 2)
# case: (1, None)
def namedtuple_both_fields(a: Optional[int], b: Optional[int]) -> int:
    p = Pair(a, b)
    if p.a is not None and p.b is not None:
        return p.a * p.b
    if p.a is not None:
        return p.a
    return 0


# save: loads
# case: (3,)
# case: (None,)
def namedtuple_field_ternary(a: Optional[int]) -> int:
    p = Pair(a, None)
    return p.a + 1 if p.a is not None else -1


# save: loads
# case: (5,)
def while_attribute_countdown(n: int) -> List[int]:
    c = Config(None, None, n)
    out: List[int] = []
    while c.limit is not None:
        out.append(c.limit)
        c.limit = c.limit - 2 if c.limit > 1 else None
    return out


# save: loads
# case: ([3, 0, 4],)
def while_local_refined_from_list(xs: List[int]) -> int:
    i = 0
    cur: Optional[int] = xs[0] if len(xs) > 0 else None
    total = 0
    while cur is not None:
        total += cur * 10
        i += 1
        cur = xs[i] if i < len(xs) else None
    return total


# save: loads
# case: (2.0, "x")
# case: (None, None)
def two_attributes_assert(eps: Optional[float], name: Optional[str]) -> str:
    c = Config(eps, name, None)
    if eps is None:
        return "unset"
    assert c.eps is not None and c.name is not None
    return c.name + str(int(c.eps))


# save: loads
# case: (7,)
# case: (None,)
def attribute_refined_in_else(limit: Optional[int]) -> int:
    c = Config(None, None, limit)
    if c.limit is None:
        r = 0
    else:
        r = c.limit * 3
    return r


# save: loads
# case: (4,)
# case: (None,)
def attribute_refined_then_local_copy(limit: Optional[int]) -> Tuple[int, bool]:
    c = Config(None, None, limit)
    if c.limit is not None:
        k: int = c.limit
        return k + 1, True
    return 0, False


# save: loads
# case: (2.5, 3)
# case: (None, 3)
def attribute_refined_with_arithmetic_chain(eps: Optional[float], n: int) -> float:
    c = Config(eps, None, n)
    if c.eps is not None and c.limit is not None:
        return c.eps * c.limit + c.eps / 2.0
    return 0.0
