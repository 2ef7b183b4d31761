import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor, n: int) -> torch.Tensor:
    torch._assert(n, "n must be nonzero")
    return x * n
