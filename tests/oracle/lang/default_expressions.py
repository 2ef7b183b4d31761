# Parameter defaults that are arithmetic on number literals: Python evaluates them before TorchScript
# sees the function (int // and % floor, / gives a float, an int default of a float parameter is a float).
import torch
from typing import List, Tuple


# case: (torch.ones(2),)
# case: (torch.ones(2), 0.5, 2.0, 9)
def arithmetic_defaults(x: torch.Tensor, lower: float = 1.0 / 8, upper: float = 1 / 3, k: int = 7 // 2,
                        m: int = -7 % 3, s: float = 2 * 3 + 0.5, t: Tuple[int, int] = (2 - 5, 4 * 4),
                        n: int = 10 - 3 * 2, neg: int = -(2 * 4) // 3) -> List[float]:
    return [lower, upper, float(k), float(m), s, float(t[0]), float(t[1]), float(n), float(neg), float(x.sum())]
