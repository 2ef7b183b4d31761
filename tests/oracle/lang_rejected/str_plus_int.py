import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor) -> str:
    s = "a"
    return s + 1
