# Refinement forms PyTorch 1.13 does not refine, with Python's meaning: an Optional attribute of a
# TorchScript class or a NamedTuple field tested with `is not None` (PyTorch never refines attributes:
# "Arguments for call are not valid", Optional[int] has no `+`), in if / and / ternary / assert / early
# return / while, through nested attributes; the refinement ends where an assignment to the attribute,
# a call of compiled code, or the next iteration of a loop assigning it can change it. Saved as
# aten::_unwrap_optional reads, which torch.jit.load runs. Also `isinstance` with `assert` on the other
# path, the generator forms of list()/min()/max()/sum(), and unary `+`.
import torch
from typing import List, NamedTuple, Optional, Tuple, Union


class Box:
    def __init__(self, size: Optional[int]):
        self.size = size

    def grown(self, k: int) -> int:
        if self.size is not None:
            return self.size + k
        return k

    def or_zero(self) -> int:
        return self.size if self.size is not None else 0


# save: loads
# case: (None, 3)
# case: (4, 3)
def attribute_refined(size: Optional[int], k: int) -> Tuple[int, int]:
    b = Box(size)
    return b.grown(k), b.or_zero()


class Span(NamedTuple):
    start: int
    end: Optional[int]


# save: loads
# case: (2, None)
# case: (2, 9)
def namedtuple_field_refined(start: int, end: Optional[int]) -> int:
    s = Span(start, end)
    if s.end is not None:
        return s.end - s.start
    return -s.start


# case: (3,)
# case: ("ab",)
def isinstance_then_assert(x: Union[int, str]) -> str:
    if isinstance(x, int):
        return str(x + 1)
    assert isinstance(x, str)
    return x + "!"


# case: ([3, 1, 2],)
def tuple_and_list_of_generators(xs: List[int]) -> Tuple[List[int], int, int, int]:
    return list(x * 2 for x in xs), min(x - 1 for x in xs), max(x + 1 for x in xs if x != 3), sum(x for x in xs)


# case: (5,)
def unary_plus(n: int) -> Tuple[int, float, bool]:
    f = 2.5
    return +n, +f, +n == n


class Cursor:
    def __init__(self, items: List[int]):
        self.items = items
        self.pos = 0
        self.current: Optional[int] = items[0] if len(items) > 0 else None

    def advance(self):
        self.pos += 1
        self.current = self.items[self.pos] if self.pos < len(self.items) else None


class Holder:
    def __init__(self, size: Optional[int], inner: Box):
        self.size = size
        self.inner = inner

    def clear(self):
        self.size = None

    def cleared_by_call(self) -> List[bool]:
        out: List[bool] = []
        if self.size is not None:
            out.append(self.size > 0)
            self.clear()
            out.append(self.size is None)
        return out

    def cleared_by_assignment(self) -> List[bool]:
        out: List[bool] = []
        if self.size is not None:
            out.append(self.size + 1 > 0)
            self.size = None
            out.append(self.size is None)
        return out

    def cleared_in_loop(self, n: int) -> List[bool]:
        out: List[bool] = []
        if self.size is not None:
            for _ in range(n):
                out.append(self.size is None)
                self.size = None
        return out

    def early_return(self) -> int:
        if self.size is None:
            return -1
        return self.size * 2

    def asserted(self) -> int:
        assert self.size is not None
        return self.size - 1

    def and_chain(self) -> bool:
        return self.size is not None and self.size > 2

    def nested(self) -> int:
        if self.inner.size is not None:
            return self.inner.size + 100
        return 0


# save: loads
# case: ([4, 5, 6],)
# case: ([],)
def while_attribute_not_none(items: List[int]) -> List[int]:
    c = Cursor(items)
    out: List[int] = []
    while c.current is not None:
        out.append(c.current * 10)
        c.current = c.current + 1 if c.current < 5 else None
        if c.current is None:
            c.advance()
    return out


# save: loads
# case: (5, 7)
# case: (None, None)
def attribute_refinement_forms(size: Optional[int], inner: Optional[int]) -> Tuple[int, int, bool, int]:
    h = Holder(size, Box(inner))
    return h.early_return(), h.nested(), h.and_chain(), h.asserted() if size is not None else 0


# save: loads
# case: (5, 3)
# case: (None, 3)
def refinement_ends_where_the_attribute_changes(size: Optional[int], n: int) -> List[List[bool]]:
    return [Holder(size, Box(1)).cleared_by_call(), Holder(size, Box(1)).cleared_by_assignment(),
            Holder(size, Box(1)).cleared_in_loop(n)]


# case-raises: (None,)
def asserted_none(size: Optional[int]) -> int:
    return Holder(size, Box(1)).asserted()


# save: loads
# case: (1,)
# case: (None,)
def while_variable_not_none(x: Optional[int]) -> int:
    # PyTorch 1.13 does not refine x in the body ("Expected a value of type 'int'" for s += x)
    s = 0
    while x is not None:
        s += x
        x = None if x > 3 else x + 1
    return s


# save: loads
# case: ([1, 2, 3], 2)
# case: ([1], 0)
def while_two_refinements(xs: List[int], k: Optional[int]) -> int:
    ys = xs[:]
    last: Optional[int] = ys[-1] if len(ys) > 0 else None
    n = 0
    while last is not None and k is not None:
        n += last * k
        ys.pop()
        last = ys[-1] if len(ys) > 0 else None
    return n
