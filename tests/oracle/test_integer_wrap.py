"""Integer tensor kernels at the edges of their range, through the CLI, for every integer dtype.

The minimum of a signed dtype divided by -1 (//, %, torch.div with rounding_mode 'floor' / 'trunc', fmod,
remainder, floor_divide, in place or not, tensor or scalar divisor) traps the CPU (SIGFPE) when computed
with a plain division: PyTorch 1.13 dies there for int32 and int64. Kindling gives Python's result wrapped
to the dtype (two's complement, as numpy and Python int64 arithmetic): MIN // -1 == MIN, MIN % -1 == 0.
Where PyTorch gives a value (int8, int16, uint8, and every other element) it is the oracle; elsewhere the
wrap-around value computed here with Python ints is.
"""
import importlib.util

import pytest
import torch

from conftest import assert_no_crash

SIGNED = [torch.int8, torch.int16, torch.int32, torch.int64]
ALL = SIGNED + [torch.uint8]
# PyTorch computes these dtypes' divisions in int (promoted), so MIN / -1 does not trap there.
PYTORCH_SURVIVES_MIN_BY_MINUS_ONE = {torch.int8, torch.int16, torch.uint8}

DIVISION_PROGRAM = """
import torch
from typing import List

def f(a: torch.Tensor, b: torch.Tensor) -> List[torch.Tensor]:
    d = a.clone()
    d %= b  # aten::fmod_, as PyTorch compiles it
    return [a // b, a % b, torch.div(a, b, rounding_mode='floor'), torch.div(a, b, rounding_mode='trunc'),
            torch.fmod(a, b), torch.remainder(a, b), torch.floor_divide(a, b), d,
            a.clone().floor_divide_(b), a.clone().remainder_(b), a.clone().fmod_(b),
            a.clone().div_(b, rounding_mode='trunc'), a.clone().div_(b, rounding_mode='floor')]

def g(a: torch.Tensor) -> List[torch.Tensor]:
    return [a // -1, a % -1, torch.fmod(a, -1), torch.remainder(a, -1), torch.div(a, -1, rounding_mode='trunc'),
            torch.div(a, -1, rounding_mode='floor'), torch.floor_divide(a, -1)]
"""


def wrap(v, dtype):
    bits = torch.iinfo(dtype).bits
    v &= (1 << bits) - 1
    if dtype != torch.uint8 and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


def trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


# Python's results for each output of f (and of g with b = -1), before wrapping.
FORMULAS = {
    "floor": lambda a, b: a // b,
    "mod": lambda a, b: a % b,
    "trunc": trunc_div,
    "fmod": lambda a, b: a - b * trunc_div(a, b),
}
F_OUTPUTS = ["floor", "mod", "floor", "trunc", "fmod", "mod", "floor", "fmod",
             "floor", "mod", "fmod", "trunc", "floor"]
G_OUTPUTS = ["floor", "mod", "fmod", "mod", "trunc", "floor", "floor"]


def operands(dtype):
    info = torch.iinfo(dtype)
    if dtype == torch.uint8:
        return [0, 1, 7, 200, 255, 255, 128], [1, 255, 2, 3, 255, 1, 7]
    return ([info.min, info.min, info.min + 1, -7, 7, 0, info.max, info.min, info.max],
            [-1, 1, -1, 2, -2, -1, -1, 7, 3])


def run_program(run_kindling, tmp_path, text, fn, args):
    """kindling run of function `fn` of the program `text` on `args`; its result as torch.load reads it."""
    src = tmp_path / f"prog_{fn}.py"
    src.write_text(text)
    inp, out = tmp_path / "in.pt", tmp_path / "out.pt"
    torch.save(args, str(inp))
    res = run_kindling("run", src, "--function", fn, "--input", inp, "--output", out)
    assert_no_crash(res)
    assert res.returncode == 0, res.describe()
    return torch.load(str(out))


def script_from_text(tmp_path, text, fn):
    """torch.jit.script of function `fn` of the program `text` (the oracle)."""
    p = tmp_path / f"oracle_{fn}.py"
    p.write_text(text)
    spec = importlib.util.spec_from_file_location(f"oracle_{fn}", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return torch.jit.script(getattr(mod, fn))


@pytest.mark.parametrize("dtype", ALL, ids=str)
def test_division_family_wraps(run_kindling, tmp_path, dtype):
    av, bv = operands(dtype)
    a, b = torch.tensor(av, dtype=dtype), torch.tensor(bv, dtype=dtype)
    got = run_program(run_kindling, tmp_path, DIVISION_PROGRAM, "f", (a, b))
    assert len(got) == len(F_OUTPUTS)
    for name, t in zip(F_OUTPUTS, got):
        assert t.dtype == dtype
        want = [wrap(FORMULAS[name](x, y), dtype) for x, y in zip(av, bv)]
        assert t.tolist() == want, (name, t.tolist(), want)
    # PyTorch agrees wherever it does not trap.
    safe = [i for i, (x, y) in enumerate(zip(av, bv)) if dtype in PYTORCH_SURVIVES_MIN_BY_MINUS_ONE
            or not (y == -1 and x == torch.iinfo(dtype).min)]
    idx = torch.tensor(safe)
    want_pt = script_from_text(tmp_path, DIVISION_PROGRAM, "f")(a[idx], b[idx])
    for t, w in zip(got, want_pt):
        assert torch.equal(t[idx], w), (t[idx], w)


@pytest.mark.parametrize("dtype", SIGNED, ids=str)
def test_division_by_scalar_minus_one_wraps(run_kindling, tmp_path, dtype):
    info = torch.iinfo(dtype)
    av = [info.min, info.min + 1, -5, 0, 5, info.max]
    got = run_program(run_kindling, tmp_path, DIVISION_PROGRAM, "g", (torch.tensor(av, dtype=dtype),))
    for name, t in zip(G_OUTPUTS, got):
        assert t.dtype == dtype
        assert t.tolist() == [wrap(FORMULAS[name](x, -1), dtype) for x in av], (name, t.tolist())
    if dtype in PYTORCH_SURVIVES_MIN_BY_MINUS_ONE:
        for t, w in zip(got, script_from_text(tmp_path, DIVISION_PROGRAM, "g")(torch.tensor(av, dtype=dtype))):
            assert torch.equal(t, w)


EDGE_PROGRAM = """
import torch
from typing import List

def h(a: torch.Tensor, b: torch.Tensor) -> List[torch.Tensor]:
    return [torch.abs(a), a.abs(), torch.neg(a), -a, a * a, a * b, a + b, a - b, torch.square(a),
            torch.gcd(a, b), torch.lcm(a, b), a.clone().abs_(), a.clone().neg_(), a.clone().mul_(b),
            torch.add(a, b, alpha=3), torch.sub(a, b, alpha=3), torch.rsub(a, b, alpha=2), a ** 3]

def shifts(a: torch.Tensor, s: torch.Tensor) -> List[torch.Tensor]:
    return [a << s, a >> s, torch.bitwise_left_shift(a, s), torch.bitwise_right_shift(a, s)]
"""


@pytest.mark.parametrize("dtype", ALL, ids=str)
def test_overflowing_arithmetic_matches_pytorch(run_kindling, tmp_path, dtype):
    info = torch.iinfo(dtype)
    if dtype == torch.uint8:
        av, bv = [0, 1, 255, 128, 17, 200], [255, 255, 2, 128, 0, 3]
    else:
        av = [info.min, info.min, info.min + 1, info.max, -7, 0, info.min, info.max]
        bv = [-1, info.min, info.min, info.max, 3, info.min, 0, -1]
    a, b = torch.tensor(av, dtype=dtype), torch.tensor(bv, dtype=dtype)
    got = run_program(run_kindling, tmp_path, EDGE_PROGRAM, "h", (a, b))
    want = script_from_text(tmp_path, EDGE_PROGRAM, "h")(a, b)
    assert len(got) == len(want)
    for i, (t, w) in enumerate(zip(got, want)):
        assert t.dtype == w.dtype and t.tolist() == w.tolist(), (i, t.tolist(), w.tolist())


@pytest.mark.parametrize("dtype", ALL, ids=str)
def test_shift_counts_out_of_range_match_pytorch(run_kindling, tmp_path, dtype):
    # PyTorch 1.13 shifts by the count the CPU sees (x86 masks it to the promoted operand's width).
    n = [0, 1, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 100]
    if dtype == torch.uint8:
        counts = [c for c in n if c <= 255] + [255]
    else:
        counts = [c for c in n if c <= torch.iinfo(dtype).max] + [-1, -8, -64]
    counts = [c for c in counts if torch.iinfo(dtype).min <= c <= torch.iinfo(dtype).max]
    base = [1, 3, -3, torch.iinfo(dtype).max, torch.iinfo(dtype).min] if dtype != torch.uint8 else [1, 3, 200, 255, 0]
    a = torch.tensor([x for x in base for _ in counts], dtype=dtype)
    s = torch.tensor([c for _ in base for c in counts], dtype=dtype)
    got = run_program(run_kindling, tmp_path, EDGE_PROGRAM, "shifts", (a, s))
    want = script_from_text(tmp_path, EDGE_PROGRAM, "shifts")(a, s)
    for i, (t, w) in enumerate(zip(got, want)):
        assert t.tolist() == w.tolist(), (i, [(x, c, y, z) for x, c, y, z in zip(a.tolist(), s.tolist(), t.tolist(), w.tolist()) if y != z])
