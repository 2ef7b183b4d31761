"""OpInfo conformance: PyTorch 1.13's own sample inputs for every operator Kindling registers.

opinfo_cases.py turns each sample of each covered OpInfo (float32, float64, int64, bool where allowed) into a
TorchScript program; PyTorch scripts and runs it, `kindling run` runs the same source, and the results are
compared: dtype, shape and values (float32 rtol=atol=1e-5, float64 rtol=atol=1e-7, NaN equal; integers and
bools exactly), containers recursively (tuple vs list kind included). Sums of products (convolutions, matrix
products, sums: opinfo_cases.SUM_OF_PRODUCTS), whose rounding depends on the summation order each CPU's
kernels pick, may differ by their rounding bound on top (rounding_bounds.py). Error inputs (and samples
PyTorch's scripted call rejects) must raise in both: Kindling exits 2 (a runtime error), never crashes.

One test per covered OpInfo; test_coverage prints and writes the summary (covered / total, samples passed /
run, every skip with its reason) to build/opinfo/SUMMARY.txt (or $KINDLING_OPINFO_DIR).
Environment: KINDLING_OPINFO_ONLY=name1,name2 restricts the run to OpInfos whose name contains one of them.
"""
import collections
import concurrent.futures
import math
import os
import pathlib
import shutil
import subprocess

import pytest
import torch

import opinfo_cases
import rounding_bounds
from conftest import REPO, kindling_bin_path

OUT_DIR = pathlib.Path(os.environ.get("KINDLING_OPINFO_DIR", REPO / "build" / "opinfo"))
ONLY = [s for s in os.environ.get("KINDLING_OPINFO_ONLY", "").split(",") if s]
# OpInfos with samples Kindling is known to get wrong (the bugs and gaps they show, one line each).
# Strict: a listed OpInfo whose run has no failing sample fails the test until it is removed from here.
KNOWN_FAILURES = {
}
TOL = {torch.float32: (1e-5, 1e-5), torch.float64: (1e-7, 1e-7)}
WORKERS = int(os.environ.get("KINDLING_OPINFO_WORKERS", "3"))


def _kindling_names():
    exe = kindling_bin_path()
    if not exe.is_file():
        return None
    out = subprocess.run([str(exe), "ops"], capture_output=True, text=True, check=True).stdout
    return {line.split("(")[0].split(".")[0] for line in out.splitlines() if line.strip()}


_NAMES = _kindling_names()
if _NAMES is not None:
    _COVERAGE = []
    _OP_DB = opinfo_cases._import_op_db()
    for _op in _OP_DB:
        _fn = opinfo_cases.full_name(_op)
        if ONLY and not any(o in _fn for o in ONLY):
            continue
        _COVERAGE.append((_fn, *opinfo_cases.covered_reason(_op, _NAMES)))
    COVERED = [n for n, c, _ in _COVERAGE if c]
else:
    _COVERAGE, COVERED = [], []


def compare(exp, got, path="result", bound=None):
    """None when equal, else a one-line difference. bound: for a tensor result, the rounding bound
    (float64, per element) allowed on top of the dtype's tolerance."""
    if isinstance(exp, torch.Tensor):
        if not isinstance(got, torch.Tensor):
            return f"{path}: expected a Tensor, got {type(got).__name__}"
        if got.dtype != exp.dtype:
            return f"{path}: dtype {got.dtype}, expected {exp.dtype}"
        if tuple(got.shape) != tuple(exp.shape):
            return f"{path}: shape {tuple(got.shape)}, expected {tuple(exp.shape)}"
        if COMPARE_VALUES[0]:
            if exp.dtype in TOL:
                rtol, atol = TOL[exp.dtype]
                if bound is not None:
                    allowed = atol + rtol * exp.double().abs() + bound
                    close = rounding_bounds.within_bound(got, exp, allowed)
                else:
                    close = torch.allclose(got, exp, rtol=rtol, atol=atol, equal_nan=True)
                if not close:
                    diff = (got.double() - exp.double()).abs()
                    diff[torch.isnan(diff)] = float("inf")
                    mask = ~((got.isnan() & exp.isnan()) | (got == exp))
                    worst = diff[mask].max().item() if mask.any() else 0.0
                    extra = ""
                    if bound is not None and bound.numel():
                        extra = f", rounding bound up to {bound.max().item():.3g}"
                    return f"{path}: values differ (max abs diff {worst:.3g}{extra})"
            elif not torch.equal(got, exp):
                return f"{path}: values differ"
        return None
    if isinstance(exp, (tuple, list)):
        if type(got) is not type(exp):
            return f"{path}: {type(got).__name__}, expected {type(exp).__name__}"
        if len(got) != len(exp):
            return f"{path}: length {len(got)}, expected {len(exp)}"
        for i, (e, g) in enumerate(zip(exp, got)):
            d = compare(e, g, f"{path}[{i}]")
            if d:
                return d
        return None
    if type(got) is not type(exp):
        return f"{path}: {type(got).__name__} {got!r}, expected {type(exp).__name__} {exp!r}"
    if isinstance(exp, float):
        if math.isnan(exp) and math.isnan(got):
            return None
        if not math.isclose(got, exp, rel_tol=1e-7, abs_tol=1e-7):
            return f"{path}: {got!r}, expected {exp!r}"
        return None
    if got != exp:
        return f"{path}: {got!r}, expected {exp!r}"
    return None


COMPARE_VALUES = [True]


def _first_error_line(stderr):
    for line in stderr.splitlines():
        if line.startswith("error:"):
            return line[:200]
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    return lines[0][:200] if lines else ""


def _run_case(exe, case, d):
    """(status, detail): status in pass | fail."""
    d.mkdir(parents=True, exist_ok=True)
    case.dir = d
    (d / "prog.py").write_text(case.source)
    torch.save(tuple(case.inputs), d / "in.pt")
    out = d / "out.pt"
    try:
        cp = subprocess.run([exe, "run", "prog.py", "--function", "fn", "--input", "in.pt", "--output", "out.pt",
                             "--threads", "1"], cwd=d, capture_output=True, text=True, errors="replace",
                            timeout=60, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return "fail", "kindling timed out (60 s)"
    if cp.returncode < 0 or cp.returncode in (134, 136, 139):
        return "fail", f"kindling crashed (exit {cp.returncode})"
    if case.expect_raise:
        if cp.returncode == 2:
            return "pass", ""
        if cp.returncode == 0:
            return "fail", "PyTorch raises, Kindling returned a value"
        return "fail", f"PyTorch raises at run time, Kindling exit {cp.returncode}: {_first_error_line(cp.stderr)}"
    if cp.returncode != 0:
        return "fail", f"exit {cp.returncode}: {_first_error_line(cp.stderr)}"
    got = torch.load(out)
    COMPARE_VALUES[0] = case.values_compared
    diff = compare(case.expected, got, bound=case.bound)
    COMPARE_VALUES[0] = True
    return ("fail", diff) if diff else ("pass", "")


@pytest.fixture(scope="module")
def results(kindling_bin):
    cases, _ = opinfo_cases.build_cases(_NAMES, only=ONLY or None)
    if OUT_DIR.exists():
        shutil.rmtree(OUT_DIR / "cases", ignore_errors=True)
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    runnable = [c for c in cases if c.skip is None]
    outcomes = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=WORKERS) as pool:
        futs = {pool.submit(_run_case, kindling_bin, c, OUT_DIR / "cases" / f"{i:05d}"): c
                for i, c in enumerate(runnable)}
        for f in concurrent.futures.as_completed(futs):
            outcomes[id(futs[f])] = f.result()
    by_op = collections.defaultdict(list)
    for c in cases:
        st = ("skip", c.skip) if c.skip is not None else outcomes[id(c)]
        by_op[c.opname].append((c, *st))
    summary = _summary(by_op)
    (OUT_DIR / "SUMMARY.txt").write_text(summary)
    return by_op, summary


def _summary(by_op):
    total = len(_OP_DB) if _NAMES is not None and not ONLY else len(_COVERAGE)
    covered = [n for n, c, _ in _COVERAGE if c]
    lines = [f"OpInfos covered: {len(covered)} / {total}"]
    run = passed = 0
    kinds = collections.Counter()
    skips = collections.Counter()
    fails = []
    value_free = 0
    for op, rows in sorted(by_op.items()):
        for c, st, detail in rows:
            if st == "skip":
                skips[detail] += 1
                continue
            run += 1
            kinds[c.kind] += 1
            if st == "pass":
                passed += 1
                value_free += (not c.values_compared) and c.kind == "sample"
            else:
                fails.append(f"  {c.id}: {detail}  [{c.dir.name}]")
    lines.append(f"samples passed: {passed} / {run} (sample programs {kinds['sample']}, must-raise programs "
                 f"{kinds['error']}; {value_free} passing samples of random/uninitialized ops compare dtype and "
                 f"shape only)")
    bounded = sum(1 for rows in by_op.values() for c, st, _ in rows if st != "skip" and c.bound is not None)
    lines.append(f"float samples of sums of products compared within their rounding bound: {bounded}")
    lines.append(f"samples skipped: {sum(skips.values())}")
    for reason, n in skips.most_common():
        lines.append(f"  {n:5d}  {reason}")
    known = sum(1 for f in fails if f.strip().split("[")[0] in KNOWN_FAILURES)
    lines.append(f"failures: {len(fails)} ({known} in OpInfos listed in KNOWN_FAILURES, the rest are new bugs)")
    for op, reason in sorted(KNOWN_FAILURES.items()):
        lines.append(f"  known: {op}: {reason}")
    lines.extend(fails)
    lines.append("OpInfos not covered (operator not registered in Kindling):")
    for n, c, how in _COVERAGE:
        if not c:
            lines.append(f"  {n}: {how}")
    lines.append("OpInfos covered:")
    for n, c, how in _COVERAGE:
        if c:
            lines.append(f"  {n}: {how}")
    return "\n".join(lines) + "\n"


def test_coverage(results, capsys):
    _, summary = results
    with capsys.disabled():
        head = summary.split("OpInfos not covered")[0]
        print("\n" + head + f"(full summary: {OUT_DIR / 'SUMMARY.txt'})")
    assert COVERED, "no OpInfo covered"


@pytest.mark.parametrize("opname", COVERED)
def test_opinfo(results, opname):
    by_op, _ = results
    rows = by_op.get(opname, [])
    fails = [f"{c.id}: {detail}\n--- program ---\n{c.source}" for c, st, detail in rows if st == "fail"]
    if opname in KNOWN_FAILURES:
        if fails:
            pytest.xfail(f"known: {KNOWN_FAILURES[opname]} ({len(fails)} of {len(rows)} samples fail)")
        pytest.fail(f"{opname} is listed in KNOWN_FAILURES but all its samples pass now: remove it from the list")
    assert not fails, f"{len(fails)} of {len(rows)} samples fail:\n" + "\n".join(fails[:5])
