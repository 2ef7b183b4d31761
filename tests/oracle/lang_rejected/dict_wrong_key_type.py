import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor) -> int:
    d: Dict[str, int] = {"a": 1}
    return d[0]
