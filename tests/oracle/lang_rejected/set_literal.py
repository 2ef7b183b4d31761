import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor) -> int:
    s = {1, 2, 3}
    return len(s)
