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
from pyapi_helpers import forbid_torch_jit, script_save_and_compare  # noqa: F401  (first: puts the package on sys.path)

import copy
from typing import Optional

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
