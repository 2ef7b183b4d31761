import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor, y: "Foo") -> torch.Tensor:
    return x
