"""Python functions taking *args, called from compiled code, scripted by kindling.jit.script against eager.

torch.jit.script 1.13 rejects every def with *args ("Compiled functions can't take variable number of
arguments"). Kindling binds them at each call: the call's extra positional arguments become parameters of a
specialization compiled once per list of their types (or as `*xs: T` declares), the body seeing `xs` as their
tuple, so iteration, len, indexing, unpacking and forwarding with f(*xs) work, and the saved archive (plain
functions with fixed parameters) runs in torch.jit.load. An entry point taking *args (the function scripted
itself, or forward) and **kwargs stay errors, as in torch.
"""
from pyapi_helpers import assert_same, script_save_and_compare  # noqa: F401  (first: puts the package on sys.path)

from typing import Tuple

import pytest
import torch

import kindling.jit


def total(*xs):
    t = 0
    for x in xs:
        t = t + x
    return t


def first_and_count(*xs) -> Tuple[int, int]:
    return xs[0], len(xs)


def forwards(*xs):
    return total(*xs) * 2


def scaled(a: int, b: int = 2, *rest: int, scale: int = 1):
    return (a + b + total(*rest) if len(rest) > 0 else a + b) * scale


def cat_all(*ts: torch.Tensor) -> torch.Tensor:
    return torch.cat(list(ts))


def difference(*xs):
    a, b = xs
    return a - b


def ints(n: int):
    return total(n, n, 1), total(n), first_and_count(n, 4, 5), forwards(n, 3), difference(n, 2)


def floats_and_mixed(f: float, n: int):
    return total(f, 0.5), total(n, f), forwards(f, f, f)


def tensors(x: torch.Tensor):
    return total(x, x), cat_all(x, x, x), cat_all(x), difference(x, x * 2)


def defaults_and_keywords(a: int):
    return scaled(a), scaled(a, 5), scaled(a, 5, 6, 7), scaled(a, 2, 3, scale=3), scaled(a, scale=4)


def no_extra_arguments() -> int:
    return total()


CASES = {
    "ints": (ints, (3,)),
    "floats_and_mixed": (floats_and_mixed, (1.5, 2)),
    "tensors": (tensors, (torch.randn(2, 3),)),
    "defaults_and_keywords": (defaults_and_keywords, (4,)),
    "no_extra_arguments": (no_extra_arguments, ()),
}


@pytest.mark.parametrize("case", list(CASES))
def test_varargs_calls_match_eager(case, tmp_path):
    fn, args = CASES[case]
    expected = fn(*args)
    with pytest.raises(Exception, match="variable number of arguments"):
        torch.jit.script(fn)
    script_save_and_compare(fn, args, expected, tmp_path / "f.pt")


def test_each_argument_types_get_their_own_specialization():
    ours = kindling.jit.script(floats_and_mixed)
    code = ours.code
    # total(float, float) and total(int, float) are two functions; forwards(f, f, f) calls total(*xs) once more
    assert code.count("total") >= 2 and "___torch_mangle_" in code, code


def test_entry_points_taking_varargs_are_rejected():
    with pytest.raises(kindling.jit.CompileError, match="variable number of arguments") as e:
        kindling.jit.script(total)
    assert "<--- HERE" in str(e.value) and "test_script_varargs.py" in str(e.value)

    class Forward(torch.nn.Module):
        def forward(self, *inputs):
            return inputs[0]

    with pytest.raises(kindling.jit.CompileError, match="variable number of arguments"):
        kindling.jit.script(Forward())


def takes_kwargs(x: int, **kw):
    return x


def calls_kwargs(x: int):
    return takes_kwargs(x, y=2)


def test_kwargs_stay_rejected():
    with pytest.raises(kindling.jit.CompileError, match="variable number of arguments") as e:
        kindling.jit.script(calls_kwargs)
    assert "takes_kwargs" in str(e.value)


def countdown(n: int, *xs: int) -> int:
    if n == 0:
        return len(xs)
    return countdown(n - 1, *xs)


def calls_countdown(a: int):
    return countdown(3, a, a)


def plain_countdown(n: int) -> int:
    if n == 0:
        return 0
    return plain_countdown(n - 1)


def test_recursive_varargs_call_is_rejected_as_recursion():
    """A *args function calling itself with the same argument types needs the specialization being
    compiled: the error is the compiler's (and torch.jit's) for recursive calls, not a Python
    RecursionError from compiling specializations forever."""
    assert calls_countdown(2) == 2
    with pytest.raises(Exception) as torch_err:
        torch.jit.script(plain_countdown)
    assert "called recursively" in str(torch_err.value)
    with pytest.raises(kindling.jit.CompileError, match="function 'countdown' is called recursively") as e:
        kindling.jit.script(calls_countdown)
    assert "RecursionError" not in str(e.value)
