"""Idioms of library code (torchvision's detection models) scripted by kindling.jit.script, each against
torch.jit.script 1.13 (computed first) and eager, Kindling's saved archive run by torch.jit.load:

- a function decorated with torch.jit._script_if_tracing (torchvision's _batched_nms_vanilla) compiles the
  function it wraps, with that function's globals (torch.jit.script unwraps it the same way);
- torch.ops.<namespace>.<op> (torch.ops.torchvision.nms, torch.ops.aten.relu) is that operator, resolved by
  name without torch's lazy lookup (torch._C._jit_get_operation);
- torch.pi / torch.e / torch.inf are math's constants;
- F.interpolate with scale_factor: Optional[float] (torch's @_overload signature; GeneralizedRCNNTransform);
- an attribute annotated with a plain class holding an instance of a subclass converts to the annotated
  class, whose methods run (torch's toIValue reads the attributes the same way; SSD's SSDMatcher).
"""
from pyapi_helpers import assert_same, kindling_only  # noqa: F401  (first: puts the package on sys.path)
from typing import Optional

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision  # noqa: F401  (registers torch.ops.torchvision)

import kindling.jit


@torch.jit._script_if_tracing
def _keep_positive(boxes: torch.Tensor, scores: torch.Tensor) -> torch.Tensor:
    keep = torch.ops.torchvision.nms(boxes, scores, 0.5)
    return keep[scores[keep] > 0]


def uses_script_if_tracing_and_ops(boxes: torch.Tensor, scores: torch.Tensor) -> torch.Tensor:
    return _keep_positive(boxes, scores) + torch.ops.aten.relu(scores).sum().long()


def uses_torch_constants(x: torch.Tensor) -> torch.Tensor:
    return torch.clamp(x * torch.pi + torch.e, max=torch.inf)


def interpolate_optional_scale(x: torch.Tensor, scale: Optional[float], size: Optional[int]) -> torch.Tensor:
    if size is not None:
        return F.interpolate(x, size=size, mode="bilinear", align_corners=False)
    return F.interpolate(x, scale_factor=scale, mode="bilinear", align_corners=False, recompute_scale_factor=True)


class Base:
    def __init__(self, k: float):
        self.k = k

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        return x * self.k


class Derived(Base):
    def __init__(self, k: float):
        super().__init__(k)
        self.extra = 3  # not an attribute of Base's TorchScript class

    def __call__(self, x: torch.Tensor) -> torch.Tensor:  # eager only; compiled code runs Base's
        return x * self.k


class HoldsSubclass(nn.Module):
    __annotations__ = {"scaler": Base}

    def __init__(self):
        super().__init__()
        self.scaler = Derived(2.5)

    def forward(self, x):
        return self.scaler(x) + 1


BOXES = torch.tensor([[0., 0., 10., 10.], [1., 1., 11., 11.], [20., 20., 30., 30.], [0., 0., 5., 5.]])
SCORES = torch.tensor([0.9, 0.8, -0.3, 0.7])
IMG = torch.randn(1, 2, 6, 8)

CASES = [
    (uses_script_if_tracing_and_ops, [(BOXES, SCORES)]),
    (uses_torch_constants, [(torch.randn(5),)]),
    (interpolate_optional_scale, [(IMG, 1.5, None), (IMG, None, 4), (IMG, 0.5, None)]),
    (HoldsSubclass(), [(torch.randn(3),)]),
]


@pytest.mark.parametrize("obj,inputs", CASES, ids=["script_if_tracing_ops", "torch_constants",
                                                   "interpolate_optional_float", "subclass_instance"])
def test_matches_torch(obj, inputs, kindling_only, tmp_path):
    ts = torch.jit.script(obj)
    expected = [ts(*a) for a in inputs]
    path = tmp_path / "k.pt"
    with kindling_only():
        ks = kindling.jit.script(obj)
        got = [ks(*a) for a in inputs]
        ks.save(str(path))
    loaded = torch.jit.load(str(path))
    for a, g, e in zip(inputs, got, expected):
        assert_same(g, e)
        assert_same(g, obj(*a))
        assert_same(loaded(*a), e)


def test_interpolate_list_scale_still_uses_the_library_definition(kindling_only):
    def f(x: torch.Tensor) -> torch.Tensor:
        return F.interpolate(x, scale_factor=[2.0, 1.5], mode="nearest")

    with kindling_only():
        ks = kindling.jit.script(f)
        assert_same(ks(IMG), f(IMG))
        assert "___torch_mangle_1.interpolate" not in ks.code


def uses_uncached_op(x: torch.Tensor, boxes: torch.Tensor, scores: torch.Tensor) -> torch.Tensor:
    return torch.ops.aten.hardtanh(x, -0.5, 0.5) + torch.ops.torchvision.nms(boxes, scores, 0.5).sum()


def test_ops_namespace_does_not_ask_torch(kindling_only):
    """torch.ops.<ns>.<op> resolves by name: the namespace's lazy lookup (torch._C._jit_get_operation, which
    kindling_only replaces by a raiser) is never needed, even for an operator Python has not looked up yet."""
    for ns, op in ((torch.ops.aten, "hardtanh"), (torch.ops.torchvision, "nms")):
        ns.__dict__.pop(op, None)
    x = torch.randn(6)
    with kindling_only():
        ks = kindling.jit.script(uses_uncached_op)
        got = ks(x, BOXES, SCORES)
    assert_same(got, uses_uncached_op(x, BOXES, SCORES))
