import torch
from typing import List


def main(n: int) -> List[int]:
    # PyTorch 1.13 rejects variable type comments (only a function's signature comment is read)
    xs = []  # type: List[int]
    xs.append(n)
    return xs
