import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor) -> int:
    t = (1, 2)
    return t[5]
