import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor, n: int) -> int:
    acc = 0
    for i in range(n):
        acc = 1.5
    return 0
