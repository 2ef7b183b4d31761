"""Archives from every PyTorch release: file format versions 1 to 10, the records around them, `.ptl`
archives, and the 13 operator upgraders.

No other PyTorch is installable here, so old archives are made at test time by editing archives that
PyTorch 1.13 writes: the version record is rewritten (as `version` below 6, `.data/version` from 6, as
each PyTorch wrote it), and where an old release printed other code, the code too (e.g. `torch.linspace`
without `steps`, `torch.gelu(x)` without `approximate`). PyTorch 1.13 itself is the oracle: it loads the
edited archive, applies its upgraders, and Kindling must compute the same. Each upgrader case also checks
that the old behaviour differs from today's where it does (integer division truncating, `full` giving
float), so a Kindling that ignored the version would fail.

Covered versions and how:
  1, 2   data.pkl archives with the version record rewritten (PyTorch 1.13 loads them; the model.json
         layout of PyTorch <= 1.2 is made by hand and rejected by both, see test_legacy_model_json)
  3..10  1.13 archives rewritten to each version, both record names; upgraders at the versions below
         their bump (div <= 3, full <= 4, linspace <= 7, logspace <= 8, gelu <= 9)
  11     rejected by both
Records: byteorder, .data/serialization_id, any root folder name, ZIP64 entries, `.ptl` (bytecode.pkl
ignored). The flatbuffer form is covered by test_flatbuffer.py.
"""
import subprocess
import zipfile

import pytest

import torch

import rounding_bounds
from conftest import assert_no_crash


def rewrite(src, dst, version=None, version_name=None, edit=None, extra=None, drop=(), root=None, zip64=False):
    """Copies archive src to dst (Python's zipfile, stored), changing what the arguments say."""
    zin = zipfile.ZipFile(src)
    old_root = zin.namelist()[0].split("/")[0]
    root = root or old_root
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_STORED, allowZip64=True) as zout:
        for info in zin.infolist():
            rel = info.filename[len(old_root) + 1:]
            if version is not None and rel in ("version", ".data/version"):
                continue
            if rel in drop:
                continue
            data = zin.read(info)
            if edit and rel.startswith("code/") and rel.endswith(".py"):
                new = edit(data.decode())
                data = new.encode()
            with zout.open(zipfile.ZipInfo(f"{root}/{rel}"), "w", force_zip64=zip64) as f:
                f.write(data)
        if version is not None:
            name = version_name or (".data/version" if version >= 6 else "version")
            zout.writestr(f"{root}/{name}", f"{version}\n")
        for k, v in (extra or {}).items():
            zout.writestr(f"{root}/{k}", v)


def code_of(path):
    z = zipfile.ZipFile(path)
    return "\n".join(z.read(n).decode() for n in z.namelist() if "/code/" in n and n.endswith(".py"))


def same(a, b):
    if isinstance(a, torch.Tensor):
        return (isinstance(b, torch.Tensor) and a.dtype == b.dtype and a.shape == b.shape
                and torch.allclose(a.double(), b.double(), rtol=1e-5, atol=1e-6, equal_nan=True))
    if isinstance(a, (tuple, list)):
        return type(a) == type(b) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def run_both(run_kindling, tmp_path, archive, args, name):
    """(kindling's result, PyTorch 1.13's result) of archive.forward(*args); args are cloned per run."""
    inp = tmp_path / f"{name}_in.pt"
    torch.save(tuple(args), str(inp))
    out = tmp_path / f"{name}_out.pt"
    res = run_kindling("run", archive, "--input", inp, "--output", out)
    assert_no_crash(res)
    assert res.returncode == 0, res.describe()
    want = torch.jit.load(str(archive))(*[a.clone() if isinstance(a, torch.Tensor) else a for a in args])
    return torch.load(str(out)), want


def script_save(fn, path):
    torch.jit.script(fn).save(str(path))
    return path


# ---------------------------------------------------------------------------------------------------------
# Versions 1..11 and the records around the version


def relu_plus(x: torch.Tensor, d: int) -> torch.Tensor:
    return torch.relu(x) + d


@pytest.mark.parametrize("version", list(range(1, 11)))
@pytest.mark.parametrize("record", ["version", ".data/version"])
def test_file_format_versions(run_kindling, tmp_path, version, record):
    src = script_save(relu_plus, tmp_path / "p.pt")
    dst = tmp_path / f"p_v{version}.pt"
    rewrite(src, dst, version=version, version_name=record)
    x = torch.tensor([-1.5, 0.5, 2.0])
    got, want = run_both(run_kindling, tmp_path, dst, (x, 3), "p")
    assert same(got, want), (got, want)
    res = run_kindling("inspect", dst)
    assert res.returncode == 0, res.describe()
    assert f"format version {version}" in res.stdout


def test_version_11_rejected(run_kindling, tmp_path):
    src = script_save(relu_plus, tmp_path / "p.pt")
    dst = tmp_path / "p11.pt"
    rewrite(src, dst, version=11)
    with pytest.raises(RuntimeError, match="version 11"):
        torch.jit.load(str(dst))
    res = run_kindling("run", dst)
    assert_no_crash(res)
    assert res.returncode == 1
    assert "file format version 11" in res.stderr and "1 to 10" in res.stderr, res.stderr


def test_data_version_preferred_over_version(run_kindling, tmp_path):
    # Both records: the reader checks .data/version first (inline_container.cc).
    src = script_save(relu_plus, tmp_path / "p.pt")
    dst = tmp_path / "both.pt"
    rewrite(src, dst, version=7, extra={"version": "3\n"})
    res = run_kindling("inspect", dst)
    assert res.returncode == 0, res.describe()
    assert "format version 7" in res.stdout


def test_optional_records_root_name_and_zip64(run_kindling, tmp_path):
    src = script_save(relu_plus, tmp_path / "p.pt")
    dst = tmp_path / "renamed.pt"
    rewrite(src, dst, root="some_other_root", zip64=True,
            extra={"byteorder": "little", ".data/serialization_id": "1234567890123456789",
                   ".format_version": "1", ".storage_alignment": "64"})
    raw = dst.read_bytes()
    for info in zipfile.ZipFile(dst).infolist()[:3]:  # ZIP64 extra field (id 0x0001) in the local headers
        o = info.header_offset
        name_len, extra_len = (int.from_bytes(raw[o + k:o + k + 2], "little") for k in (26, 28))
        assert raw[o + 30 + name_len:o + 30 + name_len + 2] == b"\x01\x00" and extra_len >= 20
    x = torch.tensor([-1.0, 4.0])
    got, want = run_both(run_kindling, tmp_path, dst, (x, 1), "r")
    assert same(got, want)


class MixedDtypes(torch.nn.Module):
    """Parameters and buffers of several element sizes (8, 4, 2 and 1 bytes), one storage shared by two views."""

    def __init__(self):
        super().__init__()
        g = torch.Generator().manual_seed(7)
        self.w = torch.nn.Parameter(torch.randn(4, 3, generator=g))
        self.register_buffer("d", torch.randn(3, generator=g, dtype=torch.float64))
        self.register_buffer("i", torch.tensor([1, -2, 3 << 40]))
        self.register_buffer("h", torch.tensor([1.5, -0.25, 3.0], dtype=torch.float16))
        self.register_buffer("b", torch.tensor([1, 200, 7], dtype=torch.uint8))
        self.register_buffer("s", torch.tensor([-300, 5, 17], dtype=torch.int16))
        self.view = self.w[1:]

    def forward(self, x):
        y = x @ self.w.t() + self.view.sum()
        return y, self.d * 2, self.i + 1, self.h.float(), self.b.long(), self.s.long()


def storage_element_sizes(archive):
    """{record name relative to the root: element size in bytes} for every tensor record of an archive,
    read from the storage types in its pickles' persistent ids."""
    import io
    import pickle

    class Stub:
        def __init__(self, *a, **k):
            pass

        def __setstate__(self, state):
            pass

    sizes = {}
    z = zipfile.ZipFile(archive)
    root = z.namelist()[0].split("/")[0]
    for pkl, folder in (("data.pkl", "data"), ("constants.pkl", "constants")):
        name = f"{root}/{pkl}"
        if name not in z.namelist():
            continue

        class U(pickle.Unpickler):
            def find_class(self, module, cls):
                if module == "torch" and cls.endswith("Storage"):
                    return getattr(torch, cls)
                if module == "torch._utils":
                    return lambda *a, **k: None
                return Stub

            def persistent_load(self, pid):
                sizes[f"{folder}/{pid[2]}"] = pid[1]().element_size()
                return None

        U(io.BytesIO(z.read(name))).load()
    return sizes


def swap_to_big_endian(src, dst):
    """Copies archive src to dst as a big-endian machine would have written it: every tensor record's
    elements byte-reversed, plus the record `byteorder` = "big"."""
    sizes = storage_element_sizes(src)
    zin = zipfile.ZipFile(src)
    root = zin.namelist()[0].split("/")[0]
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_STORED) as zout:
        for info in zin.infolist():
            rel = info.filename[len(root) + 1:]
            data = zin.read(info)
            n = sizes.get(rel, 1)
            if n > 1:
                data = b"".join(data[k:k + n][::-1] for k in range(0, len(data), n))
            zout.writestr(info.filename, data)
        zout.writestr(f"{root}/byteorder", "big")
    assert any(n > 1 for n in sizes.values())


def test_big_endian_byteorder(run_kindling, tmp_path):
    # Written by a big-endian machine (torch.save / torch.jit.save there record `byteorder` = "big"):
    # tensor records are swapped as they are read, as torch.load does. PyTorch 1.13 itself ignores the
    # record, so the oracle is the little-endian original.
    src = tmp_path / "little.pt"
    torch.jit.script(MixedDtypes()).save(str(src))
    dst = tmp_path / "big.pt"
    swap_to_big_endian(src, dst)
    assert zipfile.ZipFile(dst).read("little/data/0") != zipfile.ZipFile(src).read("little/data/0")
    x = torch.randn(2, 3)
    inp = tmp_path / "in.pt"
    torch.save((x,), str(inp))
    outs = {}
    for name, archive in (("big", dst), ("little", src)):
        out = tmp_path / f"out_{name}.pt"
        res = run_kindling("run", archive, "--input", inp, "--output", out, "--threads", "1")
        assert_no_crash(res)
        assert res.returncode == 0, res.describe()
        outs[name] = torch.load(str(out))
    # Exact by construction: the swapped archive read back holds the original's bytes, and the same program
    # runs on them with the same kernels and one thread, so every output is the same to the bit.
    assert len(outs["big"]) == len(outs["little"]) == 6
    for i, (g, w) in enumerate(zip(outs["big"], outs["little"])):
        assert g.dtype == w.dtype and g.shape == w.shape, i
        assert g.numpy().tobytes() == w.numpy().tobytes(), (i, g, w)
    # Against PyTorch: d * 2, the integer ops and float16 -> float32 are exact in any implementation;
    # y = x @ w.t() + w[1:].sum() is a sum of 3 products and 9 terms whose order BLAS and the vectorized sum
    # choose per CPU, so it agrees within that sum's rounding bound (rounding_bounds.py).
    want = torch.jit.load(str(src))(x)
    got = outs["little"]
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype and g.shape == w.shape, i
        if i > 0:
            assert torch.equal(g, w), (i, g, w)
    m = MixedDtypes()
    w, view = m.w.detach().double(), m.view.detach().double()
    abs_sum = x.double().abs() @ w.abs().t() + view.abs().sum()
    bound = rounding_bounds.sum_of_products_bound(abs_sum, n_terms=3 + 9, dtype=torch.float32)
    assert rounding_bounds.within_bound(got[0], want[0].detach(), bound), (got[0], want[0], bound)


def test_big_endian_torch_save_input(run_kindling, tmp_path):
    # A torch.save file of inputs written on a big-endian machine is read with its values intact.
    arch = script_save(relu_plus, tmp_path / "p.pt")
    little = tmp_path / "in_little.pt"
    x = torch.tensor([-1.5, 2.25, 3e7])
    torch.save((x, 3), str(little))
    big = tmp_path / "in_big.pt"
    swap_to_big_endian(little, big)
    out = tmp_path / "out.pt"
    res = run_kindling("run", arch, "--input", big, "--output", out)
    assert res.returncode == 0, res.describe()
    assert torch.equal(torch.load(str(out)), torch.relu(x) + 3)


def test_unknown_byteorder_rejected(run_kindling, tmp_path):
    src = script_save(relu_plus, tmp_path / "p.pt")
    dst = tmp_path / "odd.pt"
    rewrite(src, dst, extra={"byteorder": "middle"})
    res = run_kindling("inspect", dst)
    assert_no_crash(res)
    assert res.returncode == 1 and "unknown byteorder record 'middle'" in res.stderr, res.describe()


def test_legacy_model_json(run_kindling, tmp_path):
    # The PyTorch <= 1.2 layout, by hand from its description: model.json + tensors/ + version 1.
    dst = tmp_path / "legacy.pt"
    with zipfile.ZipFile(dst, "w") as z:
        z.writestr("legacy/version", "1\n")
        z.writestr("legacy/model.json", '{"protoVersion": "2", "mainModule": {"name": "M"}}')
        z.writestr("legacy/tensors/0", b"\0" * 16)
    with pytest.raises(RuntimeError):
        torch.jit.load(str(dst))
    res = run_kindling("inspect", dst)
    assert_no_crash(res)
    assert res.returncode == 1 and "legacy model.json" in res.stderr, res.describe()


# ---------------------------------------------------------------------------------------------------------
# .ptl (lite interpreter) archives


class Lite(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 3)

    def forward(self, x):
        return torch.relu(self.lin(x)) / 2


def test_ptl_archive(run_kindling, tmp_path):
    torch.manual_seed(0)
    m = torch.jit.script(Lite())
    path = tmp_path / "lite.ptl"
    m._save_for_lite_interpreter(str(path))
    assert any(n.endswith("bytecode.pkl") for n in zipfile.ZipFile(path).namelist())
    x = torch.randn(2, 4)
    got, want = run_both(run_kindling, tmp_path, path, (x,), "lite")
    assert same(got, want)
    from torch.jit.mobile import _load_for_lite_interpreter
    assert same(got, _load_for_lite_interpreter(str(path))(x))


# ---------------------------------------------------------------------------------------------------------
# Operator upgraders. Each case: a function scripted by 1.13, the archive's version set below the bump,
# the code edited to what old releases printed, and inputs on which old and new behaviour differ.


def div_tensor(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return a / b


def div_scalar_int(a: torch.Tensor) -> torch.Tensor:
    return a / 2


def div_scalar_float(a: torch.Tensor) -> torch.Tensor:
    return a / 2.0


def div_scalar_arg(a: torch.Tensor, s: float) -> torch.Tensor:
    return torch.div(a, s)


def div_out(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor) -> torch.Tensor:
    return torch.div(a, b, out=out)


def div_inplace_tensor(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    c = a.clone()
    return c.div_(b)


def div_inplace_scalar(a: torch.Tensor) -> torch.Tensor:
    c = a.clone()
    return c.div_(3)


def div_modes(a: torch.Tensor, b: torch.Tensor):
    return (torch.div(a, b, rounding_mode="floor"), torch.div(a, 2, rounding_mode="floor"),
            a.clone().div_(b, rounding_mode="trunc"), a.clone().div_(3, rounding_mode="floor"))


def full_int(n: int) -> torch.Tensor:
    return torch.full([2, 3], n)


def full_float(f: float) -> torch.Tensor:
    return torch.full([2], f)


def full_dtype(n: int) -> torch.Tensor:
    return torch.full([2], n, dtype=torch.int32)


def full_out(n: int, out: torch.Tensor) -> torch.Tensor:
    return torch.full([3], n, out=out)


def linspace_fn(x: float) -> torch.Tensor:
    return torch.linspace(0.0, x, 5)


def linspace_out(x: float, out: torch.Tensor) -> torch.Tensor:
    return torch.linspace(0.0, x, 5, out=out)


def logspace_fn(x: float) -> torch.Tensor:
    return torch.logspace(0.0, x, 5)


def logspace_out(x: float, out: torch.Tensor) -> torch.Tensor:
    return torch.logspace(0.0, x, 5, out=out)


def gelu_fn(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.gelu(x)


def gelu_out(x: torch.Tensor, out: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.gelu(x)  # edited into torch.gelu(x, out=out): gelu.out is not scriptable


def drop_steps(code):
    # Before version 8/9 steps could be left out: `torch.linspace(0., x, 5)` -> `torch.linspace(0., x)`.
    assert ", 5" in code
    return code.replace(", 5)", ")").replace(", 5, out=", ", out=")


def drop_approximate(code):
    # Before version 10 gelu had no approximate argument (1.13 prints none when it is the default).
    return code.replace(', approximate="none"', "")


def gelu_into_out(code):
    assert "torch.gelu(x)" in code
    return code.replace("torch.gelu(x)", "torch.gelu(x, out=out)")


I = torch.tensor([7, -7, 9, 4], dtype=torch.int64)
J = torch.tensor([2, 2, -4, 3], dtype=torch.int64)
F = torch.tensor([7.0, -7.0, 9.0, 4.0])

# (id, function, overloads it exercises, version to write, code edit, args, old behaviour differs from new)
UPGRADER_CASES = [
    ("div_tensor_int", div_tensor, ["aten::div.Tensor"], 3, None, (I, J), True),
    ("div_tensor_float", div_tensor, ["aten::div.Tensor"], 3, None, (F, J), False),
    ("div_tensor_v1", div_tensor, ["aten::div.Tensor"], 1, None, (I, J), True),
    ("div_scalar_int", div_scalar_int, ["aten::div.Scalar"], 3, None, (I,), True),
    ("div_scalar_float", div_scalar_float, ["aten::div.Scalar"], 2, None, (I,), False),
    ("div_scalar_arg", div_scalar_arg, ["aten::div.Scalar"], 3, None, (I, 2.0), False),
    ("div_out_int", div_out, ["aten::div.out"], 3, None, (I, J, torch.zeros(4, dtype=torch.int64)), True),
    ("div_out_float", div_out, ["aten::div.out"], 3, None, (I, J, torch.zeros(4)), False),
    ("div_inplace_tensor", div_inplace_tensor, ["aten::div_.Tensor"], 3, None, (I, J), True),
    ("div_inplace_scalar", div_inplace_scalar, ["aten::div_.Scalar"], 3, None, (I,), True),
    ("div_modes", div_modes, ["aten::div.Tensor_mode", "aten::div.Scalar_mode", "aten::div_.Tensor_mode",
                              "aten::div_.Scalar_mode"], 3, None, (I, J), False),
    ("div_current", div_tensor, ["aten::div.Tensor"], 4, None, (I, J), False),
    ("full_int", full_int, ["aten::full"], 4, None, (3,), True),
    ("full_float", full_float, ["aten::full"], 3, None, (2.5,), False),
    ("full_dtype", full_dtype, ["aten::full"], 4, None, (3,), False),
    ("full_current", full_int, ["aten::full"], 5, None, (3,), False),
    ("full_out", full_out, ["aten::full.out"], 4, None, (5, torch.zeros(3, dtype=torch.int64)), False),
    ("linspace_nosteps", linspace_fn, ["aten::linspace"], 7, drop_steps, (2.0,), True),
    ("linspace_steps", linspace_fn, ["aten::linspace"], 7, None, (2.0,), False),
    ("linspace_out_nosteps", linspace_out, ["aten::linspace.out"], 7, drop_steps, (2.0, torch.zeros(0)), True),
    ("logspace_nosteps", logspace_fn, ["aten::logspace"], 8, drop_steps, (2.0,), True),
    ("logspace_steps", logspace_fn, ["aten::logspace"], 8, None, (2.0,), False),
    ("logspace_out_nosteps", logspace_out, ["aten::logspace.out"], 8, drop_steps, (2.0, torch.zeros(0)), True),
    ("gelu", gelu_fn, ["aten::gelu"], 9, drop_approximate, (F,), False),
    ("gelu_out", gelu_out, ["aten::gelu.out"], 9, gelu_into_out, (F, torch.zeros(4)), False),
]


@pytest.mark.parametrize("case", UPGRADER_CASES, ids=[c[0] for c in UPGRADER_CASES])
def test_upgrader(run_kindling, kindling_bin, tmp_path, case):
    name, fn, overloads, version, edit, args, differs = case
    missing = [o for o in overloads if o not in kindling_ops_full(kindling_bin)]
    assert not missing, f"Kindling does not register {', '.join(missing)}"
    src = script_save(fn, tmp_path / f"{name}_new.pt")
    dst = tmp_path / f"{name}.pt"
    rewrite(src, dst, version=version, edit=edit)
    if edit in (drop_steps, gelu_into_out):
        assert code_of(dst) != code_of(src), "the edit changed nothing"
    got, want = run_both(run_kindling, tmp_path, dst, args, name)
    assert same(got, want), f"kindling {got}\npytorch {want}"
    # The edited archive keeps the old behaviour; the 1.13 archive has today's.
    if edit is None:
        try:
            now = torch.jit.load(str(src))(*[a.clone() if isinstance(a, torch.Tensor) else a for a in args])
        except RuntimeError as e:  # today's in-place true division of ints cannot write a long tensor
            now = e
        assert same(now, want) != differs, f"old {want}\nnew {now}"
    elif differs:
        assert want.numel() == 100  # steps defaulted to 100 before the bump


_FULL_OPS = {}


def kindling_ops_full(kindling_bin):
    """Qualified overload names ("aten::div.Tensor", "aten::gelu") Kindling registers."""
    if kindling_bin not in _FULL_OPS:
        out = subprocess.run([kindling_bin, "ops"], capture_output=True, text=True, check=True).stdout
        _FULL_OPS[kindling_bin] = set(line.split("(")[0] for line in out.splitlines())
    return _FULL_OPS[kindling_bin]


def test_upgrader_table_matches_pytorch(kindling_bin):
    # The 19 entries of PyTorch's operator version map; Kindling's copy is printed by its unit test, here
    # the table this test file exercises covers every behaviour-changing one.
    entries = torch._C._get_operator_version_map()
    assert len(entries) == 19
    changed = {k for k, v in entries.items() if not k.endswith("_mode") and k != "aten::full.names"}
    assert len(changed) == 13
    exercised = {o for c in UPGRADER_CASES for o in c[2]}
    assert changed <= exercised
