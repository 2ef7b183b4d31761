"""The TorchScript language corpus: every program of tests/oracle/lang/*.py run by PyTorch 1.13 and by Kindling.

A corpus file is plain Python that PyTorch can import. An entry function has one or more case comments
immediately above its `def` (decorators between the comments and the `def` are skipped):

    # case: (torch.randn(3, 4), 2)        args tuple, evaluated after torch.manual_seed(0) with torch, math,
    # case-raises: (torch.zeros(2), -1)   typing names and the module's globals in scope; -raises: both
    def f(x: torch.Tensor, n: int) -> int:  PyTorch and Kindling must raise at run time (Kindling: exit 2)

One pytest param per (file, function, case), id `file.py::function[i]`. PyTorch side: the file is imported
once (unique module name), each function scripted once (torch.jit.script), then called on the evaluated
args (`case-raises` programs in a forked child: a program that crashes PyTorch fails its case, not the run). The args are written first (torch.save of the tuple) to build/lang-fixtures/<file>/ (or
$KINDLING_FIXTURES_DIR/lang/<file>/), then `kindling run FILE --function NAME --input in.pt --output out.pt`
runs. Compared:
  - the return values, recursively: tensors by dtype, shape and values (floating/complex: allclose with
    rtol=atol=1e-5 and NaN equal; integer and bool: exact); float exactly (repr-equal, NaN equal);
    int/bool/str/None exactly and by type (True is not 1); list vs tuple kind (a NamedTuple counts as a
    tuple: torch.load cannot rebuild a TorchScript NamedTuple class); dicts by keys in order and values;
    torch.dtype / torch.device by equality;
  - what the program print()s: PyTorch's stdout (captured at the sys.stdout and the file-descriptor level)
    against Kindling's stdout (with --output, Kindling prints only the program's output).
Programs that fail for a known reason are listed in XFAIL below (strict: they must flip when fixed).
"""
import ast
import concurrent.futures
import contextlib
import ctypes
import importlib.util
import io
import json
import math
import os
import pathlib
import select
import signal
import sys
import tempfile
import time
import typing

import pytest

from conftest import REPO, assert_no_crash

LANG_DIR = pathlib.Path(__file__).resolve().parent / "lang"

# "file.py::function[i]" (one case) or "file.py::function" (all its cases) -> reason. Strict xfails:
# a listed program that starts passing fails the run until it is removed from here.
XFAIL = {
}


def _fixtures_root():
    env = os.environ.get("KINDLING_FIXTURES_DIR")
    return pathlib.Path(env) / "lang" if env else REPO / "build" / "lang-fixtures"


# ----------------------------------------------------------------------------------------------- discovery

class Case:
    def __init__(self, path, func, index, expr, raises, line):
        self.path = path      # pathlib.Path of the corpus file
        self.func = func      # entry function name
        self.index = index    # case number within the function
        self.expr = expr      # args tuple expression (source text)
        self.raises = raises  # case-raises
        self.line = line      # line of the case comment (1-based)

    @property
    def id(self):
        return f"{self.path.name}::{self.func}[{self.index}]"


def _parse_cases(path):
    """The cases of one corpus file, from the comment block right above each top-level def."""
    text = path.read_text()
    lines = text.splitlines()
    tree = ast.parse(text, filename=str(path))
    cases = []
    for node in tree.body:
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        decorator_lines = set()
        for d in node.decorator_list:
            decorator_lines.update(range(d.lineno, (d.end_lineno or d.lineno) + 1))
        found = []
        ln = node.lineno - 1  # 1-based line above the def
        while ln >= 1:
            s = lines[ln - 1].strip()
            if ln in decorator_lines or s.startswith("@"):
                ln -= 1
                continue
            if not s.startswith("#"):
                break
            body = s[1:].strip()
            for tag, raises in (("case-raises:", True), ("case:", False)):
                if body.startswith(tag):
                    found.append((ln, body[len(tag):].strip(), raises))
                    break
            ln -= 1
        found.reverse()
        for i, (line, expr, raises) in enumerate(found):
            cases.append(Case(path, node.name, i, expr, raises, line))
    return cases


def _collect():
    params = []
    for path in sorted(LANG_DIR.glob("*.py")):
        try:
            cases = _parse_cases(path)
        except SyntaxError as e:
            params.append(pytest.param(None, id=f"{path.name}::<syntax error>",
                                       marks=pytest.mark.skip(reason=f"{path.name} does not parse: {e}")))
            continue
        for c in cases:
            reason = XFAIL.get(c.id) or XFAIL.get(f"{c.path.name}::{c.func}")
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            params.append(pytest.param(c, id=c.id, marks=marks))
    return params


# ------------------------------------------------------------------------------------------- PyTorch side

_torch = None
_modules = {}   # path -> module (or the exception raised importing it)
_scripted = {}  # (path, func) -> scripted function (or the exception raised scripting it)


def _import_torch():
    global _torch
    if _torch is None:
        import torch
        # PyTorch runs the programs in forked children (_call_pytorch): keep the parent free of thread pools
        torch.set_num_threads(1)
        _torch = torch
        _start_zygote()
    return _torch


def _module(path):
    if path not in _modules:
        _import_torch()
        name = "kindling_lang_" + path.stem
        try:
            spec = importlib.util.spec_from_file_location(name, str(path))
            mod = importlib.util.module_from_spec(spec)
            sys.modules[name] = mod  # dataclass/NamedTuple/Enum machinery looks classes up by module
            spec.loader.exec_module(mod)
            _modules[path] = mod
        except Exception as e:  # noqa: BLE001 - reported per case
            _modules[path] = e
    m = _modules[path]
    if isinstance(m, Exception):
        raise AssertionError(f"importing {path.name} with PyTorch failed: {type(m).__name__}: {m}")
    return m


def _script(path, func):
    key = (path, func)
    if key not in _scripted:
        mod = _module(path)
        try:
            _scripted[key] = _torch.jit.script(getattr(mod, func))
        except Exception as e:  # noqa: BLE001
            _scripted[key] = e
    s = _scripted[key]
    if isinstance(s, Exception):
        raise AssertionError(f"PyTorch could not script {path.name}::{func} (corpus programs must compile):\n"
                             f"{type(s).__name__}: {s}")
    return s


def _eval_args(case):
    torch = _import_torch()
    ns = dict(vars(_module(case.path)))
    ns.update({"torch": torch, "math": math})
    ns.update({k: getattr(typing, k) for k in typing.__all__})
    torch.manual_seed(0)
    try:
        args = eval(case.expr, ns)  # noqa: S307 - corpus files are ours
    except Exception as e:  # noqa: BLE001
        raise AssertionError(f"{case.id}: case expression {case.expr!r} (line {case.line}) failed: {e!r}")
    if not isinstance(args, tuple):
        raise AssertionError(f"{case.id}: case expression {case.expr!r} must give a tuple of args, "
                             f"got {type(args).__name__}")
    return args


_libc = ctypes.CDLL(None)


@contextlib.contextmanager
def _capture_stdout(sink):
    """Collects what is written to sys.stdout and to file descriptor 1 (C/C++ stdout) into sink[0]."""
    sys.stdout.flush()
    _libc.fflush(None)
    saved_fd = os.dup(1)
    buf = io.StringIO()
    with tempfile.TemporaryFile(mode="w+b") as tmp:
        os.dup2(tmp.fileno(), 1)
        try:
            with contextlib.redirect_stdout(buf):
                yield
        finally:
            _libc.fflush(None)
            os.dup2(saved_fd, 1)
            os.close(saved_fd)
            tmp.seek(0)
            sink.append(buf.getvalue() + tmp.read().decode("utf-8", "replace"))


def _plain(v):
    if isinstance(v, tuple):
        return tuple(_plain(x) for x in v)
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    return v


def _call_in_process(fn, args):
    """Calls fn(*args) here. Returns (ok, value or exception text, stdout)."""
    sink = []
    with _capture_stdout(sink):
        try:
            value, ok = fn(*args), True
        except Exception as e:  # noqa: BLE001
            value, ok = f"{type(e).__name__}: {e}", False
    return ok, _plain(value) if ok else value, sink[0]


_zygote = None  # (pid, request pipe, response pipe) of the fork server


def _start_zygote():
    """Forks the fork server right after `import torch`, before any PyTorch code ran: its children start
    with no thread pools, so they may fork-join (torch.jit.fork) or crash freely. Each request runs in a
    new child of the server (import the file, script, load the args, call); the server reports how the
    child ended."""
    global _zygote
    req_r, req_w = os.pipe()
    resp_r, resp_w = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(req_w)
            os.close(resp_r)
            with os.fdopen(req_r, "r") as reqs, os.fdopen(resp_w, "w") as resps:
                for line in reqs:
                    path, func, inp, out = json.loads(line)
                    wpid = os.fork()
                    if wpid == 0:
                        _worker(pathlib.Path(path), func, inp, out)  # never returns
                    deadline = time.monotonic() + _CHILD_TIMEOUT
                    while True:
                        done, status = os.waitpid(wpid, os.WNOHANG)
                        if done:
                            break
                        if time.monotonic() > deadline:
                            os.kill(wpid, signal.SIGKILL)
                            os.waitpid(wpid, 0)
                            status = None
                            break
                        time.sleep(0.002)
                    if status is None:
                        resps.write("timeout\n")
                    elif os.WIFSIGNALED(status):
                        resps.write(f"signal {os.WTERMSIG(status)}\n")
                    else:
                        resps.write(f"exit {os.WEXITSTATUS(status)}\n")
                    resps.flush()
        finally:
            os._exit(0)
    os.close(req_r)
    os.close(resp_w)
    _zygote = (pid, os.fdopen(req_w, "w"), os.fdopen(resp_r, "r"))


_CHILD_TIMEOUT = 60


def _worker(path, func, inp, out):
    code = 0
    try:
        torch = _torch
        payload = {}
        try:
            fn = _script(path, func)
            args = torch.load(inp)
            ok, value, stdout = _call_in_process(fn, args)
            payload = {"ok": ok, "value": value, "exc": value, "stdout": stdout}
        except Exception as e:  # noqa: BLE001
            payload = {"ok": False, "exc": f"(harness) {type(e).__name__}: {e}", "stdout": ""}
        try:
            torch.save(payload, out)
        except Exception as e:  # noqa: BLE001
            payload = {"ok": False, "stdout": payload["stdout"],
                       "exc": f"(harness) PyTorch's result cannot be pickled: {type(e).__name__}: {e}"}
            torch.save(payload, out)
    except BaseException:  # noqa: BLE001
        code = 3
    finally:
        os._exit(code)


def _call_pytorch(case, inp, timeout=_CHILD_TIMEOUT + 30):
    """Runs the case in a child of the fork server: a program that kills PyTorch (1.13's `int % 0` raises
    SIGFPE) fails its case, not the test run. Returns (ok, value or exception text, stdout). Used for
    `case-raises` programs (and for all with KINDLING_LANG_FORK=1): it costs a fork and a re-script."""
    _import_torch()
    out = pathlib.Path(str(inp).replace("_in.pt", "_pytorch.pt"))
    if out.exists():
        out.unlink()
    _, req, resp = _zygote
    req.write(json.dumps([str(case.path), case.func, str(inp), str(out)]) + "\n")
    req.flush()
    if not select.select([resp], [], [], timeout)[0]:
        raise AssertionError(f"the PyTorch fork server did not answer within {timeout}s")
    status = resp.readline().strip()
    if status == "timeout":
        raise AssertionError(f"PyTorch did not finish within {_CHILD_TIMEOUT}s")
    if status.startswith("signal"):
        raise AssertionError(f"PyTorch itself crashed ({status}) running this program: it cannot be its oracle")
    if status != "exit 0" or not out.is_file():
        raise AssertionError(f"the PyTorch child failed ({status or 'fork server gone'})")
    payload = _torch.load(str(out))
    return payload["ok"], payload["value"] if payload["ok"] else payload["exc"], payload["stdout"]


# --------------------------------------------------------------------------------------------- comparison

def _kind(v):
    torch = _torch
    if isinstance(v, torch.Tensor):
        return "Tensor"
    if isinstance(v, tuple):
        return "tuple"  # NamedTuples included
    return type(v).__name__


def _diff(a, b, where="result"):
    """None when the PyTorch value `a` and the Kindling value `b` agree, else a description of the first
    difference."""
    torch = _torch
    ka, kb = _kind(a), _kind(b)
    if ka != kb:
        return f"{where}: PyTorch gives {ka}, Kindling gives {kb}"
    if isinstance(a, torch.Tensor):
        if a.dtype != b.dtype:
            return f"{where}: dtype {a.dtype} vs {b.dtype}"
        if a.shape != b.shape:
            return f"{where}: shape {tuple(a.shape)} vs {tuple(b.shape)}"
        if a.is_floating_point() or a.is_complex():
            ok = torch.allclose(a, b, rtol=1e-5, atol=1e-5, equal_nan=True)
        else:
            ok = torch.equal(a, b)
        if not ok:
            return f"{where}: values differ"
        return None
    if isinstance(a, float):
        if math.isnan(a) and math.isnan(b):
            return None
        if repr(a) != repr(b):
            return f"{where}: {a!r} vs {b!r}"
        return None
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            return f"{where}: length {len(a)} vs {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = _diff(x, y, f"{where}[{i}]")
            if d:
                return d
        return None
    if isinstance(a, dict):
        if list(a.keys()) != list(b.keys()):
            d = None
            for x, y in zip(a.keys(), b.keys()):
                d = d or _diff(x, y, f"{where} key")
            return f"{where}: keys {list(a.keys())!r} vs {list(b.keys())!r}" + (f" ({d})" if d else "")
        for k in a:
            d = _diff(a[k], b[k], f"{where}[{k!r}]")
            if d:
                return d
        return None
    if isinstance(a, (int, bool, str, type(None), torch.dtype, torch.device)):
        return None if a == b else f"{where}: {a!r} vs {b!r}"
    return f"{where}: cannot compare values of type {ka}"


def _show(v, limit=1500):
    s = repr(v)
    return s if len(s) <= limit else s[:limit] + "..."


# ------------------------------------------------------------------------------------------------- the test

# Kindling runs of a file are started together when its first case runs, on a small thread pool
# (KINDLING_LANG_JOBS, default 3): the suite then waits on PyTorch or on Kindling, not on both in turn.
_prepared = {}  # path -> {case id: (args or AssertionError, inp, out, future of the kindling Result)}
_pool = None


def _prepare_file(path, run_kindling):
    global _pool
    if path in _prepared:
        return _prepared[path]
    torch = _import_torch()
    if _pool is None:
        _pool = concurrent.futures.ThreadPoolExecutor(max_workers=int(os.environ.get("KINDLING_LANG_JOBS", "3")))
    fixtures = _fixtures_root() / path.stem
    fixtures.mkdir(parents=True, exist_ok=True)
    entries = {}
    for case in _parse_cases(path):
        stem = f"{case.func}_{case.index}"
        inp, out = fixtures / f"{stem}_in.pt", fixtures / f"{stem}_out.pt"
        if out.exists():
            out.unlink()
        try:
            args = _eval_args(case)
        except AssertionError as e:
            entries[case.id] = (e, inp, out, None)
            continue
        torch.save(args, str(inp))  # before the PyTorch call: it may mutate its arguments
        fut = _pool.submit(run_kindling, "run", case.path, "--function", case.func, "--input", inp,
                           "--output", out, timeout=120)
        entries[case.id] = (args, inp, out, fut)
    _prepared[path] = entries
    return entries


@pytest.mark.parametrize("case", _collect())
def test_language(case, run_kindling):
    torch = _import_torch()
    fn = _script(case.path, case.func)
    args, inp, out, fut = _prepare_file(case.path, run_kindling)[case.id]
    if isinstance(args, AssertionError):
        raise args

    if case.raises or os.environ.get("KINDLING_LANG_FORK") == "1":
        ok, got_py, py_stdout = _call_pytorch(case, inp)
    else:
        ok, got_py, py_stdout = _call_in_process(fn, args)
    expected, py_exc = (got_py, None) if ok else (None, got_py)

    res = fut.result()
    assert_no_crash(res)
    both = (f"\n=== {case.id}  args: {case.expr}\n--- PyTorch ---\n"
            + (f"raised {py_exc}" if py_exc else f"returned {_show(expected)}")
            + f"\nstdout: {py_stdout!r}\n--- Kindling ---\n{res.describe()}")

    if case.raises:
        assert py_exc is not None, f"case-raises, but PyTorch did not raise{both}"
        assert res.returncode == 2, f"case-raises: Kindling must exit 2 (runtime error){both}"
        assert res.stderr.strip(), f"case-raises: Kindling gave no error message{both}"
        return

    assert py_exc is None, f"PyTorch raised on a `# case:` program (use `# case-raises:`){both}"
    assert res.returncode == 0, f"Kindling failed where PyTorch returned a value{both}"
    assert out.is_file(), f"Kindling exited 0 without writing {out}{both}"
    got = torch.load(str(out))
    d = _diff(expected, got)
    assert d is None, f"values differ: {d}\nKindling returned {_show(got)}{both}"
    assert res.stdout == py_stdout, f"printed output differs{both}"
