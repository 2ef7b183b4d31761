# Builtin functions on ints, floats, strings and lists: len, min, max, abs, round (banker's
# rounding, round with digits), int/float/bool/str conversions, divmod, sum, any, all, ord, chr.
import torch
from typing import Dict, List, Tuple


# case: ([1, 2, 3], "hello", {"a": 1})
def len_various(xs: List[int], s: str, d: Dict[str, int]) -> Tuple[int, int, int]:
    return len(xs), len(s), len(d)


# case: (3, -7, 2.5, -0.5)
def min_max_scalars(a: int, b: int, c: float, d: float) -> Tuple[int, int, float, float]:
    return min(a, b), max(a, b), min(c, d), max(c, d)


# case: ([3, -1, 7],)
def min_max_int_list(xs: List[int]) -> Tuple[int, int]:
    return min(xs), max(xs)


# case: ([2.5, -1.5, 0.0],)
def min_max_float_list(xs: List[float]) -> Tuple[float, float]:
    return min(xs), max(xs)


# case-raises: ([],)
def max_empty_list(xs: List[int]) -> int:
    return max(xs)


# case: ([1, 5], [1, 4, 9])
def min_max_two_lists(a: List[int], b: List[int]) -> Tuple[List[int], List[int]]:
    return min(a, b), max(a, b)


# case: (-3, -2.5, 0)
def abs_values(a: int, b: float, c: int) -> Tuple[int, float, int]:
    return abs(a), abs(b), abs(c)


# case: (0.5, 1.5, 2.5, -0.5, -1.5)
def round_half_even(a: float, b: float, c: float, d: float, e: float) -> List[float]:
    return [round(a), round(b), round(c), round(d), round(e)]


# case: (2.5, 7)
def round_returns_float(a: float, n: int) -> Tuple[float, float]:
    return round(a), round(n)    # aten::round.float / round.int: floats in 1.13


# case: (7, -7, 2.9, -2.9)
def int_conversions(a: int, b: int, f: float, g: float) -> List[int]:
    return [int(f), int(g), int("42"), int("-17"), int(a), int(True), int(b / 2)]


# case: (3, "2.5", "-1e3")
def float_conversions(a: int, s: str, t: str) -> List[float]:
    return [float(a), float(s), float(t), float("inf"), float(False)]


# case: (0, 3, 0.0, -0.1, "", "x")
def bool_conversions(a: int, b: int, c: float, d: float, s: str, t: str) -> List[bool]:
    return [bool(a), bool(b), bool(c), bool(d), bool(s), bool(t)]


# case: (42, -1.5, True, 1e20, 0.1)
def str_conversions(a: int, f: float, b: bool, big: float, small: float) -> List[str]:
    return [str(a), str(f), str(b), str(big), str(small), str(1.0), str([1, 2]), str((1, "a"))]


# case: (torch.tensor(3.7), torch.tensor(-2), torch.tensor(True))
def conversions_from_tensors(x: torch.Tensor, y: torch.Tensor, z: torch.Tensor) -> Tuple[int, float, bool, float, int]:
    return int(x), float(y), bool(z), float(x), int(y)


# case: (7, 2)
# case: (-7, 2)
# case: (7, -2)
# case: (-7, -2)
def divmod_ints(a: int, b: int) -> Tuple[int, int]:
    q, r = divmod(a, b)
    return q, r


# case: (7.5, 2.0)
# case: (-7.5, 2.0)
def divmod_floats(a: float, b: float) -> Tuple[float, float]:
    return divmod(a, b)


# case-raises: (5, 0)
def divmod_by_zero(a: int, b: int) -> Tuple[int, int]:
    return divmod(a, b)


# case: ([1, 2, 3],)
def sum_int_list(xs: List[int]) -> int:
    return sum(xs)


# case: ([0.5, 0.25],)
def sum_float_list(xs: List[float]) -> float:
    return sum(xs)


# case: ([False, False], [True, False])
# case: ([True, True], [])
def any_all_bools(a: List[bool], b: List[bool]) -> List[bool]:
    return [any(a), all(a), any(b), all(b)]


# case: ([0, 3], [])
def any_all_ints(a: List[int], b: List[int]) -> List[bool]:
    return [any(a), all(a), any(b), all(b)]


# case: ("A", 97)
def ord_chr(s: str, n: int) -> Tuple[int, str, str]:
    return ord(s), chr(n), chr(ord(s) + 2)


# case: ("abc",)
def caesar_shift(s: str) -> str:
    out = ""
    for ch in s:
        out += chr((ord(ch) - ord("a") + 3) % 26 + ord("a"))
    return out


# case: (3.0, 2)
def isinstance_checks(f: float, n: int) -> List[bool]:
    x = [1, 2]
    return [isinstance(f, float), isinstance(n, float), isinstance(x, List[int]), isinstance(n, int)]


# case: ([5, 3, 9],)
def len_of_list_ops(xs: List[int]) -> Tuple[int, int, int]:
    return len(xs[1:]), len(xs * 3), len(xs + xs)


# case: (3.7, -3.7)
def min_max_mixed(a: float, b: float) -> Tuple[float, float]:
    return max(a, 2.0), min(b, -4.0)
