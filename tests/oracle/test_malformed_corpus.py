"""The malformed-input corpus (tests/malformed/make_corpus.py): several hundred archives, torch.save inputs and
TorchScript programs, each derived from a small valid one written by PyTorch 1.13 at test time and broken in
one way. One test per case, through `kindling run`:

- a malformed case must exit with exactly its code of the command-line contract (1: cannot be loaded or
  compiled, 2: raised at run time), never from a signal, a hang or an internal error; its message must say
  what is wrong (the case's pattern) and the whole of stderr must stay within ERR_CAP characters, however
  large the input (error messages quote at most an excerpt of it); PyTorch must not accept it either, unless
  the case says why Kindling is stricter;
- a case that is in fact valid (some lies every zip reader ignores, ZIP64 records that tell the truth) must
  give PyTorch's result.

PyTorch's verdicts come from one child process that forks per case (make_corpus.torch_verdicts), so that a
crash of PyTorch on a hostile input is a verdict and not the end of the test session.
"""
import json
import os
import pathlib
import re
import subprocess
import sys

import pytest
import torch

from conftest import REPO, assert_no_crash

sys.path.insert(0, str(REPO / "tests" / "malformed"))
import make_corpus  # noqa: E402

CASES = make_corpus.case_by_id()

# The excerpt an error message may quote (src/core/echo_excerpt.h: kMaxEchoChars), read from the header so
# that the test follows the code. stderr may hold a few of them (a record name and a quoted value, a source
# line's excerpt and its caret line) plus the message's own words and file paths.
_ECHO = int(re.search(r"kMaxEchoChars = (\d+)", (REPO / "src/core/echo_excerpt.h").read_text()).group(1))
ERR_CAP = 10 * _ECHO


@pytest.fixture(scope="session")
def corpus_dir():
    d = REPO / "build" / "tmp" / "malformed"
    d.mkdir(parents=True, exist_ok=True)
    verdicts = d / "verdicts.json"
    cp = subprocess.run([sys.executable, str(REPO / "tests/malformed/make_corpus.py"), str(d), "--verdicts",
                         str(verdicts)], capture_output=True, text=True, timeout=1800)
    assert cp.returncode == 0, cp.stderr[-4000:]
    return d, json.loads(verdicts.read_text())


def _command(c, d, path, out):
    if c.kind == "archive":
        return ("run", path, "--input", d / "input.pt", "--output", out)
    if c.kind == "input":
        return ("run", d / "identity.py", "--function", "f", "--input", path, "--output", out)
    return ("run", path, "--function", "f", "--input", d / make_corpus.program_input(c), "--output", out)


def _same(a, b):
    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        return (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor) and a.dtype == b.dtype
                and a.shape == b.shape and torch.allclose(a, b, rtol=1e-5, atol=1e-6, equal_nan=True))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) == type(b) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True
    return type(a) == type(b) and a == b


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_malformed_case(run_kindling, corpus_dir, tmp_path, case_id):
    c = CASES[case_id]
    d, verdicts = corpus_dir
    path = d / "cases" / (c.id + c.suffix)
    out = tmp_path / "out.pt"
    res = run_kindling(*_command(c, d, path, out), timeout=120)
    assert_no_crash(res)
    theirs = verdicts[c.id]
    if c.code == 0:
        if c.same_as:  # PyTorch rejects this file; its content is that of `same_as`
            assert theirs[0] != "ok", f"{c.id}: PyTorch now accepts it: drop same_as"
            theirs = verdicts[c.same_as]
        assert theirs[0] == "ok", f"{c.id} is meant to be valid, but PyTorch says: {theirs}"
        assert res.returncode == 0, res.describe()
        got, want = torch.load(str(out)), torch.load(theirs[1])
        assert _same(got, want), f"{c.id}: Kindling {got!r} vs PyTorch {want!r}"
        return
    assert theirs[0] != "ok" or c.note.startswith("stricter:"), (
        f"{c.id}: PyTorch accepts this input, so it is not malformed ({c.note or 'no note'})")
    assert res.returncode == c.code, f"{c.id}: expected exit {c.code}\n{res.describe()}"
    err = res.stderr
    assert err.startswith("error: "), res.describe()
    assert "internal error" not in err.lower() and "terminate called" not in err, res.describe()
    assert re.search(c.pattern, err, re.I), f"{c.id}: stderr lacks /{c.pattern}/\n{res.describe()}"
    # The cap: paths of the files given are the only text of unbounded length a message may hold in full.
    budget = ERR_CAP + 2 * len(str(path)) + 2 * len(str(d))
    assert len(err) <= budget, f"{c.id}: stderr of {len(err)} characters (cap {budget})\n{err[:3000]}"
    assert not out.exists(), f"{c.id}: an output file was written for a failed run"


def test_corpus_size_and_families():
    """The corpus keeps at least 200 malformed cases, and every family of issue 15's item 8."""
    bad = [c for c in CASES.values() if c.code != 0]
    fams = {c.family for c in bad}
    assert len(bad) >= 200, len(bad)
    assert {"truncation", "zip-lies", "zip64", "pickle", "hostile-size", "deep-nesting", "huge-literal",
            "bad-code", "version"} <= fams, fams
