# A dict whose size changes while a `for` loop iterates it raises RuntimeError "dictionary changed size
# during iteration", as Python's dict iterator does at its next step, the step that ends the loop included
# (a one-key dict that grows in its only iteration raises); a break or return after the change leaves before
# that step, and changing values keeps the size. PyTorch 1.13 iterates a snapshot of the keys and never
# raises. Saved by Kindling (the check is plain TorchScript) and run by torch.jit.load.
from typing import Dict, List


# case-raises: ({"a": 1, "b": 2},)
# case-raises: ({"a": 1},)
# case: ({},)
def grows(arg: Dict[str, int]) -> List[str]:
    d = arg.copy()  # the caller's dict stays as it was
    out: List[str] = []
    for k in d:
        d[k + "x"] = 1
        out.append(k)
    return out


# save: loads
# case: ({"a": 1, "b": 2, "c": 3},)
def grows_then_breaks(arg: Dict[str, int]) -> List[str]:
    d = arg.copy()  # the caller's dict stays as it was
    out: List[str] = []
    for k in d:
        out.append(k)
        if len(out) == len(d):
            d["new"] = 0
            break
    return out


# save: loads
# case: ({"a": 1, "b": 2},)
def grows_then_returns(arg: Dict[str, int]) -> int:
    d = arg.copy()  # the caller's dict stays as it was
    for k in d:
        d[k + "!"] = 5
        return len(d)
    return -1


# save: loads
# case: ({"a": 1, "b": 2, "c": 3},)
def values_change_size_does_not(arg: Dict[str, int]) -> List[int]:
    d = arg.copy()  # the caller's dict stays as it was
    for k in d:
        d[k] = d[k] * 10
    return list(d.values())


# case-raises: ({"a": 1, "b": 2, "c": 3},)
def pops_another_key(arg: Dict[str, int]) -> int:
    d = arg.copy()  # the caller's dict stays as it was
    n = 0
    for k in d:
        if n == 0:
            d.pop("c")
        n += 1
    return n


# save: loads
# case: ({"a": 1, "b": 2},)
def continue_still_checks_nothing_changed(arg: Dict[str, int]) -> int:
    d = arg.copy()  # the caller's dict stays as it was
    n = 0
    for k in d:
        if k == "a":
            continue
        n += d[k]
    return n
