import torch
from typing import List, Dict, Tuple, Optional


def helper(x: torch.Tensor, n: int) -> torch.Tensor:
    return x * n


def main(x: torch.Tensor) -> torch.Tensor:
    fut = torch.jit.fork(helper, x, "two")
    return torch.jit.wait(fut)
