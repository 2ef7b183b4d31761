"""Runtime error messages: every `# case-raises:` program of tests/oracle/lang/errors_*.py and fork_*.py run
by PyTorch 1.13 and by `kindling run` (test_language.py checks that both raise; this file checks what
Kindling says):
  - the message: PyTorch's exception ends with "<Class>: <message>" (e.g. "builtins.ValueError: n is too
    large: 3", "RuntimeError: list index out of range", "RuntimeError: AssertionError: x is required");
    Kindling's first stderr line, "error: <Class>: <message>", must end with the innermost
    "<Class>: <message>" of PyTorch's ("ValueError: n is too large: 3", "AssertionError: x is required");
    BETTER lists the few messages where Kindling says more than PyTorch (the phrase it must print);
  - the TorchScript call stack: the source lines of PyTorch's traceback frames (`line N, in fn`) must appear,
    in order and starting with the outermost, among the frames of Kindling's
    "in TorchScript: f (file:line:col) -> g (file:line:col)" line;
  - exit code 2.
"""
import pathlib
import re

import pytest

import test_language as tl
from conftest import assert_no_crash

LANG = pathlib.Path(__file__).resolve().parent / "lang"

# case id -> phrase Kindling prints where PyTorch's message is unhelpful
BETTER = {
}


def _cases():
    params = []
    for path in sorted(list(LANG.glob("errors_*.py")) + list(LANG.glob("fork_*.py"))):
        for c in tl._parse_cases(path):
            if c.raises:
                params.append(pytest.param(c, id=c.id))
    return params


def _innermost(last_line):
    s = last_line.strip().replace("builtins.", "")
    # "RuntimeError: AssertionError: msg" -> "AssertionError: msg"
    m = re.match(r"RuntimeError: ([A-Za-z]*(?:Error|Exception)): (.*)$", s) or \
        re.match(r"RuntimeError: ([A-Za-z]*(?:Error|Exception)):$", s)
    if m:
        return s[len("RuntimeError: "):]
    return s


@pytest.mark.parametrize("case", _cases())
def test_runtime_error_message(case, run_kindling, tmp_path):
    import torch
    fn = tl._script(case.path, case.func)
    args = tl._eval_args(case)
    inp = tmp_path / "in.pt"
    torch.save(args, str(inp))
    with pytest.raises(Exception) as ei:
        fn(*args)
    pt = str(ei.value).strip()
    res = run_kindling("run", case.path, "--function", case.func, "--input", inp, "--output", tmp_path / "out.pt")
    assert_no_crash(res)
    assert res.returncode == 2, res.describe()
    lines = res.stderr.strip().splitlines()
    first = lines[0]
    assert first.startswith("error: "), res.describe()

    want = BETTER.get(case.id) or _innermost(pt.splitlines()[-1])
    if case.id in BETTER:
        assert want in first, f"Kindling: {first!r}\nPyTorch: {pt}"
    else:
        assert first.rstrip().endswith(want.rstrip()), f"Kindling: {first!r}\nexpected to end with {want!r}\nPyTorch:\n{pt}"

    # Frames in torch's own TorchScript source (File "<string>": torch._assert's body, a builtin in
    # Kindling) have no counterpart in Kindling's stack, which names the user's call instead.
    pt_frames = re.findall(r'File "([^"]*)", line (\d+), in ', pt)
    assert pt_frames, f"no frames in PyTorch's error:\n{pt}"
    pt_lines = [int(n) for f, n in pt_frames if f != "<string>"]
    stack = next((l for l in lines if l.strip().startswith("in TorchScript:")), "")
    kd_lines = [int(n) for n in re.findall(r":(\d+):\d+\)", stack)]
    if not pt_lines:  # PyTorch names no frame of the program: Kindling must still name one
        assert kd_lines, f"no frames in Kindling's error:\n{res.stderr}"
        return
    # PyTorch's frames, in order, must be among Kindling's (PyTorch sometimes drops a middle frame of inlined
    # calls; Kindling lists every call), starting from the same outermost one.
    it = iter(kd_lines)
    ok = bool(kd_lines) and kd_lines[0] == pt_lines[0] and all(any(k == p for k in it) for p in pt_lines)
    assert ok, f"call stack lines: PyTorch {pt_lines}, Kindling {kd_lines}\nKindling: {res.stderr}\nPyTorch:\n{pt}"
