#!/usr/bin/python3
"""The zoo report (issue 5, item 5): every zoo model (tests/oracle/zoo/gen_zoo.py) and variant, run by Kindling and
by libtorch, written to bench/ZOO.md.

For each model and variant: the fixture is generated if needed (random weights, fixed seeds, into
build/zoo-fixtures); `kindling run --output` gives the output, compared with PyTorch's (zoo/compare.py: float32
rtol/atol 1e-4, structures recursively) for the max abs error and pass/fail; `kindling bench` gives the load time
and the median latency; bench/libtorch_runner (Debian libtorch 1.13, built with -DKINDLING_BUILD_BENCH=ON; run
with torchvision's operator library preloaded) gives libtorch's median latency on the same archive and input.
A failing model gets its reason: the first line of Kindling's error, or the first mismatch.

  /usr/bin/python3 bench/zoo_report.py [--all] [--models NAME ...] [--plus NAME ...] [--with-fixtures]
      [--threads 1] [--iters 5]
      [--kindling BIN] [--runner BIN] [--fixtures DIR] [--out bench/ZOO.md]

Without --all only the default (non-slow) models run, as in CI; --all runs every model; --with-fixtures adds the
slow models whose fixtures a KINDLING_ZOO=all test run already generated.
"""
import argparse
import datetime
import glob
import os
import pathlib
import re
import subprocess
import sys
import time

REPO = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "oracle" / "zoo"))
OPENBLAS_OPENMP = "/usr/lib/x86_64-linux-gnu/openblas-openmp"


def sh(cmd):
    return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()


def run(cmd, env=None, timeout=1800):
    e = dict(os.environ)
    if env:
        e.update(env)
    try:
        cp = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, env=e, timeout=timeout,
                            stdin=subprocess.DEVNULL, errors="replace")
    except subprocess.TimeoutExpired:
        return None, f"timed out after {timeout}s"
    if cp.returncode != 0:
        lines = [l for l in cp.stderr.strip().splitlines() if l.strip()]
        err = next((l for l in lines if l.startswith("error:") or "libtorch_runner:" in l), lines[0] if lines else "")
        return None, f"exit {cp.returncode}: {err.strip()[:300]}"
    kv = {}
    for line in cp.stdout.splitlines():
        m = re.match(r"^([a-z_]+)=([-+0-9.eE]+)$", line.strip())
        if m:
            kv[m.group(1)] = float(m.group(2))
    return kv, None


def fmt(v, spec=".2f"):
    return "n/a" if v is None else format(v, spec)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kindling", default=os.environ.get("KINDLING_BIN", REPO / "build" / "tools" / "kindling" / "kindling"))
    ap.add_argument("--runner", default=REPO / "build" / "bench" / "libtorch_runner")
    ap.add_argument("--fixtures", default=os.environ.get("KINDLING_ZOO_FIXTURES", REPO / "build" / "zoo-fixtures"))
    ap.add_argument("--all", action="store_true", help="every model, the zoo_slow ones too")
    ap.add_argument("--models", nargs="+", help="only these models")
    ap.add_argument("--plus", nargs="+", default=[], help="these (e.g. slow) models in addition to the default set")
    ap.add_argument("--with-fixtures", action="store_true",
                    help="also every slow model whose fixtures are already generated and current (e.g. by a "
                         "KINDLING_ZOO=all test run)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--iters", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--out", default=REPO / "bench" / "ZOO.md")
    a = ap.parse_args()

    import torch
    import gen_zoo
    from compare import Mismatch, compare
    from known_gaps import KNOWN_GAPS

    zoo = gen_zoo.zoo()
    def generated(name):  # fixtures present and current: ensure_model would not regenerate them
        stamp = pathlib.Path(a.fixtures) / name / "STAMP"
        return stamp.is_file() and stamp.read_text().strip() == gen_zoo._stamp(zoo[name])

    names = a.models or [n for n, s in zoo.items()
                         if a.all or not s.slow or n in a.plus or (a.with_fixtures and generated(n))]
    a.set_desc = ("the listed models" if a.models else "every zoo model" if a.all else
                  "the default set" + (" plus the slow models " + ", ".join(n for n in names if zoo[n].slow)
                                       if any(zoo[n].slow for n in names) else ""))
    have_runner = pathlib.Path(a.runner).is_file()
    lt_env = {"LD_LIBRARY_PATH": ":".join(p for p in (OPENBLAS_OPENMP, os.environ.get("LD_LIBRARY_PATH")) if p)}
    tv = glob.glob("/usr/lib/python3/dist-packages/torchvision/_C*.so")
    if tv:
        lt_env["LD_PRELOAD"] = tv[0]
    if " avx512f" in open("/proc/cpuinfo").read():
        lt_env["OPENBLAS_CORETYPE"] = "SkylakeX"
    load_start = os.getloadavg()[0]
    rows = []
    names.sort(key=lambda n: zoo[n].slow)  # the default set first: an interrupted run still covers it
    for done, name in enumerate(names):
        if done:  # the file is rewritten after every model: a run stopped early leaves a report of what ran
            write(a, rows, load_start, have_runner, lt_env, pending=names[done:])
        spec = zoo[name]
        d = pathlib.Path(gen_zoo.ensure_model(str(a.fixtures), name, verbose=False))
        for variant in spec.variants:
            row = {"model": name, "category": spec.category, "variant": variant, "slow": spec.slow}
            rows.append(row)
            if (d / f"{variant}.error").exists():
                row["status"] = "n/a"
                row["reason"] = "PyTorch cannot make it: " + (d / f"{variant}.error").read_text().strip()
                continue
            archive, inp = d / f"{variant}.pt", d / "input.pt"
            out = d / f"{variant}_kindling_out.pt"
            if out.exists():
                out.unlink()
            t0 = time.time()
            _, err = run([a.kindling, "run", archive, "--input", inp, "--output", out, "--threads", a.threads])
            row["run_s"] = time.time() - t0
            if err:
                gap = KNOWN_GAPS.get((name, variant))
                row["status"], row["reason"] = "FAIL", (f"missing: {gap}. Kindling: {err}" if gap else err)
            else:
                try:
                    row["max_err"] = compare(torch.load(out), torch.load(d / f"{variant}_expected.pt"), atol=spec.atol)
                    row["status"], row["reason"] = "pass", ""
                except Mismatch as e:
                    gap = KNOWN_GAPS.get((name, variant))
                    row["status"], row["reason"] = "FAIL", f"mismatch: {e}" + (f" ({gap})" if gap else "")
                out.unlink()
            common = ["--input", inp, "--threads", a.threads, "--warmup", a.warmup, "--iters", a.iters]
            if row["status"] == "pass":
                kv, err = run([a.kindling, "bench", archive] + common)
                if kv:
                    row["load_ms"], row["k_ms"] = kv.get("load_ms"), kv.get("median_ms")
                else:
                    row["reason"] = f"kindling bench: {err}"
            if have_runner:
                kv, err = run([a.runner, archive] + common, env=lt_env)
                if kv:
                    row["lt_ms"], row["lt_load_ms"] = kv.get("median_ms"), kv.get("load_ms")
                else:
                    row["lt_err"] = err
            print(f"{name:40s} {variant:10s} {row['status']:5s} err={fmt(row.get('max_err'), '.2g'):8s} "
                  f"load={fmt(row.get('load_ms'), '.0f')}ms k={fmt(row.get('k_ms'))}ms lt={fmt(row.get('lt_ms'))}ms "
                  f"{row['reason'][:100]}", file=sys.stderr, flush=True)
    write(a, rows, load_start, have_runner, lt_env)


def write(a, rows, load_start, have_runner, lt_env, pending=()):
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    head = sh(f"git -C {REPO} rev-parse --short HEAD")
    cpu = sh("lscpu | sed -n 's/^Model name:[ \\t]*//p'")
    L = ["# Model zoo: Kindling vs PyTorch 1.13\n",
         f"Covers {a.set_desc}.\n",
         f"Written by `bench/zoo_report.py{' --all' if a.all else ''}{' --with-fixtures' if a.with_fixtures else ''}"
         f"{' --plus ' + ' '.join(a.plus) if a.plus else ''}` on {now}, commit `{head}`, on {cpu} "
         f"({os.cpu_count()} CPUs, shared: load average {load_start:.1f} at start, {os.getloadavg()[0]:.1f} at end; "
         "latencies under such load are indicative only).\n",
         "- Models: tests/oracle/zoo/gen_zoo.py (random weights, fixed seeds; small inputs, e.g. 64x64 images). "
         "Variants: scripted (torch.jit.script), traced (torch.jit.trace), frozen (torch.jit.freeze), "
         "optimized (torch.jit.optimize_for_inference).",
         "- pass: `kindling run` output equals the output of the same archive run by PyTorch (float32, rtol 1e-4, "
         "atol 1e-4 x max(1, max|expected|), a larger atol for the models of gen_zoo.TOLERANCES with the measurement "
         "behind it: see tests/oracle/zoo/compare.py; tuples/lists/dicts recursively); "
         "max err = max abs error over all output tensors.",
         f"- Latency: median wall ms of {a.iters} calls after {a.warmup} warm-up, {a.threads} thread(s). "
         "Kindling: `kindling bench` (load ms includes compiling and specializing the module); libtorch: "
         "`bench/libtorch_runner` (Debian libtorch 1.13.1, InferenceMode, torchvision ops preloaded"
         + ("" if have_runner else "; NOT AVAILABLE in this run") + ").",
         "- slow: zoo_slow models, run by tests/oracle/test_zoo.py only with KINDLING_ZOO=all.\n"]
    cats = {}
    for r in rows:
        c = cats.setdefault(r["category"], [0, 0, 0])
        if r["status"] == "n/a":
            c[2] += 1
        else:
            c[1] += 1
            c[0] += r["status"] == "pass"
    if pending:
        L.insert(2, f"INCOMPLETE: the run stopped before {len(pending)} model(s): {', '.join(pending)}.\n")
    L.append("## Summary\n")
    L.append("| category | pass / run | PyTorch cannot make |")
    L.append("|---|---|---|")
    for c, (p, n, na) in cats.items():
        L.append(f"| {c} | {p} / {n} | {na} |")
    tp = sum(v[0] for v in cats.values())
    tn = sum(v[1] for v in cats.values())
    L.append(f"| **all** | **{tp} / {tn}** | {sum(v[2] for v in cats.values())} |\n")
    L.append("## Models\n")
    L.append("| model | category | variant | status | load ms | kindling ms | libtorch ms | ratio | max abs err | note |")
    L.append("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        k, lt = r.get("k_ms"), r.get("lt_ms")
        note = r["reason"]
        if r.get("lt_err"):
            note = (note + "; " if note else "") + f"libtorch: {r['lt_err']}"
        note = note.replace("|", "\\|").replace("\n", " ")
        L.append(f"| {r['model']}{' (slow)' if r['slow'] else ''} | {r['category']} | {r['variant']} | {r['status']} | "
                 f"{fmt(r.get('load_ms'), '.0f')} | {fmt(k)} | {fmt(lt)} | {fmt(k / lt if k and lt else None)} | "
                 f"{fmt(r.get('max_err'), '.2g')} | {note[:400]} |")
    text = "\n".join(L) + "\n"
    pathlib.Path(a.out).write_text(text)
    if not pending:
        print(text)


if __name__ == "__main__":
    main()
