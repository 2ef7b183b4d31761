import torch
from typing import Dict, List, Optional


# case-raises: (3,)
# case: (1,)
def raise_value_error(n: int) -> int:
    if n > 2:
        raise ValueError("n is too large: " + str(n))
    return n * 10


# case-raises: (-1,)
# case: (4,)
def raise_runtime_error_fstring(n: int) -> int:
    if n < 0:
        raise RuntimeError(f"negative input {n}")
    return n + 1


# case-raises: (torch.zeros(2),)
def raise_bare_exception(x: torch.Tensor) -> torch.Tensor:
    if bool(x.sum() == 0):
        raise Exception("all zeros")
    return x


# case-raises: (0,)
# case: (2,)
def raise_assertion_error_class(n: int) -> int:
    if n == 0:
        raise AssertionError("n must be nonzero")
    return 100 // n


# case-raises: (5,)
# case: (2,)
def raise_type_and_index_error(n: int) -> int:
    if n > 4:
        raise IndexError("index " + str(n) + " out of bounds")
    if n < 0:
        raise TypeError("negative")
    return n


# case-raises: (-3,)
# case: (3,)
def assert_with_message(n: int) -> int:
    assert n >= 0, "n must be non-negative"
    return n * 2


# case-raises: (torch.tensor([1.0, -1.0]),)
# case: (torch.tensor([1.0, 2.0]),)
def assert_tensor_condition(x: torch.Tensor) -> torch.Tensor:
    assert bool((x > 0).all()), "all entries must be positive"
    return x.log()


# case-raises: (0,)
def assert_without_message(n: int) -> int:
    assert n != 0
    return n


# case-raises: ([1, 2, 3], 3)
# case-raises: ([1, 2, 3], -4)
# case: ([1, 2, 3], -1)
def list_index_out_of_range(a: List[int], i: int) -> int:
    return a[i]


# case-raises: ([1.5], 2)
def list_set_out_of_range(a: List[float], i: int) -> List[float]:
    a[i] = 0.0
    return a


# case-raises: (7, 0)
# case: (7, -2)
def int_floor_division_by_zero(a: int, b: int) -> int:
    return a // b


# (7 % 0 kills PyTorch 1.13 with SIGFPE, so only the defined cases run here)
# case: (-7, 3)
# case: (7, -3)
def int_modulo_signs(a: int, b: int) -> int:
    return a % b


# float division by zero is inf in TorchScript (aten::div.float), not an error
# case: (1.5, 0.0)
# case: (-1.5, 0.0)
def float_division_by_zero(a: float, b: float) -> float:
    return a / b


# case-raises: ({"a": 1, "b": 2}, "c")
# case: ({"a": 1, "b": 2}, "b")
def dict_key_error(d: Dict[str, int], k: str) -> int:
    return d[k]


# case-raises: ({1: 1.5}, 2)
def dict_int_key_error(d: Dict[int, float], k: int) -> float:
    return d[k]


# case-raises: ("12a",)
# case: ("-42",)
def str_to_int_failure(s: str) -> int:
    return int(s)


# case-raises: ("x1.5",)
# case: ("2.25",)
def str_to_float_failure(s: str) -> float:
    return float(s)


# case-raises: ([],)
def pop_empty_list(a: List[int]) -> int:
    return a.pop()


# case-raises: ([1, 2], 5)
def list_index_of_missing_value(a: List[int], v: int) -> int:
    return a.index(v)


def _inner(a: List[int], i: int) -> int:
    return a[i] * 2


def _middle(a: List[int], i: int) -> int:
    return _inner(a, i + 1) + 1


# case-raises: ([1, 2, 3], 2)
# case: ([1, 2, 3], 0)
def nested_call_stack(a: List[int], i: int) -> int:
    return _middle(a, i) - 1


def _check_positive(v: int) -> int:
    if v <= 0:
        raise ValueError("expected a positive value, got " + str(v))
    return v


def _sum_checked(xs: List[int]) -> int:
    total = 0
    for x in xs:
        total += _check_positive(x)
    return total


# case-raises: ([1, 2, -3],)
# case: ([1, 2, 3],)
def nested_raise_in_loop(xs: List[int]) -> int:
    return _sum_checked(xs) * 2


# case-raises: (None,)
# case: (4,)
def unwrap_none_optional(x: Optional[int]) -> int:
    assert x is not None, "x is required"
    return x + 1


# case-raises: (torch.zeros(2, 3), torch.zeros(4, 5))
def tensor_shape_mismatch(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return a + b


# case-raises: (10,)
# case: (3,)
def raise_in_while_loop(n: int) -> int:
    i = 0
    while i < n:
        if i == 5:
            raise RuntimeError("stopped at 5")
        i += 1
    return i


# torch._assert: torch's builtin function (bool and Tensor conditions), not an operator
# case-raises: (1,)
# case: (5,)
def torch_assert_bool(n: int) -> int:
    torch._assert(n > 2, "n must be > 2")
    return n * 3


# case-raises: (torch.tensor([-1.0, 0.5]), 3)
# case: (torch.tensor([1.0, 2.0]), 3)
def torch_assert_tensor_keywords(x: torch.Tensor, k: int) -> torch.Tensor:
    torch._assert(message=f"sum must be positive at {k}", condition=x.sum() > 0)
    return x * k
