"""Functions held as nn.Module attributes and nn.Module classes named in compiled code, scripted by
kindling.jit.script against eager and torch.jit.script 1.13.

- `self.act = F.relu` (a Python function), `torch.tanh` / `F.gelu` (torch builtins) or a user function:
  torch's function attributes; `self.act(x)` calls the function itself (no slot in the class), and two
  modules holding different functions get different classes.
- a @staticmethod reached through self is that free function (torch's resolution through the Python
  class); an unannotated parameter with a plain default (`tag="x"`) is typed from the default (torch.jit
  1.13 types it Tensor and rejects the default).
- a parameter registered as None passed to an operator that needs a tensor, in code a runtime check of the
  configuration guards (MultiheadAttention's fast path with kdim/vdim): compiled as Python runs it, the call
  raising TypeError if it is ever reached (torch.jit 1.13 rejects it).
- `isinstance(self.sub, SomeModuleClass)` answers as Python does (subclasses included) and is decided at
  compile time; torch.jit 1.13 rejects a class it never scripted ("Unknown type name") and answers False
  for a mangled class, so those cases are compared with eager only.
Each module is scripted by torch.jit first (where it can), then by Kindling inside kindling_only; Kindling's
saved archive loaded by torch.jit.load gives eager's outputs."""
from pyapi_helpers import assert_same, kindling_only, script_save_and_compare  # noqa: F401  (first: puts the package on sys.path)
from typing import List

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

import kindling.jit


def shifted_square(x: torch.Tensor) -> torch.Tensor:
    return (x - 0.5) * (x - 0.5)


class Act(nn.Module):
    def __init__(self, fn, scale=1.0):
        super().__init__()
        self.fn = fn
        self.scale = scale

    def forward(self, x):
        return self.fn(x) * self.scale


class TwoActs(nn.Module):
    """Two submodules of one Python class holding different functions: they must not share a class."""

    def __init__(self):
        super().__init__()
        self.a = Act(F.relu)
        self.b = Act(torch.tanh)
        self.c = Act(shifted_square, 2.0)
        self.d = Act(F.gelu)

    def forward(self, x):
        return self.a(x) + self.b(x) + self.c(x) + self.d(x)


class Base(nn.Module):
    def forward(self, x):
        return x + 1


class Derived(Base):
    def forward(self, x):
        return x * 2


class Unrelated(nn.Module):
    def forward(self, x):
        return x - 1


class NeverScripted(nn.Module):
    def forward(self, x):
        return x


class Checks(nn.Module):
    def __init__(self, sub):
        super().__init__()
        self.sub = sub

    def forward(self, x):
        found: List[int] = []
        if isinstance(self.sub, Base):
            found.append(1)
        if isinstance(self.sub, Derived):
            found.append(2)
        if isinstance(self.sub, Unrelated):
            found.append(3)
        if isinstance(self.sub, (Unrelated, Derived)):
            found.append(4)
        if not isinstance(self.sub, NeverScripted):
            found.append(5)
        return self.sub(x), found


def _run(kindling_only, model, args, tmp_path, torch_too):
    expected = model(*args)
    if torch_too:
        assert_same(torch.jit.script(model)(*args), expected)
    return script_save_and_compare(model, args, expected, tmp_path / "m.pt")


@pytest.mark.parametrize("fn", [F.relu, torch.tanh, F.gelu, shifted_square, torch.sigmoid, F.silu],
                         ids=["F.relu", "torch.tanh", "F.gelu", "user_function", "torch.sigmoid", "F.silu"])
def test_function_attribute_matches_torch(fn, kindling_only, tmp_path):
    _run(kindling_only, Act(fn, 1.5), (torch.randn(3, 4),), tmp_path, torch_too=True)


def test_modules_holding_different_functions_get_different_classes(kindling_only, tmp_path):
    _run(kindling_only, TwoActs(), (torch.randn(2, 5),), tmp_path, torch_too=True)
    loaded = torch.jit.load(str(tmp_path / "m.pt"))
    assert len({getattr(loaded, n)._c._type().qualified_name() for n in "abcd"}) == 4
    assert "relu" in loaded.a.code and "tanh" in loaded.b.code and "shifted_square" in loaded.c.code


@pytest.mark.parametrize("sub", [Base, Derived, Unrelated], ids=["base", "derived", "unrelated"])
def test_isinstance_of_module_classes_follows_python(sub, kindling_only, tmp_path):
    # torch.jit rejects NeverScripted ("Unknown type name"): compared with eager only
    with pytest.raises(RuntimeError, match="Unknown type name"):
        torch.jit.script(Checks(sub()))
    ours = _run(kindling_only, Checks(sub()), (torch.randn(3),), tmp_path, torch_too=False)
    assert "isinstance" not in ours.code  # decided at compile time


def test_module_class_as_value_is_a_clear_error(kindling_only):
    class Builds(nn.Module):
        def forward(self, x):
            return Base()(x)

    with kindling_only():
        with pytest.raises(kindling.jit.CompileError) as e:
            kindling.jit.script(Builds())
    msg = str(e.value)
    assert "nn.Module subclass" in msg and "HERE" in msg and "test_script_module_functions.py" in msg


class OptionalWeight(nn.Module):
    """`extra` is a parameter registered as None unless configured; `use_extra` (a plain attribute, so a
    runtime check) guards the call that needs it."""

    def __init__(self, with_extra):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(4, 3))
        if with_extra:
            self.extra = nn.Parameter(torch.randn(4, 3))
        else:
            self.register_parameter("extra", None)
        self.use_extra = with_extra

    def forward(self, x):
        y = torch.nn.functional.linear(x, self.weight)
        if self.use_extra:
            y = y + torch.nn.functional.linear(x, self.extra)
        return y


def test_none_parameter_in_guarded_call_follows_python(kindling_only, tmp_path):
    with pytest.raises(RuntimeError, match="Expected a value of type 'Tensor'"):
        torch.jit.script(OptionalWeight(False))
    model = OptionalWeight(False)
    x = torch.randn(2, 3)
    _run(kindling_only, model, (x,), tmp_path, torch_too=False)
    # the guarded call raises Python's TypeError when it is reached (here: the flag flipped afterwards)
    with kindling_only():
        ours = kindling.jit.script(model)
        ours.use_extra = True
        with pytest.raises(Exception, match=r"linear\(\): argument 'weight' \(position 2\) must be Tensor, not NoneType"):
            ours(x)
    loaded = torch.jit.load(str(tmp_path / "m.pt"))
    loaded.use_extra = True
    with pytest.raises(Exception, match="must be Tensor, not NoneType"):
        loaded(x)
    # configured with the parameter, the same class of module compiles the call normally
    _run(kindling_only, OptionalWeight(True), (x,), tmp_path, torch_too=True)


class WithStatic(nn.Module):
    """A @staticmethod reached through self, with an unannotated parameter typed from its default."""

    @staticmethod
    def ramp(n: int, scale=0.5, tag="x"):
        return torch.arange(n) * scale + len(tag)

    def forward(self, x):
        return x + self.ramp(x.size(-1)) + self.ramp(x.size(-1), 2.0, "abc")


def test_staticmethod_through_self_and_default_typed_parameters(kindling_only, tmp_path):
    with pytest.raises(RuntimeError, match="Expected a default value of type Tensor"):
        torch.jit.script(WithStatic())
    _run(kindling_only, WithStatic(), (torch.randn(2, 4),), tmp_path, torch_too=False)
