import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor) -> Tuple[int, int]:
    t = (1, 2)
    t[0] = 5
    return t
