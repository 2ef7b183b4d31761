# Refinement corner cases: raise / assert on None, isinstance asserts, nested and combined conditions,
# refinement of attribute copies, refinement in loops and comprehensions, Union members that are
# containers or tuples, Any values passed through.
from typing import Any, Dict, List, Optional, Tuple, Union

import torch


# case: (3,)
# case-raises: (None,)
def raise_on_none(x: Optional[int]) -> int:
    if x is None:
        raise ValueError("x is required")
    return x + 1


# case: (5,)
# case-raises: ("five",)
def assert_isinstance_union(x: Union[int, str]) -> int:
    assert isinstance(x, int), "need an int"
    return x * 2


# case: (1, 2)
# case: (1, None)
# case: (None, 2)
def nested_refinements(a: Optional[int], b: Optional[int]) -> int:
    if a is not None:
        if b is not None:
            return a + b
        return a
    return -1


# case: (4,)
# case: (1,)
# case: (None,)
def refined_in_same_condition(x: Optional[int]) -> bool:
    if x is not None and x > 2:
        return True
    return False


# case: (None,)
# case: (-3,)
# case: (3,)
def or_early_return(x: Optional[int]) -> int:
    if x is None or x < 0:
        return 0
    return x


class Holder:
    def __init__(self, v: Optional[int]):
        self.v = v

    def get_or(self, d: int) -> int:
        v = self.v
        if v is None:
            return d
        return v


# case: (None,)
# case: (9,)
def attribute_copy_refined(v: Optional[int]) -> int:
    h = Holder(v)
    return h.get_or(-5)


# case: ([1, None, 3],)
def refine_in_loop(xs: List[Optional[int]]) -> int:
    total = 0
    for x in xs:
        if x is not None:
            total += x
        else:
            total -= 100
    return total


# case: ([None, 2, None, 4],)
def refine_in_comprehension(xs: List[Optional[int]]) -> List[int]:
    return [x if x is not None else 0 for x in xs]


# case: (7,)
# case: ([1, 2, 3],)
def union_with_list_member(x: Union[List[int], int]) -> int:
    if isinstance(x, list):
        return len(x)
    return x


# case: ((1, 2),)
# case: ("t",)
def union_with_tuple_member(x: Union[Tuple[int, int], str]) -> str:
    if isinstance(x, tuple):
        a, b = x
        return str(a + b)
    return x


# case: ({"w": torch.ones(2), "b": None},)
def dict_of_optional_tensors(d: Dict[str, Optional[torch.Tensor]]) -> torch.Tensor:
    out = torch.zeros(2)
    for k, v in d.items():
        if v is not None:
            out = out + v
    return out


def scale(x: torch.Tensor, s: Optional[torch.Tensor] = None) -> torch.Tensor:
    if s is None:
        return x
    return x * s


# case: (torch.arange(3.0),)
def optional_tensor_keyword(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    return scale(x), scale(x, s=torch.full((3,), 2.0))


# case: (None, 1.0)
# case: (3.0, 1.0)
def refine_float_then_math(a: Optional[float], b: float) -> float:
    c = b
    if a is not None:
        c = a * b + 1.0
    return c


# case: (2,)
# case: ("x",)
# case: (2.5,)
def elif_chain_not_isinstance(x: Union[int, str, float]) -> str:
    if not isinstance(x, (int, float)):
        return "str:" + x
    elif isinstance(x, int):
        return "int:" + str(x)
    else:
        return "float:" + str(x)


# case: (None,)
# case: (torch.ones(2, 2),)
def optional_tensor_ternary(x: Optional[torch.Tensor]) -> torch.Tensor:
    return torch.zeros(1) if x is None else x.sum(1)


# case: (3,)
def any_in_list(n: int) -> int:
    xs: List[Any] = []
    for i in range(n):
        xs.append(i)
        xs.append(str(i))
    return len(xs)


# case: (None, None)
# case: (1, None)
def is_none_both(a: Optional[int], b: Optional[str]) -> Tuple[bool, bool, bool]:
    return a is None, b is None, a is None and b is None


# case: (2,)
# case: (None,)
def optional_reassigned_after_refine(x: Optional[int]) -> int:
    y: Optional[int] = x
    if y is None:
        y = 10
    else:
        y = y + 1
    return y
