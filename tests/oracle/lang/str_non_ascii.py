# Non-ASCII strings through the str operations where PyTorch 1.13's byte-based implementation gives
# Python's result (no lengths, indices or character classes involved): concatenation, str() and print of
# containers (TorchScript's format, strings unquoted), format, join, replace, split on a separator,
# partition, comparisons, sorting, equality, dict keys, `in`. (Code-point semantics: lang_python/str_unicode.py.)
# The non-ASCII strings are arguments: PyTorch's graph printer writes non-ASCII string constants as octal
# escapes of signed bytes that no parser reads back (Kindling prints them the same way).
import torch
from typing import Dict, List, Tuple


# case: (["é", "中文", "😀", "a"],)
def container_str(xs: List[str]) -> List[str]:
    d: Dict[str, int] = {}
    for i, x in enumerate(xs):
        d[x] = i
    t = (xs[0], xs[1])
    print(xs, d, t)
    return [str(xs), str(d), str(t), "{} {}".format(xs, d), "%s" % (xs,)]


# case: ("héllo wörld 中文 😀🎉", "ö", ["😀", "中文", "字"])
def join_replace_split(x: str, sep: str, w: List[str]) -> Tuple[List[str], str, str, Tuple[str, str, str], List[str]]:
    parts = x.split(sep)
    return parts, w[0].join(parts), x.replace(w[1], w[2]), x.partition(" "), x.rsplit(" ", 1)


# case: (["ü", "u", "中", "😀", "z", "é", "e"], ["中", "文", "😀"])
def ordering(xs: List[str], w: List[str]) -> Tuple[List[str], List[bool], bool, bool]:
    c: List[bool] = []
    for a in xs:
        for b in xs:
            c.append(a < b)
    return sorted(xs), c, w[0] in xs, w[0] + w[1] + w[2] == "".join(w)


# case: ("中文", "😀")
def concat_format(a: str, b: str) -> List[str]:
    return [a + b, "{}-{}".format(a, b), f"[{a}]{b}", "%s/%s" % (a, b), a.upper() + b.lower(), a.strip() + b]
