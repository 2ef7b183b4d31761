# Python int and float arithmetic as TorchScript 1.13 does it: `/` is always float, `//` and `%`
# floor towards -inf with negative operands (ints and floats), `**` (int ** int is a float, negative
# exponents), int overflow wraps around in 64 bits, mixed int/float promotion, bit operations.
import torch
from typing import List, Tuple


# case: (7, 2)
# case: (-7, 2)
# case: (7, -2)
# case: (-7, -2)
# case: (6, 3)
def int_div_floordiv_mod(a: int, b: int) -> Tuple[float, int, int]:
    return a / b, a // b, a % b


# case: (7.5, 2.0)
# case: (-7.5, 2.0)
# case: (7.5, -2.0)
# case: (-0.0, 3.0)
def float_floordiv_mod(a: float, b: float) -> Tuple[float, float, float]:
    return a / b, a // b, a % b


# case: (7, 2.5)
# case: (-7, 2.5)
def mixed_int_float(a: int, b: float) -> List[float]:
    return [a + b, a - b, a * b, a / b, a // b, a % b, b // a, b % a]


# case-raises: (5, 0)
def int_floordiv_zero(a: int, b: int) -> int:
    return a // b


# (int % 0 is left out: PyTorch 1.13 dies with SIGFPE on it)
# case: (5, 0)
# case: (-5, 0)
def int_truediv_zero_is_inf(a: int, b: int) -> float:
    return a / b


# case: (5.0, 0.0)
def float_div_zero_is_inf(a: float, b: float) -> float:
    return a / b


# case: (2, 10)
# case: (-2, 3)
# case: (3, 0)
# case: (2, -2)
def int_pow(a: int, b: int) -> float:
    return a ** b


# case: (2.0, 0.5)
# case: (-8.0, 3.0)
# case: (4.0, -1.5)
def float_pow(a: float, b: float) -> float:
    return a ** b


# case: (2, 62)
def int_overflow_wraps(a: int, b: int) -> List[int]:
    big = 1
    for i in range(b):
        big = big * a
    return [big * 4, big * 2, big + big + big, -big * 2 - big * 2, 9223372036854775807 + 1]


# case: (3037000500,)
def int_square_overflow(n: int) -> int:
    return n * n


# case: (12, 10)
# case: (-12, 3)
def bit_ops(a: int, b: int) -> List[int]:
    return [a & b, a | b, a ^ b, a << 2, a >> 1, -a >> 1]


# case: (3, 4.0)
def comparisons_mixed(a: int, b: float) -> List[bool]:
    return [a < b, a == 3.0, b == 4, a != b, a >= 3.0]


# case: (0.1, 0.2)
def float_precision(a: float, b: float) -> Tuple[float, bool, str]:
    c = a + b
    return c, c == 0.3, str(c)


# case: (1e308, 10.0)
def float_overflow_inf(a: float, b: float) -> Tuple[float, float, bool]:
    c = a * b
    return c, -c, c > 1e308


# case: (10, 3)
def unary_ops(a: int, b: int) -> Tuple[int, int, float]:
    f = float(b)
    return -a, -(-b), -f


# case: (17, 5)
# case: (-17, 5)
def python_identities(a: int, b: int) -> bool:
    return (a // b) * b + a % b == a


# case: (5.5, 2)
def float_int_floordiv_types(a: float, b: int) -> Tuple[float, float]:
    return a // b, b // a


# case: (True, 3)
def bool_arithmetic(t: bool, n: int) -> Tuple[int, int]:
    return int(t) + n, n * int(t)
