import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor) -> str:
    s = "abc"
    s[0] = "z"
    return s
