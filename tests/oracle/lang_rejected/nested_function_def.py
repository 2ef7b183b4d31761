import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor) -> torch.Tensor:
    def inner(y: torch.Tensor) -> torch.Tensor:
        return y * 2
    return inner(x)
