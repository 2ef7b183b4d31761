import torch
from typing import List, Dict, Tuple, Optional


def main(*args: int) -> int:
    return 0
