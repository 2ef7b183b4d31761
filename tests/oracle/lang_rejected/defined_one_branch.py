import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor, c: bool) -> torch.Tensor:
    if c:
        y = x + 1
    return y
