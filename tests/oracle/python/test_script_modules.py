"""Scripting nn.Module instances with kindling.jit._recursive.script_module (torch/jit/_recursive.py's
counterpart) against torch.jit.script 1.13: each module is scripted by torch.jit first, then by Kindling
inside kindling_only (torch.jit and torch._C._jit_* raise there); outputs equal eager's and torch.jit's,
Kindling's save loaded by torch.jit.load gives the same outputs, tensors share memory with the model.

Method bodies are compiled without a Python resolution callback yet, so these modules use self, torch.*,
math and builtins only (no F.*, no other Python globals)."""
from pyapi_helpers import assert_same, kindling_only, script_save_and_compare  # noqa: F401  (first: puts the package on sys.path)
import math
from typing import Dict, List, Optional, Tuple

import pytest
import torch
import torch.nn as nn

import kindling.jit
from kindling.jit._recursive import script_module


class Affine(nn.Module):
    def __init__(self, n=4):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(n, n))
        self.bias = nn.Parameter(torch.randn(n))

    def forward(self, x):
        return torch.matmul(x, self.weight) + self.bias


class WithBuffer(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("mean", torch.randn(4))
        self.register_buffer("count", torch.tensor(3))

    def forward(self, x):
        return (x - self.mean) * self.count


class Constants(nn.Module):
    __constants__ = ["k", "names", "eps"]

    def __init__(self):
        super().__init__()
        self.k = 3
        self.names = ["a", "bb"]
        self.eps = 1e-3

    def forward(self, x):
        return x * self.k + len(self.names) + self.eps


class FinalConst(nn.Module):
    scale: torch.jit.Final[float]

    def __init__(self):
        super().__init__()
        self.scale = 2.5

    def forward(self, x):
        return x * self.scale


class InferredAttrs(nn.Module):
    def __init__(self):
        super().__init__()
        self.n = 2
        self.f = 0.5
        self.flag = True
        self.tag = "hi"
        self.sizes = [1, 2, 3]
        self.table = {"a": 1, "b": 2}
        self.pair = (1, 2.0)

    def forward(self, x):
        y = x * self.n + self.f
        if self.flag:
            y = y + len(self.tag)
        return y + sum(self.sizes) + self.table["b"] + self.pair[0]


class AnnotatedAttrs(nn.Module):
    empty: List[int]
    maybe: Optional[torch.Tensor]
    lookup: Dict[str, torch.Tensor]

    def __init__(self):
        super().__init__()
        self.empty = []
        self.maybe = None
        self.lookup = {}

    def forward(self, x):
        out = x + len(self.empty) + len(self.lookup)
        maybe = self.maybe
        if maybe is not None:
            out = out + maybe
        return out


class AttributeMarker(nn.Module):
    def __init__(self):
        super().__init__()
        self.items = torch.jit.Attribute([], List[str])
        self.cache = torch.jit.Attribute({}, Dict[str, int])

    def forward(self, x):
        return x + len(self.items) + len(self.cache)


class Nested(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = Affine()
        self.b = Affine()
        self.buf = WithBuffer()

    def forward(self, x):
        return self.buf(self.b(torch.relu(self.a(x))))


class Deep(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = Nested()
        self.last = Affine()

    def forward(self, x):
        return self.last(self.inner(x)).sum(1)


class ListOfLayers(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([Affine() for _ in range(3)])

    def forward(self, x):
        for layer in self.layers:
            x = torch.tanh(layer(x))
        return x + len(self.layers)


class EnumerateLayers(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([Affine(), Affine()])

    def forward(self, x):
        outs = []
        for i, layer in enumerate(self.layers):
            outs.append(layer(x) * i)
        return torch.stack(outs)


class IndexLayers(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([Affine(), WithBuffer(), Affine()])

    def forward(self, x):
        return self.layers[0](x) + self.layers[-1](x) + self.layers[1](x)


class ZipLayers(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.ModuleList([Affine(), Affine()])
        self.b = nn.ModuleList([Affine(), Affine()])

    def forward(self, x):
        y = x
        for p, q in zip(self.a, self.b):
            y = p(y) - q(x)
        return y


class DictOfLayers(nn.Module):
    def __init__(self):
        super().__init__()
        self.heads = nn.ModuleDict({"left": Affine(), "right": Affine()})

    def forward(self, x):
        out = self.heads["left"](x)
        for name, head in self.heads.items():
            out = out + head(x)
        for head in self.heads.values():
            out = out * 0.5 + head(x)
        n = 0
        for k in self.heads.keys():
            n += len(k)
        return out + n


class Params(nn.Module):
    def __init__(self):
        super().__init__()
        self.plist = nn.ParameterList([nn.Parameter(torch.randn(4)) for _ in range(3)])
        self.pdict = nn.ParameterDict({"s": nn.Parameter(torch.randn(4)), "t": nn.Parameter(torch.randn(4))})

    def forward(self, x):
        for p in self.plist:
            x = x * p
        return x + self.pdict["t"] + self.plist[0]


class SeqBlock(nn.Module):
    def __init__(self):
        super().__init__()
        self.seq = nn.Sequential(Affine(), Affine(), WithBuffer())

    def forward(self, x):
        y = x
        for m in self.seq:
            y = m(y)
        return y + self.seq[0](x)


class Training(nn.Module):
    def forward(self, x):
        if self.training:
            return x * 2
        return x - 1


class Exported(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = Affine()

    def forward(self, x):
        return self.lin(x)

    @torch.jit.export
    def twice(self, x: torch.Tensor, n: int = 2) -> torch.Tensor:
        return self.helper(x) * n

    def helper(self, x):
        return self.lin(x) + 1


class Helpers(nn.Module):
    def forward(self, x):
        return self.first(x) + self.second(x, 3)

    def first(self, x):
        return self.second(x, 1) * 2

    def second(self, x: torch.Tensor, k: int) -> torch.Tensor:
        return x + k


class Ignored(nn.Module):
    def forward(self, x):
        if torch.jit.is_scripting():
            return x + 1
        return self.python_only(x)

    @torch.jit.ignore
    def python_only(self, x):
        return x + 1


class Unused(nn.Module):
    def forward(self, x, flag: bool = False):
        if flag:
            return self.never(x)
        return x * 3

    @torch.jit.unused
    def never(self, x) -> torch.Tensor:
        return x + len(object.__repr__(self))


class ControlFlow(nn.Module):
    def __init__(self):
        super().__init__()
        self.steps = 3

    def forward(self, x):
        acc = torch.zeros_like(x)
        for i in range(self.steps):
            if i % 2 == 0:
                acc = acc + x * i
            else:
                acc = acc - x
        while acc.sum() > 100:
            acc = acc / 2
        return acc


class ReturnsTuple(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = Affine()

    def forward(self, x) -> Tuple[torch.Tensor, List[int], Dict[str, torch.Tensor]]:
        y = self.lin(x)
        return y, list(y.shape), {"sum": y.sum(), "max": y.max()}


class MathUse(nn.Module):
    def __init__(self):
        super().__init__()
        self.d = 16

    def forward(self, q, k):
        return torch.softmax(torch.matmul(q, k.transpose(0, 1)) / math.sqrt(self.d), dim=-1)


class Shared(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = Affine()
        self.again = self.lin

    def forward(self, x):
        return self.lin(x) + self.again(x)


class PrepareScriptable(nn.Module):
    def __init__(self):
        super().__init__()
        self.k = 5

    def __prepare_scriptable__(self):
        return Times(self.k).train(self.training)

    def forward(self, x):
        return x * int(str(self.k))  # str(int) of a Python int: not what the prepared module runs


class Times(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k

    def forward(self, x):
        return x * self.k


class OptionalSub(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = Affine()
        self.maybe = None

    def forward(self, x):
        return self.lin(x)


class TensorAttr(nn.Module):
    def __init__(self):
        super().__init__()
        self.table = torch.arange(4.0)

    def forward(self, x):
        return x + self.table


class SameTypeDifferentConstants(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = Constants()
        self.b = Constants()
        self.b.k = 7

    def forward(self, x):
        return self.a(x) + self.b(x)


MODULES = [Affine, WithBuffer, Constants, FinalConst, InferredAttrs, AnnotatedAttrs, AttributeMarker, Nested,
           Deep, ListOfLayers, EnumerateLayers, IndexLayers, ZipLayers, DictOfLayers, Params, SeqBlock, Training,
           Exported, Helpers, Ignored, Unused, ControlFlow, ReturnsTuple, Shared, PrepareScriptable, OptionalSub,
           TensorAttr, SameTypeDifferentConstants]


def _inputs(cls):
    if cls is MathUse:
        return (torch.randn(3, 16), torch.randn(5, 16))
    return (torch.randn(3, 4),)


@pytest.mark.parametrize("cls", MODULES + [MathUse], ids=lambda c: c.__name__)
@pytest.mark.parametrize("mode", ["train", "eval"])
def test_script_module_matches_torch(cls, mode, kindling_only, tmp_path):
    torch.manual_seed(0)
    model = cls()
    model.train(mode == "train")
    args = _inputs(cls)
    expected = model(*args)
    try:
        theirs = torch.jit.script(model)(*args)
    except Exception:  # torch.jit rejects it; Kindling must still match eager
        theirs = expected
    if cls is AttributeMarker:  # in Python the attribute holds the marker (len 2); compiled code its value
        expected = theirs
    ours = script_save_and_compare(model, args, expected, tmp_path / "m.pt", theirs, script=script_module)
    assert ours.training == model.training
    for (n, p), (m, q) in zip(ours.named_parameters(), model.named_parameters()):
        assert n == m and p.data_ptr() == q.data_ptr(), n


def test_exported_methods_callable(kindling_only):
    torch.manual_seed(0)
    model = Exported()
    x = torch.randn(3, 4)
    theirs = torch.jit.script(model).twice(x, 3)
    with kindling_only():
        ours = script_module(model)
        out = ours.twice(x, 3)
        default = ours.twice(x)
    assert_same(out, theirs)
    assert_same(default, model.twice(x))


def test_types_shared_and_mangled(kindling_only):
    torch.manual_seed(0)
    with kindling_only():
        m = script_module(SameTypeDifferentConstants())
        n = script_module(Nested())
    assert m.a._c.qualified_name != m.b._c.qualified_name
    assert "___torch_mangle_" in m.b._c.qualified_name or "___torch_mangle_" in m.a._c.qualified_name
    assert n.a._c.qualified_name == n.b._c.qualified_name


def test_uninferable_attribute_names_it(kindling_only):
    class Bad(nn.Module):
        def __init__(self):
            super().__init__()
            self.things = []

        def forward(self, x):
            return x + len(self.things)

    with pytest.raises(RuntimeError, match="things"):
        torch.jit.script(Bad())
    with kindling_only():
        with pytest.raises(kindling.jit.CompileError) as e:
            script_module(Bad())
    msg = str(e.value)
    assert "things" in msg and "failed to convert Python type: 'list'" in msg and "type annotation" in msg


def test_invalid_constant_names_attribute(kindling_only):
    class BadConst(nn.Module):
        __constants__ = ["w"]

        def __init__(self):
            super().__init__()
            self.w = {"a": 1}

        def forward(self, x):
            return x

    with pytest.raises(TypeError, match="attribute 'BadConst.w' is not a valid constant"):
        torch.jit.script(BadConst())
    with kindling_only():
        with pytest.raises(TypeError, match="attribute 'BadConst.w' is not a valid constant"):
            script_module(BadConst())


@pytest.mark.parametrize("kind", ["forward", "pre"])
def test_hooks_refused_not_skipped(kind, kindling_only):
    model = Nested()
    if kind == "forward":
        model.a.register_forward_hook(lambda m, inp, out: out * 2)
    else:
        model.a.register_forward_pre_hook(lambda m, inp: (inp[0] * 2,))
    with kindling_only():
        with pytest.raises(NotImplementedError, match="'Affine'.*hooks"):
            script_module(model)
