# Control flow: if/elif/else, while, for over range with 1-3 arguments (negative steps, empty
# ranges), break/continue, early return inside (nested) loops, pass.
import torch
from typing import List, Optional, Tuple


# case: (-5,)
# case: (0,)
# case: (3,)
# case: (100,)
def classify(n: int) -> str:
    if n < 0:
        s = "neg"
    elif n == 0:
        s = "zero"
    elif n < 10:
        s = "small"
    else:
        s = "big"
    return s


# case: (torch.tensor([1.0, -2.0]),)
# case: (torch.tensor([-1.0, -2.0]),)
def if_on_tensor(x: torch.Tensor) -> torch.Tensor:
    if bool(x.sum() > 0):
        y = x * 2
    else:
        y = -x
    if x[0] > 0:
        y = y + 100
    return y


# case: (27,)
# case: (1,)
def collatz_steps(n: int) -> int:
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


# case: (5,)
# case: (0,)
# case: (-2,)
def range_one_arg(n: int) -> List[int]:
    out: List[int] = []
    for i in range(n):
        out.append(i * i)
    return out


# case: (2, 7)
# case: (7, 2)
# case: (-3, 3)
def range_two_args(a: int, b: int) -> List[int]:
    out: List[int] = []
    for i in range(a, b):
        out.append(i)
    return out


# case: (0, 10, 3)
# case: (10, 0, -3)
# case: (10, -10, -7)
# case: (5, 5, -1)
# case: (-1, -9, -2)
def range_three_args(a: int, b: int, s: int) -> List[int]:
    out: List[int] = []
    for i in range(a, b, s):
        out.append(i)
    return out


# case-raises: (0, 10, 0)
def range_zero_step(a: int, b: int, s: int) -> int:
    t = 0
    for i in range(a, b, s):
        t += i
    return t


# case: (10,)
def range_loop_var_after_loop(n: int) -> int:
    total = 0
    for i in range(n):
        total += i
    for j in range(3):
        total += 1000 * j
    return total


# case: ([3, 8, -1, 4, 9],)
# case: ([1, 2],)
def break_at_negative(xs: List[int]) -> int:
    total = 0
    for x in xs:
        if x < 0:
            break
        total += x
    return total


# case: (10,)
def continue_skips_odd(n: int) -> List[int]:
    out: List[int] = []
    for i in range(n):
        if i % 2 == 1:
            continue
        out.append(i)
    return out


# case: (20,)
def while_break_continue(n: int) -> Tuple[int, int]:
    i = 0
    acc = 0
    while True:
        i += 1
        if i > n:
            break
        if i % 3 == 0:
            continue
        acc += i
    return i, acc


# case: ([4, 7, 9, 11], 9)
# case: ([4, 7, 9, 11], 5)
def find_index(xs: List[int], target: int) -> int:
    for i in range(len(xs)):
        if xs[i] == target:
            return i
    return -1


# case: ([[1, 2], [3, 4], [5, 6]], 4)
# case: ([[1, 2], [3, 4]], 7)
def find_in_nested(rows: List[List[int]], target: int) -> Tuple[int, int]:
    for i in range(len(rows)):
        for j in range(len(rows[i])):
            if rows[i][j] == target:
                return i, j
    return -1, -1


# case: (5,)
def nested_break_inner_only(n: int) -> List[int]:
    out: List[int] = []
    for i in range(n):
        for j in range(n):
            if j > i:
                break
            out.append(i * 10 + j)
    return out


# case: (4,)
def nested_continue_outer_count(n: int) -> int:
    count = 0
    for i in range(n):
        if i == 2:
            continue
        j = 0
        while j < n:
            j += 1
            if j == 2:
                continue
            count += i * j
    return count


# case: (6,)
def while_with_return(n: int) -> str:
    i = 0
    while i < 100:
        if i * i > n:
            return "first square above is " + str(i * i)
        i += 1
    return "none"


# case: (3,)
def pass_statements(n: int) -> int:
    if n > 0:
        pass
    else:
        n = -n
    for i in range(2):
        pass
    while False:
        pass
    return n


# case: (torch.arange(4.),)
def for_over_tensor(x: torch.Tensor) -> List[float]:
    out: List[float] = []
    for row in x:
        out.append(float(row) * 2.0)
    return out


# case: (torch.arange(6.).reshape(3, 2),)
def for_over_tensor_rows(x: torch.Tensor) -> torch.Tensor:
    acc = torch.zeros(2)
    for row in x:
        acc = acc + row
    return acc


# case: (7,)
def loop_carried_types(n: int) -> Tuple[int, float, str]:
    a = 0
    b = 1.0
    s = ""
    for i in range(n):
        a = a + i
        b = b * 1.5
        s = s + str(i % 3)
    return a, b, s


# case: (4,)
def while_counts_down(n: int) -> List[int]:
    out: List[int] = []
    while n:
        out.append(n)
        n -= 1
    return out


# case: (None,)
# case: (3,)
def optional_in_loop(x: Optional[int]) -> int:
    total = 0
    for i in range(3):
        if x is not None:
            total += x * i
        else:
            total -= 1
    return total


# case: (10, 3)
def early_return_after_loop_with_break(n: int, k: int) -> int:
    found = -1
    for i in range(n):
        if i * k > 10:
            found = i
            break
    if found < 0:
        return 0
    return found * 100
