import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor) -> List[int]:
    a: List[Optional[int]] = [1, None]
    return a
