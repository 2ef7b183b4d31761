import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor, c: bool) -> int:
    if c:
        y = 1
    else:
        y = "one"
    return len(y)
