#!/usr/bin/python3
"""How PyTorch 1.13 does on the corpus of Python that TorchScript rejects or gets wrong
(tests/oracle/lang_python/*.py): each program with `# case:` comments is torch.jit.script'ed and run on its
cases in a forked process (30 s each), and counted as rejected (scripting fails), wrong (a case returns
another value than eager Python, or raises where Python does not, or the reverse), crashed or hung, or
same. Prints the counts per file and in total. Run with Debian's PyTorch: /usr/bin/python3 scripts/measure-lang-python.py
"""
import collections
import importlib.util
import os
import pathlib
import sys
import warnings

import torch

warnings.filterwarnings("ignore")
ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "oracle"))
import test_language as tl  # noqa: E402  (the corpus's case parser)

DIR = ROOT / "tests" / "oracle" / "lang_python"


def judge(mod, f, cs):
    try:
        s = torch.jit.script(f)
    except Exception:
        return "rejected"
    for c in cs:
        try:
            py, pyerr = f(*eval(c.expr, vars(mod))), False
        except Exception:
            py, pyerr = None, True
        try:
            ts, tserr = s(*eval(c.expr, vars(mod))), False
        except Exception:
            ts, tserr = None, True
        if pyerr != tserr:
            return "wrong"
        if not pyerr:
            try:
                same = repr(py) == repr(ts) or (isinstance(py, torch.Tensor) and torch.equal(py, ts))
            except Exception:
                same = False
            if not same:
                return "wrong"
    return "same"


res = collections.defaultdict(collections.Counter)
for path in sorted(DIR.glob("*.py")):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(spec); sys.modules[path.stem] = mod; spec.loader.exec_module(mod)
    byfn = collections.defaultdict(list)
    for c in tl._parse_cases(path):
        byfn[c.func].append(c)
    for fn, cs in byfn.items():
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            import signal
            signal.alarm(30)
            os.write(w, judge(mod, getattr(mod, fn), cs).encode())
            os._exit(0)
        os.close(w)
        data = os.read(r, 100).decode()
        os.close(r)
        os.waitpid(pid, 0)
        res[path.name][data or "crashed or hung"] += 1
tot = collections.Counter()
for k, v in res.items():
    print(k, dict(v)); tot.update(v)
print("total", dict(tot))
