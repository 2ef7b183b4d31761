# List methods and operators: append, extend, insert, pop, remove, index, count, sort (incl.
# reverse=True), reverse, clear, copy, slicing with steps, + and *, in, comparisons, aliasing.
import torch
from typing import List, Tuple


# case: ([1, 2],)
def append_extend_insert(xs: List[int]) -> List[int]:
    xs.append(3)
    xs.extend([4, 5])
    xs.insert(0, -1)
    xs.insert(-1, 99)
    xs.insert(100, 7)
    xs.insert(-100, 8)
    return xs


# case: ([10, 20, 30, 40],)
def pop_variants(xs: List[int]) -> Tuple[int, int, int, List[int]]:
    a = xs.pop()
    b = xs.pop(0)
    c = xs.pop(-1)
    return a, b, c, xs


# case-raises: ([],)
def pop_empty(xs: List[int]) -> int:
    return xs.pop()


# case: ([3, 1, 3, 2],)
def remove_index_count(xs: List[int]) -> Tuple[List[int], int, int, int]:
    xs.remove(3)
    return xs, xs.index(2), xs.count(3), xs.count(7)


# case-raises: ([1, 2],)
def remove_missing(xs: List[int]) -> List[int]:
    xs.remove(5)
    return xs


# case-raises: ([1, 2],)
def index_missing(xs: List[int]) -> int:
    return xs.index(5)


# case: ([3, -1, 2, 10],)
def sort_ints(xs: List[int]) -> Tuple[List[int], List[int]]:
    a = xs.copy()
    a.sort()
    b = xs.copy()
    b.sort(reverse=True)
    return a, b


# case: (["pear", "Apple", "fig", "apple"],)
def sort_strings(xs: List[str]) -> List[str]:
    xs.sort()
    return xs


# case: ([2.5, -1.0, 0.0],)
def sorted_floats(xs: List[float]) -> Tuple[List[float], List[float]]:
    ys = sorted(xs)
    return ys, xs


# case: ([1, 2, 3],)
def reverse_clear(xs: List[int]) -> Tuple[List[int], List[int], int]:
    ys = xs.copy()
    ys.reverse()
    n = len(xs)
    xs.clear()
    return ys, xs, n


# case: ([1, 2, 3],)
def aliasing(xs: List[int]) -> Tuple[List[int], List[int]]:
    ys = xs
    zs = xs.copy()
    ys.append(4)
    zs.append(5)
    return xs, zs


# case: ([0, 1, 2, 3, 4, 5, 6, 7],)
def slicing_steps(xs: List[int]) -> List[List[int]]:
    return [xs[1:5], xs[::2], xs[::-1], xs[-3:], xs[:-3], xs[5:1:-2], xs[1:100], xs[-100:2], xs[6:2]]


# case: ([1, 2], [3])
def concat_repeat(a: List[int], b: List[int]) -> Tuple[List[int], List[int], List[int], List[int]]:
    return a + b, a * 3, 2 * b, a * 0


# case: ([1, 2], [3])
def iadd_imul_lists(a: List[int], b: List[int]) -> Tuple[List[int], List[int]]:
    c = a
    a += b     # in place: c sees it
    d = b
    d *= 3     # in place too
    return c, b


# case: ([1, 2, 3], 2, 5)
def in_not_in(xs: List[int], a: int, b: int) -> List[bool]:
    return [a in xs, b in xs, a not in xs, b not in xs]


# case: (["x", "yy"],)
def in_list_of_str(xs: List[str]) -> List[bool]:
    return ["x" in xs, "y" in xs]


# case: ([1, 2], [1, 2], [1, 3])
def list_equality(a: List[int], b: List[int], c: List[int]) -> List[bool]:
    return [a == b, a == c, a != c]


# case: ([[1, 2], [3]],)
def nested_list_mutation(rows: List[List[int]]) -> List[List[int]]:
    rows[0].append(9)
    rows[1][0] = -3
    rows.append([7])
    return rows


# case: ([5, 6, 7],)
def setitem_negative(xs: List[int]) -> List[int]:
    xs[-1] = 0
    xs[0] = xs[1] + xs[2]
    return xs


# case-raises: ([5, 6, 7],)
def getitem_out_of_range(xs: List[int]) -> int:
    return xs[3]


# case: ([torch.ones(2), torch.zeros(2)],)
def list_of_tensors(xs: List[torch.Tensor]) -> torch.Tensor:
    xs.append(torch.full([2], 3.0))
    return torch.stack(xs).sum(0)


# case: (4,)
def list_builtin_from_str_and_range(n: int) -> Tuple[List[str], List[int]]:
    return list("abc"), list(range(n))


# case: ([1.5, 2.5],)
def list_of_floats_ops(xs: List[float]) -> Tuple[float, int, List[float]]:
    xs.append(3.5)
    return sum(xs), xs.index(2.5), xs[::-1]


# case: ([3, 1, 2],)
def min_max_index_loop(xs: List[int]) -> Tuple[int, int]:
    best = 0
    for i in range(1, len(xs)):
        if xs[i] > xs[best]:
            best = i
    return best, xs[best]
