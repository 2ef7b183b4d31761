"""nn.Module attributes holding instances of plain Python classes (torchvision's detection models keep a BoxCoder,
a Matcher and a sampler so): kindling.jit.script compiles the class as a TorchScript class, as torch's type
inference does (can_compile_class: not a module, tuple, list or exception, every function with Python code), and
converts the instance into an object of that class whose attributes are read from the Python instance. Typed from
a class annotation or inferred from the value; the compiled methods read the attributes and call each other.
Each module is scripted by torch.jit first, then by Kindling inside kindling_only; outputs equal torch's and
eager's, and Kindling's saved archive loaded by torch.jit.load gives the same outputs. Also covered:
torch._C._get_tracing_state() in compiled code (torchvision._is_tracing) is False, as torch's
aten::_get_tracing_state is outside tracing."""
from pyapi_helpers import assert_same, kindling_only  # noqa: F401  (first: puts the package on sys.path)
import math
from typing import List, Tuple

import pytest
import torch
import torch.nn as nn

import kindling.jit


class Coder:
    """BoxCoder-like: a tuple of weights, a float clip, methods calling each other."""

    def __init__(self, weights: Tuple[float, float], clip: float = math.log(1000.0 / 16)):
        self.weights = weights
        self.clip = clip

    def scale(self, x: torch.Tensor) -> torch.Tensor:
        return x * self.weights[0] - self.weights[1]

    def decode(self, x: torch.Tensor) -> torch.Tensor:
        return torch.clamp(self.scale(x), max=self.clip).exp()


class Thresholds:
    def __init__(self, low: float, high: float, allow: bool):
        self.low = low
        self.high = high
        self.allow = allow
        self.labels: List[int] = [-1, -2]

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.zeros_like(x, dtype=torch.int64)
        out[x < self.low] = self.labels[0]
        out[(x >= self.low) & (x < self.high)] = self.labels[1]
        if self.allow:
            out[x >= self.high] = 1
        return out


class Annotated(nn.Module):
    __annotations__ = {"coder": Coder}

    def __init__(self):
        super().__init__()
        self.coder = Coder((2.0, 0.5))
        self.lin = nn.Linear(3, 3)

    def forward(self, x):
        return self.coder.decode(self.lin(x))


class Inferred(nn.Module):
    def __init__(self, allow: bool):
        super().__init__()
        self.thr = Thresholds(-0.2, 0.3, allow)
        self.coder = Coder((1.0, 0.0), 1.5)

    def forward(self, x):
        return self.thr(x), self.coder.decode(x)


def tracing_state(x: torch.Tensor) -> torch.Tensor:
    if torch._C._get_tracing_state():
        return x * 0
    return x + 1


X = torch.randn(4, 3)


@pytest.mark.parametrize("make", [Annotated, lambda: Inferred(True), lambda: Inferred(False), lambda: tracing_state],
                         ids=["annotated", "inferred_allow", "inferred_disallow", "get_tracing_state"])
def test_matches_torch(make, kindling_only, tmp_path):
    torch.manual_seed(0)
    obj = make()
    ts = torch.jit.script(obj)
    expected = ts(X)
    path = tmp_path / "k.pt"
    with kindling_only():
        ks = kindling.jit.script(obj)
        got = ks(X)
        ks.save(str(path))
    assert_same(got, expected)
    assert_same(got, obj(X))
    assert_same(torch.jit.load(str(path))(X), expected)


def test_instance_attributes_are_read_when_scripted(kindling_only):
    m = Inferred(True)
    m.thr.low = -5.0  # the object is made from the instance as it is when scripted
    with kindling_only():
        got = kindling.jit.script(m)(X)
    assert_same(got, m(X))


class NotCompilable:
    def __init__(self):
        self.f = len  # a builtin held by the instance: no TorchScript type for it

    def use(self) -> int:
        return 1


class HoldsNotCompilable(nn.Module):
    def __init__(self):
        super().__init__()
        self.helper = NotCompilable()

    def forward(self, x):
        return x + self.helper.use()


def test_uncompilable_class_is_a_clear_error(kindling_only):
    with kindling_only():
        with pytest.raises(kindling.jit.CompileError,
                           match="(?s)no attribute 'helper'.*compiling its class 'NotCompilable' as a TorchScript "
                                 "class failed"):
            kindling.jit.script(HoldsNotCompilable())
