import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor) -> int:
    a, *b = [1, 2, 3]
    return a
