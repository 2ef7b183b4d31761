"""Overloaded methods and functions scripted by kindling.jit.script, against torch.jit.script 1.13.

A method declared with @torch._jit_internal._overload_method (or kindling.jit._overload_method) compiles
to name__0, name__1, ...: each declaration's signature with the implementation's body and defaults; a
call (`self.m(x)`, or `sub(x)` for an overloaded forward) becomes a call of the first overload whose schema
matches the arguments. Free functions declared with torch.jit._overload (or kindling.jit._overload)
compile to one function per declaration, named as torch names them. Each case is scripted by torch.jit
first, then by Kindling inside kindling_only (torch.jit and torch._C._jit_* raise there); outputs equal
eager's and torch.jit's, and Kindling's saved archive loaded by torch.jit.load gives the same outputs."""
from pyapi_helpers import assert_same, kindling_only, script_save_and_compare  # noqa: F401  (first: puts the package on sys.path)
from typing import List, Optional, Tuple

import pytest
import torch
import torch.nn as nn

import kindling.jit


# ---------------------------------------------------------------- overloaded methods (torch's decorator)

class Scale(nn.Module):
    """forward overloaded on the type of its first argument, with an Optional default."""

    def __init__(self):
        super().__init__()
        self.k = 3

    @torch._jit_internal._overload_method  # noqa: F811
    def forward(self, x: torch.Tensor, bias: Optional[torch.Tensor] = None) -> torch.Tensor:
        pass

    @torch._jit_internal._overload_method  # noqa: F811
    def forward(self, x: int, bias: Optional[torch.Tensor] = None) -> int:
        pass

    @torch._jit_internal._overload_method  # noqa: F811
    def forward(self, x: List[int], bias: Optional[torch.Tensor] = None) -> List[int]:
        pass

    def forward(self, x, bias: Optional[torch.Tensor] = None):  # noqa: F811
        if isinstance(x, torch.Tensor):
            y = x * self.k
            if bias is not None:
                y = y + bias
            return y
        elif isinstance(x, int):
            return x * self.k + 1
        else:
            return [v * self.k for v in x]


class UsesScale(nn.Module):
    """Calls each overload of a submodule's forward, positional and keyword."""

    def __init__(self):
        super().__init__()
        self.s = Scale()

    def forward(self, t: torch.Tensor, n: int):
        a = self.s(t)
        b = self.s(t, t + 1)
        c = self.s(n)
        d = self.s.forward([n, n + 1], bias=None)
        return a + b, c, d


class Helper(nn.Module):
    """An overloaded helper method compiled when forward first calls it (not forward itself)."""

    @kindling.jit._overload_method  # noqa: F811
    @torch._jit_internal._overload_method
    def pick(self, x: torch.Tensor) -> torch.Tensor:
        ...

    @kindling.jit._overload_method  # noqa: F811
    @torch._jit_internal._overload_method
    def pick(self, x: Tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
        ...

    def pick(self, x):  # noqa: F811
        if isinstance(x, torch.Tensor):
            return x.sum(0)
        else:
            return x[0] - x[1]

    def forward(self, x):
        return self.pick(x) + self.pick((x, x * 2)) + 1


class Conversion(nn.Module):
    """An exact match wins over one needing an implicit conversion (int -> float), wherever it is declared."""

    @torch._jit_internal._overload_method  # noqa: F811
    def f(self, x: float) -> str:
        pass

    @torch._jit_internal._overload_method  # noqa: F811
    def f(self, x: int) -> str:
        pass

    def f(self, x):  # noqa: F811
        if isinstance(x, float):
            return "float"
        else:
            return "int"

    def forward(self, a: int, b: float) -> List[str]:
        return [self.f(a), self.f(b), self.f(2), self.f(2.5)]


# ---------------------------------------------------------------- overloaded free functions

@torch.jit._overload
def double(x: int) -> int:
    ...


@torch.jit._overload
def double(x: torch.Tensor) -> torch.Tensor:  # noqa: F811
    ...


@torch.jit._overload
def double(x: str) -> str:  # noqa: F811
    ...


def double(x):  # noqa: F811
    if isinstance(x, str):
        return x + x
    return x * 2


@kindling.jit._overload
@torch.jit._overload
def clip(x: torch.Tensor, hi: float = 1.0) -> torch.Tensor:
    ...


@kindling.jit._overload  # noqa: F811
@torch.jit._overload
def clip(x: float, hi: float = 1.0) -> float:
    ...


def clip(x, hi: float = 1.0):  # noqa: F811
    if isinstance(x, torch.Tensor):
        return x.clamp(max=hi)
    return min(x, hi)


def uses_overloaded_functions(t: torch.Tensor, n: int, s: str):
    return double(t), double(n), double(s), clip(t), clip(2.5, 2.0), clip(t, hi=0.5)


class UsesFunctions(nn.Module):
    def forward(self, t: torch.Tensor, n: int):
        return double(t) + clip(t * 3), double(n)


CASES = {
    "submodule_forward_overloads": (UsesScale, lambda: (torch.randn(2, 3), 4)),
    "helper_method_overloads": (Helper, lambda: (torch.randn(3, 2),)),
    "exact_match_first": (Conversion, lambda: (3, 1.5)),
    "function_overloads_in_method": (UsesFunctions, lambda: (torch.randn(4), 5)),
}


@pytest.mark.parametrize("case", list(CASES))
def test_overloaded_module_matches_torch(case, kindling_only, tmp_path):
    make, inputs = CASES[case]
    model = make()
    args = inputs()
    expected = model(*args)
    theirs = torch.jit.script(model)(*args)
    script_save_and_compare(model, args, expected, tmp_path / "m.pt", theirs)


def test_overloaded_forward_has_one_method_per_overload(kindling_only, tmp_path):
    """As torch: a module whose forward is overloaded has forward__0, forward__1, ... and no forward; each
    runs as the overload it is, also after torch.jit.load of Kindling's archive."""
    model = Scale()
    theirs = torch.jit.script(model)
    with kindling_only():
        ours = kindling.jit.script(model)
        t = torch.randn(3)
        assert_same(ours.forward__0(t, None), t * 3)
        assert ours.forward__1(4, None) == 13
        assert ours.forward__2([1, 2], None) == [3, 6]
        path = tmp_path / "scale.pt"
        ours.save(str(path))
    loaded = torch.jit.load(str(path))
    assert sorted(n for n in loaded._c._method_names() if n.startswith("forward")) == \
        sorted(n for n in theirs._c._method_names() if n.startswith("forward")) == ["forward__0", "forward__1", "forward__2"]
    assert "forward" not in loaded._c._method_names()
    with kindling_only():
        with pytest.raises(RuntimeError, match=r"forward is overloaded \(forward__0, forward__1, forward__2\)"):
            ours(t)
    assert_same(loaded.forward__0(t, t), theirs.forward__0(t, t))
    assert loaded.forward__1(4, None) == theirs.forward__1(4, None) == 13


def test_overloaded_function_matches_torch(kindling_only, tmp_path):
    args = (torch.randn(3), 7, "ab")
    expected = uses_overloaded_functions(*args)
    theirs = torch.jit.script(uses_overloaded_functions)
    assert_same(theirs(*args), expected)
    with kindling_only():
        ours = kindling.jit.script(uses_overloaded_functions)
        assert_same(ours(*args), expected)
        path = tmp_path / "f.pt"
        ours.save(str(path))
        code = ours.code
    assert_same(torch.jit.load(str(path))(*args), expected)
    # one function per overload, named as torch names them (the later ones mangled)
    assert ".double" in code and ".clip" in code and "___torch_mangle_" in code


def test_no_overload_matches_lists_every_overload(kindling_only):
    class Bad(nn.Module):
        def __init__(self):
            super().__init__()
            self.s = Scale()

        def forward(self, x: str):
            return self.s(x)

    with pytest.raises(RuntimeError, match="Arguments for call are not valid"):
        torch.jit.script(Bad())
    with kindling_only():
        with pytest.raises(kindling.jit.CompileError) as e:
            kindling.jit.script(Bad())
    msg = str(e.value)
    assert "forward__0" in msg and "forward__1" in msg and "forward__2" in msg and "HERE" in msg
    assert "test_script_overloads.py" in msg


def test_overloaded_function_cannot_be_scripted_directly(kindling_only):
    with pytest.raises(RuntimeError, match="overloaded"):
        torch.jit.script(double)
    with kindling_only():
        with pytest.raises(kindling.jit.CompileError, match="cannot be directly compiled because it is overloaded"):
            kindling.jit.script(double)


def test_overload_declarations_need_annotations_and_an_implementation(kindling_only):
    @kindling.jit._overload
    def no_types(x):
        ...

    def no_types(x):  # noqa: F811
        return x

    def calls_no_types(x: int):
        return no_types(x)

    @kindling.jit._overload
    def no_impl(x: int) -> int:
        ...

    def calls_no_impl(x: int):
        return no_impl(x)

    with kindling_only():
        with pytest.raises(kindling.jit.CompileError, match="Must explicitly add type annotations"):
            kindling.jit.script(calls_no_types)
        with pytest.raises(kindling.jit.CompileError, match="Implementation for the function .* is missing"):
            kindling.jit.script(calls_no_impl)
    with pytest.raises(RuntimeError, match="`pass` statement or `...`"):
        @kindling.jit._overload
        def has_body(x: int) -> int:
            return x


# ---------------------------------------------------------------- __overloads__ (torch's table of overload methods)

class Combine(nn.Module):
    """`__overloads__` names the methods a call of `self.combine` chooses from (as torch.jit.quantized's
    QuantizedLSTM does for forward); eager Python runs the implementation, which dispatches itself."""

    __overloads__ = {"combine": ["combine_int", "combine_tensor"]}

    def __init__(self):
        super().__init__()
        self.k = 3

    @torch.jit.export
    def combine_int(self, x: int) -> int:
        return x * self.k

    @torch.jit.export
    def combine_tensor(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.k

    def combine(self, x):
        if isinstance(x, int):
            return self.combine_int(x)
        return self.combine_tensor(x)

    def forward(self, x: torch.Tensor, n: int):
        return self.combine(x), self.combine(n)


class TableForward(nn.Module):
    """forward overloaded through __overloads__: a parent's `self.sub(x)` chooses by the argument's type."""

    __overloads__ = {"forward": ["forward_int", "forward_tensor"]}

    @torch.jit.export
    def forward_int(self, x: int) -> int:
        return x + 1

    @torch.jit.export
    def forward_tensor(self, x: torch.Tensor) -> torch.Tensor:
        return x * 2

    def forward(self, x):
        return self.forward_int(x) if isinstance(x, int) else self.forward_tensor(x)


class UsesTableForward(nn.Module):
    def __init__(self):
        super().__init__()
        self.sub = TableForward()

    def forward(self, x: torch.Tensor, n: int):
        return self.sub(x), self.sub(n)


class TableNotExported(nn.Module):
    """The listed methods are not exported: torch.jit 1.13 fails ("Couldn't find method"), Kindling compiles
    them."""

    __overloads__ = {"combine": ["combine_int", "combine_tensor"]}

    def combine_int(self, x: int) -> int:
        return x - 1

    def combine_tensor(self, x: torch.Tensor) -> torch.Tensor:
        return x - 1

    def combine(self, x):
        return x - 1

    def forward(self, x: torch.Tensor, n: int):
        return self.combine(x), self.combine(n)


class TableMissingMethod(nn.Module):
    __overloads__ = {"combine": ["combine_missing"]}

    def combine(self, x):
        return x

    def forward(self, x: torch.Tensor):
        return self.combine(x)


TABLE_CASES = {
    "helper_method": (Combine, lambda: (torch.randn(3), 4)),
    "submodule_forward": (UsesTableForward, lambda: (torch.randn(2), 5)),
}


@pytest.mark.parametrize("case", list(TABLE_CASES))
def test_overloads_table_matches_torch(case, kindling_only, tmp_path):
    make, inputs = TABLE_CASES[case]
    model = make()
    args = inputs()
    expected = model(*args)
    theirs = torch.jit.script(model)
    ours = script_save_and_compare(model, args, expected, tmp_path / "m.pt", theirs(*args))
    # the listed methods are compiled, the Python implementation is not (as torch)
    subs = [(ours, theirs)] + [(ours._modules[n], theirs._modules[n]) for n in ours._modules]
    for o, t in subs:
        assert sorted(o._c.method_names()) == sorted(t._c._method_names())
    loaded = torch.jit.load(str(tmp_path / "m.pt"))
    assert sorted(loaded._c._method_names()) == sorted(theirs._c._method_names())


def test_overloads_table_code_calls_the_chosen_method(kindling_only):
    theirs = torch.jit.script(Combine())
    with kindling_only():
        ours = kindling.jit.script(Combine())
    assert ours.code == theirs.code
    assert "combine_tensor(x" in ours.code and "combine_int(n" in ours.code


def test_overloads_table_of_forward_itself(kindling_only, tmp_path):
    """A module whose own forward is in __overloads__ has only the listed methods; calling it from Python is
    an error in both (torch: no attribute 'forward'), the listed methods run."""
    theirs = torch.jit.script(TableForward())
    with pytest.raises(AttributeError):
        theirs(torch.ones(2))
    with kindling_only():
        ours = kindling.jit.script(TableForward())
        assert sorted(ours._c.method_names()) == sorted(theirs._c._method_names()) == ["forward_int", "forward_tensor"]
        with pytest.raises(RuntimeError, match=r"forward is overloaded \(forward_int, forward_tensor\)"):
            ours(torch.ones(2))
        assert ours.forward_int(4) == theirs.forward_int(4)
        assert_same(ours.forward_tensor(torch.ones(2)), theirs.forward_tensor(torch.ones(2)))


def test_overloads_table_compiles_methods_not_exported(kindling_only, tmp_path):
    model = TableNotExported()
    args = (torch.randn(3), 4)
    with pytest.raises(RuntimeError, match="Couldn't find method: 'combine_int'"):
        torch.jit.script(model)
    ours = script_save_and_compare(model, args, model(*args), tmp_path / "m.pt")
    assert sorted(ours._c.method_names()) == ["combine_int", "combine_tensor", "forward"]


def test_overloads_table_naming_a_missing_method(kindling_only):
    with pytest.raises(RuntimeError, match="Couldn't find method: 'combine_missing'"):
        torch.jit.script(TableMissingMethod())
    with kindling_only():
        with pytest.raises(kindling.jit.CompileError, match="Couldn't find method: 'combine_missing'"):
            kindling.jit.script(TableMissingMethod())


def test_overloads_table_no_match_is_an_error(kindling_only):
    class Bad(nn.Module):
        def __init__(self):
            super().__init__()
            self.sub = TableForward()

        def forward(self, x: str):
            return self.sub(x)

    with pytest.raises(RuntimeError, match="Arguments for call are not valid"):
        torch.jit.script(Bad())
    with kindling_only():
        with pytest.raises(kindling.jit.CompileError) as e:
            kindling.jit.script(Bad())
    assert "forward_int" in str(e.value) and "forward_tensor" in str(e.value) and "HERE" in str(e.value)
