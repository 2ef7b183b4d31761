"""kindling.jit's runtime entry points on archives torch.jit saved: freeze / optimize_for_inference,
fork / wait / annotate / isinstance / is_scripting / is_tracing called from Python, the fusion controls,
and patch_torch routing torch.jit.load / save / freeze to Kindling."""
from pyapi_helpers import assert_same, kindling_only  # noqa: F401  (first: puts the package on sys.path)
from typing import Any, Dict, List, Optional

import pytest
import torch

import kindling.jit


class BNNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 6, 3)
        self.bn = torch.nn.BatchNorm2d(6)

    def forward(self, x):
        if self.training:
            return x
        return torch.relu(self.bn(self.conv(x)))


@pytest.fixture(scope="module")
def bn_archive(tmp_path_factory):
    torch.manual_seed(0)
    m = BNNet().eval()
    with torch.no_grad():
        m.bn.running_mean.uniform_(-1, 1)
        m.bn.running_var.uniform_(0.5, 2)
    path = tmp_path_factory.mktemp("bn") / "bn.pt"
    torch.jit.save(torch.jit.script(m), str(path))
    x = torch.randn(1, 3, 8, 8)
    with torch.no_grad():
        return path, x, m(x)


def test_freeze_and_optimize(bn_archive, kindling_only):
    path, x, expected = bn_archive
    with kindling_only():
        sm = kindling.jit.load(path)
        sm.eval()
        frozen = kindling.jit.freeze(sm)
        opt = kindling.jit.optimize_for_inference(kindling.jit.load(path))
        out_f, out_o, out_plain = frozen(x), opt(x), sm(x)
        graph = str(frozen.graph)
        unfrozen_graph = str(sm.graph)
        train = kindling.jit.load(path)
        train.train()
        with pytest.raises(RuntimeError, match="eval mode"):
            kindling.jit.freeze(train)
    for out in (out_f, out_o, out_plain):
        assert_same(out, expected, atol=1e-5, rtol=1e-4)
    # frozen: attributes are constants, the training branch and the batch norm (folded into the conv) are gone
    assert "prim::GetAttr" not in graph and "batch_norm" not in graph
    assert "prim::GetAttr" in unfrozen_graph


def test_fork_wait_annotate_in_python(kindling_only):
    def square(x):
        return x * x

    with kindling_only():
        fut = kindling.jit.fork(square, torch.tensor(3.0))
        assert kindling.jit.wait(fut).item() == 9.0
        assert kindling.jit.annotate(List[int], []) == []
        assert kindling.jit.isinstance([1, 2], List[int])
        assert not kindling.jit.isinstance([1, "a"], List[int])
        assert kindling.jit.isinstance({"a": torch.ones(1)}, Dict[str, torch.Tensor])
        assert kindling.jit.isinstance(None, Optional[int])
        assert kindling.jit.is_scripting() is False
        assert kindling.jit.is_tracing() is False


def test_fusion_controls():
    assert kindling.jit.onednn_fusion_enabled() is False
    kindling.jit.enable_onednn_fusion(True)
    assert kindling.jit.onednn_fusion_enabled() is True
    kindling.jit.enable_onednn_fusion(False)
    with kindling.jit.fuser("fuser1"):
        assert kindling.jit.onednn_fusion_enabled() is True
    assert kindling.jit.onednn_fusion_enabled() is False
    with pytest.raises(Exception, match="unrecognized fuser"):
        with kindling.jit.fuser("bogus"):
            pass
    old = kindling.jit.set_fusion_strategy([("DYNAMIC", 3)])
    assert kindling.jit.set_fusion_strategy(old) == [("DYNAMIC", 3)]
    with pytest.raises(ValueError):
        kindling.jit.set_fusion_strategy([("SOMETIMES", 1)])
    with kindling.jit.optimized_execution(False):
        assert not kindling.jit._fuser.optimized_execution_enabled()
    assert kindling.jit._fuser.optimized_execution_enabled()
    with kindling.jit.strict_fusion():
        pass


def test_patch_torch_routes_entry_points(bn_archive, tmp_path):
    path, x, expected = bn_archive
    original_load = torch.jit.load
    kindling.jit.patch_torch()
    try:
        assert torch.jit.load is kindling.jit.load and torch.jit.save is kindling.jit.save
        m = torch.jit.load(str(path))
        assert isinstance(m, kindling.jit.ScriptModule)
        torch.jit.save(m, str(tmp_path / "resaved.pt"))
        assert_same(torch.jit.freeze(m.eval())(x), expected, atol=1e-5, rtol=1e-4)
    finally:
        kindling.jit.unpatch_torch()
    assert torch.jit.load is original_load
    assert_same(torch.jit.load(str(tmp_path / "resaved.pt"))(x), expected, atol=1e-5, rtol=1e-4)


def _shared_lists(n: int) -> Any:
    x: Any = 0
    for i in range(n):
        x = [x, x]
    return x


def test_value_sharing_containers_converts_within_a_budget():
    """A returned value holding one list twice per level, 30 levels (31 lists, 2^30 paths): the conversion to
    Python follows every reference (as torch.jit's does) and stops with an error after its budget of
    containers (core/value_nesting.h) instead of running for hours; 10 levels convert to eager's value."""
    f = kindling.jit.script(_shared_lists)
    assert f(10) == _shared_lists(10)
    with pytest.raises(Exception, match="value too large: converting it visits more than 16777216 containers"):
        f(30)
