import torch
from typing import List, Dict, Tuple, Optional


def helper(a: int, b: int) -> int:
    return a - b


def main(x: torch.Tensor) -> int:
    return helper(1, a=2)
