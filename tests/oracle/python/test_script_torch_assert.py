"""torch._assert in code scripted by kindling.jit.script (torchvision's MaxViT, ViT and detection models use
it): torch's builtin function _assert(condition, message) with a bool or a Tensor condition, positional or
keyword arguments, a computed message. Each program is scripted by torch.jit first, then by Kindling inside
kindling_only; passing inputs give torch's outputs, failing ones raise with torch's "AssertionError: <message>",
and Kindling's saved archive loaded by torch.jit.load behaves the same. A condition of another type is a
compile error at the call, as in torch."""
from pyapi_helpers import assert_same, kindling_only  # noqa: F401  (first: puts the package on sys.path)
import re

import pytest
import torch
import torch.nn as nn

import kindling.jit


class Patches(nn.Module):
    """MaxViT's shape checks: ints from sizes, a computed message."""

    def __init__(self, p: int):
        super().__init__()
        self.p = p

    def forward(self, x):
        h, w = x.shape[-2:]
        torch._assert(h % self.p == 0 and w % self.p == 0,
                      f"size ({h}, {w}) must be divisible by {self.p}")
        torch._assert(message="need a batch", condition=x.dim() == 4)
        torch._assert(x.abs().sum() > 0, "all zeros")
        return x.reshape(x.shape[0], -1, self.p, self.p).sum(1)


def bool_condition(n: int) -> int:
    torch._assert(n > 2, "n must be > 2")
    return n * 3


PASSING = [torch.ones(1, 2, 4, 4), torch.randn(2, 1, 6, 6)]
FAILING = [(torch.ones(1, 2, 5, 4), "AssertionError: size (5, 4) must be divisible by 2"),
           (torch.ones(2, 4, 4), "AssertionError: need a batch"),
           (torch.zeros(1, 1, 2, 2), "AssertionError: all zeros")]


def test_module_asserts_match_torch(kindling_only, tmp_path):
    m = Patches(2)
    ts = torch.jit.script(m)
    expected = [ts(x) for x in PASSING]
    for x, msg in FAILING:
        with pytest.raises(Exception, match=re.escape(msg)):
            ts(x)
    path = tmp_path / "k.pt"
    with kindling_only():
        km = kindling.jit.script(m)
        got = [km(x) for x in PASSING]
        for x, msg in FAILING:
            with pytest.raises(Exception, match=re.escape(msg)):
                km(x)
        km.save(str(path))
    for g, e in zip(got, expected):
        assert_same(g, e)
    loaded = torch.jit.load(str(path))
    for x, e in zip(PASSING, expected):
        assert_same(loaded(x), e)
    for x, msg in FAILING:
        with pytest.raises(Exception, match=re.escape(msg)):
            loaded(x)


def test_function_assert_matches_torch(kindling_only):
    ts = torch.jit.script(bool_condition)
    with kindling_only():
        ks = kindling.jit.script(bool_condition)
        assert ks(5) == ts(5) == 15
        with pytest.raises(Exception, match="AssertionError: n must be > 2"):
            ks(1)
        assert "torch._assert" not in ks.code  # inlined as torch inlines its builtin function


def test_int_condition_rejected(kindling_only):
    def int_condition(n: int) -> int:
        torch._assert(n, "nonzero")
        return n

    with pytest.raises(Exception, match="Arguments for call are not valid"):
        torch.jit.script(int_condition)
    with kindling_only():
        with pytest.raises(kindling.jit.CompileError,
                           match="(?s)Arguments for call are not valid.*'bool' for argument 'condition'.*"
                                 "found type 'int'.*torch._assert\\(n"):
            kindling.jit.script(int_condition)
