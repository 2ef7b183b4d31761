import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor) -> torch.Tensor:
    y = torch.add(x, "a")
    return y
