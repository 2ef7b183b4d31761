import torch
from typing import List, Tuple
from torch.jit import Future


def _scale(x: torch.Tensor, k: int) -> torch.Tensor:
    return x * k


def _dot(a: List[int], b: List[int]) -> int:
    s = 0
    for i in range(len(a)):
        s += a[i] * b[i]
    return s


# case: (torch.randn(3, 4),)
def fork_then_wait(x: torch.Tensor) -> torch.Tensor:
    fut = torch.jit.fork(_scale, x, 3)
    y = x + 1
    return torch.jit.wait(fut) + y


# case: (torch.randn(5),)
def fork_keyword_args(x: torch.Tensor) -> torch.Tensor:
    fut = torch.jit.fork(_scale, x, k=2)
    return torch.jit.wait(fut)


# case: ([1, 2, 3], [4, 5, 6])
def fork_returns_int(a: List[int], b: List[int]) -> int:
    f1 = torch.jit.fork(_dot, a, b)
    f2 = torch.jit.fork(_dot, b, b)
    return torch.jit.wait(f1) - torch.jit.wait(f2)


# case: (torch.randn(4), 6)
def list_of_futures(x: torch.Tensor, n: int) -> torch.Tensor:
    futs: List[Future[torch.Tensor]] = []
    for i in range(n):
        futs.append(torch.jit.fork(_scale, x, i))
    total = torch.zeros_like(x)
    for f in futs:
        total = total + torch.jit.wait(f)
    return total


# case: (torch.randn(3),)
def fork_builtin(x: torch.Tensor) -> torch.Tensor:
    fut = torch.jit.fork(torch.relu, x)
    return torch.jit.wait(fut)


def _pair(x: torch.Tensor) -> Tuple[torch.Tensor, int]:
    return x.sum(), x.numel()


# case: (torch.arange(6.0).reshape(2, 3),)
def fork_returns_tuple(x: torch.Tensor) -> Tuple[torch.Tensor, int]:
    fut = torch.jit.fork(_pair, x)
    s, n = torch.jit.wait(fut)
    return s / n, n


def _fut_arg(f: Future[int], k: int) -> int:
    return torch.jit.wait(f) * k


def _square(n: int) -> int:
    return n * n


# case: (7,)
def future_passed_to_function(n: int) -> int:
    f = torch.jit.fork(_square, n)
    return _fut_arg(f, 2)


def _nested(x: torch.Tensor) -> torch.Tensor:
    inner = torch.jit.fork(_scale, x, 10)
    return torch.jit.wait(inner) + 1


# case: (torch.ones(2, 2),)
def nested_fork(x: torch.Tensor) -> torch.Tensor:
    outer = torch.jit.fork(_nested, x)
    return torch.jit.wait(outer) * 2


def _failing(n: int) -> int:
    if n < 0:
        raise ValueError("negative n: " + str(n))
    return n + 1


# case: (3,)
# case-raises: (-2,)
def wait_reraises(n: int) -> int:
    f = torch.jit.fork(_failing, n)
    return torch.jit.wait(f)


# case: (torch.randn(8, 8),)
def many_forks(x: torch.Tensor) -> torch.Tensor:
    futs: List[Future[torch.Tensor]] = []
    for i in range(32):
        futs.append(torch.jit.fork(torch.matmul, x, x + i))
    acc = torch.zeros(8, 8)
    for f in futs:
        acc = acc + torch.jit.wait(f)
    return acc
