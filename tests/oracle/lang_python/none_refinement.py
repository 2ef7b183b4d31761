# `== None` / `!= None` refine Optional as `is None` / `is not None` do (PyTorch 1.13 has no overload for
# them: "Arguments for call are not valid"), on every type (a Tensor or an int is never None); a variable
# first assigned None and later a T (in a branch or a loop) is Optional[T] (PyTorch 1.13: "Variable 'x'
# previously had type NoneType but is now being assigned to a value of type int"). Saved by Kindling as
# `is` comparisons and annotated Optionals, and run by torch.jit.load.
import torch
from typing import Dict, List, Optional, Tuple


# save: loads
# case: (None,)
# case: (4,)
def eq_none(x: Optional[int]) -> int:
    if x == None:  # noqa: E711
        return -1
    return x + 1


# save: loads
# case: (None,)
# case: (4,)
def ne_none(x: Optional[int]) -> int:
    if x != None:  # noqa: E711
        return x * 2
    return 0


# save: loads
# case: (None,)
# case: (torch.ones(2),)
def ne_none_tensor(x: Optional[torch.Tensor]) -> torch.Tensor:
    if None != x:  # noqa: E711
        return x + 1
    return torch.zeros(1)


# save: loads
# case: (torch.ones(2), 3)
def never_none(x: torch.Tensor, n: int) -> Tuple[bool, bool, bool]:
    return x == None, n != None, "a" == None  # noqa: E711


# save: loads
# case: (None, 2)
# case: (5, None)
# case: (5, 2)
def eq_none_and(a: Optional[int], b: Optional[int]) -> int:
    if a != None and b != None:  # noqa: E711
        return a * b
    return 0


# save: loads
# case: (None,)
# case: ("ab",)
def eq_none_ifexp(s: Optional[str]) -> str:
    return "none" if s == None else s + "!"  # noqa: E711


# save: loads
# case: (True,)
# case: (False,)
def none_then_int(c: bool) -> Optional[int]:
    y = None
    if c:
        y = 3
    return y


# save: loads
# case: ([3, 7, 2, 9, 1],)
# case: ([],)
def running_max(xs: List[int]) -> Optional[int]:
    best = None
    for x in xs:
        if best is None or x > best:
            best = x
    return best


# save: loads
# case: ([3, 7, 2],)
# case: ([],)
def none_then_tensor(xs: List[int]) -> torch.Tensor:
    acc = None
    for x in xs:
        t = torch.tensor([float(x)])
        if acc is None:
            acc = t
        else:
            acc = acc + t
    if acc is None:
        return torch.zeros(1)
    return acc


# save: loads
# case: (0,)
# case: (5,)
def two_widened(n: int) -> Tuple[Optional[int], Optional[str]]:
    a = None
    b = None
    i = 0
    while i < n:
        a = i
        if i % 2 == 0:
            b = str(i)
        i += 1
    return a, b


# save: loads
# case: ({"a": 1, "b": 2}, "b")
# case: ({"a": 1}, "z")
def found_key(d: Dict[str, int], key: str) -> int:
    found = None
    for k in d.keys():
        if k == key:
            found = d[k]
    if found == None:  # noqa: E711
        return -1
    return found
