# Booleans as Python's numbers: bool is an int, so `True + True == 2`, `-True == -1`, `True * 2.5 == 2.5`
# (PyTorch 1.13 has no overload taking a bool for these: "Arguments for call are not valid"). Kindling
# converts a bool to int or float only when no overload takes it as it is, so max/min of bools stay bools
# as in Python and PyTorch (prim::max(bool[])), and sum of bools counts them. Saved by Kindling with the
# conversions spelled out (int(a)), and run by torch.jit.load.
import torch
from typing import List, Tuple


# save: loads
# case: (True, False)
# case: (False, False)
# case: (True, True)
def max_min_pair(a: bool, b: bool) -> Tuple[bool, bool]:
    return max(a, b), min(a, b)


# save: loads
# case: ([True, False, True],)
# case: ([False],)
def max_min_list(xs: List[bool]) -> Tuple[bool, bool, int]:
    return max(xs), min(xs), sum(xs)


# save: loads
# case: (True, False)
# case: (True, True)
def bool_arithmetic(a: bool, b: bool) -> Tuple[int, int, int, float, float, int]:
    return a + b, a - b, a * 3, a * 2.5, b + 0.5, -a


# save: loads
# case: (True, 7)
# case: (False, 7)
def bool_with_int(flag: bool, n: int) -> Tuple[int, int, bool]:
    return n + flag, n * flag, flag < n


# save: loads
# case: (True,)
# case: (False,)
def bool_in_if_count(flag: bool) -> int:
    total = 0
    for i in range(4):
        total += flag and i % 2 == 0
    return total
