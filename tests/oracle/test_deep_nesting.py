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


def deep_blocks(kw, n):
    head = {"if": "if x > 0:", "while": "while x > 100:", "for": "for i in range(1):",
            "with": "with torch.no_grad():", "try": "try:"}[kw]
    lines = ["import torch", "def f(x: int) -> int:"]
    lines += ["    " * (i + 1) + head for i in range(n)]
    lines.append("    " * (n + 1) + "x = x + 1")
    if kw == "try":
        for i in reversed(range(n)):
            lines += ["    " * (i + 1) + "except Exception:", "    " * (i + 2) + "pass"]
    lines.append("    return x")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("kw", ["if", "while", "for", "with", "try"])
def test_deep_statement_blocks(run_kindling, tmp_path, kw):
    # 10,000 nested blocks: the parser and the emitter each recurse once per block.
    src = write(tmp_path, f"blocks_{kw}.py", deep_blocks(kw, 10000))
    check(run_kindling("run", src, "--function", "f", "--input", save_args(tmp_path, (1,))), 1, "nesting is too deep")


def test_deep_annotation_in_a_type_comment(run_kindling, tmp_path):
    ann = "List[" * 100000 + "int" + "]" * 100000
    src = write(tmp_path, "ann.py", f"from typing import List\ndef f(x):\n    # type: ({ann}) -> int\n    return 1\n")
    check(run_kindling("run", src, "--function", "f"), 1, "too deep")


def test_deep_annotation_in_archive_code(run_kindling, tmp_path):
    # The type parser as torch.jit.load reaches it: a parameter annotation of an archive's code/.
    class Id(torch.nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return x

    base = tmp_path / "id.pt"
    torch.jit.save(torch.jit.script(Id()), str(base))
    bad = tmp_path / "deep_ann.pt"
    with zipfile.ZipFile(base) as zin, zipfile.ZipFile(bad, "w", zipfile.ZIP_STORED) as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename.endswith(".py") and b"def forward" in data:
                new = data.replace(b"x: Tensor)", b"x: " + b"List[" * 100000 + b"Tensor" + b"]" * 100000 + b")", 1)
                assert new != data
                data = new
            zout.writestr(info.filename, data)
    check(run_kindling("run", bad, "--input", save_args(tmp_path, (torch.zeros(1),))), 1, "too deep")


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


def test_deep_tuple_hashed(run_kindling, tmp_path):
    # hash() of a tuple nested 300,000 levels through an Any variable (aten::hash recursed without a bound).
    src = write(tmp_path, "hash.py", "from typing import Any\ndef f(n: int) -> int:\n    t: Any = (1,)\n"
                "    for i in range(n):\n        t = (t,)\n    return hash(t)\n")
    res = run_kindling("run", src, "--function", "f", "--input", save_args(tmp_path, (DEPTH,)))
    check(res, 2, "RecursionError", "hashing")


SORT_PROGRAM = """from typing import Any, List
def f(n: int) -> List[Any]:
    t: Any = (2,)
    u: Any = (1,)
    for i in range(n):
        t = (t, 0)
        u = (u, 0)
    l: List[Any] = [t, u, t]
    l.sort()
    return l
"""


def test_deep_tuples_sorted(run_kindling, tmp_path):
    # Ordering compares tuples level by level: 300,000 levels raise RecursionError (it overflowed the stack).
    src = write(tmp_path, "sort.py", SORT_PROGRAM)
    res = run_kindling("run", src, "--function", "f", "--input", save_args(tmp_path, (DEPTH,)))
    check(res, 2, "RecursionError", "comparing")


def test_nested_tuples_sorted_in_linear_time(run_kindling, tmp_path):
    # 500 levels that tie down to the innermost element: each comparison is one walk (it compared both ways
    # at every level, 2^500 steps); the order is Python's.
    src = write(tmp_path, "sort.py", SORT_PROGRAM)
    out = tmp_path / "out.pt"
    res = run_kindling("run", src, "--function", "f", "--input", save_args(tmp_path, (500,)), "--output", out,
                       timeout=60)
    check(res, 0)
    t, u = (2,), (1,)
    for _ in range(500):
        t, u = (t, 0), (u, 0)
    assert torch.load(str(out)) == sorted([t, u, t])


# ---------------------------------------------------------------- values sharing containers (a DAG)
# A value can hold one container many times: [x, x], or a pickle's memo (BINGET). Thirty levels that each
# hold the level below twice are 31 containers, but 2^30 paths: a walk that follows every reference (Python's
# repr, str, ==) never ends. Kindling's walks either visit each container once (pickling, hashing, == of a
# value with itself) or stop after kMaxValueWalkSteps containers with a RuntimeError (printing, str).

def dag_pickle(levels):
    """torch.save's pickle of a 1-tuple holding `levels` lists, each holding the one below twice (DUP by
    BINGET), around an empty list."""
    p = b"\x80\x02]q\x000"
    for i in range(levels):
        p += b"](h" + bytes([i]) + b"h" + bytes([i]) + b"eq" + bytes([i + 1]) + b"0"
    return p + b"h" + bytes([levels]) + b"\x85."


IDENTITY = "from typing import Any\ndef f(x: Any) -> Any:\n    return x\n"


def test_shared_containers_printed_within_a_budget(run_kindling, tmp_path):
    inp = torch_save_with_pickle(tmp_path, "dag.pt", dag_pickle(30))
    src = write(tmp_path, "id.py", IDENTITY)
    res = run_kindling("run", src, "--function", "f", "--input", inp, timeout=60)
    check(res, 2, "value too large: printing it visits more than 16777216 containers")


def test_shared_containers_print_as_python_below_the_budget(run_kindling, tmp_path):
    inp = torch_save_with_pickle(tmp_path, "dag.pt", dag_pickle(10))
    src = write(tmp_path, "id.py", IDENTITY)
    res = run_kindling("run", src, "--function", "f", "--input", inp)
    check(res, 0)
    assert res.stdout.strip() == str(torch.load(str(inp))[0])


def test_shared_containers_written_once_each(run_kindling, tmp_path):
    # torch.save (Python's pickle) writes a container met again as a memo reference; so does Kindling, and
    # torch.load reads back the same sharing.
    inp = torch_save_with_pickle(tmp_path, "dag.pt", dag_pickle(30))
    src = write(tmp_path, "id.py", IDENTITY)
    out = tmp_path / "out.pt"
    res = run_kindling("run", src, "--function", "f", "--input", inp, "--output", out, timeout=60)
    check(res, 0)
    assert out.stat().st_size < 4096
    got = torch.load(str(out))
    ref = torch.load(str(inp))[0]
    for _ in range(30):
        assert len(got) == len(ref) == 2 and got[0] is got[1] and ref[0] is ref[1]
        got, ref = got[0], ref[0]
    assert got == ref == []


def dag_program(body):
    return ("from typing import Any\n"
            "def f(n: int) -> Any:\n"
            "    x: Any = 0\n"
            "    t: Any = (1,)\n"
            "    u: Any = (1,)\n"
            "    for i in range(n):\n"
            "        x = [x, x]\n"
            "        t = (t, t)\n"
            "        u = ((u, u)[0], (u, u)[1])\n"
            f"    {body}\n")


def test_shared_containers_str_in_a_program(run_kindling, tmp_path):
    src = write(tmp_path, "dag.py", dag_program("return len(str(x))"))
    res = run_kindling("run", src, "--function", "f", "--input", save_args(tmp_path, (30,)), timeout=60)
    check(res, 2, "RuntimeError", "value too large: printing")


def test_shared_containers_str_below_the_budget(run_kindling, tmp_path):
    src = write(tmp_path, "dag.py", dag_program("return len(str(x))"))
    res = run_kindling("run", src, "--function", "f", "--input", save_args(tmp_path, (10,)))
    check(res, 0)
    x = 0
    for _ in range(10):
        x = [x, x]
    assert int(res.stdout.strip()) == len(str(x))


def test_shared_tuples_hashed_once_each(run_kindling, tmp_path):
    # hash() of 30 levels of (t, t) visits each tuple once, and gives what hashing every reference gives:
    # c10's hash of a tuple (torch/csrc: c10::hash of its elements, combined as hash_combine), level by level.
    src = write(tmp_path, "dag.py", dag_program("return hash(t)"))
    res = run_kindling("run", src, "--function", "f", "--input", save_args(tmp_path, (30,)), timeout=60)
    check(res, 0)
    mask = (1 << 64) - 1

    def combine(seed, v):
        return (seed ^ ((v + 0x9E3779B9 + (seed << 6) + (seed >> 2)) & mask)) & mask

    h = combine(0, 1)
    for _ in range(30):
        h = combine(combine(0, h), h)
    assert int(res.stdout.strip()) == (h - (1 << 64) if h >= 1 << 63 else h)
