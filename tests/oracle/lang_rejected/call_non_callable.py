import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor) -> int:
    n = 3
    return n(2)
