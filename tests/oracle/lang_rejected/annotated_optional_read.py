import torch
from typing import Optional


def main(n: int) -> int:
    # the variable has its declared type Optional[int] on every read, whatever value it holds
    x: Optional[int] = 3
    return x + n
