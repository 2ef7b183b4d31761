"""collections.OrderedDict in code scripted by kindling.jit.script (torchvision's IntermediateLayerGetter and
segmentation heads build their outputs with it): torch's builtin table maps OrderedDict to dict(), whose
TorchScript dicts keep insertion order. Called empty (Dict[str, Tensor], filled by item assignment), from a
list of pairs, through `from collections import OrderedDict` and as `collections.OrderedDict`; compared with
torch.jit.script (computed first) and eager, including key order; Kindling's saved archive loaded by
torch.jit.load gives the same dicts."""
from pyapi_helpers import assert_same, kindling_only  # noqa: F401  (first: puts the package on sys.path)
import collections
from collections import OrderedDict
from typing import Dict, List

import pytest
import torch
import torch.nn as nn

import kindling.jit


class Heads(nn.Module):
    def __init__(self):
        super().__init__()
        self.names = nn.ModuleDict({"z": nn.Linear(3, 2), "a": nn.Linear(3, 4)})

    def forward(self, x) -> Dict[str, torch.Tensor]:
        out = OrderedDict()
        for name, head in self.names.items():
            out[name] = head(x)
        out["sum"] = x.sum(-1)
        return out


class FromPairs(nn.Module):
    def forward(self, x, n: int) -> Dict[str, int]:
        d = collections.OrderedDict([("c", n), ("a", n * 2)])
        d.update(OrderedDict([("b", int(x.numel()))]))
        d["c"] = d["c"] + 1
        return d


def keys_in_order(n: int) -> List[str]:
    d = OrderedDict()  # Dict[str, Tensor], as dict() without annotation
    for i in range(n):
        d[str(n - i)] = torch.full([1], i)
    return list(d.keys())


@pytest.mark.parametrize("obj,inputs", [
    (Heads(), [(torch.randn(2, 3),)]),
    (FromPairs(), [(torch.ones(2, 3), 4)]),
    (keys_in_order, [(0,), (5,)]),
], ids=["module_items", "from_pairs", "function_keys"])
def test_ordered_dict_matches_torch(obj, inputs, kindling_only, tmp_path):
    ts = torch.jit.script(obj)
    expected_ts = [ts(*a) for a in inputs]
    expected_py = [obj(*a) for a in inputs]
    path = tmp_path / "k.pt"
    with kindling_only():
        ks = kindling.jit.script(obj)
        got = [ks(*a) for a in inputs]
        ks.save(str(path))
    for g, e, p in zip(got, expected_ts, expected_py):
        assert_same(g, e)
        assert_same(g, dict(p) if isinstance(p, dict) else p)
    loaded = torch.jit.load(str(path))
    for a, e in zip(inputs, expected_ts):
        assert_same(loaded(*a), e)
