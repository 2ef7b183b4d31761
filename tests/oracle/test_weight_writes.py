"""Weights written in place between uses: convolution and linear kernels keep weights re-laid out for oneDNN
(packed once, reused by later calls), and a packed copy must never outlive a write to its weight. Each program
here uses a weight, writes it in place (add_, mul_, copy_, a method that writes a parameter, an out= variant),
and uses it again; Kindling's outputs must equal PyTorch 1.13's. Archives are written by torch.jit.save, inputs
by torch.save; source programs run as `kindling run prog.py`.
"""
import importlib.util
import textwrap

import torch
import torch.nn.functional as F
from typing import Tuple

from conftest import assert_no_crash


class ConvWrite(torch.nn.Module):
    """conv, then the conv's weight and the linear's weight written in place, then both used again."""

    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(4, 8, 3, padding=1)
        self.fc = torch.nn.Linear(8, 5)

    def head(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(self.conv(x), 1), 1))

    @torch.jit.export
    def bump(self, k: float):
        self.conv.weight.add_(k)
        self.fc.weight.mul_(-2.0)

    def forward(self, x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        a = self.head(x)
        self.bump(0.25)
        b = self.head(x)
        self.conv.weight.copy_(torch.ones_like(self.conv.weight))
        torch.index_select(self.fc.weight * 0.5, 0, torch.arange(5).flip(0), out=self.fc.weight)
        c = self.head(x)
        return a, b, c


class LinearOnly(torch.nn.Module):
    """A bias-free linear whose weight is zeroed in place between two calls (the whole storage rewritten)."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(16, 16, bias=False)

    def forward(self, x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        a = self.fc(x)
        self.fc.weight.zero_()
        return a, self.fc(x)


def _run_archive(run_kindling, tmp_path, module, args, name):
    torch.manual_seed(0)
    scripted = torch.jit.script(module.eval())
    path = tmp_path / f"{name}.pt"
    torch.jit.save(scripted, str(path))
    inp, out = tmp_path / f"{name}_in.pt", tmp_path / f"{name}_out.pt"
    torch.save(args, str(inp))
    with torch.no_grad():
        want = torch.jit.load(str(path))(*args)  # a fresh copy: the saved weights, written as Kindling will
    res = run_kindling("run", path, "--input", inp, "--output", out)
    assert_no_crash(res)
    assert res.returncode == 0, res.describe()
    return want, torch.load(str(out))


def _assert_all_close(got, want):
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        torch.testing.assert_close(g, w, rtol=1e-4, atol=1e-4, msg=lambda m: f"output {i}: {m}")
    # The writes changed what the later calls compute: a test that stays equal would prove nothing.
    for i in range(1, len(want)):
        assert not torch.allclose(want[i], want[i - 1]), f"outputs {i - 1} and {i} are equal in PyTorch"


def test_parameter_written_by_a_method_and_by_copy_(run_kindling, tmp_path):
    torch.manual_seed(1)
    want, got = _run_archive(run_kindling, tmp_path, ConvWrite(), (torch.rand(2, 4, 9, 9),), "conv_write")
    _assert_all_close(got, want)


def test_linear_weight_zeroed(run_kindling, tmp_path):
    torch.manual_seed(2)
    want, got = _run_archive(run_kindling, tmp_path, LinearOnly(), (torch.rand(3, 16),), "linear_zero")
    _assert_all_close(got, want)


SOURCE = textwrap.dedent('''
    import torch
    import torch.nn.functional as F
    from typing import Tuple

    def forward(x: torch.Tensor, w: torch.Tensor, lw: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        a = F.linear(F.conv2d(x, w, padding=1).flatten(1), lw)
        w.mul_(2.0)
        lw.add_(1.0)
        b = F.linear(F.conv2d(x, w, padding=1).flatten(1), lw)
        w[0].fill_(3.0)
        lw.view(-1)[0:7].zero_()
        c = F.linear(F.conv2d(x, w, padding=1).flatten(1), lw)
        return a, b, c
''')


def test_argument_weights_written_in_a_source_program(run_kindling, tmp_path):
    prog = tmp_path / "writes.py"
    prog.write_text(SOURCE)
    torch.manual_seed(3)
    args = (torch.rand(1, 3, 4, 4), torch.rand(6, 3, 3, 3), torch.rand(5, 96))
    inp, out = tmp_path / "writes_in.pt", tmp_path / "writes_out.pt"
    torch.save(args, str(inp))
    spec = importlib.util.spec_from_file_location("writes", prog)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    fn = torch.jit.script(mod.forward)
    want = fn(*[a.clone() for a in args])
    res = run_kindling("run", prog, "--input", inp, "--output", out)
    assert_no_crash(res)
    assert res.returncode == 0, res.describe()
    _assert_all_close(torch.load(str(out)), want)
