import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor) -> int:
    a = []
    a.append(1)
    return len(a)
