# Statements beyond control flow: assert (with message), raise with exception classes, del of list
# elements and dict keys, nested functions calling each other, ternaries, chained comparisons,
# short-circuit and/or/not (the side effect of the unevaluated operand must not happen).
import torch
from typing import Dict, List, Optional, Tuple


# case: (3,)
# case-raises: (-1,)
def assert_with_message(n: int) -> int:
    assert n >= 0, "n must be non-negative, got " + str(n)
    return n * 2


# case: (torch.ones(2),)
# case-raises: (torch.ones(3),)
def assert_tensor_shape(x: torch.Tensor) -> torch.Tensor:
    assert x.size(0) == 2
    return x + 1


# case: (1,)
# case-raises: (0,)
def raise_value_error(n: int) -> int:
    if n == 0:
        raise ValueError("zero is not allowed")
    return 10 // n


# case-raises: ([1, 2],)
def raise_runtime_error_in_loop(xs: List[int]) -> int:
    for x in xs:
        if x == 2:
            raise RuntimeError("found a two")
    return 0


# case: (5,)
# case-raises: (-5,)
def raise_in_nested_function(n: int) -> int:
    return checked_sqrt_floor(n) + 1


def checked_sqrt_floor(n: int) -> int:
    if n < 0:
        raise IndexError("negative")
    i = 0
    while (i + 1) * (i + 1) <= n:
        i += 1
    return i


# case-raises: (2,)
def raise_type_error_bare(n: int) -> int:
    if n > 1:
        raise TypeError
    return n


# case: ([1, 2, 3, 4, 5],)
def del_list_elements(xs: List[int]) -> List[int]:
    del xs[0]
    del xs[-1]
    del xs[1]
    return xs


# case: ({"a": 1, "b": 2, "c": 3},)
def del_dict_key(d: Dict[str, int]) -> List[str]:
    del d["b"]
    d["z"] = 26
    return list(d.keys())


# case-raises: ({"a": 1},)
def del_missing_key(d: Dict[str, int]) -> int:
    del d["q"]
    return len(d)


# case-raises: ([1, 2],)
def del_out_of_range(xs: List[int]) -> int:
    del xs[5]
    return len(xs)


def helper_square(x: int) -> int:
    return x * x


def helper_sum_squares(a: int, b: int) -> int:
    return helper_square(a) + helper_square(b)


def helper_chain(a: int, b: int, c: int = 1) -> int:
    return helper_sum_squares(a, b) * c + helper_square(c)


# case: (3, 4)
def nested_calls(a: int, b: int) -> Tuple[int, int, int]:
    return helper_sum_squares(a, b), helper_chain(a, b), helper_chain(b, a, c=3)


def scale_tensor(x: torch.Tensor, k: float = 2.0) -> torch.Tensor:
    return x * k


# case: (torch.arange(3.),)
def call_with_default_and_kw(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    return scale_tensor(x), scale_tensor(k=-1.0, x=x)


# case: (5,)
# case: (-5,)
def ternary(n: int) -> str:
    sign = "pos" if n > 0 else "neg"
    mag = n if n > 0 else -n
    return sign + str(mag * 2 if mag > 3 else mag)


# case: (None,)
# case: (torch.ones(2),)
def ternary_optional(x: Optional[torch.Tensor]) -> torch.Tensor:
    return torch.zeros(2) if x is None else x * 3


# case: (1, 2, 3)
# case: (1, 3, 2)
# case: (2, 2, 2)
def chained_comparisons(a: int, b: int, c: int) -> List[bool]:
    return [a < b < c, a <= b <= c, a < b > c, a == b == c, a != b != c, 0 < a < b < c < 10]


# case: (2.5,)
# case: (-1.0,)
def chained_float_range(x: float) -> bool:
    return 0.0 <= x < 3.0


def record(log: List[str], name: str, value: bool) -> bool:
    log.append(name)
    return value


# case: (True, False)
# case: (False, True)
# case: (False, False)
# case: (True, True)
def short_circuit_side_effects(a: bool, b: bool) -> List[str]:
    log: List[str] = []
    if record(log, "a1", a) and record(log, "b1", b):
        log.append("and-true")
    if record(log, "a2", a) or record(log, "b2", b):
        log.append("or-true")
    if not record(log, "a3", a) or record(log, "b3", b) and record(log, "c3", True):
        log.append("mixed-true")
    return log


# case: ([],)
# case: ([0, 5],)
def short_circuit_guards_index(xs: List[int]) -> bool:
    return len(xs) > 1 and xs[1] > 3


# case: (None,)
# case: (4,)
def short_circuit_optional(x: Optional[int]) -> bool:
    return x is not None and x > 3


# case: (0, 1)
# case: (1, 0)
def not_operator(a: int, b: int) -> List[bool]:
    return [not a, not b, not (a and b), not a or not b, not not a]


# case: (3,)
def nested_function_loop_calls(n: int) -> List[int]:
    out: List[int] = []
    for i in range(n):
        out.append(helper_chain(i, i + 1))
    return out


# case: (torch.tensor([3.0]), torch.tensor([0.0]))
# case: (torch.tensor([0.0]), torch.tensor([2.0]))
def tensor_truthiness_and_or(x: torch.Tensor, y: torch.Tensor) -> int:
    if bool(x) and bool(y):
        return 3
    elif bool(x) or bool(y):
        return 1
    return 0
