import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor) -> int:
    a: List[int] = [1, 2]
    a.append("x")
    return len(a)
