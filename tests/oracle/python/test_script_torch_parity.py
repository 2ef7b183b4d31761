"""Modules torch.jit.script 1.13 scripts and Kindling did not (patterns of real projects, found by probing):
each scripted by Kindling while torch.jit is forbidden, compared with eager and with torch.jit.script's module,
saved and run by torch.jit.load.

- `if t is not None and self.proj is not None:` with `self.proj = None`: an `and` with a statically false
  operand is statically false (torch's emitShortCircuitLogical), so the branch calling None is not emitted;
- F.gumbel_softmax (torch compiles it from torch/nn/functional.py) and the aten::exponential_ it draws with;
- a function decorated with @torch.jit.script called from the module (torch keeps no reference to the Python
  function: Kindling finds its def again in the module's source);
- a @staticmethod of the module class called through the class name, `M.scale(x, 2.0)`.
"""
from pyapi_helpers import assert_same, forbid_torch_jit, script_save_and_compare  # noqa: F401  (first: puts the package on sys.path)

import copy
from typing import List, Optional, Tuple

import pytest
import torch
import torch.nn.functional as F
from torch import Tensor, nn

import kindling.jit


class OptionalProjection(nn.Module):
    def __init__(self, use_proj: bool):
        super().__init__()
        self.proj = nn.Linear(2, 2) if use_proj else None

    def forward(self, x: Tensor, t: Optional[Tensor] = None) -> Tensor:
        if t is not None and self.proj is not None:
            x = x + self.proj(t)
        if self.proj is None or t is None:
            x = x * 2
        if not (self.proj is not None and t is not None):
            x = x - 1
        return x


class Gumbel(nn.Module):
    def forward(self, x: Tensor) -> Tensor:
        return F.gumbel_softmax(x, tau=0.5, hard=True).sum(-1) + F.gumbel_softmax(x).sum(-1)


@torch.jit.script
def fused_gelu(x: Tensor) -> Tensor:
    return x * 0.5 * (1.0 + torch.erf(x / 1.41421))


@torch.jit.script
def twice_gelu(x: Tensor, k: int = 2) -> Tensor:
    return fused_gelu(x) * k


class CallsTorchScriptFunctions(nn.Module):
    def forward(self, x: Tensor) -> Tensor:
        return fused_gelu(x) + twice_gelu(x, 3)


class StaticMethods(nn.Module):

    @staticmethod
    def scale(x: Tensor, s: float) -> Tensor:
        return x * s

    def forward(self, x: Tensor) -> Tensor:
        return StaticMethods.scale(x, 2.0) + self.scale(x, 1.0)


CASES = {
    "optional_projection_none": (lambda: OptionalProjection(False), lambda: (torch.ones(2), torch.ones(2))),
    "optional_projection_set": (lambda: OptionalProjection(True), lambda: (torch.ones(2), torch.ones(2))),
    "gumbel_softmax": (Gumbel, lambda: (torch.randn(3, 4),)),
    "torch_script_functions": (CallsTorchScriptFunctions, lambda: (torch.randn(5),)),
    "static_methods": (StaticMethods, lambda: (torch.randn(3),)),
}


@pytest.mark.parametrize("case", list(CASES))
def test_module_torch_scripts_matches(case, tmp_path):
    make, inputs = CASES[case]
    torch.manual_seed(0)
    model = make().eval()
    args = inputs()
    with torch.no_grad():
        torch.manual_seed(1)
        theirs = torch.jit.script(copy.deepcopy(model))(*args)
        torch.manual_seed(1)
        expected = model(*args)
        torch.manual_seed(1)
        script_save_and_compare(model, args, expected, tmp_path / "m.pt", theirs=theirs)


def test_exponential_draws_equal_torchs():
    """F.gumbel_softmax's noise: aten::exponential_ draws what ATen's CPU kernel draws after torch.manual_seed,
    a transposed tensor in storage order."""
    def draws(seed: int):
        torch.manual_seed(seed)
        return (torch.empty(6).exponential_(), torch.empty(2, 3, dtype=torch.float64).exponential_(0.5),
                torch.empty(4, 3).t().exponential_(), F.gumbel_softmax(torch.arange(6.0).reshape(2, 3)))

    expected = draws(7)
    with forbid_torch_jit():
        ours = kindling.jit.script(draws)(7)
    for a, b in zip(ours, expected):
        assert a.dtype == b.dtype and torch.equal(a, b), (a, b)


class GradModeBranch(nn.Module):
    def forward(self, x: Tensor):
        with torch.no_grad():
            inside = torch.is_grad_enabled()
        y = x + 1 if torch.is_grad_enabled() else x - 1
        return y, inside, torch.is_grad_enabled()


def test_grad_mode_is_torchs_at_the_call():
    """torch.is_grad_enabled() is the caller's grad mode (it was folded to True), `with torch.no_grad()` sets it
    for its body and restores it."""
    x = torch.zeros(2)
    theirs = torch.jit.script(GradModeBranch())
    with forbid_torch_jit():
        ours = kindling.jit.script(GradModeBranch())
    for grad in (True, False):
        with torch.set_grad_enabled(grad):
            expected = GradModeBranch()(x)
            assert_same(ours(x), expected)
            assert_same(theirs(x), expected)


def test_transformer_encoder_padding_fast_path(tmp_path):
    """Under no_grad in eval mode nn.TransformerEncoder with src_key_padding_mask takes the nested-tensor fast
    path: padded positions are 0, as eager gives (torch.jit's scripted module gives it too when scripted first in
    a process; after test_script_torch_nn's scripting of the same classes it takes the slow path)."""
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True)
    model = nn.TransformerEncoder(layer, num_layers=2).eval()
    x = torch.randn(2, 4, 8)
    mask = torch.tensor([[False] * 4, [False, False, True, True]])
    with torch.no_grad():
        expected = model(x, src_key_padding_mask=mask)
        assert torch.equal(expected[1, 2:], torch.zeros(2, 8))
        with forbid_torch_jit():
            ours = kindling.jit.script(model)
            got = ours(x, src_key_padding_mask=mask)
        assert_same(got, expected)


class HuggingFaceOutputs(nn.Module):
    def forward(self, x: Tensor, bias: Optional[Tensor] = None) -> Tuple[Tensor, Tensor, int]:
        if bias is None:
            if bool(x.sum() > 0):
                bias = torch.zeros_like(x)
            else:
                bias = torch.ones_like(x)
        outputs = (x * 2, x.softmax(-1))
        rest = outputs[1:]
        outputs = (abs(outputs[0] - 3) + bias,) + rest + (len(list(x)),)
        return outputs


def small_builtins(x: Tensor) -> Tuple[List[Tensor], List[Tuple[int, int]], List[Tuple[int, str]], Tensor]:
    return list(x), list(zip([1, 2], [3, 4])), list(enumerate(["a", "b"])), abs(x[0])


def test_tuple_concatenation_abs_and_list_builtins(tmp_path):
    x = torch.tensor([[1.0, -2.0], [3.0, 4.0]])
    script_save_and_compare(HuggingFaceOutputs(), (x,), HuggingFaceOutputs()(x), tmp_path / "m.pt",
                            theirs=torch.jit.script(HuggingFaceOutputs())(x))
    script_save_and_compare(small_builtins, (x,), small_builtins(x), tmp_path / "f.pt",
                            theirs=torch.jit.script(small_builtins)(x))


class Child(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 2)

    def forward(self, x: Tensor) -> Tensor:
        return self.lin(x).relu()


def test_torch_compiled_objects_given_to_kindling(tmp_path):
    """A module torch.jit scripted or traced, given to kindling.jit.script: Kindling loads the archive torch
    writes of it; a torch ScriptFunction: Kindling compiles the def torch compiled."""
    torch.manual_seed(0)
    x = torch.randn(4, 3)
    child = Child()
    with torch.no_grad():
        expected = child(x)
        for compiled in (torch.jit.script(child), torch.jit.trace(child, (x,))):
            with forbid_torch_jit():
                ours = kindling.jit.script(compiled)
                assert_same(ours(x), expected)
    with forbid_torch_jit():
        assert_same(kindling.jit.script(twice_gelu)(x), twice_gelu(x))


def tensor_idioms(x: Tensor) -> Tuple[bool, Tensor, Tensor]:
    return x.shape[1:] == torch.Size([3]), x.type(torch.float64), x.clone().requires_grad_() * 2


def test_size_type_and_requires_grad(tmp_path):
    """torch.Size([...]) (aten::Size), x.type(dtype) (x.to(dtype), as torch desugars it), x.requires_grad_()."""
    x = torch.ones(2, 3)
    with torch.no_grad():
        script_save_and_compare(tensor_idioms, (x,), tensor_idioms(x), tmp_path / "f.pt",
                                theirs=torch.jit.script(tensor_idioms)(x))


class Parent(nn.Module):
    def __init__(self, scripted, traced, ours):
        super().__init__()
        self.scripted = scripted
        self.traced = traced
        self.ours = ours

    def forward(self, x: Tensor) -> Tensor:
        return self.scripted(x) * 2 + self.traced(x) - self.ours(x)


def test_compiled_submodules(tmp_path):
    """Submodules compiled already (torch.jit.script'ed, torch.jit.trace'd, kindling.jit.script'ed) inside a
    module Kindling scripts: their classes and methods are reused, as torch.jit.script of the parent does; the
    archive holds all of them and torch.jit.load runs it."""
    torch.manual_seed(0)
    x = torch.randn(4, 3)
    a, b, c = Child(), Child(), Child()
    with torch.no_grad():
        model = Parent(torch.jit.script(a), torch.jit.trace(b, (x,)), kindling.jit.script(c))
        expected = a(x) * 2 + b(x) - c(x)
        script_save_and_compare(model, (x,), expected, tmp_path / "m.pt")


class CallsIgnored(nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = []  # a Python attribute the ignored method uses (not scripted)

    @torch.jit.ignore
    def python_only(self, x: Tensor, k: int) -> Tensor:
        return torch.from_numpy((x.numpy() * k).copy())  # numpy: not TorchScript

    @torch.jit.ignore
    def unannotated(self, x):
        return x + 1

    @torch.jit.ignore
    def raises(self, x: Tensor) -> Tensor:
        raise ValueError("no negative inputs here")

    def forward(self, x: Tensor) -> Tensor:
        if bool(x.sum() < -100):
            return self.raises(x)
        return self.python_only(x, 3) + self.unannotated(x)


def test_ignored_methods_run_in_python(tmp_path):
    """A @torch.jit.ignore'd method called from forward runs in Python, as torch.jit's PythonOp (Kindling refused
    it); its errors surface as the call's; saving refuses, as torch.jit.save does."""
    x = torch.tensor([1.0, -2.0])
    model = CallsIgnored()
    theirs = torch.jit.script(CallsIgnored())
    with forbid_torch_jit():
        ours = kindling.jit.script(model)
        assert_same(ours(x), model(x))
        assert_same(ours(x), theirs(x))
        with pytest.raises(Exception, match="no negative inputs here"):
            ours(torch.full([2], -1000.0))
        with pytest.raises(Exception, match="Could not export Python function call"):
            ours.save(str(tmp_path / "m.pt"))
    with pytest.raises(Exception, match="Could not export Python function call"):
        theirs.save(str(tmp_path / "t.pt"))


@torch.jit.ignore
def python_helper(x: Tensor, scale: float) -> Tensor:
    return torch.from_numpy(x.numpy() * scale)


def calls_python_helper(x: Tensor) -> Tensor:
    return python_helper(x, 2.0) + 1


def test_ignored_functions_run_in_python():
    x = torch.tensor([1.0, 2.0])
    theirs = torch.jit.script(calls_python_helper)
    with forbid_torch_jit():
        ours = kindling.jit.script(calls_python_helper)
        assert_same(ours(x), calls_python_helper(x))
    assert_same(theirs(x), calls_python_helper(x))
