# Small lambdas bound to a name and called (PyTorch 1.13: "Lambda aren't supported"): inlined at each
# call with Python's meaning — parameters local to the lambda, free names read as they are at the call
# (late binding), defaults evaluated where the lambda is written, keyword arguments, lambdas calling other
# lambdas, one lambda called on values of different types. Saved by Kindling and run by torch.jit.load.
import torch
from typing import List, Tuple


# save: loads
# case: (torch.tensor([1.0, 2.0]),)
def tensor_lambda(x: torch.Tensor) -> torch.Tensor:
    f = lambda t: t * 2 + 1  # noqa: E731
    return f(x)


# save: loads
# case: (3, 4)
def two_params(a: int, b: int) -> int:
    add = lambda x, y: x * 10 + y  # noqa: E731
    return add(a, b) + add(y=a, x=b)


# save: loads
# case: (3,)
def default_param(a: int) -> Tuple[int, int]:
    k = 5
    f = lambda x, m=k: x * m  # noqa: E731
    k = 100
    return f(a), f(a, 2)


# save: loads
# case: (3,)
def late_binding(a: int) -> int:
    k = 5
    f = lambda x: x + k  # noqa: E731
    k = 100
    return f(a)


# save: loads
# case: (2.5, 3)
def generic_lambda(a: float, b: int) -> Tuple[float, int, str]:
    sq = lambda v: v * v  # noqa: E731
    dup = lambda s: s + s  # noqa: E731
    return sq(a), sq(b), dup("ab")


# save: loads
# case: ([3, 1, 2],)
def lambda_in_comprehension(xs: List[int]) -> List[int]:
    inc = lambda v: v + 1  # noqa: E731
    twice = lambda v: inc(inc(v))  # noqa: E731
    return [twice(x) for x in xs if inc(x) > 2]


# save: loads
# case: (4,)
def lambda_in_loop(n: int) -> int:
    total = 0
    step = lambda acc, i: acc + i * i  # noqa: E731
    for i in range(n):
        total = step(total, i)
    return total


# save: loads
# case: (7,)
def immediate_call(n: int) -> int:
    return (lambda x: x - 1)(n)


# save: loads
# case: (True, 3)
# case: (False, 3)
def lambda_condition(c: bool, n: int) -> int:
    pick = lambda a, b: a if c else b  # noqa: E731
    return pick(n, -n)
