import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor) -> torch.Tensor:
    try:
        y = x + 1
    except Exception:
        y = x
    return y
