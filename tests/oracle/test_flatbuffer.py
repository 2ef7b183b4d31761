"""Flatbuffer archives ("PTMF"): torch.jit.save_jit_module_to_flatbuffer and
_save_for_lite_interpreter(_use_flatbuffer=True) files load and run as their zip forms do, through the CLI
and `inspect`; versions newer than Kindling knows, mobile-bytecode-only files and corrupt files are clear
load errors (exit 1), never crashes.

Version fields are edited in place in the flatbuffer (root table → vtable → field), as a newer PyTorch
would write them.
"""
import struct
from typing import Dict, List, Optional, Tuple

import pytest
import torch
import torch.nn as nn

from conftest import assert_no_crash


class Conv(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU())
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        return self.fc(self.body(x).mean([2, 3]))


class State(nn.Module):
    """Attributes of every kind the value table holds."""

    def __init__(self):
        super().__init__()
        self.names: List[str] = ["a", "bb"]
        self.weights: Dict[str, float] = {"a": 0.5, "bb": 2.0}
        self.shape: Tuple[int, int] = (2, 3)
        self.maybe: Optional[int] = None
        self.flags: List[bool] = [True, False]
        self.scales: List[float] = [1.5, -1.0]
        self.register_buffer("offset", torch.arange(6.0).reshape(2, 3)[:, 1:])  # a strided view

    def forward(self, x):
        y = x.reshape(self.shape) + self.offset.sum()
        for n in self.names:
            y = y * self.weights[n]
        if self.maybe is None and self.flags[0]:
            y = y + self.scales[0]
        return y / 3, y // 2


def models():
    torch.manual_seed(0)
    conv = Conv().eval()
    for m in conv.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.uniform_(-1, 1)
            m.running_var.uniform_(0.5, 2)
    return [
        ("conv", torch.jit.script(conv), (torch.rand(2, 3, 8, 8),)),
        ("frozen_conv", torch.jit.freeze(torch.jit.script(Conv().eval())), (torch.rand(1, 3, 5, 5),)),
        ("state", torch.jit.script(State()), (torch.arange(6.0),)),
        ("traced", torch.jit.trace(nn.Sequential(nn.Linear(4, 4), nn.GELU()).eval(), torch.rand(2, 4)), (torch.rand(3, 4),)),
    ]


def close(a, b):
    if isinstance(a, torch.Tensor):
        return (isinstance(b, torch.Tensor) and a.dtype == b.dtype and a.shape == b.shape
                and torch.allclose(a, b, rtol=1e-5, atol=1e-6))
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(close(x, y) for x, y in zip(a, b))
    return a == b


@pytest.mark.parametrize("writer", ["jit", "lite"])
@pytest.mark.parametrize("case", range(4))
def test_flatbuffer_runs_as_pytorch(run_kindling, tmp_path, writer, case):
    name, module, args = models()[case]
    path = tmp_path / f"{name}.ff"
    if writer == "jit":
        torch.jit.save_jit_module_to_flatbuffer(module, str(path))
    else:
        module._save_for_lite_interpreter(str(path), _use_flatbuffer=True)
    assert path.read_bytes()[4:8] == b"PTMF"
    inp, out = tmp_path / "in.pt", tmp_path / "out.pt"
    torch.save(args, str(inp))
    res = run_kindling("run", path, "--input", inp, "--output", out)
    assert_no_crash(res)
    assert res.returncode == 0, res.describe()
    with torch.no_grad():
        want = torch.jit.load(str(path))(*args)
    assert close(torch.load(str(out)), want)


def test_flatbuffer_inspect_and_extra_files(run_kindling, tmp_path):
    _, module, _ = models()[0]
    path = tmp_path / "conv.ff"
    torch.jit.save_jit_module_to_flatbuffer(module, str(path), _extra_files={"meta.txt": "abc"})
    res = run_kindling("inspect", path, "--json")
    assert res.returncode == 0, res.describe()
    import json
    j = json.loads(res.stdout)
    assert [p["name"] for p in j["parameters"]] == [n for n, _ in module.named_parameters()]
    assert j["extra_files"] == {"meta.txt": {"bytes": 3}}
    # The Linear's source record, under the name this process's torch.jit gave its class (mangled when other
    # tests scripted a Linear first: ___torch_mangle_N).
    linear = module.fc._c._type().qualified_name()
    record = "code/" + linear.rsplit(".", 1)[0].replace(".", "/") + ".py"
    assert j["format"] == "flatbuffer" and record in j["records"], (record, j["records"])


def root_field_offset(buf, field):
    """Byte offset of scalar field `field` of the flatbuffer's root table (None when absent)."""
    root = struct.unpack_from("<I", buf, 0)[0]
    vtable = root - struct.unpack_from("<i", buf, root)[0]
    vsize = struct.unpack_from("<H", buf, vtable)[0]
    if 4 + 2 * field >= vsize:
        return None
    off = struct.unpack_from("<H", buf, vtable + 4 + 2 * field)[0]
    return root + off if off else None


def saved(tmp_path, name="m.ff"):
    _, module, args = models()[0]
    path = tmp_path / name
    torch.jit.save_jit_module_to_flatbuffer(module, str(path))
    return path, bytearray(path.read_bytes())


def test_newer_bytecode_version_names_both(run_kindling, tmp_path):
    path, buf = saved(tmp_path)
    off = root_field_offset(buf, 0)  # bytecode_version
    assert struct.unpack_from("<I", buf, off)[0] == 9
    struct.pack_into("<I", buf, off, 12)
    path.write_bytes(bytes(buf))
    res = run_kindling("inspect", path)
    assert_no_crash(res)
    assert res.returncode == 1 and "bytecode version 12" in res.stderr and "up to 9" in res.stderr, res.describe()


def test_newer_operator_version_names_both(run_kindling, tmp_path):
    path, buf = saved(tmp_path)
    off = root_field_offset(buf, 10)  # operator_version
    assert off is not None
    struct.pack_into("<I", buf, off, 11)
    path.write_bytes(bytes(buf))
    res = run_kindling("inspect", path)
    assert res.returncode == 1 and "version 11" in res.stderr and "1 to 10" in res.stderr, res.describe()


def test_bytecode_only_flatbuffer_is_a_clear_error(run_kindling, tmp_path):
    path, buf = saved(tmp_path)
    root = struct.unpack_from("<I", buf, 0)[0]
    vtable = root - struct.unpack_from("<i", buf, root)[0]
    struct.pack_into("<H", buf, vtable + 4 + 2 * 8, 0)  # drop jit_sources from the vtable
    path.write_bytes(bytes(buf))
    res = run_kindling("run", path)
    assert res.returncode == 1 and "without TorchScript sources" in res.stderr, res.describe()


@pytest.mark.parametrize("cut", [8, 100, 0.5, -16])
def test_truncated_flatbuffer(run_kindling, tmp_path, cut):
    path, buf = saved(tmp_path)
    n = int(len(buf) * cut) if isinstance(cut, float) else (cut if cut > 0 else len(buf) + cut)
    path.write_bytes(bytes(buf[:n]))
    res = run_kindling("inspect", path)
    assert_no_crash(res)
    assert res.returncode == 1 and "flatbuffer" in res.stderr, res.describe()


def test_corrupted_flatbuffer_bytes(run_kindling, tmp_path):
    path, buf = saved(tmp_path)
    import random
    rng = random.Random(5)
    for trial in range(20):
        b = bytearray(buf)
        for _ in range(8):
            b[rng.randrange(8, len(b))] = rng.randrange(256)
        p = tmp_path / f"bad{trial}.ff"
        p.write_bytes(bytes(b))
        res = run_kindling("inspect", p, timeout=60)
        assert_no_crash(res)
        assert res.returncode in (0, 1), res.describe()
