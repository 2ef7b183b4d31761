#!/usr/bin/python3
"""Python call overhead of a Kindling ScriptModule against torch.jit.load's module, in the same run.

Each case is a small module scripted by torch and saved with torch.jit.save, then loaded twice: by
torch.jit.load (the anchor) and by kindling.jit.load. Both are called from Python with the same inputs,
alternately: a round times a batch of `--batch` calls of one side, then of the other, in alternating order;
the figure of a round is the batch's process CPU time (or wall time, --clock wall) divided by its calls
(µs per call; CPU time is the steadier figure on a shared machine: both runtimes run single-threaded in the
calling thread). The table gives the median and the 10th / 90th percentiles over `--rounds` rounds and the
ratio of the medians (kindling / torch; below 1 means Kindling's call is cheaper), with the spread of the
per-round ratios.

Cases:
  mlp      3 x Linear(64, 64) with ReLU between, input 1x64 (the issue's figure)
  identity forward(self, x): return x  (pure call overhead: argument in, tensor out)
  tuple    returns a tuple of three tensors
  list     returns a List[Tensor] of three tensors
  scalars  forward(self, x, n: int, s: float) -> x * s + n  (Python int/float arguments)

torch runs under torch.inference_mode() (or no_grad with --torch-mode no_grad); Kindling's calls run
inside the same context. Both sides use one intra-op thread unless --threads says otherwise.

Run from the build tree (PyTorch 1.13 is /usr/bin/python3's; pin to one core on a shared machine):
    PYTHONPATH=build/python taskset -c 1 /usr/bin/python3 bench/python_call_overhead.py
Options: --cases mlp,identity  --rounds 41  --batch 400  --warmup 2000  --json out.json
"""
import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from typing import List, Tuple

import torch

import kindling
import kindling.jit


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = torch.nn.Linear(64, 64)
        self.l2 = torch.nn.Linear(64, 64)
        self.l3 = torch.nn.Linear(64, 64)

    def forward(self, x):
        return self.l3(torch.relu(self.l2(torch.relu(self.l1(x)))))


class Identity(torch.nn.Module):
    def forward(self, x):
        return x


class TupleOut(torch.nn.Module):
    def forward(self, x) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        return x, x + 1, x * 2


class ListOut(torch.nn.Module):
    def forward(self, x) -> List[torch.Tensor]:
        return [x, x + 1, x * 2]


class Scalars(torch.nn.Module):
    def forward(self, x, n: int, s: float):
        return x * s + n


def cases():
    x = torch.randn(1, 64)
    small = torch.randn(1, 8)
    return {
        "mlp": (MLP(), (x,)),
        "identity": (Identity(), (x,)),
        "tuple": (TupleOut(), (small,)),
        "list": (ListOut(), (small,)),
        "scalars": (Scalars(), (small, 3, 0.5)),
    }


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def same(a, b):
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.dtype == b.dtype and a.shape == b.shape and torch.allclose(a, b)
    if isinstance(a, (tuple, list)):
        return type(a) == type(b) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def time_batch(fn, args, n):
    """(wall µs, process CPU µs) per call over n calls."""
    c0, t0 = time.process_time(), time.perf_counter()
    for _ in range(n):
        fn(*args)
    t1, c1 = time.perf_counter(), time.process_time()
    return (t1 - t0) / n * 1e6, (c1 - c0) / n * 1e6


def pct(xs, p):
    xs = sorted(xs)
    k = (len(xs) - 1) * p
    lo = int(k)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def run_case(name, module, args, opts, tmp):
    path = os.path.join(tmp, name + ".pt")
    torch.jit.save(torch.jit.script(module.eval()), path)
    tm = torch.jit.load(path)
    km = kindling.jit.load(path)
    ctx = torch.inference_mode if opts.torch_mode == "inference_mode" else torch.no_grad
    with ctx():
        expected, got = tm(*args), km(*args)
        if not same(expected, got):
            raise SystemExit("%s: Kindling's output differs from torch.jit's: %r vs %r" % (name, got, expected))
        sides = {"torch": tm, "kindling": km}
        for fn in sides.values():
            time_batch(fn, args, opts.warmup)
        per = {(side, clock): [] for side in sides for clock in ("wall", "cpu")}
        for r in range(opts.rounds):
            order = ("torch", "kindling") if r % 2 == 0 else ("kindling", "torch")
            for side in order:
                wall, cpu = time_batch(sides[side], args, opts.batch)
                per[side, "wall"].append(wall)
                per[side, "cpu"].append(cpu)
    row = {"case": name}
    for clock in ("wall", "cpu"):
        r = row[clock] = {}
        for side in sides:
            xs = per[side, clock]
            r[side] = {"median_us": statistics.median(xs), "p10_us": pct(xs, 0.1), "p90_us": pct(xs, 0.9)}
        r["ratio"] = r["kindling"]["median_us"] / r["torch"]["median_us"]
        # Ratio per round (both sides run back to back in a round): its spread says how robust the ratio is.
        ratios = [k / t for k, t in zip(per["kindling", clock], per["torch", clock])]
        r["ratio_p10"], r["ratio_p90"] = pct(ratios, 0.1), pct(ratios, 0.9)
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", default="mlp,identity,tuple,list,scalars")
    ap.add_argument("--rounds", type=int, default=41)
    ap.add_argument("--batch", type=int, default=400, help="calls per timed batch")
    ap.add_argument("--warmup", type=int, default=2000, help="untimed calls per side before timing")
    ap.add_argument("--threads", type=int, default=1, help="intra-op threads for both runtimes")
    ap.add_argument("--torch-mode", choices=("inference_mode", "no_grad"), default="inference_mode")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="table figures: process CPU time (steadier on a shared machine) or wall time")
    ap.add_argument("--json", help="also write the results here")
    opts = ap.parse_args()

    torch.set_num_threads(opts.threads)
    kindling.set_num_threads(opts.threads)
    affinity = sorted(os.sched_getaffinity(0))
    info = {
        "cpu": cpu_model(),
        "logical_cpus": os.cpu_count(),
        "affinity": affinity,
        "torch": torch.__version__,
        "python": platform.python_version(),
        "torch_threads": torch.get_num_threads(),
        "kindling_threads": kindling.get_num_threads(),
        "torch_mode": opts.torch_mode,
        "rounds": opts.rounds,
        "batch": opts.batch,
        "loadavg": os.getloadavg()[0],
    }
    print("CPU: %s (%d logical CPUs, affinity %s)" % (info["cpu"], info["logical_cpus"], affinity))
    print("torch %s, Python %s; threads: torch %d, kindling %d; torch calls under torch.%s()" %
          (info["torch"], info["python"], info["torch_threads"], info["kindling_threads"], opts.torch_mode))
    print("%d rounds x %d calls per side, alternating; load average %.2f" % (opts.rounds, opts.batch, info["loadavg"]))
    print()
    print("Figures: %s time per call (--clock); the last column is the ratio by the other clock." % opts.clock)
    other = "wall" if opts.clock == "cpu" else "cpu"
    print("| case | torch µs (p10–p90) | kindling µs (p10–p90) | ratio (per-round p10–p90) | %s ratio |" % other)
    print("|---|---|---|---|---|")
    rows = []
    all_cases = cases()
    with tempfile.TemporaryDirectory(prefix="kindling-callbench-") as tmp:
        for name in opts.cases.split(","):
            module, args = all_cases[name]
            row = run_case(name, module, args, opts, tmp)
            rows.append(row)
            r = row[opts.clock]
            t, k = r["torch"], r["kindling"]
            print("| %s | %.2f (%.2f–%.2f) | %.2f (%.2f–%.2f) | %.2f (%.2f–%.2f) | %.2f |" %
                  (name, t["median_us"], t["p10_us"], t["p90_us"], k["median_us"], k["p10_us"], k["p90_us"],
                   r["ratio"], r["ratio_p10"], r["ratio_p90"], row[other]["ratio"]))
            sys.stdout.flush()
    info["loadavg_end"] = os.getloadavg()[0]
    print("\nload average at the end: %.2f" % info["loadavg_end"])
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump({"info": info, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
