import torch
from typing import List, Dict, Tuple, Optional


from torch.jit import Future


def helper(x: torch.Tensor) -> torch.Tensor:
    return x + 1


def main(x: torch.Tensor) -> int:
    fut: Future[int] = torch.jit.fork(helper, x)
    return torch.jit.wait(fut)
