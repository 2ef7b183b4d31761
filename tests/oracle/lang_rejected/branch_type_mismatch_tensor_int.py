import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor, c: bool):
    y = x
    if c:
        y = 3
    return y
