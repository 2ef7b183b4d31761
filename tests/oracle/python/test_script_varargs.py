"""Python functions taking *args and **kwargs, called from compiled code, scripted by kindling.jit.script
against eager.

torch.jit.script 1.13 rejects every def with *args or **kwargs ("Compiled functions can't take variable number
of arguments"). Kindling binds them at each call: the call's extra positional arguments and the keyword
arguments that name no parameter become parameters of a specialization compiled once per binding (their types
from the call, or as `*xs: T` / `**kw: T` declare), the body seeing `xs` as their tuple and `kw` as a dict whose
keys are known statically, so iteration, len, indexing, unpacking, kw["k"], kw.get, `in` and forwarding with
f(*xs, **kw) work, and the saved archive (plain functions with fixed parameters) runs in torch.jit.load. An
entry point (the function scripted itself, or forward) binds nothing: `args` is () and `kwargs` is empty.
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


def test_entry_points_taking_varargs_bind_nothing(tmp_path):
    with pytest.raises(Exception, match="variable number of arguments"):
        torch.jit.script(total)
    script_save_and_compare(total, (), total(), tmp_path / "f.pt")

    class Forward(torch.nn.Module):
        def forward(self, x, *args, **kwargs):
            y = x * 2
            if "bias" in kwargs:
                y = y + kwargs["bias"]
            return y + len(args) + len(kwargs)

    x = torch.randn(2, 3)
    with pytest.raises(Exception, match="variable number of arguments"):
        torch.jit.script(Forward())
    ours = script_save_and_compare(Forward(), (x,), Forward()(x), tmp_path / "m.pt")
    assert str(ours.forward.schema).endswith("self, Tensor x) -> Tensor"), ours.forward.schema


def takes_kwargs(x: int, **kw):
    return x + len(kw)


def calls_kwargs(x: int):
    return takes_kwargs(x, y=2), takes_kwargs(x)


def test_kwargs_bound_per_call(tmp_path):
    with pytest.raises(Exception, match="variable number of arguments"):
        torch.jit.script(calls_kwargs)
    script_save_and_compare(calls_kwargs, (3,), calls_kwargs(3), tmp_path / "f.pt")


def activation(x: torch.Tensor, **options: float) -> torch.Tensor:
    return torch.nn.functional.leaky_relu(x, options.get("slope", 0.01)) * options.get("gain", 1.0)


class UsesActivation(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 3)

    def forward(self, x):
        y = self.lin(x)
        return activation(y) + activation(y, slope=0.2) + activation(y, gain=2.0, slope=0.5)


def test_module_calling_a_function_with_kwargs(tmp_path):
    torch.manual_seed(0)
    model = UsesActivation()
    x = torch.randn(4, 3)
    with torch.no_grad():
        ours = script_save_and_compare(model, (x,), model(x), tmp_path / "m.pt")
    assert ours.code.count("activation") == 3, ours.code


def mixed_kwargs(**kw):
    return kw["n"] * 2, kw["s"] + "!", kw.get("missing", 1.5)


def calls_mixed(n: int):
    return mixed_kwargs(s="a", n=n)


def test_kwargs_of_several_types_are_used_by_key(tmp_path):
    script_save_and_compare(calls_mixed, (4,), calls_mixed(4), tmp_path / "f.pt")


def returns_kwargs(**kw):
    return kw


def calls_returns_kwargs(n: int):
    return returns_kwargs(a=n, b="x")


def test_kwargs_of_several_types_as_a_value_is_an_error():
    with pytest.raises(kindling.jit.CompileError, match="arguments of different types") as e:
        kindling.jit.script(calls_returns_kwargs)
    assert "returns_kwargs" in str(e.value)


def positional_only(a: int, b: int = 1):
    return a + b


def passes_unknown_keyword(n: int):
    return positional_only(n, c=2)


def passes_too_many(n: int):
    return takes_kwargs(n, 1)


def test_binding_errors_are_pythons():
    with pytest.raises(kindling.jit.CompileError, match="c"):
        kindling.jit.script(passes_unknown_keyword)
    with pytest.raises(kindling.jit.CompileError, match=r"takes_kwargs\(\) takes 1 positional arguments but 2 were given"):
        kindling.jit.script(passes_too_many)


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


def changes_kwargs(**kw: int) -> int:
    kw["extra"] = 1
    return len(kw)


def pops_kwargs(**kw: int) -> int:
    return kw.pop("a", 0)


def calls_changes(n: int):
    return changes_kwargs(a=n)


def calls_pops(n: int):
    return pops_kwargs(a=n)


def test_changing_kwargs_is_an_error_not_a_silent_copy():
    """The keys of **kwargs are fixed per call: a change would be lost on a copy, so it is refused."""
    for fn, what in ((calls_changes, "an item assigned"), (calls_pops, "pop")):
        with pytest.raises(kindling.jit.CompileError, match="cannot be changed") as e:
            kindling.jit.script(fn)
        assert what in str(e.value)
