import torch
from typing import List, Dict, Tuple, Optional


def helper(n: int) -> int:
    return n


def main(x: torch.Tensor) -> int:
    return helper(2.5)
