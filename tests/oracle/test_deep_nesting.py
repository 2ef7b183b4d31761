"""Deeply nested input, through the CLI: source programs, IR text, pickles and values built at run time.

Every recursive walk over something a user controls is either bounded (a clear error: exit 1 for what is
loaded or compiled, 2 for what the program raises) or iterative. Each case here nests far past what a
recursive walk survives on an 8 MB stack, so without its bound or loop the process dies from SIGSEGV.
"""
import re
import zipfile

import pytest
import torch

from conftest import assert_no_crash


def check(res, code, *patterns):
    assert_no_crash(res)
    assert res.returncode == code, res.describe()
    for pat in patterns:
        assert re.search(pat, res.stderr), f"stderr lacks /{pat}/\n{res.describe()}"
    assert "internal error" not in res.stderr, res.describe()


def save_args(tmp_path, args):
    p = tmp_path / "args.pt"
    torch.save(args, str(p))
    return p


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


# ---------------------------------------------------------------- source programs (exit 1)

def test_long_chain_of_not(run_kindling, tmp_path):
    src = write(tmp_path, "nots.py", "def f(x: bool) -> bool:\n    return " + "not " * 100000 + "x\n")
    check(run_kindling("run", src, "--function", "f"), 1, "nesting is too deep")


def test_chains_inside_parentheses(run_kindling, tmp_path):
    # Each level of parentheses holds a chain of 4000 additions: 90 levels give a tree 360,000 deep
    # while the parser itself recurses only 90 levels of parentheses.
    e = "x"
    for _ in range(90):
        e = "(" + e + "+x" * 4000 + ")"
    src = write(tmp_path, "chains.py", "def f(x: int) -> int:\n    return " + e + "\n")
    check(run_kindling("run", src, "--function", "f"), 1, "too deeply nested")


def test_attribute_chains_inside_parentheses(run_kindling, tmp_path):
    e = "x"
    for _ in range(90):
        e = "(" + e + ")" + ".real" * 4000
    src = write(tmp_path, "attrs.py", "def f(x: int) -> int:\n    return " + e + "\n")
    check(run_kindling("run", src, "--function", "f"), 1, "too deeply nested")


def test_long_chain_within_the_limit_runs(run_kindling, tmp_path):
    src = write(tmp_path, "sum.py", "def f(x: int) -> int:\n    return x" + " + x" * 400 + "\n")
    res = run_kindling("run", src, "--function", "f", "--input", save_args(tmp_path, (2,)))
    check(res, 0)
    assert res.stdout.strip() == str(2 * 401)


def test_deep_annotation(run_kindling, tmp_path):
    ann = "List[" * 100000 + "int" + "]" * 100000
    src = write(tmp_path, "ann.py", f"from typing import List\ndef f(x: {ann}) -> int:\n    return 1\n")
    check(run_kindling("run", src, "--function", "f"), 1, "too deep")


def test_deep_annotation_in_a_string(run_kindling, tmp_path):
    ann = "Optional[" * 100000 + "int" + "]" * 100000
    src = write(tmp_path, "ann.py", f"from typing import Optional\ndef f(x: '{ann}') -> int:\n    return 1\n")
    check(run_kindling("run", src, "--function", "f"), 1)


def test_long_chained_comparison_runs(run_kindling, tmp_path):
    # 40,000 operands: emitted as a flat sequence of ifs (as an `and` chain), not one nested in the other,
    # so no walk over the graph recurses 40,000 levels.
    chain = " < ".join(["x"] + [f"x + {i}" for i in range(1, 40000)])
    src = write(tmp_path, "cmp.py", f"def f(x: int) -> bool:\n    return {chain}\n")
    res = run_kindling("run", src, "--function", "f", "--input", save_args(tmp_path, (1,)))
    check(res, 0)
    assert res.stdout.strip() == "True"


def test_chained_comparison_evaluates_each_operand_once(run_kindling, tmp_path):
    # Python: each operand at most once, and none after the first false comparison.
    src = write(tmp_path, "cmp.py", """from typing import List
def g(log: List[int], v: int) -> int:
    log.append(v)
    return v
def f(x: int) -> List[int]:
    log: List[int] = []
    a = g(log, 1) < g(log, 2) < g(log, x) < g(log, 9) < g(log, 10)
    log.append(int(a))
    return log
""")
    for x, out in ((5, "[1, 2, 5, 9, 10, 1]"), (0, "[1, 2, 0, 0]")):
        res = run_kindling("run", src, "--function", "f", "--input", save_args(tmp_path, (x,)))
        check(res, 0)
        assert res.stdout.strip() == out


def call_chain_in_ifs(n):
    # g0 calls g1 ... inside an if each: inlining nests n blocks.
    parts = [f"def g{n}(x: int) -> int:\n    return x\n"]
    for i in range(n - 1, -1, -1):
        parts.append(f"def g{i}(x: int) -> int:\n    if x >= 0:\n        x = g{i + 1}(x) + 1\n    return x\n")
    return "\n".join(parts)


def test_calls_inlined_into_too_deep_blocks(run_kindling, tmp_path):
    src = write(tmp_path, "calls.py", call_chain_in_ifs(3000))
    res = run_kindling("run", src, "--function", "g0", "--input", save_args(tmp_path, (0,)))
    check(res, 1, "nesting too deep", r"calls\.py\", line \d+")


def test_calls_inlined_within_the_nesting_limit_run(run_kindling, tmp_path):
    src = write(tmp_path, "calls.py", call_chain_in_ifs(990))
    res = run_kindling("run", src, "--function", "g0", "--input", save_args(tmp_path, (0,)))
    check(res, 0)
    assert res.stdout.strip() == "990"


# ---------------------------------------------------------------- values built at run time

DEPTH = 300000
WRAP = {"list": "[x]", "tuple": "(x,)", "dict": "{'a': x}"}


def nest_program(tmp_path, kind, tail):
    src = (
        "from typing import Any\n"
        f"def f(n: int) -> {'Any' if tail == 'return' else 'int'}:\n"
        "    x: Any = 0\n"
        "    for i in range(n):\n"
        f"        x = {WRAP[kind]}\n"
        + {"none": "    return 1\n",
           "print": "    print(x)\n    return 1\n",
           "str": "    s = str(x)\n    return len(s)\n",
           "return": "    return x\n"}[tail]
    )
    return write(tmp_path, f"nest_{kind}_{tail}.py", src)




@pytest.mark.parametrize("kind", sorted(WRAP))
def test_deep_value_is_freed(run_kindling, tmp_path, kind):
    src = nest_program(tmp_path, kind, "none")
    res = run_kindling("run", src, "--function", "f", "--input", save_args(tmp_path, (DEPTH,)))
    check(res, 0)
    assert res.stdout.strip() == "1"


@pytest.mark.parametrize("kind", sorted(WRAP))
@pytest.mark.parametrize("tail", ["print", "str", "return"])
def test_deep_value_printed(run_kindling, tmp_path, kind, tail):
    src = nest_program(tmp_path, kind, tail)
    res = run_kindling("run", src, "--function", "f", "--input", save_args(tmp_path, (DEPTH,)))
    check(res, 2, "RecursionError", "nested more than 1000 levels")


@pytest.mark.parametrize("kind", sorted(WRAP))
def test_deep_value_written(run_kindling, tmp_path, kind):
    src = nest_program(tmp_path, kind, "return")
    out = tmp_path / "out.pt"
    res = run_kindling("run", src, "--function", "f", "--input", save_args(tmp_path, (DEPTH,)), "--output", out)
    check(res, 2, "RecursionError", "pickling")
    assert not out.exists()


@pytest.mark.parametrize("kind", sorted(WRAP))
def test_value_within_the_limit_prints_as_pytorch(run_kindling, tmp_path, kind):
    # 50 levels print as PyTorch prints them: Python's str, except that strings inside containers print
    # without quotes ({a: 0}), as TorchScript's str does. (torch.jit.script of the program itself fails
    # inside PyTorch 1.13: "bad optional access".)
    src = nest_program(tmp_path, kind, "str")
    res = run_kindling("run", src, "--function", "f", "--input", save_args(tmp_path, (50,)))
    check(res, 0)
    x = 0
    for _ in range(50):
        x = eval(WRAP[kind], {"x": x})
    assert int(res.stdout.strip()) == len(str(x).replace("'", ""))


# ---------------------------------------------------------------- IR text (kindling graph --parse-ir)

def parse_ir(run_kindling, tmp_path, text):
    return run_kindling("graph", write(tmp_path, "g.ir", text), "--parse-ir")


def test_ir_nested_list_type(run_kindling, tmp_path):
    res = parse_ir(run_kindling, tmp_path, "graph(%x : int" + "[]" * 100000 + "):\n  return (%x)\n")
    check(res, 1, "type nested too deeply")


def test_ir_nested_tuple_type(run_kindling, tmp_path):
    res = parse_ir(run_kindling, tmp_path, "graph(%x : " + "(" * 100000 + "int" + ")" * 100000 + "):\n  return (%x)\n")
    check(res, 1, "nested too deeply")


def test_ir_nested_generic_type(run_kindling, tmp_path):
    res = parse_ir(run_kindling, tmp_path, "graph(%x : " + "List[" * 100000 + "int" + "]" * 100000 + "):\n  return (%x)\n")
    check(res, 1, "nested too deeply")


def test_ir_nested_list_constant(run_kindling, tmp_path):
    text = ("graph():\n  %c : int[] = prim::Constant[value=" + "[" * 100000 + "1" + "]" * 100000 + "]()\n"
            "  return (%c)\n")
    check(parse_ir(run_kindling, tmp_path, text), 1, "constant nested too deeply")


def test_ir_nested_blocks(run_kindling, tmp_path):
    n = 50000
    lines = ["graph(%c : bool):"]
    for i in range(n):
        lines.append(f"  %r{i} : int = prim::If(%c)\n    block0():")
    lines.append("  %z : int = prim::Constant[value=0]()")
    for i in reversed(range(n)):
        lines.append(f"      -> (%z)\n    block1():\n      -> (%z)")
    lines.append("  return (%c)")
    check(parse_ir(run_kindling, tmp_path, "\n".join(lines) + "\n"), 1, "blocks nested too deeply")


def test_ir_within_the_limit_round_trips(run_kindling, tmp_path):
    text = "graph(%x : int[][][]?, %y : (int, (float, str[]))):\n  return (%x)\n"
    res = parse_ir(run_kindling, tmp_path, text)
    check(res, 0)
    assert "int[][][]?" in res.stdout and "(int, (float, str[]))" in res.stdout, res.describe()


# ---------------------------------------------------------------- pickles (--input)

def torch_save_with_pickle(tmp_path, name, pkl):
    base = tmp_path / "base.pt"
    torch.save((1,), str(base))
    out = tmp_path / name
    with zipfile.ZipFile(base) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as zout:
        for info in zin.infolist():
            data = pkl if info.filename.endswith("/data.pkl") else zin.read(info.filename)
            zout.writestr(info.filename, data)
    return out


N_PICKLE = 1000000
PICKLES = {
    "lists": b"\x80\x02" + b"]" * N_PICKLE + b"a" * (N_PICKLE - 1) + b".",
    "tuples": b"\x80\x02" + b")" + b"\x85" * N_PICKLE + b".",
    "dicts": b"\x80\x02" + b"}" + b"K\x00}" * N_PICKLE + b"s" * N_PICKLE + b".",
}


@pytest.mark.parametrize("kind", sorted(PICKLES))
def test_deep_pickle_input(run_kindling, tmp_path, kind):
    src = write(tmp_path, "id.py", "from typing import Any\ndef f(x: Any) -> int:\n    return 1\n")
    inp = torch_save_with_pickle(tmp_path, f"deep_{kind}.pt", PICKLES[kind])
    check(run_kindling("run", src, "--function", "f", "--input", inp), 1, "nested deeper than 1000")
