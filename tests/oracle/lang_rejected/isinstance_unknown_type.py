import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor) -> bool:
    return isinstance(x, Frob)
