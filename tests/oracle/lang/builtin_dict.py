# Dict methods: get (with default), setdefault, pop (with default), update, keys/values/items in
# insertion order, in, clear, copy, len, popitem, missing keys, int/float/str/Tensor keys.
import torch
from typing import Dict, List, Optional, Tuple


# case: ({"a": 1, "b": 2},)
def get_variants(d: Dict[str, int]) -> Tuple[Optional[int], Optional[int], int, int]:
    return d.get("a"), d.get("z"), d.get("z", -1), d.get("b", 0)


# case: ({"a": 1},)
def setdefault(d: Dict[str, int]) -> Tuple[int, int, Dict[str, int]]:
    x = d.setdefault("a", 10)
    y = d.setdefault("b", 20)
    return x, y, d


# case: ({"a": 1, "b": 2, "c": 3},)
def pop_variants(d: Dict[str, int]) -> Tuple[int, int, List[str]]:
    x = d.pop("b")
    y = d.pop("zz", 42)
    return x, y, list(d.keys())


# case-raises: ({"a": 1},)
def pop_missing(d: Dict[str, int]) -> int:
    return d.pop("b")


# case-raises: ({"a": 1},)
def getitem_missing(d: Dict[str, int]) -> int:
    return d["b"]


# case: ({"a": 1, "b": 2}, {"b": 20, "c": 30})
def update_order(a: Dict[str, int], b: Dict[str, int]) -> Tuple[List[str], List[int]]:
    a.update(b)
    return list(a.keys()), list(a.values())


# case: ({3: "c", 1: "a", 2: "b"},)
def items_order_int_keys(d: Dict[int, str]) -> List[Tuple[int, str]]:
    d[0] = "z"
    d[3] = "C"       # overwriting keeps the original position
    return list(d.items())


# case: ({"a": 1.5},)
def in_and_not_in(d: Dict[str, float]) -> List[bool]:
    return ["a" in d, "b" in d, "b" not in d]


# case: ({"a": 1, "b": 2},)
def clear_copy(d: Dict[str, int]) -> Tuple[Dict[str, int], Dict[str, int], int]:
    c = d.copy()
    alias = d
    d.clear()
    return c, alias, len(d)


# case: ({1.5: 1, -2.0: 2},)
def float_keys(d: Dict[float, int]) -> Tuple[int, List[float]]:
    d[0.25] = 3
    return d[1.5] + d[0.25], list(d.keys())


# case: (["a", "b", "a", "c", "b", "a"],)
def word_count(words: List[str]) -> Dict[str, int]:
    counts: Dict[str, int] = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    return counts


# case: (3,)
def build_dict_in_loop(n: int) -> Dict[int, List[int]]:
    d: Dict[int, List[int]] = {}
    for i in range(n):
        d[i] = [j for j in range(i)]
    return d


# case: ({"x": torch.ones(2), "y": torch.zeros(2)},)
def dict_of_tensors(d: Dict[str, torch.Tensor]) -> torch.Tensor:
    d["z"] = d["x"] * 5
    total = torch.zeros(2)
    for k, v in d.items():
        total = total + v
    return total


# case: ({"b": 1, "a": 2},)
def sorted_keys(d: Dict[str, int]) -> List[str]:
    ks = list(d.keys())
    ks.sort()
    return ks


# case: ({"a": 1, "b": 2},)
def popitem(d: Dict[str, int]) -> Tuple[Tuple[str, int], int]:
    item = d.popitem()
    return item, len(d)


# case: ({"a": 1},)
def dict_literal_merge(d: Dict[str, int]) -> Dict[str, int]:
    e = {"b": 2, "a": 5}
    for k, v in d.items():
        e[k] = e.get(k, 0) * 10 + v
    return e


# case: ([("a", 1), ("b", 2)],)
def dict_from_pairs(pairs: List[Tuple[str, int]]) -> Dict[str, int]:
    d = dict(pairs)
    d["c"] = 3
    return d


# case: ({1: 2},)
def dict_len_bool(d: Dict[int, int]) -> Tuple[int, bool, bool]:
    e: Dict[int, int] = {}
    return len(d), bool(d), bool(e)
