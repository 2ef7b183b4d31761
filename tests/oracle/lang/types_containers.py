# Containers: List, Dict, Tuple (nested), empty containers typed by torch.jit.annotate and by variable
# annotations, containers of tensors, tuple indexing and unpacking, dict key types.
from typing import Dict, List, Optional, Tuple

import torch


# case: (3,)
# case: (0,)
def empty_list_annotate(n: int) -> List[float]:
    xs = torch.jit.annotate(List[float], [])
    for i in range(n):
        xs.append(i * 0.5)
    return xs


# case: (["a", "bb", "a", "ccc"],)
def empty_dict_variable_annotation(words: List[str]) -> Dict[str, int]:
    counts: Dict[str, int] = {}
    for w in words:
        if w in counts:
            counts[w] += 1
        else:
            counts[w] = len(w)
    return counts


# case: ()
def empty_dict_annotate() -> Dict[int, List[str]]:
    d = torch.jit.annotate(Dict[int, List[str]], {})
    d[3] = ["x"]
    d[1] = torch.jit.annotate(List[str], [])
    d[3].append("y")
    return d


# case: ([torch.ones(2), torch.zeros(2), torch.arange(2.0)],)
def list_of_tensors(ts: List[torch.Tensor]) -> Tuple[torch.Tensor, int]:
    acc = torch.zeros(2)
    for t in ts:
        acc = acc + t
    return acc, len(ts)


# case: ((1, "two", 3.0),)
def tuple_indexing(t: Tuple[int, str, float]) -> Tuple[float, str, int]:
    a, b, c = t
    return t[2] + a, b + b, t[0]


# case: (((1, 2), [3, 4]),)
def nested_tuple_list(t: Tuple[Tuple[int, int], List[int]]) -> List[int]:
    (a, b), xs = t
    out = [a, b]
    out.extend(xs)
    return out


# case: ({1: [1.0, 2.0], 5: []},)
def dict_int_keys(d: Dict[int, List[float]]) -> Tuple[List[int], List[float]]:
    keys: List[int] = []
    sums: List[float] = []
    for k, v in d.items():
        keys.append(k)
        s = 0.0
        for x in v:
            s += x
        sums.append(s)
    return keys, sums


# case: ([[1, 2], [], [3]],)
def list_of_lists(xss: List[List[int]]) -> List[int]:
    lens = [len(xs) for xs in xss]
    xss.append(lens)
    return xss[-1]


# case: ({"w": torch.ones(2, 2), "b": torch.zeros(2)},)
def dict_of_tensors(p: Dict[str, torch.Tensor]) -> Dict[str, torch.Tensor]:
    out: Dict[str, torch.Tensor] = {}
    for name in p.keys():
        out[name + "_sq"] = p[name] * p[name]
    return out


# case: ([None, 1, None, 4],)
def list_of_optional(xs: List[Optional[int]]) -> Tuple[int, int]:
    nones = 0
    total = 0
    for x in xs:
        if x is None:
            nones += 1
        else:
            total += x
    return nones, total


# case: (2,)
def tuple_returned_nested(n: int) -> Tuple[int, Tuple[str, List[bool]]]:
    flags = [i % 2 == 0 for i in range(n + 1)]
    return n, ("n", flags)


# case: ({"a": 1.5},)
def dict_get_default(d: Dict[str, float]) -> Tuple[float, float, Optional[float]]:
    return d.get("a", 0.0), d.get("z", -1.0), d.get("q")


# case: ([3, 1, 2],)
def list_in_tuple_aliasing(xs: List[int]) -> Tuple[List[int], List[int]]:
    t = (xs, [0])
    t[0].append(9)
    return xs, t[1]


# case: ((True, 2.5),)
def tuple_bool_float(t: Tuple[bool, float]) -> float:
    if t[0]:
        return t[1] * 2.0
    return t[1]
