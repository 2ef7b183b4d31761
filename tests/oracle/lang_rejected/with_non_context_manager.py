import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor) -> torch.Tensor:
    with x:
        y = x + 1
    return y
