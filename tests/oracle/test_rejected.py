"""Programs PyTorch 1.13 rejects (tests/oracle/lang_rejected/*.py): Kindling must reject them too.

Each file defines `main` (plus the helpers and classes it uses) and contains one error. For each file:
  - plain Python imports it (the error is a TorchScript compile error, not a Python SyntaxError);
  - torch.jit.script(module.main) raises; the line number is read from PyTorch's message
    (`File "...", line N`, the first location it prints: where the error is);
  - `kindling graph FILE --function main` exits 1, prints the `~~~ <--- HERE` marker, and the first
    location it names is the same line;
  - Kindling's message is as informative as PyTorch's: PyTorch's headline (its first line that is not a
    schema or the generic "Arguments for call are not valid.") appears in Kindling's stderr; e.g. for a
    type error "Expected a value of type 'Tensor' for argument 'self' but instead found type 'str'.".
    Where Kindling words the error differently on purpose, WORDING holds the phrase it must print.
"""
import importlib.util
import pathlib
import re
import sys

import pytest
import torch

HERE = pathlib.Path(__file__).resolve().parent
REJECTED = sorted((HERE / "lang_rejected").glob("*.py"))

# file stem -> phrase Kindling prints instead of PyTorch's headline (same error, different words).
WORDING = {
    "call_non_callable": "'int' object is not callable",              # PT: cannot call a value of type 'int'
    "global_stmt": "'global' statements are not supported",           # PT: global variables aren't supported
    "import_forbidden_module": "import statements are only supported at the top level",
    "optional_tensor_method": "Tried to access attribute 'relu' of a value of type Optional[Tensor]",
    "set_literal": "set literals are not supported in TorchScript",   # PT: Set aren't supported
    "tuple_index_nonconstant": "Tuple index must be an integer constant",
    "tuple_item_assign": "'Tuple[int, int]' object does not support item assignment",
    "unknown_torch_function": "Unknown builtin op: aten::no_such_function",  # PT: object has no attribute ...
    "with_non_context_manager": "The type of a `with` item must be a class with __enter__ and __exit__",
    "yield_stmt": "yield is not supported in TorchScript",            # PT: Yield aren't supported
    "string_index_assign": "'str' object does not support item assignment",  # PT: no matching schema
    "variable_type_comment": "variable type comments are not supported",  # PT: expected type comment but ...
}

GENERIC = ("Arguments for call are not valid.", "The following variants are available:")


def _import(path):
    name = "kd_rejected_" + path.stem
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # inspect (used by torch.jit.script for classes) finds the module
    spec.loader.exec_module(mod)
    return mod


def _pytorch_error(path):
    mod = _import(path)
    try:
        torch.jit.script(mod.main)
    except Exception as e:  # noqa: BLE001 - any rejection counts
        return str(e)
    return None


def _headline(msg):
    for line in msg.splitlines():
        s = line.strip()
        if not s or s in GENERIC:
            continue
        if "->" in s and s.endswith(":") and "(" in s:  # a schema line "helper(int a) -> int:"
            continue
        return s.rstrip(":").strip()
    return ""


def _pytorch_line(msg, path):
    m = re.search(r'File "[^"]*", line (\d+)', msg)
    if m:
        return int(m.group(1))
    # Errors of torch.jit.script's Python side (e.g. a variable type comment taken for the function's
    # signature comment) quote the offending source line without its number: find it in the file.
    lines = msg.splitlines()
    for i, line in enumerate(lines):
        if "<--- HERE" in line and i > 0:
            quoted = lines[i - 1].strip()
            hits = [n for n, src in enumerate(path.read_text().splitlines(), 1) if src.strip() == quoted]
            assert len(hits) == 1, f"PyTorch's quoted line {quoted!r} is not one line of {path.name}"
            return hits[0]
    raise AssertionError(f"no line number in PyTorch's error:\n{msg}")


def test_enough_rejected_programs():
    assert len(REJECTED) >= 45, f"only {len(REJECTED)} rejected programs"


@pytest.mark.parametrize("path", REJECTED, ids=[p.stem for p in REJECTED])
def test_rejected(path, run_kindling):
    msg = _pytorch_error(path)
    assert msg is not None, f"PyTorch accepts {path.name}: not a rejected program"
    pt_line = _pytorch_line(msg, path)

    res = run_kindling("graph", path, "--function", "main")
    assert res.returncode == 1, f"Kindling did not reject {path.name} (PyTorch: {msg.splitlines()[:3]})\n{res.describe()}"
    err = res.stderr
    assert "<--- HERE" in err, res.describe()
    km = re.search(r'line (\d+)', err)
    assert km, res.describe()
    assert int(km.group(1)) == pt_line, f"PyTorch says line {pt_line}:\n{msg}\nKindling:\n{err}"

    # PyTorch names classes of the imported module "__torch__.<module>.C (of Python compilation unit at: 0x..)";
    # Kindling compiles the file as the program: "__torch__.C"
    norm = re.sub(r" \(of Python compilation unit at: 0x[0-9a-f]+\)", "", msg).replace(f"__torch__.kd_rejected_{path.stem}.", "__torch__.")
    expected = WORDING.get(path.stem) or _headline(norm)
    assert expected and expected in err, f"message lacks {expected!r}\nPyTorch:\n{msg}\nKindling:\n{err}"
