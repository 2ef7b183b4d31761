import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor) -> int:
    n = None
    return 1 + n
