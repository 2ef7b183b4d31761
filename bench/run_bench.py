#!/usr/bin/python3
"""Kindling vs libtorch, alternately in one run (DESIGN.md "Benchmarks"; issue 2, item 13).

For each model (default resnet18, mobilenet_v2; batch 1) and thread count (default 1 and 2), runs, for
several rounds, `kindling bench` and bench/libtorch_runner (Debian's libtorch-dev) one after the other, and
reports the median over rounds of each side's median latency, the ratio kindling/libtorch, load time and
first-call latency, and achieved GFLOP/s. Writes bench/RESULTS.md with the machine and the date.

libtorch is given its best setting, not Debian's default: OpenBLAS (openmp build) through LD_LIBRARY_PATH
instead of the reference BLAS, OPENBLAS_CORETYPE=SkylakeX on AVX-512 CPUs that OpenBLAS 0.3.21 does not
recognise, at::set_num_threads(N), InferenceMode. With --optimize it also runs libtorch after
torch.jit.freeze + optimize_for_inference (libtorch's best case; a reference, not the anchor).
Kindling runs with the environment as given: what a user gets.

  /usr/bin/python3 bench/run_bench.py [--rounds 5] [--iters 20] [--threads 1 2] [--models resnet18 mobilenet_v2]
"""
import argparse
import datetime
import os
import pathlib
import platform
import re
import statistics
import subprocess
import sys

REPO = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "oracle"))
OPENBLAS_OPENMP = "/usr/lib/x86_64-linux-gnu/openblas-openmp"


def sh(cmd):
    return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()


def machine():
    model = sh("lscpu | sed -n 's/^Model name:[ \\t]*//p'") or platform.processor()
    cpus = os.cpu_count()
    cores = sh("lscpu | sed -n 's/^Core(s) per socket:[ \\t]*//p'")
    tpc = sh("lscpu | sed -n 's/^Thread(s) per core:[ \\t]*//p'")
    flags = open("/proc/cpuinfo").read()
    isa = "AVX-512" if " avx512f" in flags else ("AVX2" if " avx2" in flags else "SSE")
    return {"model": model, "cpus": cpus, "cores_per_socket": cores, "threads_per_core": tpc, "isa": isa}


def parse_kv(text):
    out = {}
    for line in text.splitlines():
        m = re.match(r"^\s*([A-Za-z_][\w]*)\s*[=:]\s*([-+0-9.eE]+)\s*(ms)?\s*$", line)
        if m:
            try:
                out[m.group(1)] = float(m.group(2))
            except ValueError:
                pass
    return out


def run(cmd, env=None, timeout=900):
    e = dict(os.environ)
    if env:
        e.update(env)
    cp = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, env=e, timeout=timeout)
    if cp.returncode != 0:
        return None, (cp.stderr.strip().splitlines() or ["exit %d" % cp.returncode])[-1]
    kv = parse_kv(cp.stdout + "\n" + cp.stderr)
    last = cp.stdout.strip().splitlines()[-1] if cp.stdout.strip() else ""
    m = re.fullmatch(r"median_ms=([-+0-9.eE]+)", last)
    if not m:
        return None, f"last line is not median_ms=<float>: {last!r}"
    kv["median_ms"] = float(m.group(1))
    return kv, None


def model_gflop(name):
    """FLOPs of one forward (2 * multiply-adds of Conv2d and Linear), counted with hooks in PyTorch."""
    import torch
    import gen_models
    m = gen_models.build_model(name)
    x = gen_models.make_input(name)
    macs = [0]

    def conv_hook(mod, inp, out):
        k = mod.weight.shape[1] * mod.weight.shape[2] * mod.weight.shape[3]
        macs[0] += out.numel() * k

    def lin_hook(mod, inp, out):
        macs[0] += out.numel() * mod.in_features

    for mod in m.modules():
        if isinstance(mod, torch.nn.Conv2d):
            mod.register_forward_hook(conv_hook)
        elif isinstance(mod, torch.nn.Linear):
            mod.register_forward_hook(lin_hook)
    with torch.no_grad():
        m(x)
    return 2 * macs[0] / 1e9


def fmt(v, spec=".2f"):
    return "n/a" if v is None else format(v, spec)


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kindling", default=os.environ.get("KINDLING_BIN", REPO / "build" / "tools" / "kindling" / "kindling"))
    ap.add_argument("--runner", default=REPO / "build" / "bench" / "libtorch_runner")
    ap.add_argument("--fixtures", default=REPO / "build" / "oracle-fixtures")
    ap.add_argument("--models", nargs="+", default=["resnet18", "mobilenet_v2"])
    ap.add_argument("--mode", default="scripted", choices=["scripted", "traced"])
    ap.add_argument("--threads", nargs="+", type=int, default=[1, 2])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--optimize", action="store_true", help="also run libtorch frozen + optimize_for_inference")
    ap.add_argument("--out", default=REPO / "bench" / "RESULTS.md")
    a = ap.parse_args()
    a.load_start = os.getloadavg()[0]

    import gen_models
    gen_models.ensure_fixtures(str(a.fixtures), a.models)
    fx = pathlib.Path(a.fixtures)
    mach = machine()
    lt_env = {"LD_LIBRARY_PATH": ":".join(p for p in (OPENBLAS_OPENMP, os.environ.get("LD_LIBRARY_PATH")) if p)}
    if mach["isa"] == "AVX-512":
        lt_env["OPENBLAS_CORETYPE"] = "SkylakeX"
    have_kindling = pathlib.Path(a.kindling).is_file()
    have_runner = pathlib.Path(a.runner).is_file()
    if not have_runner:
        print(f"warning: no libtorch runner at {a.runner} (configure with -DKINDLING_BUILD_BENCH=ON)", file=sys.stderr)
    if not have_kindling:
        print(f"warning: no kindling binary at {a.kindling}", file=sys.stderr)

    rows, notes = [], []
    for name in a.models:
        gflop = model_gflop(name)
        archive, inp = fx / f"{name}_{a.mode}.pt", fx / f"{name}_input.pt"
        for t in a.threads:
            common = ["--input", inp, "--threads", t, "--warmup", a.warmup, "--iters", a.iters]
            sides = {}
            if have_kindling:
                sides["kindling"] = ([a.kindling, "bench", archive] + common, None)
            if have_runner:
                sides["libtorch"] = ([a.runner, archive] + common, lt_env)
                if a.optimize:
                    sides["libtorch_opt"] = ([a.runner, archive] + common + ["--optimize"], lt_env)
            res = {k: [] for k in sides}
            order = list(sides)
            for r in range(a.rounds):
                for k in (order if r % 2 == 0 else order[::-1]):  # alternate who goes first
                    cmd, env = sides[k]
                    kv, err = run(cmd, env)
                    if err:
                        notes.append(f"{name} t={t} {k} round {r}: {err}")
                        print(f"  {name} t={t} {k}: ERROR {err}", file=sys.stderr)
                        continue
                    res[k].append(kv)
                    print(f"  {name} t={t} round {r} {k}: median_ms={kv['median_ms']:.2f}", file=sys.stderr)

            def stat(k, key):
                return med([kv.get(key) for kv in res.get(k, [])])

            row = {"model": name, "threads": t, "gflop": gflop}
            for k in ("kindling", "libtorch", "libtorch_opt"):
                row[k] = {key: stat(k, key) for key in ("median_ms", "cpu_median_ms", "load_ms", "first_call_ms")}
                row[k]["rounds"] = [kv["median_ms"] for kv in res.get(k, [])]
            rows.append(row)

    write_results(a, mach, rows, notes, lt_env)


def write_results(a, mach, rows, notes, lt_env):
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    head = sh(f"git -C {REPO} rev-parse --short HEAD")
    L = []
    L.append("# Benchmark results: Kindling vs libtorch\n")
    L.append(f"Written by `bench/run_bench.py` on {now}, commit `{head}`.\n")
    L.append(f"- Machine: {mach['model']}, {mach['cpus']} logical CPUs ({mach['cores_per_socket']} cores/socket, "
             f"{mach['threads_per_core']} threads/core), {mach['isa']}. Shared and noisy: medians of "
             f"{a.rounds} alternating rounds of {a.iters} timed calls after {a.warmup} warm-up calls.")
    L.append(f"- Load average (1 min) at start / end of the run: {a.load_start:.1f} / {os.getloadavg()[0]:.1f} "
             f"on {mach['cpus']} CPUs (above the CPU count, wall-clock figures, 2-thread ones most, mostly measure "
             "contention; the CPU-time table is the steadier comparison).")
    L.append(f"- Models: torchvision (random weights), {a.mode}, batch 1, float32, 1x3x224x224.")
    L.append("- libtorch: Debian libtorch 1.13.1 via `bench/libtorch_runner` (InferenceMode, at::set_num_threads), "
             f"env {' '.join(f'{k}={v}' for k, v in lt_env.items())}.")
    L.append("- Ratio = kindling median / libtorch median (below 1 means Kindling is faster). "
             "GFLOP/s = 2*MACs of conv+linear / median.\n")
    L.append("| model | threads | kindling ms | libtorch ms | ratio | kindling GFLOP/s | libtorch GFLOP/s |"
             + (" libtorch frozen+opt ms |" if a.optimize else ""))
    L.append("|---|---|---|---|---|---|---|" + ("---|" if a.optimize else ""))
    for r in rows:
        k, lt, lo = r["kindling"]["median_ms"], r["libtorch"]["median_ms"], r["libtorch_opt"]["median_ms"]
        ratio = k / lt if k and lt else None
        L.append(f"| {r['model']} | {r['threads']} | {fmt(k)} | {fmt(lt)} | {fmt(ratio)} | "
                 f"{fmt(r['gflop'] / k * 1e3 if k else None, '.1f')} | {fmt(r['gflop'] / lt * 1e3 if lt else None, '.1f')} |"
                 + (f" {fmt(lo)} |" if a.optimize else ""))
    L.append("\n## Load time and first call (no warm-up cliff)\n")
    L.append("| model | threads | kindling load ms | kindling first call ms | libtorch load ms | libtorch first call ms |")
    L.append("|---|---|---|---|---|---|")
    for r in rows:
        k, lt = r["kindling"], r["libtorch"]
        L.append(f"| {r['model']} | {r['threads']} | {fmt(k['load_ms'])} | {fmt(k['first_call_ms'])} | "
                 f"{fmt(lt['load_ms'])} | {fmt(lt['first_call_ms'])} |")
    L.append("\n## Process CPU time per call (1-thread figures are steadier under contention)\n")
    L.append("| model | threads | kindling cpu ms | libtorch cpu ms | cpu ratio |")
    L.append("|---|---|---|---|---|")
    for r in rows:
        kc, lc = r["kindling"]["cpu_median_ms"], r["libtorch"]["cpu_median_ms"]
        L.append(f"| {r['model']} | {r['threads']} | {fmt(kc)} | {fmt(lc)} | {fmt(kc / lc if kc and lc else None)} |")
    L.append("\n## Per-round medians (ms)\n")
    for r in rows:
        for side in ("kindling", "libtorch", "libtorch_opt"):
            if r[side]["rounds"]:
                L.append(f"- {r['model']} t={r['threads']} {side}: "
                         + ", ".join(f"{x:.2f}" for x in r[side]["rounds"]))
    if notes:
        L.append("\n## Errors\n")
        L.extend(f"- {n}" for n in notes)
    text = "\n".join(L) + "\n"
    print(text)
    # keep the op benchmark's section (bench/run_op_bench.py writes it between its markers)
    out = pathlib.Path(a.out)
    old = out.read_text() if out.exists() else ""
    begin, end = "<!-- op-bench:begin -->", "<!-- op-bench:end -->"
    if begin in old and end in old:
        text += "\n" + begin + old.split(begin, 1)[1].split(end, 1)[0] + end + "\n"
    out.write_text(text)


if __name__ == "__main__":
    main()
