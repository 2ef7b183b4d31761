# Strings are Unicode as in Python: every str method, operator and builtin Kindling has, walked over ASCII
# and 2-, 3- and 4-byte UTF-8 characters (and mixed), against eager Python. Indices, lengths, slices,
# widths and positions count code points. Inputs avoid the ASCII cases where Kindling keeps PyTorch 1.13's
# result (docs/str-unicode.md): an explicit end=-1, count() with an end, find("") with a start past the end,
# zfill of a signed number, '_' in isidentifier, \x1c-\x1f as whitespace, "\r\n" in splitlines.
import torch
from typing import List, Optional, Tuple

SAMPLES = [
    "hello World",                 # ASCII
    "héllo wörld ÀÉ ßtraße",       # 2-byte characters
    "中文 字符 ΟΔΟΣ € ǅungla",      # 3-byte characters (and Greek with a final sigma, a titlecase ǅ)
    "😀🎉 𝔘𝔫𝔦 𐐀𐐨𐐩 x",              # 4-byte characters (Deseret has case)
    "aé中😀 Ab",                    # mixed
    "",
]
WORDS = ["abc", "Ǆemal", "ünïcödé", "日本語", "𐐀𐐨", "ΣΑΣ", "ﬁne", "İstanbul", "Aa1", "x²", "١٢٣", "٣", "½", "Ⅻ",
         "123", " \t", "\u3000\u2003", "\xa0", "é\u0301", "\u0345", "ǈ", "ABC"]
VALS = [-100, -7, -3, -1, 0, 1, 2, 4, 6, 100]
STEPS = [-3, -2, -1, 1, 2, 3]


# case: (SAMPLES,)
def lengths(xs: List[str]) -> List[int]:
    return [len(x) for x in xs]


# case: (SAMPLES,)
def indexing(xs: List[str]) -> List[List[str]]:
    out: List[List[str]] = []
    for x in xs:
        row: List[str] = []
        for i in range(-len(x), len(x)):
            row.append(x[i])
        out.append(row)
    return out


# case-raises: ("aé中😀", 4)
# case-raises: ("aé中😀", -5)
# case: ("aé中😀", 3)
# case: ("aé中😀", -4)
def index_bounds(x: str, i: int) -> str:
    return x[i]


# case: (SAMPLES,)
def iteration(xs: List[str]) -> List[List[str]]:
    out: List[List[str]] = []
    for x in xs:
        row: List[str] = []
        for c in x:
            row.append(c)
        out.append(row)
    return out


# case: (SAMPLES,)
def to_list_and_enumerate(xs: List[str]) -> List[Tuple[List[str], List[int]]]:
    out: List[Tuple[List[str], List[int]]] = []
    for x in xs:
        idx: List[int] = []
        for i, c in enumerate(x):
            idx.append(i * ord(c) % 1000)
        out.append((list(x), idx))
    return out


# Every slice form with variable bounds: [a:b:c], [a:b], [a:], [:b], [::c], [a::c], [:b:c], [:], [::].
# case: (SAMPLES, VALS, STEPS)
def slices_variable(xs: List[str], vals: List[int], steps: List[int]) -> List[List[str]]:
    out: List[List[str]] = []
    for x in xs:
        row: List[str] = [x[:], x[::]]
        for a in vals:
            row.append(x[a:])
            row.append(x[:a])
            for b in vals:
                row.append(x[a:b])
                for c in steps:
                    row.append(x[a:b:c])
        for c in steps:
            row.append(x[::c])
            for a in vals:
                row.append(x[a::c])
                row.append(x[:a:c])
        out.append(row)
    return out


# Slices with constant bounds (folded at compile time where the bounds are constants).
# case: (SAMPLES,)
def slices_constant(xs: List[str]) -> List[List[str]]:
    out: List[List[str]] = []
    for x in xs:
        out.append([x[1:4], x[::2], x[::-1], x[-3:], x[:-3], x[6:1:-2], x[100:], x[-100:2], x[1::3],
                    x[:5:-1], x[-2::-2], x[3:3], x[::-3], x[5:None], x[None:2], x[None:None:-1]])
    return out


# Slices with Optional bounds passed in (None or an int).
# case: ("aé中😀 Ab", None, 3, 1)
# case: ("aé中😀 Ab", 1, None, -1)
# case: ("aé中😀 Ab", None, None, -2)
# case: ("aé中😀 Ab", -2, None, 1)
def slices_optional(x: str, a: Optional[int], b: Optional[int], c: int) -> str:
    return x[a:b:c]


# case-raises: ("aé中", 0)
def slice_zero_step(x: str, c: int) -> str:
    return x[::c]


# case: (SAMPLES + WORDS,)
def split_join(xs: List[str]) -> List[List[str]]:
    out: List[List[str]] = []
    for x in xs:
        out.append(x.split())
        out.append(x.split(" "))
        out.append(x.split(" ", 1))
        out.append(x.split("ö"))
        out.append(x.split("中"))
        out.append(x.split("🎉"))
        out.append(x.rsplit(" ", 1))
        out.append(x.rsplit("𐐨"))
        out.append(["|".join(x.split()), "é".join(list(x)), "😀".join([x, x])])
    return out


# case: ("a\u3000b\xa0c\u2003d e\u2028f", "a\nb\x85c\u2028d\u2029e\x0bf")
def split_unicode_whitespace(x: str, y: str) -> Tuple[List[str], List[str], List[str]]:
    return x.split(), y.splitlines(), y.split("\u2028")


# case: (SAMPLES[:-1], ["l", "ö", "中", "😀", "𝔫", "", " ", "Ab", "字符", "x"])
# case: ([""], ["a", "😀"])
def find_family(xs: List[str], subs: List[str]) -> List[List[int]]:
    out: List[List[int]] = []
    for x in xs:
        row: List[int] = []
        for sub in subs:
            row.append(x.find(sub))
            row.append(x.rfind(sub))
            row.append(x.count(sub))
            row.append(x.find(sub, 2))
            row.append(x.rfind(sub, 1))
            row.append(x.find(sub, 1, 6))
            row.append(x.rfind(sub, 0, 5))
            row.append(x.find(sub, -4))
            row.append(x.count(sub, 2))
            if sub in x:
                row.append(x.index(sub))
                row.append(x.rindex(sub))
        out.append(row)
    return out


# case-raises: ("aé中😀", "z")
def index_missing(x: str, sub: str) -> int:
    return x.index(sub)


# case: (SAMPLES, ["h", "hé", "中文", "😀", "x", "Ab", "ld", "", "ße"])
def starts_ends(xs: List[str], subs: List[str]) -> List[List[bool]]:
    out: List[List[bool]] = []
    for x in xs:
        row: List[bool] = []
        for sub in subs:
            row.extend([x.startswith(sub), x.endswith(sub), x.startswith(sub, 1), x.endswith(sub, 2),
                        x.startswith(sub, 3, 9), x.endswith(sub, 0, 5), sub in x, sub not in x])
        out.append(row)
    return out


# case: (SAMPLES + WORDS,)
def replace_partition(xs: List[str]) -> List[List[str]]:
    out: List[List[str]] = []
    for x in xs:
        a, b, c = x.partition(" ")
        d, e, f = x.rpartition("中")
        out.append([x.replace("é", "e"), x.replace("", "·"), x.replace("", "-", 3), x.replace("😀", "☺☺"),
                    x.replace("l", "ł", 1), a, b, c, d, e, f])
    return out


# case: (SAMPLES + WORDS + ["ΣΑΣ ΟΔΟΣ Σ aΣ. ΑΣ'Σ", "ŉ ǰ ΐ ﬀ ﬃ ẞ ß", "ǅ ǆ Ǆ", "ᾳ ᾼ ῳ"],)
def case_methods(xs: List[str]) -> List[List[str]]:
    return [[x.upper(), x.lower(), x.swapcase(), x.title(), x.capitalize()] for x in xs]


# case: (SAMPLES + WORDS,)
def predicates(xs: List[str]) -> List[List[bool]]:
    out: List[List[bool]] = []
    for x in xs:
        out.append([x.isdigit(), x.isalpha(), x.isalnum(), x.isdecimal(), x.isnumeric(), x.isspace(),
                    x.isprintable(), x.isupper(), x.islower(), x.istitle(), x.isidentifier()])
    return out


# Each character on its own.
# case: (SAMPLES + WORDS + ["\x85\u200b\u2028\ufeff\U0001F600\U000E0001"],)
def predicates_per_char(xs: List[str]) -> List[List[List[bool]]]:
    out: List[List[List[bool]]] = []
    for x in xs:
        row: List[List[bool]] = []
        for c in x:
            row.append([c.isdigit(), c.isalpha(), c.isalnum(), c.isdecimal(), c.isnumeric(), c.isspace(),
                        c.isprintable(), c.isupper(), c.islower(), c.istitle()])
        out.append(row)
    return out


# case: (SAMPLES + WORDS, ["", "é", "😀", " ", "h𝔫", "ΣΑ", "a中"])
def strip_family(xs: List[str], chars: List[str]) -> List[List[str]]:
    out: List[List[str]] = []
    for x in xs:
        row: List[str] = [x.strip(), x.lstrip(), x.rstrip(), (" " + x + "\t\n").strip()]
        for c in chars:
            y = c + c + x + c
            row.extend([y.strip(c), y.lstrip(c), y.rstrip(c), x.strip(c), x.strip(c + "ld")])
        out.append(row)
    return out


# case: (SAMPLES + WORDS, ["*", "é", "中", "😀"])
def padding(xs: List[str], fills: List[str]) -> List[List[str]]:
    out: List[List[str]] = []
    for x in xs:
        row: List[str] = []
        for w in [0, 3, 8, 11, 12, 20, 25]:
            row.extend([x.zfill(w), x.center(w), x.ljust(w), x.rjust(w)])
            for f in fills:
                row.extend([x.center(w, f), x.ljust(w, f), x.rjust(w, f)])
        out.append(row)
    return out


# case-raises: ("abc", "éé")
def padding_bad_fill(x: str, f: str) -> str:
    return x.center(9, f)


# case: (["a\tbé\t中\tc", "😀\t\t𐐀x\té", "\té\nü\tx"],)
def expandtabs(xs: List[str]) -> List[List[str]]:
    return [[x.expandtabs(), x.expandtabs(4), x.expandtabs(1), x.expandtabs(0)] for x in xs]


# case: (SAMPLES, [65, 233, 0x4E2D, 0x1F600, 0x10400, 0x10FFFF, 0, 0x7F, 0x80, 0x7FF, 0x800, 0xFFFF, 0x10000])
def ord_chr(xs: List[str], cps: List[int]) -> Tuple[List[List[int]], List[str], List[int], List[bool]]:
    ords: List[List[int]] = []
    same: List[bool] = []
    for x in xs:
        row: List[int] = []
        for c in x:
            row.append(ord(c))
            same.append(chr(ord(c)) == c)
        ords.append(row)
    chars: List[str] = []
    lens: List[int] = []
    for i in cps:
        chars.append(chr(i))
        lens.append(len(chr(i) + "é"))
    return ords, chars, lens, same


# case-raises: (0x110000,)
# case-raises: (-1,)
def chr_range(i: int) -> str:
    return chr(i)


# case-raises: ("é中",)
def ord_two(x: str) -> int:
    return ord(x)


# case: (SAMPLES + WORDS,)
def comparisons(xs: List[str]) -> Tuple[List[List[bool]], List[str], List[str]]:
    out: List[List[bool]] = []
    for x in xs:
        for y in xs:
            out.append([x < y, x <= y, x > y, x >= y, x == y, x != y])
    s = sorted(xs)
    r = list(xs)
    r.sort(reverse=True)
    return out, s, r


# case: (SAMPLES,)
def formatting(xs: List[str]) -> List[str]:
    out: List[str] = []
    for x in xs:
        out.append("<{}|{}>".format(x, len(x)))
        out.append("%s=%d" % (x, len(x)))
        out.append(f"{x}:{x[::-1]}")
        out.append(x + "é" + x[1:3])
        out.append(str(len(x)) + str(x))
    out.append("%c%c%c" % (233, 0x4E2D, 0x1F600))
    out.append("%c" % ("中",))
    return out


# print() of non-ASCII strings and their slices.
# case: (["é", "中文", "😀🎉x"],)
def printing(xs: List[str]) -> List[str]:
    print(xs[0][0], xs[1][1:], xs[2][::-1], xs[2][1])
    print("|".join(xs))
    return [xs[2][1:], xs[1][:1]]


# Non-ASCII constants in a saved archive (constants.pkl) load in PyTorch; the inputs are ASCII, where
# PyTorch's byte-based methods agree with Python.
# save: loads
# case: ("abc",)
# case: ("x",)
def saved_constants(x: str) -> Tuple[str, List[str], str]:
    greeting = "héllo 中文 😀"
    return greeting + x, [x, "é", "𐐀"], "ü" + x.upper() + "€"
