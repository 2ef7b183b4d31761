"""Compile cost grows with the size of a program, not faster: generated programs (tests/growth/
growth_programs.py) at two sizes N and 4N, each run through `kindling run`, with the process's CPU time
(user + system) and peak RSS taken from wait4. The start-up cost of the binary (a one-line program) is
subtracted from both, and the ratio of the two sizes' figures must stay below RATIO_LIMIT: a linear cost
gives 4, a log factor and the noise of a loaded machine a little more, a quadratic one 16.

CPU time rather than wall time, the lower of two runs, and sizes whose smaller run costs well above the
start-up noise keep the test stable on a busy 2-core machine; the limit is a ratio, never an absolute time.
"""
import pathlib
import subprocess
import sys

import pytest
import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "growth"))
import growth_programs  # noqa: E402

from conftest import kindling_bin_path

GROWTH = 4          # the larger program is GROWTH times the smaller
RATIO_LIMIT = 10.0  # linear: 4; n log n at these sizes: under 5; quadratic: 16
RUNS = 2            # the lower figure of this many runs

# family -> N for the smaller program: large enough that its compile costs well over the start-up
# (~0.1 s CPU, ~10 MB) on this machine, small enough that 4N finishes in a few seconds.
SIZES = {
    "long_function": 20000,
    "many_variables": 20000,
    "long_expression": 20000,  # 4N = 80,000 list elements: past the 16-bit operand counts the interpreter once had
    "call_chain": 1000,
    "chained_compare": 10000,
    "dict_literal": 10000,
    "nested_literal": 10000,
    "many_calls": 3000,
}


def run_measured(args, cwd):
    """(cpu seconds, peak RSS in MB, exit code, stdout, stderr) of one `kindling` process, as /usr/bin/time
    reports them (the rusage of a child forked from this Python would count Python's own pages)."""
    out, err, tm = (pathlib.Path(cwd) / n for n in ("stdout.txt", "stderr.txt", "time.txt"))
    with open(out, "w") as o, open(err, "w") as e:
        code = subprocess.run(["/usr/bin/time", "-o", str(tm), "-f", "%U %S %M", str(kindling_bin_path())] +
                              [str(a) for a in args], stdout=o, stderr=e).returncode
    user, sys_, rss_kb = tm.read_text().split()[-3:]
    return float(user) + float(sys_), int(rss_kb) / 1024.0, code, out.read_text(), err.read_text()


def measure(tmp_path, family, n):
    src, fn, args, expected = growth_programs.FAMILIES[family](n)
    prog = tmp_path / f"{family}_{n}.py"
    prog.write_text(src)
    argf = tmp_path / f"{family}_{n}.pt"
    torch.save(args, str(argf))
    best_cpu = best_rss = None
    for _ in range(RUNS):
        cpu, rss, code, stdout, stderr = run_measured(["run", prog, "--function", fn, "--input", argf], tmp_path)
        assert code == 0, f"{family} N={n}: exit {code}\n{stderr[-2000:]}"
        assert stdout.strip() == str(expected), f"{family} N={n}: printed {stdout[:200]!r}, expected {expected}"
        best_cpu = cpu if best_cpu is None else min(best_cpu, cpu)
        best_rss = rss if best_rss is None else min(best_rss, rss)
    return best_cpu, best_rss


@pytest.fixture(scope="module")
def startup(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("startup")
    prog = tmp / "one.py"
    prog.write_text("def f(x: int) -> int:\n    return x\n")
    argf = tmp / "one.pt"
    torch.save((0,), str(argf))
    runs = [run_measured(["run", prog, "--function", "f", "--input", argf], tmp) for _ in range(RUNS)]
    return min(r[0] for r in runs), min(r[1] for r in runs)


@pytest.mark.parametrize("family", sorted(SIZES))
def test_compile_cost_grows_linearly(family, tmp_path, startup):
    base_cpu, base_rss = startup
    n = SIZES[family]
    cpu1, rss1 = measure(tmp_path, family, n)
    cpu4, rss4 = measure(tmp_path, family, GROWTH * n)
    # Floors keep a cheap small run from turning noise into a large ratio.
    d_cpu1, d_cpu4 = max(cpu1 - base_cpu, 0.05), max(cpu4 - base_cpu, 0.0)
    d_rss1, d_rss4 = max(rss1 - base_rss, 4.0), max(rss4 - base_rss, 0.0)
    report = (f"{family}: N={n}: cpu {cpu1:.2f}s rss {rss1:.0f}MB; {GROWTH}N: cpu {cpu4:.2f}s rss {rss4:.0f}MB; "
              f"start-up cpu {base_cpu:.2f}s rss {base_rss:.0f}MB")
    print(report)
    assert d_cpu4 / d_cpu1 < RATIO_LIMIT, f"CPU time grows {d_cpu4 / d_cpu1:.1f}x for {GROWTH}x the size: {report}"
    assert d_rss4 / d_rss1 < RATIO_LIMIT, f"peak RSS grows {d_rss4 / d_rss1:.1f}x for {GROWTH}x the size: {report}"
