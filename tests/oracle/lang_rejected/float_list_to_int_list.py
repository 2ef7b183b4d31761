import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor) -> List[int]:
    a: List[int] = [1.0, 2.0]
    return a
