"""Archives whose code/ uses spellings PyTorch's printer produces for edge values, and saving an archive
onto itself. Models are made here with PyTorch 1.13; outputs are compared with PyTorch's."""
import shutil

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
    assert not list(tmp_path.glob("*.kindling-partial"))
