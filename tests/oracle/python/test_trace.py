"""kindling.jit.trace against torch.jit.trace 1.13: a corpus of functions and modules (MLPs, convnets,
residual blocks, tensor methods, views and indexing, size-dependent code, in-place ops, several outputs,
torchvision resnet18 / mobilenet_v2, nn.LSTM). For each case torch.jit.trace runs FIRST; then
kindling.jit.trace runs with torch.jit and torch._C._jit_* replaced by raisers. Checked: outputs equal to
eager's and to torch's trace on the example inputs and, where torch's trace replays on other shapes, on
those too; the recorded operator kinds equal torch's (modulo the size bookkeeping); Kindling's .save()
loaded by torch.jit.load gives the same outputs; TracerWarnings; check_trace failures; mixing with
kindling ScriptFunctions; script_if_tracing."""
from pyapi_helpers import assert_same, kindling_only  # noqa: F401  (first: puts the package on sys.path)
import re
import warnings

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

import kindling
import kindling.jit
from kindling import _C
from kindling.jit import ScriptFunction


def _seed():
    torch.manual_seed(0)


# ------------------------------------------------------------------ corpus
class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2, self.fc3 = nn.Linear(16, 32), nn.Linear(32, 32), nn.Linear(32, 4)

    def forward(self, x):
        return self.fc3(torch.relu(self.fc2(F.gelu(self.fc1(x)))))


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                                      nn.MaxPool2d(2), nn.Conv2d(8, 16, 3, stride=2), nn.ReLU(inplace=True))
        self.pool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        x = self.pool(self.features(x))
        return self.fc(torch.flatten(x, 1))


class Residual(nn.Module):
    def __init__(self, c=8):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c)

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        y += x
        return F.relu(y)


class Flattener(nn.Module):
    """Size-dependent: reads the batch size from the input (replays on other batch sizes)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(12, 3)

    def forward(self, x):
        n = x.size(0)
        return self.fc(x.reshape(n, -1)).view(n, 3, 1)


class TwoOutputs(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(6, 3)
        self.b = nn.Linear(6, 2)

    def forward(self, x, y):
        return self.a(x).tanh(), (self.b(y) * 2, x.mean(dim=0))


class Deconv(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1, output_padding=1)
        self.conv1d = nn.Conv1d(2, 3, 3, groups=1, dilation=2)

    def forward(self, x):
        y = self.up(x)
        return self.conv1d(y.flatten(2))


class Norms(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm(8)
        self.gn = nn.GroupNorm(2, 4)

    def forward(self, x, img):
        return F.layer_norm(self.ln(x), (8,)), self.gn(img).sigmoid()


class Embed(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(20, 6)
        self.fc = nn.Linear(6, 2)

    def forward(self, ids):
        return self.fc(self.emb(ids)).log_softmax(-1)


class LSTMModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(5, 7, num_layers=2)
        self.head = nn.Linear(7, 3)

    def forward(self, x):
        out, (h, c) = self.lstm(x)
        return self.head(out[-1]), h, c


def f_elementwise(x, y):
    return (x * y + 2 - y / 3).abs().sqrt() + torch.exp(-x) * torch.clamp(y, -0.5, 0.5)


def f_compare(x, y):
    return torch.where(x > y, x, y * 2) + (x <= 0).float() - (~(y < 0)).to(torch.float32)


def f_reduce(x):
    return x.sum(1), x.max(dim=0)[0], x.argmin(1), x.std(), x.norm(dim=1)


def f_views(x):
    return x.transpose(0, 1).contiguous().view(-1), x.permute(2, 0, 1), x.unsqueeze(1).squeeze(1).flatten()


def f_index(x):
    return x[0], x[:, 1:3], x[..., -1], x[None, 1, ::2], x[:, torch.tensor([0, 2])]


def f_setitem(x):
    y = x.clone()
    y[0] = 0.0
    y[:, 1] = y[:, 2] * 3
    y[1:, 0:2] += 1
    return y


def f_inplace(x):
    y = x.clone()
    y.mul_(2).add_(1)
    y.relu_()
    y.clamp_(max=2.0)
    return y


def f_sizes(x):
    b, c = x.shape[0], x.shape[1]
    return x.view(b * c, -1).mean(1).view(b, c) + b


def f_cat_stack(x, y):
    return torch.cat([x, y], dim=1), torch.stack((x, y)), torch.cat((x, y)).split(2)


def f_chunk(x):
    a, b, c = x.chunk(3, dim=-1)
    return a.sigmoid() * b.tanh() + c


def f_matmul(a, b):
    return a @ b, torch.bmm(a, b.transpose(1, 2).transpose(1, 2)), torch.matmul(a, b).softmax(-1)


def f_factories(x):
    z = torch.zeros(x.shape[0], 3)
    o = torch.ones_like(x)
    return z + 1, o * x, torch.arange(5).float() * 2, torch.full((2, 2), 3.0)


def f_dtype(x):
    return x.long() * 3, x.to(torch.float64) / 2, x.int().float().sum()


def f_activations(x):
    return F.leaky_relu(x, 0.1) + F.elu(x) + F.hardtanh(x) + F.silu(x) + F.softplus(x) + torch.sigmoid(x)


def f_pools(x):
    return F.avg_pool2d(x, 2), F.max_pool2d(x, 3, stride=1, padding=1), F.adaptive_max_pool2d(x, 2)


def f_interp(x):
    return F.interpolate(x, scale_factor=2, mode="nearest"), F.pad(x, (1, 1, 2, 0))


def f_reverse_ops(x):
    return 1 - x, 2 / (x.abs() + 1), 2 ** x, -x, x ** 2


def f_expand(x):
    return x.expand(3, -1, -1) * 2, x.repeat(2, 1, 1), x.unsqueeze(0).expand_as(torch.empty(2, 4, 2, 3)).sum()


def f_list_output(x):
    return [x + 1, x * 2]


def f_dict_output(x):
    return {"a": x.relu(), "b": x.sigmoid()}


def _resnet18():
    import torchvision
    return torchvision.models.resnet18(weights=None)


def _mobilenet_v2():
    import torchvision
    return torchvision.models.mobilenet_v2(weights=None)


CASES = [
    # (id, factory of the function or module, example inputs, other-shape inputs or None, strict)
    ("mlp", MLP, lambda: (torch.randn(5, 16),), lambda: (torch.randn(9, 16),), True),
    ("convnet", ConvNet, lambda: (torch.randn(2, 3, 16, 16),), lambda: (torch.randn(3, 3, 20, 20),), True),
    ("residual", Residual, lambda: (torch.randn(2, 8, 6, 6),), lambda: (torch.randn(1, 8, 9, 5),), True),
    ("flattener", Flattener, lambda: (torch.randn(4, 3, 4),), lambda: (torch.randn(7, 3, 4),), True),
    ("two_outputs", TwoOutputs, lambda: (torch.randn(4, 6), torch.randn(4, 6)), lambda: (torch.randn(2, 6),
                                                                                          torch.randn(2, 6)), True),
    ("deconv", Deconv, lambda: (torch.randn(1, 4, 5, 5),), lambda: (torch.randn(2, 4, 6, 6),), True),
    ("norms", Norms, lambda: (torch.randn(3, 8), torch.randn(2, 4, 3, 3)), None, True),
    ("embedding", Embed, lambda: (torch.tensor([[1, 2, 3], [4, 5, 19]]),), lambda: (torch.tensor([[7]]),), True),
    ("lstm_model", LSTMModel, lambda: (torch.randn(4, 2, 5),), lambda: (torch.randn(6, 3, 5),), True),
    ("nn_lstm", lambda: nn.LSTM(4, 6), lambda: (torch.randn(3, 2, 4),), lambda: (torch.randn(5, 1, 4),), True),
    ("nn_gru_batch_first", lambda: nn.GRU(4, 5, batch_first=True), lambda: (torch.randn(2, 3, 4),), None, True),
    ("sequential", lambda: nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Dropout(0.3), nn.Linear(4, 2),
                                         nn.Softmax(dim=1)), lambda: (torch.randn(6, 3),), None, True),
    ("elementwise", lambda: f_elementwise, lambda: (torch.randn(3, 4), torch.randn(3, 4)),
     lambda: (torch.randn(2, 2), torch.randn(2, 2)), True),
    ("compare", lambda: f_compare, lambda: (torch.randn(5), torch.randn(5)), lambda: (torch.randn(8),
                                                                                       torch.randn(8)), True),
    ("reduce", lambda: f_reduce, lambda: (torch.randn(4, 5),), lambda: (torch.randn(6, 3),), True),
    ("views", lambda: f_views, lambda: (torch.randn(2, 3, 4),), lambda: (torch.randn(3, 2, 5),), True),
    ("index", lambda: f_index, lambda: (torch.randn(3, 4, 5),), lambda: (torch.randn(4, 5, 6),), True),
    ("setitem", lambda: f_setitem, lambda: (torch.randn(4, 5),), lambda: (torch.randn(3, 3),), True),
    ("inplace", lambda: f_inplace, lambda: (torch.randn(3, 4),), lambda: (torch.randn(2, 7),), True),
    ("sizes", lambda: f_sizes, lambda: (torch.randn(2, 3, 4),), lambda: (torch.randn(5, 2, 6),), True),
    ("cat_stack", lambda: f_cat_stack, lambda: (torch.randn(2, 3), torch.randn(2, 3)), None, True),
    ("chunk", lambda: f_chunk, lambda: (torch.randn(2, 9),), lambda: (torch.randn(4, 6),), True),
    ("matmul", lambda: f_matmul, lambda: (torch.randn(2, 3, 3), torch.randn(2, 3, 3)), None, True),
    ("factories", lambda: f_factories, lambda: (torch.randn(4, 2),), lambda: (torch.randn(6, 2),), True),
    ("dtype", lambda: f_dtype, lambda: (torch.randn(3, 3) * 10,), None, True),
    ("activations", lambda: f_activations, lambda: (torch.randn(4, 4),), lambda: (torch.randn(2, 9),), True),
    ("pools", lambda: f_pools, lambda: (torch.randn(1, 2, 6, 6),), lambda: (torch.randn(2, 2, 8, 8),), True),
    ("interpolate_pad", lambda: f_interp, lambda: (torch.randn(1, 2, 3, 3),), None, True),
    ("reverse_ops", lambda: f_reverse_ops, lambda: (torch.randn(3, 2),), lambda: (torch.randn(5),), True),
    ("expand", lambda: f_expand, lambda: (torch.randn(1, 2, 3),), None, True),
    ("list_output", lambda: f_list_output, lambda: (torch.randn(3),), lambda: (torch.randn(5),), False),
    ("dict_output", lambda: f_dict_output, lambda: (torch.randn(3),), lambda: (torch.randn(4),), False),
    ("resnet18", _resnet18, lambda: (torch.randn(1, 3, 64, 64),), lambda: (torch.randn(2, 3, 48, 48),), True),
    ("mobilenet_v2", _mobilenet_v2, lambda: (torch.randn(1, 3, 64, 64),), None, True),
]

# Bookkeeping nodes whose spelling differs between the tracers (torch does size arithmetic on tensors).
_BOOKKEEPING = {"aten::Int", "aten::size", "prim::NumToTensor", "aten::ScalarImplicit", "aten::floordiv",
                "aten::floor_divide", "aten::mul", "aten::add", "aten::sub", "aten::to", "aten::detach",
                "aten::expand", "aten::contiguous", "aten::view", "aten::lift_fresh", "aten::clone", "aten::copy_",
                "aten::ones", "aten::zeros", "aten::tensor", "aten::neg", "aten::remainder"}


def _aten_kinds(graph_text):
    return {m.group(1) for m in re.finditer(r"= ((?:aten|prim)::[A-Za-z_0-9]+)", graph_text)
            if m.group(1).startswith("aten::")}


def _make(factory):
    _seed()
    obj = factory()
    if isinstance(obj, nn.Module):
        obj.eval()
    return obj


def _clone(inputs):
    return tuple(i.clone() for i in inputs)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_trace_corpus(case, kindling_only, tmp_path):
    name, factory, example, other, strict = case
    obj = _make(factory)
    _seed()
    ex = example()
    oth = other() if other else None
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = obj(*_clone(ex))
        theirs = torch.jit.trace(obj, _clone(ex), strict=strict, check_trace=False)
        theirs_out = theirs(*_clone(ex))
        theirs_other = theirs(*_clone(oth)) if oth else None
        eager_other = obj(*_clone(oth)) if oth else None
    torch_kinds = _aten_kinds(str(theirs.inlined_graph))
    with kindling_only():
        ours = kindling.jit.trace(obj, _clone(ex), strict=strict)
        got = ours(*_clone(ex))
        got_other = ours(*_clone(oth)) if oth else None
        path = tmp_path / (name + ".pt")
        ours.save(str(path))
        our_graph = str(ours.graph)
    assert_same(got, expected, atol=1e-4, rtol=1e-4, path="vs eager")
    assert_same(got, theirs_out, atol=1e-4, rtol=1e-4, path="vs torch.jit.trace")
    if oth:
        assert_same(got_other, theirs_other, atol=1e-4, rtol=1e-4, path="other shapes vs torch.jit.trace")
        assert_same(got_other, eager_other, atol=1e-4, rtol=1e-4, path="other shapes vs eager")
    our_kinds = _aten_kinds(our_graph)
    assert our_kinds - _BOOKKEEPING == torch_kinds - _BOOKKEEPING, (our_kinds ^ torch_kinds) - _BOOKKEEPING
    loaded = torch.jit.load(str(path))
    with torch.no_grad():
        assert_same(loaded(*_clone(ex)), expected, atol=1e-4, rtol=1e-4, path="torch.jit.load of Kindling's save")


# ------------------------------------------------------------------ graph shape
def test_graph_reads_like_torch(kindling_only):
    conv = _make(lambda: nn.Conv2d(3, 4, 3, stride=2))
    x = torch.randn(1, 3, 8, 8)
    with kindling_only():
        g = str(kindling.jit.trace(conv, x).graph)
        sizes = str(kindling.jit.trace(lambda t: t.view(t.size(0), -1), torch.randn(2, 3)).graph)
    assert "aten::_convolution" in g and "aten::conv2d" not in g
    assert "prim::Constant" in g
    assert re.search(r"aten::size\(%\w+, %\d+\)", sizes), sizes
    assert "prim::NumToTensor" in sizes and "aten::Int" in sizes


def test_size_dependent_replays_where_baked_shape_does_not(kindling_only):
    def f(x):
        return x.reshape(x.shape[0] * 2, -1)
    with kindling_only():
        ours = kindling.jit.trace(f, torch.randn(4, 6))
        out = ours(torch.randn(3, 8))
    assert out.shape == (6, 4)


# ------------------------------------------------------------------ warnings and checks
def test_tracer_warnings(kindling_only):
    def to_float(x):
        return x * float(x.sum())

    def to_number(x):
        return x * x.sum().item()

    def to_integer(x):
        return x * int(x.sum())

    def to_bool(x):
        if x.sum() > 0:
            return x + 1
        return x - 1

    def to_list(x):
        return x * len(x.tolist())

    def use_len(x):
        return x * len(x)

    def iterate(x):
        return sum(r for r in x)

    cases = [(use_len, "Using len to get tensor shape"), (iterate, "Iterating over a tensor"), (to_float, "Python float"), (to_number, "Python number"), (to_integer, "Python integer"),
             (to_bool, "Python boolean"), (to_list, "Python list"), (f_list_output, "list at the output")]
    for fn, what in cases:
        with warnings.catch_warnings(record=True) as torch_w:
            warnings.simplefilter("always")
            torch.jit.trace(fn, torch.ones(3), check_trace=False)
        assert any(what in str(w.message) for w in torch_w), (what, [str(w.message) for w in torch_w])
        with kindling_only(), warnings.catch_warnings(record=True) as ours_w:
            warnings.simplefilter("always")
            kindling.jit.trace(fn, torch.ones(3), check_trace=False)
        msgs = [w for w in ours_w if issubclass(w.category, kindling.jit.TracerWarning)]
        assert any(what in str(w.message) for w in msgs), (what, [str(w.message) for w in ours_w])


def test_tracer_warning_value_is_constant(kindling_only):
    def f(x):
        return x * float(x.sum())
    with kindling_only(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = kindling.jit.trace(f, torch.ones(3), check_trace=False)
        out = ours(torch.full((3,), 2.0))
    assert torch.equal(out, torch.full((3,), 6.0))  # 3.0 from the example, baked in (as torch's trace)


def test_check_trace_warns_on_nondeterministic(kindling_only):
    """torch 1.13's check_trace warns (it does not raise) for nondeterministic nodes and outputs that
    differ from the Python function's."""
    def noisy(x):
        return x + torch.rand_like(x)
    expected = ["Trace had nondeterministic nodes", "does not match the corresponding output of the Python function"]
    with warnings.catch_warnings(record=True) as torch_w:
        warnings.simplefilter("always")
        torch.jit.trace(noisy, torch.ones(3))
    with kindling_only(), warnings.catch_warnings(record=True) as ours_w:
        warnings.simplefilter("always")
        kindling.jit.trace(noisy, torch.ones(3))
    for text in expected:
        assert any(text in str(w.message) for w in torch_w), text
        assert any(text in str(w.message) and issubclass(w.category, kindling.jit.TracerWarning) for w in ours_w), \
            (text, [str(w.message)[:80] for w in ours_w])


def test_check_inputs_data_dependent_control_flow(kindling_only):
    def branchy(x):
        if bool(x.sum() > 0):
            return x * 2
        return x - 5
    positive, negative = torch.ones(3), -torch.ones(3)
    with pytest.raises(Exception), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.jit.trace(branchy, positive, check_inputs=[(negative,)])
    with kindling_only(), warnings.catch_warnings(), pytest.raises(kindling.jit.TracingCheckError):
        warnings.simplefilter("ignore")
        kindling.jit.trace(branchy, positive, check_inputs=[(negative,)])
    with kindling_only(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ok = kindling.jit.trace(branchy, positive, check_inputs=[(torch.full((3,), 2.0),)])
    assert torch.equal(ok(torch.full((3,), 4.0)), torch.full((3,), 8.0))


def test_strict_rejects_dict_output(kindling_only):
    with pytest.raises(RuntimeError, match="strict=False"):
        torch.jit.trace(f_dict_output, torch.randn(3))
    with kindling_only(), pytest.raises(RuntimeError, match="strict=False"):
        kindling.jit.trace(f_dict_output, torch.randn(3))


def test_untraceable_input_type(kindling_only):
    with kindling_only(), pytest.raises(RuntimeError, match="cannot be traced"):
        kindling.jit.trace(lambda x, s: x, (torch.randn(2), "s"))


# ------------------------------------------------------------------ mixing
def test_script_function_called_inside_trace(kindling_only):
    fb = _C.GraphBuilder()
    a = fb.add_input("a", torch.randn(2))
    fb.set_output(fb.call("aten::mul", [fb.call("aten::relu", [a])[0], 3])[0])
    scripted = ScriptFunction(fb.finish_function("__torch__.relu3"))

    def outer(x):
        return scripted(x + 1) - 1
    x = torch.randn(6)
    with kindling_only():
        traced = kindling.jit.trace(outer, x)
        g = str(traced.graph)
        out = traced(x)
    assert "prim::CallFunction" in g
    assert torch.allclose(out, torch.relu(x + 1) * 3 - 1)


def test_trace_module_methods(kindling_only):
    m = _make(MLP)
    x = torch.randn(3, 16)
    with kindling_only():
        traced = kindling.jit.trace_module(m, {"forward": (x,)})
        out = traced(x)
    assert torch.allclose(out, m(x), atol=1e-5)


def test_is_tracing_and_script_if_tracing(kindling_only):
    seen = []

    def f(x):
        seen.append(kindling.jit.is_tracing())
        return x + 1
    with kindling_only():
        kindling.jit.trace(f, torch.randn(2), check_trace=False)
    assert seen == [True] and not kindling.jit.is_tracing()

    @kindling.jit.script_if_tracing
    def helper(x):  # compiled by kindling.jit.script when called under a trace
        return x * 2
    assert torch.equal(helper(torch.ones(2)), torch.full((2,), 2.0))

    def uses_helper(x):
        return helper(x) + 1
    x = torch.randn(3)
    with kindling_only():
        traced = kindling.jit.trace(uses_helper, x)
        out = traced(torch.full((3,), 2.0))
    assert torch.equal(out, torch.full((3,), 5.0))  # the helper's work is in the traced code, not baked


# ------------------------------------------------------------------ operator sweep
_seed()
x4 = torch.randn(2, 3, 4, 4)
x2 = torch.randn(3, 4)
OPS = {
 "addmm": (lambda x: torch.addmm(torch.zeros(3, 3), x, x.t()), x2),
 "baddbmm": (lambda x: torch.einsum("ij,kj->ik", x, x), x2),
 "topk": (lambda x: x.topk(2, dim=1), x2),
 "sort": (lambda x: torch.sort(x, 1, descending=True), x2),
 "masked_fill": (lambda x: x.masked_fill(x > 0, 0.0), x2),
 "where_scalar": (lambda x: torch.where(x > 0, x, torch.zeros_like(x)), x2),
 "gather": (lambda x: x.gather(1, torch.tensor([[0], [1], [2]])), x2),
 "cumsum": (lambda x: x.cumsum(0) + x.cumprod(1), x2),
 "type_as": (lambda x: x.type_as(torch.ones(1, dtype=torch.float64)), x2),
 "new_zeros": (lambda x: x.new_zeros(x.shape) + x.new_ones(2, 4).sum(), x2),
 "unbind": (lambda x: x.unbind(0)[1], x2),
 "iter": (lambda x: sum(r for r in x), x2),
 "len": (lambda x: x * len(x), x2),
 "softmax_dim": (lambda x: F.softmax(x, dim=-1) + F.log_softmax(x, -1), x2),
 "dropout_eval": (lambda x: F.dropout(x, 0.5, training=False), x2),
 "normalize": (lambda x: F.normalize(x, dim=1), x2),
 "cross_entropy": (lambda x: F.cross_entropy(x, torch.tensor([0, 1, 2])), x2),
 "mse": (lambda x: F.mse_loss(x, torch.zeros_like(x)), x2),
 "pixel_shuffle": (lambda x: F.pixel_shuffle(x.repeat(1, 4, 1, 1)[:, :4], 2), x4),
 "upsample_bilinear": (lambda x: F.interpolate(x, size=(8, 8), mode="bilinear", align_corners=False), x4),
 "avgpool_module": (nn.AdaptiveAvgPool2d(1), x4),
 "channel_shuffle": (lambda x: x.view(2, 3, 1, 4, 4).transpose(1, 2).reshape(2, -1, 4, 4), x4),
 "hardswish": (nn.Hardswish(), x4),
 "prelu": (nn.PReLU(), x4),
 "instnorm": (nn.InstanceNorm2d(3), x4),
 "mha": (nn.MultiheadAttention(4, 2).eval(), (torch.randn(5, 2, 4), torch.randn(5, 2, 4), torch.randn(5, 2, 4))),
 "transformer_layer": (nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0).eval(), torch.randn(5, 2, 8)),
 "clamp_min": (lambda x: x.clamp(min=0) + x.clamp_min(0.1), x2),
 "div_mode": (lambda x: torch.div(x, 2, rounding_mode="floor"), x2),
 "floor_div": (lambda x: x // 2 + x % 2, x2),
 "bool_ops": (lambda x: ((x > 0) & (x < 1)) | ~(x > 2), x2),
 "any_all": (lambda x: (x > 0).any(1), x2),
 "argmax": (lambda x: x.argmax(), x2),
 "nonzero": (lambda x: torch.nonzero(x > 0), x2),
 "scalar_tensor_mul": (lambda x: x * torch.tensor(2.0), x2),
 "min_max_pair": (lambda x: torch.max(x, torch.zeros_like(x)) - torch.min(x, 1, keepdim=True).values, x2),
 "size_tuple": (lambda x: x.new_empty(x.size()).fill_(1) * x, x2),
 "rsqrt_pow": (lambda x: x.abs().rsqrt().pow(2), x2),
 "narrow": (lambda x: x.narrow(1, 1, 2), x2),
 "roll": (lambda x: x.roll(1, 0), x2),
 "flip": (lambda x: x.flip(0), x2),
 "tril": (lambda x: x.tril() + torch.triu(x, 1), x2),
 "index_select": (lambda x: x.index_select(0, torch.tensor([0, 2])), x2),
 "mean_list": (lambda x: x.mean([2, 3]), x4),
 "squeeze_dim": (lambda x: x[:, :1].squeeze(1), x2),
 "data": (lambda x: x.data * 2, x2),
 "T": (lambda x: x.T + 1, x2),
 "contig_channels": (lambda x: x.contiguous(memory_format=torch.channels_last) + 1, x4),
}


@pytest.mark.parametrize("name", sorted(OPS))
def test_trace_ops(name, kindling_only):
    """Tensor methods, torch functions, F.* and nn modules: outputs equal to eager's and torch.jit.trace's."""
    fn, inp = OPS[name]
    inp = inp if isinstance(inp, tuple) else (inp,)
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = fn(*_clone(inp))
        theirs = torch.jit.trace(fn, _clone(inp), check_trace=False)(*_clone(inp))
    with kindling_only(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = kindling.jit.trace(fn, _clone(inp), check_trace=False)(*_clone(inp))
    assert_same(got, expected, atol=1e-4, rtol=1e-4, path="vs eager")
    assert_same(got, theirs, atol=1e-4, rtol=1e-4, path="vs torch.jit.trace")


# ------------------------------------------------------------------ errors
def test_operator_kindling_lacks_is_a_clear_error(kindling_only):
    with kindling_only(), pytest.raises(RuntimeError, match=r"cannot record torch\.fft\.fft.*aten::fft_fft"):
        kindling.jit.trace(lambda x: torch.fft.fft(x).real, torch.randn(4))


def test_graph_builder_errors():
    b = _C.GraphBuilder()
    x = b.add_input("x", torch.randn(2))
    with pytest.raises(KeyError, match="no operator named 'aten::nope'"):
        b.call("aten::nope", [x])
    with pytest.raises(kindling.jit.CompileError, match="Expected a value of type"):
        b.call("aten::add", [x, "text"])
    with pytest.raises(ValueError, match="another GraphBuilder"):
        _C.GraphBuilder().call("aten::relu", [x])
    with pytest.raises(ValueError, match="exactly one output"):
        b.finish_function("__torch__.f")
    with pytest.raises(TypeError, match="cannot type the input"):
        b.add_input("y", object())
    b.set_output(b.call("aten::relu", [x])[0])
    f = ScriptFunction(b.finish_function("__torch__.f"))
    assert torch.equal(f(torch.tensor([-1.0, 2.0])), torch.tensor([0.0, 2.0]))
    with pytest.raises(ValueError, match="already finished"):
        b.call("aten::relu", [x])


# ------------------------------------------------------------------ structured inputs
def f_structured(d, t):
    return d["a"] * 2 + t[0] - t[1][0], d["b"].sum()


def test_dict_and_nested_inputs(kindling_only, tmp_path):
    _seed()
    ins = ({"a": torch.randn(3), "b": torch.randn(2)}, (torch.randn(3), [torch.randn(3)]))
    other = ({"a": torch.randn(5), "b": torch.randn(4)}, (torch.randn(5), [torch.randn(5)]))
    theirs = torch.jit.trace(f_structured, ins)
    expected, expected_other = theirs(*ins), theirs(*other)
    torch_graph = str(theirs.graph)
    with kindling_only():
        ours = kindling.jit.trace(f_structured, ins)
        got, got_other = ours(*ins), ours(*other)
        g = str(ours.graph)
        ours.save(str(tmp_path / "structured.pt"))
    assert_same(got, expected)
    assert_same(got_other, expected_other)
    assert_same(got, f_structured(*ins))
    for kind in ("aten::__getitem__", "prim::TupleUnpack", "prim::ListUnpack"):
        assert kind in g and kind in torch_graph, kind
    assert g.startswith("graph(%d : Dict(str, Tensor),\n      %t : (Tensor, Tensor[])):")
    assert_same(torch.jit.load(str(tmp_path / "structured.pt"))(*ins), expected)


def test_untraceable_structures(kindling_only):
    for bad in ((torch.randn(2), 3), ({"a": 1},), ([],)):
        with kindling_only(), pytest.raises(RuntimeError, match="cannot be traced"):
            kindling.jit.trace(lambda *a: a[0] if isinstance(a[0], torch.Tensor) else torch.zeros(1), bad)


def test_traced_function_inside_trace_saves(kindling_only, tmp_path):
    def inner(x):
        return torch.tanh(x) * 3

    def outer(x):
        return traced_inner(x + 1).sum(0)
    x = torch.randn(4, 2)
    with kindling_only():
        traced_inner = kindling.jit.trace(inner, x)
        traced = kindling.jit.trace(outer, x)
        g = str(traced.graph)
        out = traced(x)
        traced.save(str(tmp_path / "outer.pt"))
    assert "prim::CallFunction" in g
    assert_same(out, outer(x))
    assert_same(torch.jit.load(str(tmp_path / "outer.pt"))(x), outer(x))


# ------------------------------------------------------------------ torchvision families
TORCHVISION = ["alexnet", "vgg11_bn", "squeezenet1_1", "densenet121", "googlenet", "inception_v3",
               "shufflenet_v2_x0_5", "mnasnet0_5", "efficientnet_b0", "efficientnet_v2_s", "mobilenet_v3_small",
               "regnet_y_400mf", "resnext50_32x4d", "wide_resnet50_2", "convnext_tiny", "swin_t", "swin_v2_t",
               "vit_b_32", "maxvit_t"]


@pytest.mark.parametrize("name", TORCHVISION)
def test_trace_torchvision(name, kindling_only):
    """One model of each torchvision 0.14 classification family: outputs equal to eager's and
    torch.jit.trace's (torchvision's _assert on a Python bool runs outside the recorder)."""
    import torchvision
    _seed()
    model = torchvision.models.get_model(name, weights=None).eval()
    size = {"inception_v3": 299, "vit_b_32": 224, "swin_t": 224, "swin_v2_t": 256, "maxvit_t": 224}.get(name, 96)
    x = torch.randn(1, 3, size, size)
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = model(x)
        theirs = torch.jit.trace(model, x, check_trace=False)(x)
    with kindling_only(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = kindling.jit.trace(model, x, check_trace=False)(x)
    assert_same(got, expected, atol=1e-3, rtol=1e-3, path="vs eager")
    assert_same(got, theirs, atol=1e-3, rtol=1e-3, path="vs torch.jit.trace")


def _segmentation(name):
    import torchvision
    S = torchvision.models.segmentation
    kwargs = {"weights": None, "weights_backbone": None}
    return {"lraspp_mobilenet_v3_large": lambda: S.lraspp_mobilenet_v3_large(**kwargs),
            "fcn_resnet50": lambda: S.fcn_resnet50(aux_loss=False, **kwargs),
            "deeplabv3_mobilenet_v3_large": lambda: S.deeplabv3_mobilenet_v3_large(**kwargs)}[name]()


@pytest.mark.parametrize("name", ["lraspp_mobilenet_v3_large", "fcn_resnet50", "deeplabv3_mobilenet_v3_large",
                                  "transformer"])
def test_trace_zoo_non_strict(name, kindling_only, tmp_path):
    """Segmentation models return dicts (strict=False, as torch.jit.trace needs); nn.Transformer."""
    _seed()
    if name == "transformer":
        model = nn.Transformer(16, 2, 1, 1, 32, dropout=0.0).eval()
        ins = (torch.randn(5, 2, 16), torch.randn(4, 2, 16))
    else:
        model = _segmentation(name).eval()
        ins = (torch.randn(1, 3, 64, 64),)
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = model(*ins)
        theirs = torch.jit.trace(model, ins, strict=False, check_trace=False)(*ins)
    with kindling_only(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = kindling.jit.trace(model, ins, strict=False, check_trace=False)
        got = ours(*ins)
        ours.save(str(tmp_path / "m.pt"))
    expected = dict(expected) if isinstance(expected, dict) else expected
    theirs = dict(theirs) if isinstance(theirs, dict) else theirs
    assert_same(got, expected, atol=1e-3, rtol=1e-3, path="vs eager")
    assert_same(got, theirs, atol=1e-3, rtol=1e-3, path="vs torch.jit.trace")
    with torch.no_grad():
        assert_same(torch.jit.load(str(tmp_path / "m.pt"))(*ins), theirs, atol=1e-3, rtol=1e-3, path="torch.jit.load")


def f_size_floats(x):
    scale = x.size(-1) ** -0.5
    half = x.size(0) / 2
    return x * scale + half, x.view(-1, x.size(1) // 2) * (x.size(1) * 1.5 - 1)


def test_size_arithmetic_with_floats_replays(kindling_only):
    """Sizes stay traced through float arithmetic (** 0.5, / 2, * 1.5), as torch's tracer keeps them as
    tensors: both traces replay on another shape."""
    ex, other = torch.randn(4, 6), torch.randn(8, 10)
    theirs = torch.jit.trace(f_size_floats, ex)
    with kindling_only():
        ours = kindling.jit.trace(f_size_floats, ex)
        got = ours(other)
        g = str(ours.graph)
    assert_same(got, theirs(other))
    assert_same(got, f_size_floats(other))
    assert "aten::pow" in g and "aten::div" in g, g


def test_math_on_size_warns_and_bakes(kindling_only):
    import math

    def f(x):
        return x / math.sqrt(x.size(0))
    with warnings.catch_warnings(record=True) as torch_w:
        warnings.simplefilter("always")
        theirs = torch.jit.trace(f, torch.ones(4), check_trace=False)
    with kindling_only(), warnings.catch_warnings(record=True) as ours_w:
        warnings.simplefilter("always")
        ours = kindling.jit.trace(f, torch.ones(4), check_trace=False)
    assert any("Python float" in str(w.message) for w in torch_w)
    assert any("Python float" in str(w.message) for w in ours_w)
    assert_same(ours(torch.ones(9)), theirs(torch.ones(9)))  # both baked sqrt(4)


def test_script_module_called_inside_trace_is_refused(kindling_only, tmp_path):
    conv = _make(lambda: nn.Conv2d(1, 1, 1))
    path = tmp_path / "conv.pt"
    torch.jit.script(conv).save(str(path))
    with kindling_only():
        loaded = kindling.jit.load(str(path))
        with pytest.raises(RuntimeError, match="cannot record a call of the ScriptModule"):
            kindling.jit.trace(lambda x: loaded(x) + 1, torch.randn(1, 1, 2, 2))
        assert loaded(torch.ones(1, 1, 2, 2)).shape == (1, 1, 2, 2)  # calls outside a trace still run


def test_pytorch_jit_0_returns_the_function():
    import subprocess
    import sys
    from pyapi_helpers import PACKAGE_DIR
    code = ("import torch, kindling.jit\n"
            "f = lambda x: x + 1\n"
            "m = torch.nn.Linear(2, 2)\n"
            "assert kindling.jit.trace(f, torch.ones(2)) is f\n"
            "assert kindling.jit.trace(m, torch.ones(2)) is m\n"
            "print('ok')\n")
    env = dict(__import__("os").environ, PYTORCH_JIT="0", PYTHONPATH=str(PACKAGE_DIR))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
