"""Operators that PyTorch 2.x archives call and PyTorch 1.13 lacks, with 2.x's schemas and documented
semantics: aten::scaled_dot_product_attention (attn_mask bool/float, is_causal, scale=, enable_gqa=; a fully
masked row gives zeros, as 2.5's _safe_softmax), aten::_safe_softmax, aten::rms_norm.

No PyTorch 2.x is installable here, so the archives are hand-written: PyTorch 1.13 saves a module whose forward
returns a placeholder, and its code/ is edited to the call a 2.x release prints. The expected values come from
the formulas of PyTorch's documentation, computed in float64 by PyTorch 1.13.
"""
import math
import re
import zipfile

import pytest
import torch
import torch.nn as nn

from conftest import assert_no_crash


class Placeholder(nn.Module):
    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, m: torch.Tensor):
        return torch.matmul(q, k)


def archive_calling(tmp_path, expr, name):
    """An archive whose forward(self, q, k, v, m) returns `expr` (TorchScript as code/ spells it)."""
    src = tmp_path / f"{name}_src.pt"
    torch.jit.save(torch.jit.script(Placeholder()), str(src))
    dst = tmp_path / f"{name}.pt"
    zin = zipfile.ZipFile(src)
    edited = 0
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_STORED) as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if "/code/" in info.filename and info.filename.endswith(".py"):
                text, n = re.subn(r"return torch\.matmul\(q, k\)", lambda _: "return " + expr, data.decode())
                edited += n
                data = text.encode()
            if info.filename.endswith(".debug_pkl"):
                continue
            zout.writestr(info.filename, data)
    assert edited == 1
    return dst


def run(run_kindling, tmp_path, path, args):
    inp, out = tmp_path / "in.pt", tmp_path / "out.pt"
    torch.save(tuple(args), str(inp))
    res = run_kindling("run", path, "--input", inp, "--output", out)
    assert_no_crash(res)
    return res, (torch.load(str(out)) if res.returncode == 0 else None)


def sdpa_reference(q, k, v, mask=None, is_causal=False, scale=None, gqa=False):
    q, k, v = q.double(), k.double(), v.double()
    if gqa:
        r = q.size(-3) // k.size(-3)
        k, v = k.repeat_interleave(r, -3), v.repeat_interleave(r, -3)
    s = 1 / math.sqrt(q.size(-1)) if scale is None else scale
    a = q @ k.transpose(-2, -1) * s
    L, S = q.size(-2), k.size(-2)
    if is_causal:
        a = a.masked_fill(~torch.ones(L, S, dtype=torch.bool).tril(), -math.inf)
    if mask is not None:
        a = a.masked_fill(~mask, -math.inf) if mask.dtype == torch.bool else a + mask.double()
    dead = (a == -math.inf).all(-1, keepdim=True)
    return (a.softmax(-1).masked_fill(dead, 0) @ v).float()


def close(got, want):
    # float32 products of 8-term dot products and a softmax: well inside 1e-5 absolute.
    return got.dtype == want.dtype and got.shape == want.shape and torch.allclose(got, want, rtol=1e-4, atol=1e-5)


def qkv(hq=2, hk=2, L=5, S=6, E=8, Ev=3, seed=0):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(2, hq, L, E, generator=g), torch.randn(2, hk, S, E, generator=g),
            torch.randn(2, hk, S, Ev, generator=g))


CASES = {
    "plain": ("torch.scaled_dot_product_attention(q, k, v)", {}),
    "float_mask": ("torch.scaled_dot_product_attention(q, k, v, m)", {"mask": "float"}),
    "bool_mask": ("torch.scaled_dot_product_attention(q, k, v, torch.gt(m, 0.))", {"mask": "bool"}),
    "causal": ("torch.scaled_dot_product_attention(q, k, v, None, 0., True)", {"is_causal": True}),
    "scale": ("torch.scaled_dot_product_attention(q, k, v, scale=0.3)", {"scale": 0.3}),
    "gqa": ("torch.scaled_dot_product_attention(q, k, v, m, 0., False, scale=-0.5, enable_gqa=True)",
            {"mask": "float", "scale": -0.5, "gqa": True}),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_scaled_dot_product_attention(run_kindling, tmp_path, case):
    expr, opts = CASES[case]
    q, k, v = qkv(hq=4 if opts.get("gqa") else 2, L=6 if opts.get("is_causal") else 5)
    L, S = q.size(-2), k.size(-2)
    m = torch.randn(L, S, generator=torch.Generator().manual_seed(3))
    if opts.get("mask") == "bool":
        m[1] = -1.0  # row 1 fully masked: zeros (2.5's _safe_softmax)
    res, got = run(run_kindling, tmp_path, archive_calling(tmp_path, expr, case), (q, k, v, m))
    assert res.returncode == 0, res.describe()
    mask = None if "mask" not in opts else (m > 0 if opts["mask"] == "bool" else m)
    want = sdpa_reference(q, k, v, mask, opts.get("is_causal", False), opts.get("scale"), opts.get("gqa", False))
    assert close(got, want), (got - want).abs().max()
    if opts.get("mask") == "bool":
        assert torch.all(got[:, :, 1] == 0)


def test_sdpa_causal_with_mask_is_an_error(run_kindling, tmp_path):
    q, k, v = qkv()
    path = archive_calling(tmp_path, "torch.scaled_dot_product_attention(q, k, v, m, 0., True)", "bad")
    res, _ = run(run_kindling, tmp_path, path, (q, k, v, torch.zeros(5, 6)))
    assert res.returncode == 2 and "Explicit attn_mask should not be set when is_causal=True" in res.stderr, res.describe()


def test_safe_softmax(run_kindling, tmp_path):
    q = torch.randn(3, 4)
    q[1] = -math.inf
    res, got = run(run_kindling, tmp_path, archive_calling(tmp_path, "torch._safe_softmax(q, -1)", "ss"), (q, q, q, q))
    assert res.returncode == 0, res.describe()
    want = q.softmax(-1)
    want[1] = 0
    assert torch.allclose(got, want) and torch.all(got[1] == 0)


@pytest.mark.parametrize("expr,eps", [("torch.rms_norm(q, [4], k, 1.0000000000000001e-05)", 1e-5),
                                      ("torch.rms_norm(q, [3, 4], None)", None)])
def test_rms_norm(run_kindling, tmp_path, expr, eps):
    g = torch.Generator().manual_seed(1)
    x, w = torch.randn(2, 3, 4, generator=g), torch.randn(4, generator=g)
    res, got = run(run_kindling, tmp_path, archive_calling(tmp_path, expr, "rms"), (x, w, x, x))
    assert res.returncode == 0, res.describe()
    dims = (-1,) if "[4]" in expr else (-2, -1)
    e = torch.finfo(torch.float32).eps if eps is None else eps
    want = x.double() * torch.rsqrt(x.double().pow(2).mean(dims, keepdim=True) + e)
    if "None" not in expr:
        want = want * w.double()
    assert got.dtype == torch.float32 and torch.allclose(got, want.float(), rtol=1e-5, atol=1e-6)


def test_rms_norm_shape_error(run_kindling, tmp_path):
    x = torch.randn(2, 3)
    res, _ = run(run_kindling, tmp_path, archive_calling(tmp_path, "torch.rms_norm(q, [4])", "rmsbad"), (x, x, x, x))
    assert res.returncode == 2 and "expected input with shape [*, 4]" in res.stderr, res.describe()
