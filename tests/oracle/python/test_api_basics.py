"""kindling.jit basics against torch.jit 1.13: tensors through DLPack (shared memory, every dtype, bool,
strides, requires_grad), load of torch.jit.save archives, ScriptModule's nn.Module API, save loaded back
by torch.jit.load, extra files, errors. torch.jit results are computed first; Kindling runs inside
kindling_only (torch.jit and torch._C._jit_* raise there)."""
from pyapi_helpers import assert_same, kindling_only  # noqa: F401  (first: puts the package on sys.path)
import io
from typing import List
import os

import pytest
import torch

import kindling
import kindling.jit
from kindling import _C

DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32, torch.int16,
          torch.int8, torch.uint8, torch.bool]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_tensor_roundtrip_shares_memory(dtype, kindling_only):
    src = (torch.arange(24) % 5).to(dtype).reshape(2, 3, 4)
    with kindling_only():
        back = _C._roundtrip_tensor(src)
    assert back.dtype == dtype and back.shape == src.shape and back.stride() == src.stride()
    assert back.data_ptr() == src.data_ptr()
    assert torch.equal(back, src)


def test_tensor_roundtrip_views_and_grad(kindling_only):
    base = torch.randn(4, 6)
    views = [base.t(), base[:, 1::2], base[2], base.expand(3, 4, 6), torch.randn(0, 3), torch.tensor(2.5)]
    p = torch.nn.Parameter(torch.randn(3))
    with kindling_only():
        outs = [_C._roundtrip_tensor(v) for v in views]
        pout = _C._roundtrip_tensor(p)
    for v, o in zip(views, outs):
        assert o.shape == v.shape and torch.equal(o, v)
        if v.numel():  # (torch's DLPack export normalises the strides of empty tensors)
            assert o.stride() == v.stride() and o.data_ptr() == v.data_ptr()
    assert not pout.requires_grad and pout.data_ptr() == p.data_ptr()
    # writes through Kindling's view are seen by torch (same memory)
    outs[0].fill_(7.0)
    assert bool((base == 7.0).all())


class Small(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(8, 16)
        self.bn = torch.nn.BatchNorm1d(16)
        self.fc2 = torch.nn.Linear(16, 4)
        self.scale = 2.0
        self.tag = "small"

    def forward(self, x, k: int = 2):
        y = torch.relu(self.bn(self.fc1(x)))
        s: List[float] = y.sum(1).tolist()
        return self.fc2(y) * self.scale + k, s

    @torch.jit.export
    def double(self, x):
        return x * 2


@pytest.fixture(scope="module")
def small_archive(tmp_path_factory):
    torch.manual_seed(0)
    m = Small().eval()
    m.bn.running_mean.uniform_(-0.5, 0.5)
    m.bn.running_var.uniform_(0.5, 1.5)
    sm = torch.jit.script(m)
    path = tmp_path_factory.mktemp("small") / "small.pt"
    torch.jit.save(sm, str(path), _extra_files={"meta.txt": "hello"})
    x = torch.randn(5, 8)
    return path, sm, x


def test_load_torch_archive_and_call(small_archive, kindling_only):
    path, sm, x = small_archive
    expected = sm(x)
    expected_k = sm(x, k=5)
    expected_double = sm.double(x)
    extra = {"meta.txt": "", "missing.txt": "keep"}
    with kindling_only():
        km = kindling.jit.load(str(path), _extra_files=extra)
        out = km(x)
        out_k = km(x, k=5)
        out_fwd = km.forward(x, 5)
        out_double = km.double(x)
    assert extra == {"meta.txt": b"hello", "missing.txt": "keep"}
    assert isinstance(km, torch.nn.Module) and isinstance(km, kindling.jit.ScriptModule)
    assert_same(out, expected)
    assert_same(out_k, expected_k)
    assert_same(out_fwd, expected_k)
    assert_same(out_double, expected_double)
    assert not out[0].requires_grad


def test_module_api(small_archive, kindling_only):
    path, sm, x = small_archive
    with kindling_only():
        km = kindling.jit.load(path)
        sd = km.state_dict()
        names = [n for n, _ in km.named_parameters()]
        mods = [n for n, _ in km.named_modules()]
        bufs = [n for n, _ in km.named_buffers()]
        children = [n for n, _ in km.named_children()]
    assert list(sd.keys()) == list(sm.state_dict().keys())
    for k, v in sm.state_dict().items():
        assert_same(sd[k], v, atol=0, rtol=0, path=k)
    assert names == [n for n, _ in sm.named_parameters()]
    assert mods == [n for n, _ in sm.named_modules()]
    assert bufs == [n for n, _ in sm.named_buffers()]
    assert children == ["fc1", "bn", "fc2"]
    assert km.scale == 2.0 and km.tag == "small"
    assert km.original_name == "Small" and km.fc1.original_name == "Linear"
    assert km.fc1.in_features == 8
    assert "original_name=Small" in repr(km) and "(fc1): RecursiveScriptModule(original_name=Linear)" in repr(km)
    assert km.training is False
    km.train()
    assert km.training is True and km.bn.training is True
    km.eval()
    assert km.bn.training is False


def test_attribute_write_is_type_checked(small_archive, kindling_only):
    path, sm, x = small_archive
    with kindling_only():
        km = kindling.jit.load(path)
        km.scale = 3.0
        out = km(x)
        with pytest.raises(TypeError, match="scale"):
            km.scale = "three"
    sm.scale = 3.0
    try:
        assert_same(out, sm(x))
    finally:
        sm.scale = 2.0


def test_parameters_share_memory_with_module(small_archive, kindling_only):
    path, sm, x = small_archive
    with kindling_only():
        km = kindling.jit.load(path)
        w = km.fc1.weight
        sd = km.state_dict()
        with torch.no_grad():
            km.bn.running_mean.add_(1.0)  # in place on the torch view: the Kindling module computes with it
        after = km(x)
    assert isinstance(w, torch.nn.Parameter)
    assert w.data_ptr() == sd["fc1.weight"].data_ptr() == km.fc1.weight.data_ptr()
    with torch.no_grad():
        sm.bn.running_mean.add_(1.0)
        try:
            assert_same(after, sm(x))
        finally:
            sm.bn.running_mean.sub_(1.0)


def test_save_loaded_by_torch(small_archive, tmp_path, kindling_only):
    path, sm, x = small_archive
    out_path = tmp_path / "resaved.pt"
    buf = io.BytesIO()
    with kindling_only():
        km = kindling.jit.load(path)
        kindling.jit.save(km, out_path, _extra_files={"note": "kindling"})
        km.save(buf)
        expected = km(x)
    extra = {"note": ""}
    tm = torch.jit.load(str(out_path), _extra_files=extra)
    assert extra["note"] == b"kindling"
    assert_same(tm(x), expected)
    buf.seek(0)
    assert_same(torch.jit.load(buf)(x), expected)


def test_graph_and_code_strings(small_archive, kindling_only):
    path, sm, x = small_archive
    with kindling_only():
        km = kindling.jit.load(path)
        code = km.code
        graph = str(km.graph)
        double_code = km.double.code
        inlined = str(km.inlined_graph)
    assert code.startswith("def forward(self,")
    assert "graph(%self" in graph and "prim::CallMethod" in graph
    assert "torch.mul(x, 2)" in double_code
    assert "prim::CallMethod" not in inlined and "aten::linear" in inlined


def test_load_from_file_object(small_archive, kindling_only):
    path, sm, x = small_archive
    data = open(path, "rb").read()
    with kindling_only():
        km = kindling.jit.load(io.BytesIO(data))
        out = km(x)
    assert_same(out, sm(x))


def test_call_errors(small_archive, kindling_only):
    path, sm, x = small_archive
    with kindling_only():
        km = kindling.jit.load(path)
        with pytest.raises(TypeError, match="Expected a value of type 'Tensor' for argument 'x'"):
            km(3)
        with pytest.raises(TypeError, match="expected at most 2 argument"):
            km(x, 1, 2)
        with pytest.raises(TypeError, match="missing value for argument 'x'"):
            km()
        with pytest.raises(TypeError, match="unexpected keyword argument 'z'"):
            km(x, z=1)
        with pytest.raises(kindling.jit.Error, match="mat1 and mat2 shapes cannot be multiplied|shape"):
            km(torch.randn(2, 3))
        with pytest.raises(AttributeError):
            km.no_such_thing


def test_load_errors(tmp_path, kindling_only):
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"not a zip file")
    with kindling_only():
        with pytest.raises(ValueError, match="does not exist"):
            kindling.jit.load(tmp_path / "missing.pt")
        with pytest.raises(RuntimeError):
            kindling.jit.load(bad)
        with pytest.raises(RuntimeError, match="CPU only"):
            kindling.jit.load(bad, map_location="cuda")
        with pytest.raises(TypeError, match="kindling.jit"):
            kindling.jit.save(torch.nn.Linear(2, 2), tmp_path / "x.pt")


def test_script_raises_python_exception_class(tmp_path, kindling_only):
    @torch.jit.script
    def f(x: int) -> int:
        if x < 0:
            raise ValueError("negative")
        return x + 1

    class M(torch.nn.Module):
        def forward(self, x: int) -> int:
            return f(x)

    p = tmp_path / "raise.pt"
    torch.jit.save(torch.jit.script(M()), str(p))
    with kindling_only():
        km = kindling.jit.load(p)
        assert km(3) == 4
        with pytest.raises(ValueError, match="negative") as info:
            km(-1)
    assert isinstance(info.value, kindling.jit.Error)


def test_grad_mode_results_do_not_require_grad(small_archive, kindling_only):
    path, sm, x = small_archive
    xg = x.clone().requires_grad_(True)
    with kindling_only():
        km = kindling.jit.load(path)
        with torch.enable_grad():
            out = km(xg)
    assert not out[0].requires_grad
    with torch.no_grad():
        assert_same(out, sm(x))


def test_threads_setting():
    n = kindling.get_num_threads()
    kindling.set_num_threads(1)
    assert kindling.get_num_threads() == 1
    kindling.set_num_threads(n)
    with pytest.raises(ValueError):
        kindling.set_num_threads(0)


def test_package_is_importable_by_pythonpath_alone():
    # The documented PYTHONPATH line: a fresh interpreter imports the built package and nothing else.
    import subprocess
    import sys
    pkg = os.path.dirname(os.path.dirname(kindling.__file__))
    cp = subprocess.run([sys.executable, "-c", "import kindling.jit, sys; print(kindling.__file__)"],
                        env={"PYTHONPATH": pkg, "PATH": os.environ.get("PATH", "")}, capture_output=True, text=True)
    assert cp.returncode == 0, cp.stderr
    assert cp.stdout.strip().startswith(pkg)
