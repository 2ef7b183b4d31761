# Basic types: Tensor, int, float, bool, str, None, and the containers, through parameters and returns.
import math
from typing import Dict, List, Optional, Tuple

import torch


# case: (torch.randn(3, 4),)
# case: (torch.arange(6, dtype=torch.int64).reshape(2, 3),)
def tensor_identity_ops(x: torch.Tensor) -> torch.Tensor:
    return x * 2 + 1


# case: (7, 3)
# case: (-7, 2)
def int_arith(a: int, b: int) -> Tuple[int, int, int, float]:
    return a + b, a // b, a % b, a / b


# case: (1.5, -2.25)
# case: (0.1, 0.2)
def float_arith(a: float, b: float) -> float:
    return a * b + a - b / 3.0


# case: (True, False)
# case: (False, False)
def bool_logic(a: bool, b: bool) -> Tuple[bool, bool, bool]:
    return a and b, a or b, not a


# case: ("hello", 3)
def str_ops(s: str, n: int) -> str:
    return s.upper() + "-" + str(n) + s[1:3]


# case: ()
def returns_none() -> None:
    x = 1
    x += 1


# case: ([1, 2, 3],)
# case: ([],)
def list_sum(xs: List[int]) -> List[int]:
    out: List[int] = []
    total = 0
    for x in xs:
        total += x
        out.append(total)
    return out


# case: ({"a": 1, "b": 2},)
def dict_ops(d: Dict[str, int]) -> Dict[str, int]:
    d["c"] = d["a"] + d["b"]
    return d


# case: (None,)
# case: (4,)
def optional_default(x: Optional[int]) -> int:
    if x is None:
        return -1
    return x * 10


# case: (torch.ones(2), 3)
def prints_things(x: torch.Tensor, n: int) -> float:
    print("n is", n, "and half", n / 2)
    print([n, n + 1], (n, "s"), x.sum().item())
    return math.sqrt(float(n))
