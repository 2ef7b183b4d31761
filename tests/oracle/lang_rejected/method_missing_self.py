import torch
from typing import List, Dict, Tuple, Optional


class Helper:
    def __init__(self):
        self.v = 1

    def get():
        return 1


def main(x: torch.Tensor) -> int:
    h = Helper()
    return h.get()
