# Function type comments in the per-argument form: one `# type: T` after each parameter and
# `# type: (...) -> R` on the first line of the body (PEP 484), for functions and methods.
import torch
from typing import List, Optional


def scaled(x,  # type: torch.Tensor
           k,  # type: float
           names,  # type: List[str]
           ):
    # type: (...) -> torch.Tensor
    return x * k + len(names)


def maybe(a,  # type: Optional[int]
          b  # type: int
          ):
    # type: (...) -> int
    if a is None:
        return b
    return a + b


@torch.jit.script
class Acc:
    def __init__(self, start):
        # type: (int) -> None
        self.v = start

    def add(self,
            n,  # type: int
            times,  # type: int
            ):
        # type: (...) -> int
        self.v += n * times
        return self.v


# case: (torch.ones(2), 2.5, ["a", "b"])
def use_scaled(x: torch.Tensor, k: float, names: List[str]) -> torch.Tensor:
    return scaled(x, k, names)


# case: (None, 3)
# case: (4, 3)
def use_maybe(a: Optional[int], b: int) -> int:
    return maybe(a, b)


# case: (2,)
def use_acc(n: int) -> int:
    a = Acc(n)
    a.add(3, 2)
    return a.add(1, n)
