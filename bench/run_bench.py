#!/usr/bin/python3
"""Model benchmark: Kindling vs ONNX Runtime vs libtorch, alternately in one run (DESIGN.md "Benchmarks").

For each model of bench/bench_models.py (CNNs, vision and text transformers, recurrent language models, and
two overhead probes: a 3 x Linear(64) MLP and a chain of 1000 tiny adds) and each thread count (default 1
and 2), runs for several rounds, one after the other and rotating who goes first:

    kindling     `kindling bench model.pt` (the environment as given: what a user gets)
    ort          bench/ort_runner.js on model.onnx: npm's onnxruntime-node, CPU provider, intraOpNumThreads=N,
                 every graph optimization (the ONNX file is torch.onnx.export's, opset 17)
    libtorch     bench/libtorch_runner on model.pt: Debian's libtorch 1.13 at its best setting (OpenBLAS's
                 OpenMP build instead of the reference BLAS, OPENBLAS_CORETYPE=SkylakeX on AVX-512 CPUs that
                 OpenBLAS 0.3.21 does not recognise, at::set_num_threads(N), InferenceMode)

Each run reports its median wall time per call, median process CPU time per call, load time, first call,
and the process's peak RSS (from wait4). The tables take the median over rounds. 1-thread figures are
process CPU time (the machine is shared: wall time measures the neighbours as much as the model); 2-thread
figures are wall time. ORT's first output is checked against PyTorch's. Writes bench/RESULTS.md (keeping the
sections other scripts write between their markers: op benchmark, Python call overhead, peak memory).

  /usr/bin/python3 bench/run_bench.py [--models resnet18 bert_like ...] [--threads 1 2] [--rounds 3]
      [--sides kindling ort libtorch] [--ort-dir build/bench-node] [--no-write]
"""
import argparse
import datetime
import json
import os
import pathlib
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import threading

REPO = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
import bench_models  # noqa: E402

OPENBLAS_OPENMP = "/usr/lib/x86_64-linux-gnu/openblas-openmp"
SIDES = ("kindling", "ort", "libtorch")
LABEL = {"kindling": "Kindling", "ort": "ONNX Runtime", "libtorch": "libtorch"}

# Targets: Kindling / ORT at most this (per category), and Kindling / libtorch at most LIBTORCH_TARGET.
ORT_TARGET = {"cnn": 1.0, "transformer": 1.0, "encoder": 0.9, "rnn": 1.0}
LIBTORCH_TARGET = 0.7
# The overhead probes have absolute targets: ms per call.
ABSOLUTE_TARGET_MS = {"add_chain_1000": 0.2, "mlp3": 0.005}
FIRST_CALL_TARGET = 1.2  # first call / steady median
THREAD_SCALING_TARGET = {"resnet18": 0.55, "resnet50": 0.55}  # 2-thread wall / 1-thread wall


def sh(cmd):
    return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()


def machine():
    info = open("/proc/cpuinfo").read()

    def field(name):
        m = re.search(rf"^{name}\s*:\s*(.*)$", info, re.M)
        return m.group(1).strip() if m else "?"

    flags = field("flags").split()
    isa = "AVX-512" if "avx512f" in flags else ("AVX2" if "avx2" in flags else "SSE")
    if "amx_tile" in flags:
        isa += "/AMX"
    return {"model": field("model name"), "family": field("cpu family"), "cpu_model": field("model"),
            "cpus": os.cpu_count(), "isa": isa,
            "cores_per_socket": sh("lscpu | sed -n 's/^Core(s) per socket:[ \\t]*//p'"),
            "threads_per_core": sh("lscpu | sed -n 's/^Thread(s) per core:[ \\t]*//p'")}


def parse_kv(text):
    out = {}
    for line in text.splitlines():
        m = re.match(r"^\s*([A-Za-z_]\w*)\s*=\s*([-+0-9.eE]+)\s*$", line)
        if m:
            try:
                out[m.group(1)] = float(m.group(2))
            except ValueError:  # e.g. ort_version=1.30.0
                pass
    return out


def run(cmd, env=None, timeout=1800):
    """Runs cmd; returns (key=value figures + max_rss_mb from wait4, None) or (None, error line)."""
    e = dict(os.environ)
    e.update(env or {})
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        p = subprocess.Popen([str(c) for c in cmd], stdout=out, stderr=err, env=e)
        timer = threading.Timer(timeout, p.kill)
        timer.start()
        _, status, usage = os.wait4(p.pid, 0)
        timer.cancel()
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if p.returncode != 0:
        return None, (stderr.strip().splitlines() or [f"exit {p.returncode}"])[-1][:300]
    last = stdout.strip().splitlines()[-1] if stdout.strip() else ""
    if not re.fullmatch(r"median_ms=[-+0-9.eE]+", last):
        return None, f"last line is not median_ms=<float>: {last!r}"
    kv = parse_kv(stdout)
    kv["max_rss_mb"] = usage.ru_maxrss / 1024.0
    return kv, None


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def fmt(v, spec=".2f"):
    return "n/a" if v is None else format(v, spec)


def fms(v):
    """Milliseconds with 3 significant digits."""
    if v is None:
        return "n/a"
    return f"{v:.3g}" if v < 100 else f"{v:.0f}"


def ratio(a, b):
    return a / b if a is not None and b else None


def check_output(path, expected, shape):
    """Max |a - b| / max(1, max|b|) of a runner's float32 output against PyTorch's, or an error string."""
    import numpy as np
    if not os.path.exists(path):
        return "no output written"
    a = np.fromfile(path, dtype=np.float32)
    b = np.fromfile(expected, dtype=np.float32)
    if a.shape != b.shape:
        return f"{a.size} elements, PyTorch's output {shape} has {b.size}"
    return float(np.abs(a - b).max() / max(1.0, float(np.abs(b).max())))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kindling", default=os.environ.get("KINDLING_BIN", REPO / "build" / "tools" / "kindling" / "kindling"))
    ap.add_argument("--runner", default=REPO / "build" / "bench" / "libtorch_runner")
    ap.add_argument("--ort-dir", default=os.environ.get("KINDLING_ORT_DIR", REPO / "build" / "bench-node"),
                    help="folder whose node_modules holds onnxruntime-node (scripts/run-bench.sh installs it)")
    ap.add_argument("--models-dir", default=REPO / "build" / "bench-models")
    ap.add_argument("--models", nargs="+", default=list(bench_models.MODELS), choices=list(bench_models.MODELS),
                    metavar="MODEL")
    ap.add_argument("--sides", nargs="+", default=list(SIDES), choices=SIDES)
    ap.add_argument("--threads", nargs="+", type=int, default=[1, 2])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--iters-scale", type=float, default=1.0, help="multiply each model's timed calls")
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--out", default=REPO / "bench" / "RESULTS.md")
    ap.add_argument("--no-write", action="store_true", help="print the tables, leave RESULTS.md alone")
    a = ap.parse_args()
    a.load_start = os.getloadavg()[0]
    a.load_max = a.load_start
    mach = machine()

    lt_env = {"LD_LIBRARY_PATH": ":".join(p for p in (OPENBLAS_OPENMP, os.environ.get("LD_LIBRARY_PATH")) if p)}
    if mach["isa"].startswith("AVX-512"):
        lt_env["OPENBLAS_CORETYPE"] = "SkylakeX"
    present = {"kindling": pathlib.Path(a.kindling).is_file(), "libtorch": pathlib.Path(a.runner).is_file(),
               "ort": (pathlib.Path(a.ort_dir) / "node_modules" / "onnxruntime-node").is_dir()}
    sides = [s for s in a.sides if present[s]]
    for s in a.sides:
        if not present[s]:
            print(f"warning: {s} is not available (scripts/run-bench.sh builds and installs every side)",
                  file=sys.stderr)
    ort_script = REPO / "bench" / "ort_runner.js"

    rows, notes = [], []
    for name in a.models:
        d = bench_models.ensure_model(a.models_dir, name)
        meta = json.loads((d / "meta.json").read_text())
        iters = max(1, int(meta["iters"] * a.iters_scale))
        for t in a.threads:
            common = ["--threads", t, "--warmup", a.warmup, "--iters", iters]
            ort_out = d / f"ort_output_t{t}.bin"
            cmds = {
                "kindling": ([a.kindling, "bench", d / "model.pt", "--input", d / "input.pt"] + common, None),
                "libtorch": ([a.runner, d / "model.pt", "--input", d / "input.pt"] + common, lt_env),
                "ort": (["node", ort_script, d / "model.onnx", "--inputs", d / "inputs.json", "--ort", a.ort_dir,
                         "--output", ort_out] + common, None),
            }
            res = {s: [] for s in sides}
            for r in range(a.rounds):
                k = r % len(sides)
                for s in sides[k:] + sides[:k]:  # rotate who goes first
                    cmd, env = cmds[s]
                    kv, err = run(cmd, env)
                    if err:
                        notes.append(f"{name} t={t} {s} round {r}: {err}")
                        print(f"  {name} t={t} {s}: ERROR {err}", file=sys.stderr)
                        continue
                    res[s].append(kv)
                    print(f"  {name} t={t} round {r} {s}: median {kv['median_ms']:.4g} ms, cpu "
                          f"{kv.get('cpu_median_ms', 0):.4g} ms", file=sys.stderr)
                a.load_max = max(a.load_max, os.getloadavg()[0])
            row = {"model": name, "threads": t, "category": meta["category"], "gflop": meta["gflop"], "iters": iters}
            for s in SIDES:
                got = res.get(s, [])
                row[s] = {key: med([kv.get(key) for kv in got])
                          for key in ("median_ms", "cpu_median_ms", "load_ms", "first_call_ms", "max_rss_mb")}
                row[s]["rounds"] = [(kv["median_ms"], kv.get("cpu_median_ms")) for kv in got]
                # the figure of record: CPU time at 1 thread, wall time above
                row[s]["ms"] = row[s]["cpu_median_ms"] if t == 1 else row[s]["median_ms"]
            if "ort" in sides and res["ort"]:
                dev = check_output(ort_out, d / "expected.bin", meta.get("expected_shape"))
                if isinstance(dev, str) or dev > 1e-3:
                    notes.append(f"{name} t={t} ort output differs from PyTorch's: {dev}")
                row["ort_dev"] = dev
            rows.append(row)
    text = results_text(a, mach, rows, notes, lt_env, sides)
    print(text)
    if not a.no_write:
        write_results(a.out, text)


def target_of(row):
    """(ort target, libtorch target) ratios for a row's model, or None where the model has none."""
    cat = row["category"]
    return ORT_TARGET.get(cat), (LIBTORCH_TARGET if cat in ORT_TARGET else None)


def results_text(a, mach, rows, notes, lt_env, sides):
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    head = sh(f"git -C {REPO} rev-parse --short HEAD")
    L = []
    L.append("# Benchmark results: Kindling vs ONNX Runtime vs libtorch\n")
    L.append(f"Written by `bench/run_bench.py` on {now}, commit `{head}` "
             f"(`{' '.join(['bench/run_bench.py'] + sys.argv[1:])}`).\n")
    L.append(f"- Machine: {mach['model']} (family {mach['family']} model {mach['cpu_model']}), {mach['cpus']} "
             f"logical CPUs ({mach['cores_per_socket']} cores/socket, {mach['threads_per_core']} threads/core), "
             f"{mach['isa']}.")
    L.append(f"- Shared and noisy: load average (1 min) {a.load_start:.1f} at the start, {a.load_max:.1f} at most "
             f"during the run, {os.getloadavg()[0]:.1f} at the end, on {mach['cpus']} CPUs. Each figure is the "
             f"median over {a.rounds} rounds (sides alternated, the first side rotating) of the median per call of "
             f"each side's timed calls (after {a.warmup} warm-up calls).")
    L.append("- **1 thread: process CPU time per call** (steady under contention); **2 threads: wall time per "
             "call**. The wall-clock table below has every figure.")
    L.append("- Kindling: `kindling bench` (environment as given). ONNX Runtime: npm onnxruntime-node "
             f"{ort_version(a.ort_dir)}, CPU provider, intraOpNumThreads = threads, interOpNumThreads 1, "
             "graphOptimizationLevel all, on the model exported by `torch.onnx.export` (opset 17), timed around the "
             "binding's synchronous run (`bench/ort_runner.js`). libtorch: Debian libtorch 1.13.1 "
             "(`bench/libtorch_runner`, InferenceMode, at::set_num_threads), env "
             f"{' '.join(f'{k}={v}' for k, v in lt_env.items())}.")
    L.append("- Models: `bench/bench_models.py` (torchvision with random weights and calibrated BatchNorm; our own "
             "TransformerEncoder, BERT-like encoder with a padding mask, LSTM/GRU language models, 3 x Linear(64) MLP "
             "and 1000-add chain), batch 1, float32, scripted (the add chain traced). GFLOP/s = FLOPs of the "
             "convolutions and matrix products / time.\n")

    L.append("## Latency and ratios\n")
    L.append("| model | threads | Kindling ms | ORT ms | libtorch ms | Kindling/ORT | Kindling/libtorch | "
             "GFLOP/s Kindling / ORT / libtorch | target |")
    L.append("|---|---|---|---|---|---|---|---|---|")
    misses = []
    for r in rows:
        k, o, lt = (r[s]["ms"] for s in SIDES)
        ko, kl = ratio(k, o), ratio(k, lt)
        gf = " / ".join(fmt(r["gflop"] / x * 1e3 if x and r["gflop"] > 0.01 else None, ".0f") for x in (k, o, lt))
        to, tl = target_of(r)
        verdict = ""
        if r["model"] in ABSOLUTE_TARGET_MS:
            lim = ABSOLUTE_TARGET_MS[r["model"]]
            ok = k is not None and k <= lim
            verdict = f"{'met' if ok else 'missed'} (≤ {lim * 1e3:g} µs)"
        elif to is not None and k is not None:
            miss = []
            if ko is None or ko > to:
                miss.append(f"ORT ≤ {to}")
            if kl is None or kl > tl:
                miss.append(f"libtorch ≤ {tl}")
            verdict = "met" if not miss else "missed: " + ", ".join(miss)
        if verdict.startswith("missed"):
            misses.append(f"{r['model']} t={r['threads']}: {verdict[len('missed'):].lstrip(': ')}")
        L.append(f"| {r['model']} | {r['threads']} | {fms(k)} | {fms(o)} | {fms(lt)} | {fmt(ko)} | {fmt(kl)} | "
                 f"{gf} | {verdict} |")

    L.append("\n## Load, first call, peak RSS\n")
    L.append("Load: archive (or ONNX file) to a runnable model, in-process. First call: the first call's wall "
             "time, and its ratio to the steady wall median. Peak RSS: the whole process (ORT's includes Node.js, "
             "about 45 MB alone), median over rounds.\n")
    L.append("| model | threads | load ms K / ORT / LT | first call ms K / ORT / LT | K first/median | "
             "peak RSS MB K / ORT / LT |")
    L.append("|---|---|---|---|---|---|")
    for r in rows:
        ld = " / ".join(fms(r[s]["load_ms"]) for s in SIDES)
        fc = " / ".join(fms(r[s]["first_call_ms"]) for s in SIDES)
        rss = " / ".join(fmt(r[s]["max_rss_mb"], ".0f") for s in SIDES)
        fr = ratio(r["kindling"]["first_call_ms"], r["kindling"]["median_ms"])
        L.append(f"| {r['model']} | {r['threads']} | {ld} | {fc} | {fmt(fr)}"
                 f"{'' if fr is None or fr <= FIRST_CALL_TARGET else ' (> ' + str(FIRST_CALL_TARGET) + ')'} | {rss} |")

    L.append("\n## Threads: Kindling 2-thread / 1-thread wall time\n")
    by = {(r["model"], r["threads"]): r for r in rows}
    L.append("| model | Kindling 1T ms | 2T ms | 2T/1T | ORT 2T/1T | libtorch 2T/1T |")
    L.append("|---|---|---|---|---|---|")
    for name in dict.fromkeys(r["model"] for r in rows):
        r1, r2 = by.get((name, 1)), by.get((name, 2))
        if not r1 or not r2:
            continue
        sc = [ratio(r2[s]["median_ms"], r1[s]["median_ms"]) for s in SIDES]
        tgt = THREAD_SCALING_TARGET.get(name)
        note = "" if tgt is None or sc[0] is None else (" (target ≤ %.2f: %s)" % (tgt, "met" if sc[0] <= tgt else "missed"))
        L.append(f"| {name} | {fms(r1['kindling']['median_ms'])} | {fms(r2['kindling']['median_ms'])} | "
                 f"{fmt(sc[0])}{note} | {fmt(sc[1])} | {fmt(sc[2])} |")

    L.append("\n## Wall time per call (ms, every thread count)\n")
    L.append("| model | threads | Kindling | ORT | libtorch | Kindling/ORT | Kindling/libtorch | CPU ms K / ORT / LT |")
    L.append("|---|---|---|---|---|---|---|---|")
    for r in rows:
        k, o, lt = (r[s]["median_ms"] for s in SIDES)
        cpu = " / ".join(fms(r[s]["cpu_median_ms"]) for s in SIDES)
        L.append(f"| {r['model']} | {r['threads']} | {fms(k)} | {fms(o)} | {fms(lt)} | {fmt(ratio(k, o))} | "
                 f"{fmt(ratio(k, lt))} | {cpu} |")

    L.append("\n## Targets missed in this run\n")
    L.extend(f"- {m}" for m in misses) if misses else L.append("- none")

    L.append("\n## Per-round medians (wall ms / CPU ms)\n")
    for r in rows:
        for s in SIDES:
            if r[s]["rounds"]:
                L.append(f"- {r['model']} t={r['threads']} {s} ({r['iters']} calls): "
                         + ", ".join(f"{w:.4g}/{c:.4g}" if c is not None else f"{w:.4g}" for w, c in r[s]["rounds"]))
    devs = [(r["model"], r["threads"], r["ort_dev"]) for r in rows if isinstance(r.get("ort_dev"), float)]
    if devs:
        worst = max(devs, key=lambda x: x[2])
        L.append(f"\nONNX Runtime's outputs against PyTorch's: max |diff| / max(1, max |expected|) at most "
                 f"{worst[2]:.1e} ({worst[0]}, {worst[1]} thread(s)).")
    if notes:
        L.append("\n## Errors\n")
        L.extend(f"- {n}" for n in notes)
    return "\n".join(L) + "\n"


def ort_version(ort_dir):
    p = pathlib.Path(ort_dir) / "node_modules" / "onnxruntime-node" / "package.json"
    try:
        return json.loads(p.read_text())["version"]
    except (OSError, ValueError, KeyError):
        return "(not installed)"


def write_results(out, text):
    # keep the sections other scripts write between their markers (<!-- NAME:begin --> ... <!-- NAME:end -->:
    # bench/run_op_bench.py's op-bench, bench/python_call_overhead.py's python-call, bench/peak_memory.py's
    # peak-memory), in the order they appear
    out = pathlib.Path(out)
    old = out.read_text() if out.exists() else ""
    for m in re.finditer(r"<!-- ([a-z0-9-]+):begin -->.*?<!-- \1:end -->", old, re.S):
        text += "\n" + m.group(0) + "\n"
    out.write_text(text)


if __name__ == "__main__":
    main()
