# any(<generator>) / all(<generator>) stop at the first element that decides them, as Python's: the later
# elements (and the iterables of later clauses) are never evaluated, so their errors and side effects do not
# happen. any([...]) of a list comprehension builds the whole list first, in Python and in Kindling. PyTorch
# 1.13 builds the list for a generator too (10 // 0 raises in any(10 // x > 2 for x in [3, 0])).
import torch
from typing import List, Tuple


# save: loads
# case: ([3, 1, 0],)
# case: ([1, 1],)
# case: ([],)
def any_stops_at_first_true(xs: List[int]) -> bool:
    return any(10 // x > 2 for x in xs)


# save: loads
# case: ([3, 20, 0],)
# case: ([1, 2],)
# case: ([],)
def all_stops_at_first_false(xs: List[int]) -> bool:
    return all(10 // x > 2 for x in xs)


# case-raises: ([3, 1, 0],)
# case: ([3, 1],)
def any_of_list_comprehension_builds_it(xs: List[int]) -> bool:
    return any([10 // x > 2 for x in xs])


def note(x: int, seen: List[int]) -> int:
    seen.append(x)
    return x


# save: loads
# case: ([1, 5, 7, 9],)
# case: ([1, 2],)
def side_effects_until_decided(xs: List[int]) -> Tuple[bool, List[int], bool, List[int]]:
    seen: List[int] = []
    a = any(note(x, seen) > 4 for x in xs)
    seen2: List[int] = []
    b = all(note(x, seen2) < 4 for x in xs)
    return a, seen, b, seen2


# save: loads
# case: ([[1, 2], [3, 4], [0]], 3)
# case: ([[1], [2, 0]], 6)
def nested_clauses_and_ifs(rows: List[List[int]], k: int) -> Tuple[bool, bool]:
    hit = any(12 // v == k for row in rows if len(row) > 0 for v in row)
    ok = all(12 // v < 20 for row in rows for v in row if v != 0)
    return hit, ok


# save: loads
# case: (torch.tensor([0.0, 2.0, 0.0]),)
# case: (torch.zeros(3),)
def tensor_elements_by_truth(t: torch.Tensor) -> Tuple[bool, bool]:
    return any(t[i] for i in range(t.size(0))), all(t[i] for i in range(t.size(0)))


# save: loads
# case: (0,)
# case: (2,)
def over_a_tuple(d: int) -> Tuple[bool, bool]:
    ds = (2, d, 0)
    return any(6 // v == 3 for v in ds), all(6 // v > 3 for v in ds)


# save: loads
# case: ("abc",)
# case: ("",)
def over_strings(s: str) -> Tuple[bool, bool]:
    return any(c == "b" for c in s), all(c != "z" for c in s)
