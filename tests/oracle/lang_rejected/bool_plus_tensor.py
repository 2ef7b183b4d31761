import torch
from typing import List, Dict, Tuple, Optional


# Python's bool → int conversion (Kindling's third matching pass) does not combine with the Tensor → int
# implicit conversion: this was aten::add.int(IntImplicit(x), Int(flag)), an int result.
def main(x: torch.Tensor, flag: bool) -> torch.Tensor:
    y = x + flag
    return y
