import torch


def main(n: int) -> int:
    x: int
    x = n
    return x
