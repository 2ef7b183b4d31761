import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor) -> int:
    d: Dict[str, int] = {}
    d["a"] = 1.5
    return len(d)
