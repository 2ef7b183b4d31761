import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor, n: int) -> int:
    for i in range(n):
        n = i
    else:
        n = 7
    return n
