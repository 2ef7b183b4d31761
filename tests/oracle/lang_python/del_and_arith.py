# `del` of list slices (any step, negative included; the list object itself changes) and of dict keys;
# Python's results where PyTorch 1.13 rejects or crashes: `del xs[a:b]` has no operator in PyTorch, int % 0
# kills PyTorch with SIGFPE (Python: ZeroDivisionError), a list repeated a negative number of times is []
# (PyTorch 1.13 raises "vector::reserve").
import torch
from typing import Dict, List, Tuple


# save: loads
# case: ([0, 1, 2, 3, 4, 5, 6, 7],)
def del_slices(xs: List[int]) -> Tuple[List[int], List[int], List[int], List[int]]:
    a = list(xs)
    del a[1:3]
    b = list(xs)
    del b[::2]
    c = list(xs)
    del c[-1:0:-3]
    d = list(xs)
    alias = d
    del d[:]
    return a, b, c, alias


# save: loads
# case: ({"a": 1, "b": 2, "c": 3},)
def del_dict_key(d: Dict[str, int]) -> List[str]:
    e = {k: v for k, v in d.items() if k != "c"}
    del e["b"]
    return list(e.keys())


# case-raises: (7, 0)
# case: (7, 3)
def int_mod(a: int, b: int) -> int:
    return a % b


# (not saved: PyTorch 1.13's own list repetition fails on a negative count, "vector::reserve")
# case: ([1, 2], -3)
# case: ([1, 2], 2)
def list_times(xs: List[int], n: int) -> List[int]:
    return xs * n
