import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor, n: int) -> torch.Tensor:
    for i in range(n):
        z = x * i
    return z
