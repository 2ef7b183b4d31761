import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor) -> int:
    d = {}
    d["a"] = 1
    return len(d)
