# String methods and operators: split (with/without separator, maxsplit), join, strip family,
# replace, find/rfind, startswith/endswith, upper/lower, isdigit/isalpha/..., zfill, center/ljust/
# rjust, count, slicing with steps, in, comparisons, concatenation, indexing.
import torch
from typing import List, Tuple


# case: ("  a b   c  ", "x,y,,z")
def split_variants(s: str, t: str) -> List[List[str]]:
    return [s.split(), t.split(","), t.split(",", 1), s.split(" "), "".split(), t.rsplit(",", 1)]


# case: (["a", "b", "c"],)
def join(xs: List[str]) -> Tuple[str, str, str]:
    e: List[str] = []
    return "-".join(xs), "".join(xs), ", ".join(e)


# case: ("  \thello \n",)
# case: ("xxhixx",)
def strip_family(s: str) -> List[str]:
    return [s.strip(), s.lstrip(), s.rstrip(), s.strip("x"), s.lstrip(" \tx"), s.rstrip("\nx ")]


# case: ("banana",)
def replace_count(s: str) -> Tuple[str, str, str, int, int]:
    return s.replace("a", "o"), s.replace("an", "AN", 1), s.replace("zz", "y"), s.count("a"), s.count("an")


# case: ("hello world", "o")
# case: ("hello world", "z")
def find_variants(s: str, sub: str) -> List[int]:
    return [s.find(sub), s.rfind(sub), s.find(sub, 5), s.find(sub, 0, 4), s.find("")]


# case: ("hello world",)
def starts_ends(s: str) -> List[bool]:
    return [s.startswith("hell"), s.startswith("world"), s.endswith("world"), s.endswith(""), s.startswith("world", 6)]


# case: ("Hello World 42",)
def case_methods(s: str) -> List[str]:
    return [s.upper(), s.lower(), s.swapcase(), s.capitalize(), s.title()]


# case: ("123", "12a", "", "abc", "   ", "Abc")
def predicates(a: str, b: str, c: str, d: str, e: str, f: str) -> List[bool]:
    return [a.isdigit(), b.isdigit(), c.isdigit(), d.isalpha(), b.isalnum(), e.isspace(), f.istitle(),
            d.islower(), f.isupper()]


# case: ("42", "-7", "abc")
def zfill_center(a: str, b: str, c: str) -> List[str]:
    return [a.zfill(5), b.zfill(5), c.zfill(2), c.center(9), c.center(8, "*"), c.ljust(6, "."), c.rjust(6)]


# case: ("abcdefgh",)
def str_slicing(s: str) -> List[str]:
    return [s[1:4], s[::2], s[::-1], s[-3:], s[:-3], s[6:1:-2], s[100:], s[0], s[-1]]


# case-raises: ("abc",)
def str_index_out_of_range(s: str) -> str:
    return s[5]


# case: ("hello", "ell", "xyz")
def in_operator(s: str, a: str, b: str) -> List[bool]:
    return [a in s, b in s, b not in s, "" in s]


# case: ("apple", "banana", "apple")
def comparisons(a: str, b: str, c: str) -> List[bool]:
    return [a < b, a > b, a == c, a != b, a <= c, "Z" < "a"]


# case: ("ab", 3)
def concat_and_build(s: str, n: int) -> str:
    out = ""
    for i in range(n):
        out = out + s + str(i)
    out += "!"
    return out


# case: ("a,b;c",)
def partition(s: str) -> Tuple[Tuple[str, str, str], Tuple[str, str, str]]:
    return s.partition(","), s.rpartition(";")


# case: ("line1\nline2\n\nline4",)
def splitlines(s: str) -> List[str]:
    return s.splitlines()


# case: ("Hello",)
def str_len_index_loop(s: str) -> List[int]:
    out: List[int] = []
    for i in range(len(s)):
        out.append(ord(s[i]))
    return out


# case: ("a-b-c",)
def index_rindex(s: str) -> Tuple[int, int]:
    return s.index("-"), s.rindex("-")


# case-raises: ("abc",)
def index_missing(s: str) -> int:
    return s.index("z")


# case: ("tab\there",)
def expandtabs(s: str) -> str:
    return s.expandtabs(4)
