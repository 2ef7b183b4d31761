# Defs taking *args and **kwargs (PyTorch 1.13: "Compiled functions can't take variable number of arguments"),
# bound statically at each call as Python binds them: the extra positional arguments are `args` (a tuple), the
# keyword arguments that name no parameter are `kwargs`, whose keys each call fixes — kwargs["k"],
# kwargs.get, `"k" in kwargs`, len, truth, iteration over keys/values/items, `**kwargs` passed on, a dict value
# when every argument has one type. Each binding is its own function; an entry point binds nothing. Saved by
# Kindling as plain functions and run by torch.jit.load.
import torch
from typing import Dict, List, Tuple


def total(*xs):
    t = 0
    for x in xs:
        t = t + x
    return t


def scale(x: float, **kw: float) -> float:
    return x * kw.get("factor", 1.0) + kw.get("shift", 0.0)


def inner(a: int, b: int = 2, c: int = 3) -> int:
    return a * 100 + b * 10 + c


def outer(a: int, **kw):
    return inner(a, **kw)


def describe(**kw) -> str:
    if "name" in kw:
        return "name=" + kw["name"]
    if "count" not in kw:
        return "nothing"
    return "count=" + str(kw["count"] + 1)


def summary(**kw: int) -> Tuple[int, int, str]:
    s = 0
    keys = ""
    for k, v in kw.items():
        s += v
        keys += k
    for k in kw:
        keys += k.upper()
    for v in kw.values():
        s += v * 100
    return len(kw), s, keys


def truth(**kw) -> Tuple[bool, bool, int]:
    n = 0
    if kw:
        n = len(kw)
    return (True if kw else False), not kw, n


def mixed(**kw) -> Tuple[int, str, float]:
    return kw["a"] + 1, kw["b"] + "x", kw.get("c", 0.5)


def as_dict(**kw: int) -> Dict[str, int]:
    return kw


def kwonly(x: int, *, flag: bool = False, **rest: int) -> int:
    y = x + len(rest)
    if flag:
        y = -y
    for v in rest.values():
        y = y * 10 + v
    return y


def with_default(x: int, y: int = 3, **kw: int) -> int:
    return x + y * 10 + kw.get("z", 0) * 100


def wrapper(*args, **kwargs):
    return inner(*args, **kwargs)


def head_and_rest(first: int, *rest: int) -> Tuple[int, int, List[int]]:
    return first, len(rest), [r * 2 for r in rest]


def tensors(x: torch.Tensor, **kw: torch.Tensor) -> torch.Tensor:
    out = x
    if "bias" in kw:
        out = out + kw["bias"]
    if "weight" in kw:
        out = out * kw["weight"]
    return out


# save: loads
# case: (3,)
def args_of_several_types(n: int) -> Tuple[int, float, int, int]:
    return total(n, n, 1), total(n, 0.5), total(), total(n)


# save: loads
# case: (2.0,)
def kwargs_get(x: float) -> Tuple[float, float, float, float]:
    return scale(x), scale(x, factor=3.0), scale(x, shift=1.5), scale(x, shift=1.0, factor=2.0)


# save: loads
# case: (1,)
def kwargs_passed_on(a: int) -> Tuple[int, int, int, int]:
    return outer(a), outer(a, c=5), outer(a, b=4, c=0), outer(a=a, c=9)


# save: loads
# case: (4,)
def kwargs_in_tests(n: int) -> Tuple[str, str, str]:
    return describe(name="ab"), describe(count=n), describe()


# save: loads
# case: (5,)
def kwargs_iterated(n: int) -> Tuple[Tuple[int, int, str], Tuple[int, int, str]]:
    return summary(x=n, yy=2), summary()


# save: loads
# case: ()
def kwargs_truth() -> Tuple[Tuple[bool, bool, int], Tuple[bool, bool, int], Tuple[bool, bool, int]]:
    return truth(), truth(a=1), truth(a=1, b="x")


# save: loads
# case: (7,)
def kwargs_of_different_types(n: int) -> Tuple[Tuple[int, str, float], Tuple[int, str, float]]:
    return mixed(a=n, b="s"), mixed(b="t", c=2.5, a=0)


# save: loads
# case: (2,)
def kwargs_as_a_dict(n: int) -> Tuple[Dict[str, int], Dict[str, int]]:
    return as_dict(b=n, a=n * 2), as_dict()


# save: loads
# case: (3,)
def keyword_only_and_kwargs(n: int) -> Tuple[int, int, int, int]:
    return kwonly(n), kwonly(n, flag=True), kwonly(n, p=1, q=2), kwonly(n, q=4, flag=True)


# save: loads
# case: (1,)
def defaults_kept_with_kwargs(n: int) -> Tuple[int, int, int, int]:
    return with_default(n), with_default(n, z=2), with_default(n, 5, z=3), with_default(n, y=7)


# save: loads
# case: (6,)
def forwarding_wrapper(n: int) -> Tuple[int, int, int]:
    return wrapper(n), wrapper(n, 1), wrapper(n, c=0, b=9)


# save: loads
# case: (1,)
def dict_display_unpacked(n: int) -> Tuple[int, int]:
    return inner(n, **{"c": 7}), outer(n, **{"b": 5, "c": 6})


# save: loads
# case: (9,)
def args_after_fixed(n: int) -> Tuple[Tuple[int, int, List[int]], Tuple[int, int, List[int]]]:
    return head_and_rest(n), head_and_rest(n, 1, 2, 3)


# save: loads
# case: (torch.tensor([1.0, 2.0]),)
def tensor_kwargs(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    return tensors(x), tensors(x, bias=x), tensors(x, weight=x * 2, bias=torch.ones(2))


# save: loads
# case: (2,)
def entry_point_taking_args(n: int, *more: int) -> int:
    return n + len(more) + total(*more)


# save: loads
# case: (2,)
def entry_point_taking_kwargs(n: int, **options: int) -> int:
    return n + len(options) + options.get("extra", 10)
