import torch
from typing import List, Dict, Tuple, Optional


def main(x: torch.Tensor) -> Dict[int, int]:
    return {i: i for i in range(4) if i > 1}
