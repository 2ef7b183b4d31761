import torch
from typing import List, Dict, Tuple, Optional


def fact(n: int) -> int:
    if n <= 1:
        return 1
    return n * fact(n - 1)


def main(x: torch.Tensor) -> int:
    return fact(5)
