# The else clause of `for` and `while` loops (PyTorch 1.13: "else branches of for loops aren't supported"):
# it runs when the loop ends without break, also after zero iterations, and not after a return from the loop;
# a break or continue in it belongs to the enclosing loop. Saved by Kindling (a test of the loop's break flag)
# and run by torch.jit.load.
import torch
from typing import List, Tuple


# save: loads
# case: ([1, 2, 3], 2)
# case: ([1, 2, 3], 7)
# case: ([], 1)
def find_index(xs: List[int], target: int) -> int:
    found = -1
    for i, x in enumerate(xs):
        if x == target:
            found = i
            break
    else:
        return -1
    return found


# save: loads
# case: (10,)
# case: (1,)
def while_else(n: int) -> Tuple[int, str]:
    k = 0
    note = "start"
    while k < n:
        k += 3
        if k == 9:
            note = "hit nine"
            break
    else:
        note = "ran out"
    return k, note


# save: loads
# case: ([2, 3, 4, 5, 6, 7, 8, 9, 10, 11],)
def primes(xs: List[int]) -> List[int]:
    out: List[int] = []
    for n in xs:
        for d in range(2, n):
            if n % d == 0:
                break
        else:
            out.append(n)
    return out


# save: loads
# case: ([[1, 2], [3, -1], [4, 5]],)
# case: ([[1, 2]],)
def else_breaks_outer(rows: List[List[int]]) -> Tuple[int, int]:
    seen = 0
    for row in rows:
        for v in row:
            if v < 0:
                break
            seen += 1
        else:
            continue
        break
    return seen, len(rows)


# save: loads
# case: ([1, 3, 5],)
# case: ([1, 4, 5],)
def return_inside_loop_skips_else(xs: List[int]) -> str:
    for x in xs:
        if x % 2 == 0:
            return "even " + str(x)
    else:
        return "all odd"


# save: loads
# case: (3,)
# case: (0,)
def no_break_else_always_runs(n: int) -> List[int]:
    out: List[int] = []
    for i in range(n):
        out.append(i)
    else:
        out.append(-1)
    while len(out) < 2:
        out.append(0)
    else:
        out.append(99)
    return out


# save: loads
# case: ((1, 2, 3),)
def tuple_loop_else(t: Tuple[int, int, int]) -> int:
    s = 0
    for v in t:
        s += v
    else:
        s *= 10
    return s


# save: loads
# case: (torch.tensor([1.0, -2.0, 3.0]),)
# case: (torch.tensor([1.0, 2.0]),)
def tensor_rows_else(x: torch.Tensor) -> Tuple[torch.Tensor, bool]:
    acc = torch.zeros(1)
    ok = False
    for v in x:
        if bool(v < 0):
            break
        acc = acc + v
    else:
        ok = True
    return acc, ok


# save: loads
# case: (5,)
def else_assigns_carried(n: int) -> Tuple[int, int]:
    found = -1
    total = 0
    for i in range(n):
        for j in range(i):
            if i * j == 6:
                found = i
                break
        else:
            total += i
    return found, total
