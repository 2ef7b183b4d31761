"""Every slice form on every sequence type, against eager Python / torch.

Forms: start and stop each omitted, 0, positive, negative, past either end; step omitted, 1, 2, 3, -1, -2,
-3. Types: tuple (mixed element types: constant bounds only, as TorchScript requires), list, str (with
non-ASCII characters: slices count code points), Tensor (1-D and along dim 1 of a 2-D tensor; torch refuses
negative steps, so those forms must fail in both). Constant bounds are written into a generated program
(one function per type returning the tuple of all its slices); list, str and Tensor are also sliced with
bounds that are values (loops over int triples). Each program is run by `kindling run` and compared with
the eager values (the oracle: Python's slice semantics; PyTorch 1.13's TorchScript gets some stepped tuple
slices wrong, e.g. t[10:-10:-1], which Kindling follows Python on); the tuple program is also saved by
`kindling save` and the archive run by torch.jit.load.
"""
import itertools
import pathlib

import pytest
import torch

import test_language as tl

tl._import_torch()
from conftest import REPO, assert_no_crash

BOUNDS = [None, 0, 1, 2, -1, -2, -5, 4, 10, -10]
STEPS = [None, 1, 2, 3, -1, -2, -3]
FORMS = list(itertools.product(BOUNDS, BOUNDS, STEPS))
POS_FORMS = [f for f in FORMS if f[2] is None or f[2] > 0]
NEG_FORMS = [f for f in FORMS if f[2] is not None and f[2] < 0]


def _slice_text(start, stop, step):
    s = lambda v: "" if v is None else str(v)  # noqa: E731
    return f"{s(start)}:{s(stop)}" + ("" if step is None else f":{step}")


TYPES = {
    "tuple": ("t: Tuple[int, str, float, bool, int]", "(3, 'é', 2.5, True, -7)"),
    "list": ("t: List[int]", "[10, 20, 30, 40, 50]"),
    "str": ("t: str", "'aé€😀z'"),
    "tensor": ("t: torch.Tensor", "torch.arange(5.0)"),
    "tensor2d": ("t: torch.Tensor", "torch.arange(15.0).reshape(3, 5)"),
}

HEADER = "import torch\nfrom typing import List, Tuple\n\n\n"


def _program(kind, forms):
    param, _ = TYPES[kind]
    idx = (lambda f: f"t[:, {_slice_text(*f)}]") if kind == "tensor2d" else (lambda f: f"t[{_slice_text(*f)}]")
    body = ",\n        ".join(idx(f) for f in forms)
    return HEADER + f"def main({param}):\n    return (\n        {body},\n    )\n"


DYN_TRIPLES = [(a, b, c) for a in (0, 1, -1, -5, 10, -10, 3) for b in (0, 2, -1, -4, 10, -10) for c in (1, 2, -1, -2, 3)]
DYN_TYPES = {"list": "List[int]", "str": "str"}


def _dyn_program(kind):
    return HEADER + (
        f"def main(t: {DYN_TYPES[kind]}, triples: List[Tuple[int, int, int]]) -> List[{DYN_TYPES[kind]}]:\n"
        f"    out: List[{DYN_TYPES[kind]}] = []\n"
        f"    for a, b, c in triples:\n"
        f"        out.append(t[a:b:c])\n"
        f"    return out\n")


def _eager(src, args):
    ns = {}
    exec(compile(src, "<slices>", "exec"), ns)  # noqa: S102 - generated here
    return ns["main"](*args)


def _dir(name):
    d = REPO / "build" / "slice-forms" / name
    d.mkdir(parents=True, exist_ok=True)
    return d


def _run(run_kindling, name, src, args):
    d = _dir(name)
    prog, inp, out = d / "prog.py", d / "in.pt", d / "out.pt"
    prog.write_text(src)
    torch.save(args, str(inp))
    if out.exists():
        out.unlink()
    res = run_kindling("run", prog, "--function", "main", "--input", inp, "--output", out, timeout=300)
    assert_no_crash(res)
    return prog, res, out


@pytest.mark.parametrize("kind", sorted(TYPES))
def test_every_slice_form(kind, run_kindling):
    forms = FORMS if kind in ("tuple", "list", "str") else POS_FORMS
    src = _program(kind, forms)
    args = (eval(TYPES[kind][1], {"torch": torch}),)  # noqa: S307
    expected = _eager(src, args)
    prog, res, out = _run(run_kindling, kind, src, args)
    assert res.returncode == 0, res.describe()
    got = torch.load(str(out))
    assert len(got) == len(forms)
    for f, e, g in zip(forms, expected, got):
        d = tl._diff(tl._plain(e), tl._plain(g))
        assert d is None, f"{kind} t[{_slice_text(*f)}]: {d}\nexpected {e!r}\ngot {g!r}"


@pytest.mark.parametrize("kind", ["tensor", "tensor2d"])
@pytest.mark.parametrize("form", NEG_FORMS[::7], ids=lambda f: _slice_text(*f))
def test_tensor_negative_step_fails(kind, form, run_kindling):
    src = _program(kind, [form])
    args = (eval(TYPES[kind][1], {"torch": torch}),)  # noqa: S307
    with pytest.raises(ValueError):
        _eager(src, args)
    _, res, _ = _run(run_kindling, f"{kind}_neg", src, args)
    assert res.returncode in (1, 2), f"torch refuses a negative step; Kindling must fail too\n{res.describe()}"
    assert "step" in res.stderr, res.describe()


@pytest.mark.parametrize("kind", sorted(DYN_TYPES))
def test_slice_bounds_as_values(kind, run_kindling):
    src = _dyn_program(kind)
    seq = [10, 20, 30, 40, 50] if kind == "list" else "aé€😀z"
    args = (seq, DYN_TRIPLES)
    expected = _eager(src, args)
    _, res, out = _run(run_kindling, f"{kind}_dyn", src, args)
    assert res.returncode == 0, res.describe()
    got = torch.load(str(out))
    for trip, e, g in zip(DYN_TRIPLES, expected, got):
        assert e == g, f"{kind}[{trip[0]}:{trip[1]}:{trip[2]}]: expected {e!r}, got {g!r}"
    assert len(got) == len(expected)


def test_tuple_slices_saved_load_in_torch(run_kindling):
    src = _program("tuple", FORMS)
    args = (eval(TYPES["tuple"][1]),)  # noqa: S307
    expected = _eager(src, args)
    d = _dir("tuple_saved")
    prog, archive = d / "prog.py", d / "saved.pt"
    prog.write_text(src)
    if archive.exists():
        archive.unlink()
    res = run_kindling("save", prog, "--function", "main", "-o", archive, timeout=300)
    assert res.returncode == 0, res.describe()
    loaded = torch.jit.load(str(archive))
    got = loaded(*args)
    for f, e, g in zip(FORMS, expected, got):
        assert tuple(e) == tuple(g), f"torch.jit.load of Kindling's archive: t[{_slice_text(*f)}]: {e!r} vs {g!r}"
    assert len(got) == len(FORMS)
