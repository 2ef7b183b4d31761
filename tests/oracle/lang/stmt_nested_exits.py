# break / continue / return on some paths of nested ifs inside loops, with code after the outer if that
# must be skipped on those paths: every exit kind, 2 and 3 levels of if, for and while, in the if and the
# else branch, elif chains, inner loops leaving only themselves, and several such ifs in a row.
import torch
from typing import List, Tuple


# case: (10,)
# case: (3,)
def break_two_ifs_deep(n: int) -> int:
    s = 0
    for i in range(n):
        if i > 2:
            if i > 4:
                break
            s += 100
        s += 1
    return s


# case: (10,)
# case: (0,)
def continue_two_ifs_deep(n: int) -> int:
    s = 0
    for i in range(n):
        if i > 2:
            if i % 2 == 0:
                continue
            s += 100
        s += 1
    return s


# case: (10,)
# case: (4,)
def return_two_ifs_deep(n: int) -> int:
    s = 0
    for i in range(n):
        if i > 2:
            if i > 4:
                return s * 1000
            s += 100
        s += 1
    return s


# case: (12,)
def break_three_ifs_deep(n: int) -> List[int]:
    out: List[int] = []
    for i in range(n):
        if i % 2 == 1:
            if i > 3:
                if i == 9:
                    break
                out.append(-i)
            out.append(i * 10)
        out.append(i)
    return out


# case: (12,)
def continue_three_ifs_deep_in_else(n: int) -> List[int]:
    out: List[int] = []
    for i in range(n):
        if i < 2:
            out.append(0)
        else:
            if i % 3 == 0:
                if i > 4:
                    continue
                out.append(-i)
            out.append(i * 10)
        out.append(i)
    return out


# case: (20,)
# case: (5,)
def while_break_and_continue_nested(n: int) -> Tuple[int, int]:
    i = 0
    total = 0
    skipped = 0
    while i < n:
        i += 1
        if i > 3:
            if i % 4 == 0:
                skipped += 1
                continue
            if i > 13:
                break
            total += 1000
        total += i
    return total, skipped


# case: (15,)
def elif_chain_exits(n: int) -> List[int]:
    out: List[int] = []
    for i in range(n):
        if i < 3:
            out.append(i)
        elif i < 8:
            if i % 2 == 0:
                continue
            out.append(-i)
        elif i < 12:
            if i == 10:
                break
            out.append(100 + i)
        out.append(1000 + i)
    return out


# case: (6,)
def inner_loop_break_only_leaves_inner(n: int) -> List[int]:
    out: List[int] = []
    for i in range(n):
        for j in range(n):
            if j > 0:
                if j >= i:
                    break
                out.append(10 * i + j)
            out.append(-1)
        if i > 2:
            if i == 4:
                continue
            out.append(1000 + i)
        out.append(i)
    return out


# case: (30,)
def several_exit_ifs_in_a_row(n: int) -> List[int]:
    out: List[int] = []
    for i in range(n):
        if i % 2 == 0:
            if i % 4 == 0:
                continue
            out.append(-1)
        if i % 3 == 0:
            if i % 9 == 0:
                continue
            out.append(-3)
        if i % 5 == 0:
            if i > 20:
                break
            out.append(-5)
        out.append(i)
    return out


# case: (torch.tensor([1.0, -2.0, 3.0, 0.5, -1.0, 4.0]),)
def tensor_conditions(x: torch.Tensor) -> torch.Tensor:
    acc = torch.zeros(1)
    for i in range(x.size(0)):
        v = x[i]
        if bool(v < 0):
            if bool(v < -1.5):
                continue
            acc = acc - 100
        if bool(v > 3.5):
            if i > 3:
                break
        acc = acc + v
    return acc


# case: ([3, 1, 4, 1, 5, 9, 2, 6],)
def loop_with_index_and_return(xs: List[int]) -> int:
    seen = 0
    for i, x in enumerate(xs):
        if x > 3:
            if i > 4:
                return seen * 100 + i
            seen += x
        seen += 1
    return -seen
