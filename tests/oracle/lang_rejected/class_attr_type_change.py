import torch
from typing import List, Dict, Tuple, Optional


class Counter:
    def __init__(self):
        self.count = 0

    def bump(self):
        self.count = "many"


def main(x: torch.Tensor) -> int:
    c = Counter()
    c.bump()
    return c.count
