import torch
from typing import List, Dict, Tuple, Optional


class Box:
    def __init__(self, v: int):
        self.v = v


def main(x: torch.Tensor) -> int:
    b = Box(1)
    return b.w
