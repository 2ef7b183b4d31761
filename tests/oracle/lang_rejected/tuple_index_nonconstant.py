import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor, i: int) -> int:
    t = (1, "a", 2.0)
    v = t[i]
    return 0
