"""Python's meaning where PyTorch 1.13 differs: every program of tests/oracle/lang_python/*.py run by eager
Python (the oracle here, not torch.jit) and by Kindling.

The files use the case comments of tests/oracle/lang/ (see test_language.py): `# case: ARGS` (Python and
Kindling return equal values and print the same) and `# case-raises: ARGS` (Python raises; Kindling exits 2
with a message). The functions are called as plain Python functions: these are the programs TorchScript
rejects (try/except, ...) or computes differently from Python (str methods on non-ASCII text, which
PyTorch 1.13 runs on bytes). A comment `# save: rejected CONSTRUCT` among the case comments checks
`kindling save FILE --function NAME` (item: PyTorch 1.13 cannot load the construct): it exits 1, names
the construct and points at the line where it starts, and writes no archive. A comment `# save: loads`
checks that `kindling save FILE --function NAME` writes an archive that torch.jit.load loads, and that the
archive run by PyTorch and by Kindling returns Python's value on every `# case:`.
"""
import ast
import os
import pathlib

import pytest

import test_language as tl
from conftest import assert_no_crash

DIR = pathlib.Path(__file__).resolve().parent / "lang_python"


def _save_markers(path):
    """{function: (construct, line of the construct's first use in the function)} for `# save: rejected X`,
    {function: None} for `# save: loads`."""
    text = path.read_text()
    lines = text.splitlines()
    tree = ast.parse(text)
    out = {}
    kinds = {"try": ast.Try}
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        ln = node.lineno - 1
        while ln >= 1 and lines[ln - 1].strip().startswith(("#", "@")):
            s = lines[ln - 1].strip()
            if s == "# save: loads":
                out[node.name] = None
            if s.startswith("# save: rejected "):
                construct = s[len("# save: rejected "):].strip()
                first = min(n.lineno for n in ast.walk(node) if isinstance(n, kinds[construct]))
                out[node.name] = (construct, first)
            ln -= 1
    return out


def _collect():
    params, saves, loads = [], [], []
    for path in sorted(DIR.glob("*.py")):
        cases = tl._parse_cases(path)
        for c in cases:
            params.append(pytest.param(c, id=c.id))
        for func, marker in _save_markers(path).items():
            if marker is None:
                for c in cases:
                    if c.func == func and not c.raises:
                        loads.append(pytest.param(c, id=c.id))
            else:
                saves.append(pytest.param(path, func, *marker, id=f"{path.name}::{func}"))
    return params, saves, loads


_CASES, _SAVES, _LOADS = _collect()


def _fixtures(path):
    root = os.environ.get("KINDLING_FIXTURES_DIR")
    d = (pathlib.Path(root) / "lang_python" if root else tl.REPO / "build" / "lang-python-fixtures") / path.stem
    d.mkdir(parents=True, exist_ok=True)
    return d


@pytest.mark.parametrize("case", _CASES)
def test_lang_python(case, run_kindling):
    torch = tl._import_torch()
    fn = getattr(tl._module(case.path), case.func)
    args = tl._eval_args(case)
    d = _fixtures(case.path)
    inp, out = d / f"{case.func}_{case.index}_in.pt", d / f"{case.func}_{case.index}_out.pt"
    if out.exists():
        out.unlink()
    torch.save(args, str(inp))
    ok, got_py, py_stdout = tl._call_in_process(fn, args)
    res = run_kindling("run", case.path, "--function", case.func, "--input", inp, "--output", out, timeout=120)
    assert_no_crash(res)
    both = (f"\n=== {case.id}  args: {case.expr}\n--- Python ---\n"
            + (f"returned {tl._show(got_py)}" if ok else f"raised {got_py}")
            + f"\nstdout: {py_stdout!r}\n--- Kindling ---\n{res.describe()}")
    if case.raises:
        assert not ok, f"case-raises, but Python did not raise{both}"
        assert res.returncode == 2, f"case-raises: Kindling must exit 2 (runtime error){both}"
        assert res.stderr.strip(), f"case-raises: Kindling gave no error message{both}"
        return
    assert ok, f"Python raised on a `# case:` program (use `# case-raises:`){both}"
    assert res.returncode == 0, f"Kindling failed where Python returned a value{both}"
    got = torch.load(str(out))  # also: the file is valid (UTF-8 strings included)
    d = tl._diff(got_py, got)
    assert d is None, f"values differ: {d}\nKindling returned {tl._show(got)}{both}"
    assert res.stdout == py_stdout, f"printed output differs{both}"


@pytest.mark.parametrize("path,func,construct,line", _SAVES)
def test_lang_python_save_rejected(path, func, construct, line, run_kindling):
    out = _fixtures(path) / f"{func}_saved.pt"
    if out.exists():
        out.unlink()
    res = run_kindling("save", path, "--function", func, "-o", out)
    assert_no_crash(res)
    assert res.returncode == 1, f"kindling save must refuse `{construct}`\n{res.describe()}"
    assert not out.exists(), "kindling save wrote an archive it reported as an error"
    assert f"'{construct}'" in res.stderr, f"the error must name the construct '{construct}'\n{res.describe()}"
    assert f"line {line}" in res.stderr, f"the error must point at line {line}\n{res.describe()}"
    assert "<--- HERE" in res.stderr, res.describe()


@pytest.mark.parametrize("case", _LOADS)
def test_lang_python_saved(case, run_kindling):
    torch = tl._import_torch()
    fn = getattr(tl._module(case.path), case.func)
    args = tl._eval_args(case)
    d = _fixtures(case.path)
    archive = d / f"{case.func}_saved.pt"
    inp, out = d / f"{case.func}_{case.index}_saved_in.pt", d / f"{case.func}_{case.index}_saved_out.pt"
    for f in (archive, out):
        if f.exists():
            f.unlink()
    res = run_kindling("save", case.path, "--function", case.func, "-o", archive)
    assert_no_crash(res)
    assert res.returncode == 0, res.describe()
    expected = fn(*args)
    loaded = torch.jit.load(str(archive))  # constants.pkl and code/ decode
    d1 = tl._diff(tl._plain(expected), tl._plain(loaded(*args)))
    assert d1 is None, f"PyTorch running Kindling's archive: {d1}"
    torch.save(args, str(inp))
    res = run_kindling("run", archive, "--input", inp, "--output", out)
    assert res.returncode == 0, res.describe()
    d2 = tl._diff(tl._plain(expected), torch.load(str(out)))
    assert d2 is None, f"Kindling running its archive: {d2}"
