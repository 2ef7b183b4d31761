# Optional[T] and refinement: `is None` / `is not None` in if/else, early return, `assert x is not None`,
# refinement through `and` / `or`, in while conditions and ternaries, Optional attributes and defaults.
from typing import Dict, List, Optional, Tuple

import torch


# case: (None,)
# case: (torch.ones(2, 3),)
def opt_tensor_if_else(x: Optional[torch.Tensor]) -> torch.Tensor:
    if x is None:
        return torch.zeros(1)
    else:
        return x.sum(0)


# case: (None, 3)
# case: (5, 3)
def opt_is_not_none(a: Optional[int], b: int) -> int:
    if a is not None:
        return a + b
    return b


# case: (7,)
# case-raises: (None,)
def assert_refines(a: Optional[int]) -> int:
    assert a is not None
    return a * 2


# case: (None,)
# case: (2.5,)
def early_return_refines(x: Optional[float]) -> float:
    if x is None:
        return -1.0
    y = x * 2.0
    return y + x


# case: (3, 4)
# case: (None, 4)
# case: (3, None)
def refine_with_and(a: Optional[int], b: Optional[int]) -> int:
    if a is not None and b is not None:
        return a * b
    return 0


# case: (None, None)
# case: (1, None)
# case: (1, 2)
def refine_with_or(a: Optional[int], b: Optional[int]) -> int:
    if a is None or b is None:
        return -1
    return a - b


# case: (None,)
# case: (4,)
def refine_in_condition_chain(a: Optional[int]) -> bool:
    return a is not None and a > 3


# case: (None,)
# case: ("abc",)
def ternary_with_refinement(s: Optional[str]) -> str:
    return "none" if s is None else s + "!"


# case: (None,)
# case: ([1, 2],)
def optional_list_default(xs: Optional[List[int]] = None) -> List[int]:
    if xs is None:
        xs = [0]
    xs.append(len(xs))
    return xs


# case: (3,)
def optional_assigned_in_loop(n: int) -> Optional[int]:
    last: Optional[int] = None
    for i in range(n):
        if i % 2 == 1:
            last = i
    return last


# case: (0,)
def optional_stays_none(n: int) -> Optional[int]:
    last: Optional[int] = None
    for i in range(n):
        last = i
    return last


# case: ({"a": 1},)
def optional_from_dict_get(d: Dict[str, int]) -> Tuple[int, int]:
    x = d.get("a")
    y = d.get("b")
    xa = 0
    yb = 0
    if x is not None:
        xa = x
    if y is None:
        yb = -1
    return xa, yb


# case: (None, torch.ones(3))
# case: (torch.full((3,), 2.0), torch.ones(3))
def optional_tensor_arith(bias: Optional[torch.Tensor], x: torch.Tensor) -> torch.Tensor:
    out = x * 3
    if bias is not None:
        out = out + bias
    return out


# case: (None,)
# case: (5,)
def optional_returned_unchanged(x: Optional[int]) -> Optional[int]:
    return x


def helper_maybe(n: int) -> Optional[int]:
    if n > 0:
        return n
    return None


# case: (3,)
# case: (-3,)
def optional_from_helper(n: int) -> int:
    r = helper_maybe(n)
    if r is None:
        return 0
    return r + 100


# case: (None,)
# case: (6,)
def refine_then_reassign(a: Optional[int]) -> int:
    b = a
    if b is None:
        b = 1
    return b * 3


# case: (2,)
# case: (None,)
def while_not_none(a: Optional[int]) -> int:
    count = 0
    # a while condition does not refine `a`; the ternary does
    while a is not None and count <= 5:
        count += 1 if a is None else a
    return count


# case: (None,)
# case: (1,)
def not_is_none_negated(a: Optional[int]) -> int:
    if not (a is None):
        return a
    return 42


# a `number` (x.item()) assigned in an inner block to an Optional[float] / float / Optional[int] variable of
# the enclosing block becomes a float / int (torchvision's _resize_image_and_masks)
# case: (torch.tensor(0.5), True)
# case: (torch.tensor(0.5), False)
def item_into_enclosing_optional_float(x: torch.Tensor, flag: bool) -> float:
    scale: Optional[float] = None
    if flag:
        scale = 2.0
    else:
        scale = x.item()
    assert scale is not None
    return scale * 3


# case: (torch.tensor(7), 3)
def item_into_enclosing_int_in_loop(x: torch.Tensor, n: int) -> int:
    total: Optional[int] = None
    s = 1.5
    for i in range(n):
        total = x.item()
        s = (x * i).item()
    assert total is not None
    return total + int(s)
