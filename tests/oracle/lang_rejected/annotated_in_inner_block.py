import torch


def main(n: int) -> int:
    x = 1
    if n > 0:
        # PyTorch 1.13: a variable of an enclosing block cannot be re-declared with an annotation
        x: int = 2
    return x
