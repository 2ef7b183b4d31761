# The math module as TorchScript 1.13 exposes it: floor/ceil return int, sqrt/log/exp/trig,
# constants pi/e/inf/nan, isnan/isinf/isfinite, gcd, factorial, copysign, fmod, hypot, trunc.
import math
import torch
from typing import List, Tuple


# case: (2.5,)
# case: (-2.5,)
# case: (3.0,)
def floor_ceil_int(x: float) -> Tuple[int, int, int, int]:
    return math.floor(x), math.ceil(x), math.floor(7), math.ceil(-7)


# case: (2.0,)
# case: (0.5,)
def sqrt_log_exp(x: float) -> List[float]:
    return [math.sqrt(x), math.log(x), math.exp(x), math.log10(x), math.log1p(x), math.expm1(x), math.log(x, 3.0)]


# case: (0.7,)
def trig(x: float) -> List[float]:
    return [math.sin(x), math.cos(x), math.tan(x), math.asin(x), math.acos(x), math.atan(x),
            math.atan2(x, -1.0), math.sinh(x), math.cosh(x), math.tanh(x), math.degrees(x), math.radians(x)]


# case: (1,)
def constants(n: int) -> List[float]:
    return [math.pi * n, math.e * n, math.inf, -math.inf, math.tau]


# case: (1,)
def nan_constant(n: int) -> Tuple[bool, bool]:
    x = math.nan * n
    return math.isnan(x), x == x


# case: (1.0, 0.0)
def isnan_isinf(a: float, b: float) -> List[bool]:
    inf = a / b
    nan = inf - inf
    return [math.isnan(nan), math.isnan(a), math.isinf(inf), math.isinf(-inf), math.isinf(a), math.isfinite(a), math.isfinite(inf)]


# case: (12, 18)
# case: (-12, 18)
# case: (0, 5)
def gcd(a: int, b: int) -> int:
    return math.gcd(a, b)


# case: (5,)
# case: (0,)
# case: (20,)
def factorial(n: int) -> int:
    return math.factorial(n)


# case-raises: (-1,)
def factorial_negative(n: int) -> int:
    return math.factorial(n)


# case: (3.0, -1.0)
# case: (-2.5, 0.0)
def copysign(a: float, b: float) -> float:
    return math.copysign(a, b)


# case: (7.5, 2.0)
# case: (-7.5, 2.0)
# case: (7, -3)
def fmod(a: float, b: float) -> float:
    return math.fmod(a, b)


# case: (3.0, 4.0)
def fabs_pow(a: float, b: float) -> List[float]:
    return [math.fabs(-b), math.pow(a, b)]


# case: (0.5,)
def erf_gamma(x: float) -> List[float]:
    return [math.erf(x), math.erfc(x), math.gamma(x), math.lgamma(x)]


# case: (-1.0,)
def sqrt_negative_is_nan(x: float) -> float:
    return math.sqrt(x)


# case: (2,)
def math_on_ints(n: int) -> List[float]:
    return [math.sqrt(n), math.exp(n), math.log(n), math.sin(n)]


# case: (1.234,)
def remainder(x: float) -> Tuple[float, float]:
    return math.remainder(x, 0.5), math.remainder(-x, 1.0)
