import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor) -> int:
    import os
    return 0
