# String formatting as 1.13 accepts it: str.format with positional {} (no format specs), the `%`
# operator with %d %s %f %i %e %c, f-strings with plain replacement fields.
import torch
from typing import List, Tuple


# case: (3, 2.5, "x", True)
def format_method(n: int, f: float, s: str, b: bool) -> str:
    return "n={} f={} s={} b={}".format(n, f, s, b)


# case: ([1, 2], (3, "y"))
def format_containers(xs: List[int], t: Tuple[int, str]) -> str:
    return "{} and {}".format(xs, t)


# case: (torch.tensor([1.0, 2.0]),)
def format_tensor(x: torch.Tensor) -> str:
    return "t: {}".format(x)


# case: (1.0, 1e-10, 123456789012.0)
def format_floats(a: float, b: float, c: float) -> str:
    return "{} {} {}".format(a, b, c)


# case: (7, "seven")
def percent_format(n: int, s: str) -> str:
    return "%d is %s" % (n, s)


# case: (2.5,)
def percent_float(f: float) -> List[str]:
    return ["%f" % (f,), "%e" % (f,), "%d" % (3,), "%i" % (4,), "%s" % (f,), "%c" % (65,), "100%% %s" % ("done",)]


# case: (5, "x")
def f_strings(n: int, s: str) -> str:
    return f"{n} and {s}: {n * 2}{s}"


# case: (3,)
def f_string_no_fields(n: int) -> str:
    return f"constant" + str(n)


# case-raises: (1,)
def format_braces_not_escapes(n: int) -> str:
    # aten::format does not treat {{ as an escape: two fields, one argument
    return "{{}} {}".format(n)


# case: (2, 3)
def format_in_loop(a: int, b: int) -> List[str]:
    out: List[str] = []
    for i in range(a):
        out.append("row {}: {}".format(i, i * b))
    return out
