import torch
from typing import List, Dict, Tuple, Optional


class Acc:
    def __init__(self):
        self.total = 0

    def add(self, v: int):
        self.total += v


def main(x: torch.Tensor) -> int:
    a = Acc()
    a.add("five")
    return a.total
