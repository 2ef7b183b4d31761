import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor, n: int) -> int:
    v = 0
    while n > 0:
        n -= 1
        v = "s"
    return n
