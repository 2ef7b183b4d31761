import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor) -> int:
    y: int = "text"
    return y
