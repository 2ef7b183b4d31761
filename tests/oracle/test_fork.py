"""torch.jit.fork / torch.jit.wait in archives: a scripted module whose forward forks a method and a
function, saved by torch.jit.save (its code/ spells each fork as a closure `def __forked_function(): ...`
and `fork(__forked_function)`), must load and run in Kindling with PyTorch's results; also with one
thread, and with a forked method that raises (both fail, Kindling with exit 2 and the forked error's
message). The corpus programs tests/oracle/lang/fork_*.py cover forks in source programs.
"""
import pathlib
from typing import List

import pytest
import torch
from torch.jit import Future

from conftest import assert_no_crash


def _double(x: torch.Tensor) -> torch.Tensor:
    return x * 2


class Branch(torch.nn.Module):
    def __init__(self, n: int):
        super().__init__()
        self.lin = torch.nn.Linear(n, n)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.lin(x))


class ForkModel(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = Branch(6)
        self.b = Branch(6)

    def helper(self, x: torch.Tensor, k: int) -> torch.Tensor:
        if k < 0:
            raise ValueError("k must be non-negative, got " + str(k))
        return self.a(x) * k

    def forward(self, x: torch.Tensor, k: int) -> torch.Tensor:
        f1 = torch.jit.fork(self.helper, x, k)
        f2 = torch.jit.fork(_double, x)
        futs: List[Future[torch.Tensor]] = []
        for i in range(4):
            futs.append(torch.jit.fork(self.b, x + i))
        y = torch.jit.wait(f1) + torch.jit.wait(f2)
        for f in futs:
            y = y + torch.jit.wait(f)
        return y


@pytest.fixture(scope="module")
def fork_archive(tmp_path_factory):
    torch.manual_seed(0)
    d = tmp_path_factory.mktemp("fork")
    m = torch.jit.script(ForkModel().eval())
    path = d / "fork_model.pt"
    torch.jit.save(m, str(path))
    return d, path


def _code_of(path):
    import zipfile
    with zipfile.ZipFile(path) as z:
        return "\n".join(z.read(n).decode() for n in z.namelist() if n.endswith(".py"))


def test_archive_spells_forks_as_closures(fork_archive):
    _, path = fork_archive
    code = _code_of(path)
    assert "fork(__forked_function" in code and "torch.wait(" in code, code


@pytest.mark.parametrize("threads", [None, 1, 3])
def test_fork_archive_runs(fork_archive, run_kindling, threads):
    d, path = fork_archive
    x = torch.randn(3, 6)
    inp = d / "in.pt"
    torch.save((x, 3), inp)
    expected = torch.jit.load(str(path))(x, 3)
    out = d / f"out_{threads}.pt"
    args = ["run", path, "--input", inp, "--output", out]
    if threads:
        args += ["--threads", threads]
    res = run_kindling(*args)
    assert_no_crash(res)
    assert res.returncode == 0, res.describe()
    got = torch.load(out)
    assert got.shape == expected.shape and torch.allclose(got, expected, rtol=1e-5, atol=1e-5), (got, expected)


def test_fork_archive_error_propagates(fork_archive, run_kindling):
    d, path = fork_archive
    inp = d / "in_bad.pt"
    torch.save((torch.randn(3, 6), -1), inp)
    with pytest.raises(Exception) as ei:
        torch.jit.load(str(path))(torch.randn(3, 6), -1)
    assert "k must be non-negative, got -1" in str(ei.value)
    res = run_kindling("run", path, "--input", inp, "--output", d / "never.pt")
    assert_no_crash(res)
    assert res.returncode == 2, res.describe()
    first = res.stderr.strip().splitlines()[0]
    assert first == "error: ValueError: k must be non-negative, got -1", res.describe()
    assert "<forked function>" in res.stderr, res.describe()
