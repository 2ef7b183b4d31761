"""Archives whose code/ uses spellings PyTorch's printer produces for edge values, and saving an archive
onto itself. Models are made here with PyTorch 1.13; outputs are compared with PyTorch's."""
import shutil

import pytest

import torch

from conftest import assert_no_crash


class CausalMask(torch.nn.Module):
    # float('-inf') / float('nan') print as bare `inf` / `nan` names in the archive's code/.
    def forward(self, scores: torch.Tensor) -> torch.Tensor:
        n = scores.size(-1)
        mask = torch.triu(torch.ones(n, n, dtype=torch.bool), 1)
        masked = scores.masked_fill(mask, float("-inf"))
        return torch.softmax(masked, -1) + torch.full([n], float("nan")).isnan().to(torch.float32)


class Int64Min(torch.nn.Module):
    # The constant prints as -9223372036854775808 (a literal that only fits after the minus).
    def forward(self, x: int) -> int:
        return min(x, -9223372036854775807 - 1) + x


def _run(run_kindling, tmp_path, module, args, name):
    archive = tmp_path / f"{name}.pt"
    scripted = torch.jit.script(module)
    torch.jit.save(scripted, str(archive))
    inp = tmp_path / f"{name}_in.pt"
    torch.save(args, str(inp))
    out = tmp_path / f"{name}_out.pt"
    res = run_kindling("run", archive, "--input", inp, "--output", out)
    assert_no_crash(res)
    assert res.returncode == 0, res.describe()
    return torch.load(str(out)), torch.jit.load(str(archive))(*args)


def test_nonfinite_float_constants(run_kindling, tmp_path):
    torch.manual_seed(0)
    got, want = _run(run_kindling, tmp_path, CausalMask(), (torch.randn(4, 4),), "mask")
    assert got.dtype == want.dtype and got.shape == want.shape
    assert torch.allclose(got, want, rtol=1e-4, atol=1e-4)


def test_int64_min_literal(run_kindling, tmp_path):
    got, want = _run(run_kindling, tmp_path, Int64Min(), (5,), "imin")
    assert got == want == -9223372036854775808 + 5


def test_save_onto_itself_keeps_the_archive(run_kindling, tmp_path, fixtures_dir):
    src = tmp_path / "self.pt"
    shutil.copy(fixtures_dir / "cnn_scripted.pt", src)
    res = run_kindling("save", src, "-o", src)
    assert_no_crash(res)
    assert res.returncode == 0, res.describe()
    m = torch.jit.load(str(src))  # still a valid archive PyTorch reads
    x = torch.load(str(fixtures_dir / "cnn_input.pt"))
    want = torch.load(str(fixtures_dir / "cnn_scripted_expected.pt"))
    assert torch.allclose(m(*x), want, rtol=1e-4, atol=1e-4)
    assert not list(tmp_path.glob("*.kindling-*"))


class ScaleBuffer(torch.nn.Module):
    # A 0-dim float64 buffer: read through GetAttr it stays a Tensor operand (int * it -> float64), but
    # once torch.jit.freeze makes it a graph constant PyTorch's executor turns it into a Python scalar.
    def __init__(self):
        super().__init__()
        self.register_buffer("c", torch.tensor(0.5, dtype=torch.float64))

    def forward(self, a: torch.Tensor) -> torch.Tensor:
        return torch.mul(a, self.c) + torch.sub(a, self.c) - torch.div(a, self.c)


def _traced_scalar_ops(a):
    # Traced Python numbers are saved as 0-dim float64 / int64 tensor constants (CONSTANTS.cN).
    return a * 0.5, a / 255.0, a + 2.5, 3.5 - a, a - 2, a * 2, a ** 2.5, a % 2.5, a // 2.5


@pytest.mark.parametrize("dtype", [torch.uint8, torch.int32, torch.int64, torch.float32, torch.float64])
def test_traced_python_numbers_keep_pytorch_dtypes(run_kindling, tmp_path, dtype):
    # PyTorch's executor rewrites add/sub/mul/div whose `other` is a 0-dim tensor constant to the Scalar
    # overloads (CanonicalizeOps), so an int tensor times a traced 0.5 is float32, not float64.
    a = torch.arange(1, 7, dtype=dtype).reshape(2, 3)
    traced = torch.jit.trace(_traced_scalar_ops, (a,))
    archive = tmp_path / "traced_scalars.pt"
    torch.jit.save(traced, str(archive))
    inp = tmp_path / "ts_in.pt"
    torch.save((a,), str(inp))
    out = tmp_path / "ts_out.pt"
    res = run_kindling("run", archive, "--input", inp, "--output", out)
    assert_no_crash(res)
    assert res.returncode == 0, res.describe()
    got = torch.load(str(out))
    want = torch.jit.load(str(archive))(a)
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype, f"output {i}: {g.dtype} vs PyTorch {w.dtype}"
        assert g.shape == w.shape and torch.allclose(g.double(), w.double()), f"output {i}"


@pytest.mark.parametrize("freeze", [False, True])
def test_zero_dim_buffer_promotes_like_pytorch(run_kindling, tmp_path, freeze):
    m = torch.jit.script(ScaleBuffer()).eval()
    if freeze:
        m = torch.jit.freeze(m)
    archive = tmp_path / f"scale_{freeze}.pt"
    torch.jit.save(m, str(archive))
    a = torch.arange(4, dtype=torch.int32)
    inp = tmp_path / "sb_in.pt"
    torch.save((a,), str(inp))
    out = tmp_path / "sb_out.pt"
    res = run_kindling("run", archive, "--input", inp, "--output", out)
    assert_no_crash(res)
    assert res.returncode == 0, res.describe()
    got = torch.load(str(out))
    want = torch.jit.load(str(archive))(a)
    assert want.dtype == (torch.float32 if freeze else torch.float64)
    assert got.dtype == want.dtype and torch.equal(got, want)
