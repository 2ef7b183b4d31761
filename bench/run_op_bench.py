#!/usr/bin/python3
"""Op benchmark: 34 representative operators, Kindling vs libtorch, alternately in one run (issue 4, item 4).

Each case is a scripted module whose forward calls one operator on tensors passed as inputs (weights too, so
nothing is folded on either side), saved with torch.jit.save next to its torch.save'd inputs. Sizes: small
(about 1e2 elements: per-op overhead), medium (1e5) and large (1e7 elements, or conv/matmul of typical layer
sizes). bench/op_bench (Kindling) and bench/libtorch_op_bench (Debian's libtorch 1.13, InferenceMode, OpenBLAS
openmp build with OPENBLAS_CORETYPE=SkylakeX as run_bench.py) run all cases of one thread count, alternating
who goes first, for several rounds; each reports per case the median over batches of per-call process CPU
time and wall time (bench/op_timing.h). The table takes the median over rounds; 1-thread ratios use CPU time
(steadier on this shared machine), 2-thread ones wall time. Writes the op section of bench/RESULTS.md
(between the op-bench markers; run_bench.py keeps it).

  /usr/bin/python3 bench/run_op_bench.py [--build build] [--rounds 5] [--threads 1 2] [--only add]
"""
import argparse
import datetime
import os
import pathlib
import re
import statistics
import subprocess
import sys

import torch

REPO = pathlib.Path(__file__).resolve().parent.parent
OPENBLAS_OPENMP = "/usr/lib/x86_64-linux-gnu/openblas-openmp"
BEGIN, END = "<!-- op-bench:begin -->", "<!-- op-bench:end -->"

F = torch.nn.functional


# ----------------------------------------------------------------------------------------------- the ops
# Each entry: name -> (module class, {size: inputs builder}). Inputs are built with a fixed seed.



class Add(torch.nn.Module):
    def forward(self, x, y):
        return x + y


class Mul(torch.nn.Module):
    def forward(self, x, y):
        return x * y


class Div(torch.nn.Module):
    def forward(self, x, y):
        return x / y


class AddScalar(torch.nn.Module):
    def forward(self, x):
        return x + 1.5


class Relu(torch.nn.Module):
    def forward(self, x):
        return torch.relu(x)


class Sigmoid(torch.nn.Module):
    def forward(self, x):
        return torch.sigmoid(x)


class Tanh(torch.nn.Module):
    def forward(self, x):
        return torch.tanh(x)


class Exp(torch.nn.Module):
    def forward(self, x):
        return torch.exp(x)


class Log(torch.nn.Module):
    def forward(self, x):
        return torch.log(x)


class Gelu(torch.nn.Module):
    def forward(self, x):
        return F.gelu(x)


class Silu(torch.nn.Module):
    def forward(self, x):
        return F.silu(x)


class Softmax(torch.nn.Module):
    def forward(self, x):
        return torch.softmax(x, -1)


class LogSoftmax(torch.nn.Module):
    def forward(self, x):
        return torch.log_softmax(x, -1)


class Sum(torch.nn.Module):
    def forward(self, x):
        return x.sum()


class Mean(torch.nn.Module):
    def forward(self, x):
        return x.mean(-1)


class Amax(torch.nn.Module):
    def forward(self, x):
        return x.amax(-1)


class Argmax(torch.nn.Module):
    def forward(self, x):
        return x.argmax(-1)


class ArgmaxChannels(torch.nn.Module):
    def forward(self, x):
        return x.argmax(1)


class Eq(torch.nn.Module):
    def forward(self, x, y):
        return x == y


class GtScalar(torch.nn.Module):
    def forward(self, x):
        return x > 0.0


class Var(torch.nn.Module):
    def forward(self, x):
        return x.var(-1)


class Cumsum(torch.nn.Module):
    def forward(self, x):
        return torch.cumsum(x, -1)


class LayerNorm(torch.nn.Module):
    def forward(self, x, w, b):
        return F.layer_norm(x, [x.size(-1)], w, b)


class BatchNorm(torch.nn.Module):
    def forward(self, x, m, v, w, b):
        return F.batch_norm(x, m, v, w, b, False)


class Mm(torch.nn.Module):
    def forward(self, x, y):
        return torch.mm(x, y)


class Linear(torch.nn.Module):
    def forward(self, x, w, b):
        return F.linear(x, w, b)


class Conv2d(torch.nn.Module):
    def forward(self, x, w, b):
        return F.conv2d(x, w, b, 1, 1)


class MaxPool2d(torch.nn.Module):
    def forward(self, x):
        return F.max_pool2d(x, 3, 2, 1)


class AvgPool2d(torch.nn.Module):
    def forward(self, x):
        return F.avg_pool2d(x, 2)


class Cat(torch.nn.Module):
    def forward(self, x, y):
        return torch.cat([x, y], 0)


class TransposeContig(torch.nn.Module):
    def forward(self, x):
        return x.t().contiguous()


class IndexSelect(torch.nn.Module):
    def forward(self, x, i):
        return torch.index_select(x, 0, i)


class Where(torch.nn.Module):
    def forward(self, c, x, y):
        return torch.where(c, x, y)


class Clamp(torch.nn.Module):
    def forward(self, x):
        return torch.clamp(x, -0.5, 0.5)


# rows x cols of the 2-d inputs per size: 1e2, 1e5, 1e7 elements
MAT = {"small": (4, 25), "medium": (100, 1000), "large": (1000, 10000)}
# N C H W of image-like inputs: 1e2, 1e5, 1e7 elements
IMG = {"small": (1, 4, 5, 5), "medium": (1, 32, 56, 56), "large": (1, 200, 224, 224)}
# conv: input (N C H W), out channels; "large" is a resnet layer (64->64 3x3 at 56x56)
CONV = {"small": ((1, 4, 5, 5), 4), "medium": ((1, 32, 56, 56), 32), "large": ((1, 64, 56, 56), 64)}
# mm: (m, k, n); linear: (batch, in, out)
MM = {"small": (10, 10, 10), "medium": (316, 316, 316), "large": (512, 1024, 1024)}
LIN = {"small": (1, 10, 10), "medium": (32, 316, 316), "large": (64, 1024, 1024)}


def _r(*s):
    return torch.randn(*s)


def inputs(name, size):
    rc, img = MAT[size], IMG[size]
    if name in ("add", "mul"):
        return (_r(*rc), _r(*rc))
    if name == "eq":  # about half the elements equal
        x = _r(*rc)
        return (x, torch.where(_r(*rc) > 0, x, _r(*rc)))
    if name in ("argmax_channels",):
        return (_r(*img),)
    if name == "div":
        return (_r(*rc), _r(*rc).abs() + 0.5)
    if name == "log":
        return (_r(*rc).abs() + 0.1,)
    if name in ("add_scalar", "relu", "sigmoid", "tanh", "exp", "gelu", "silu", "softmax", "log_softmax", "sum",
                "mean", "amax", "argmax", "gt_scalar", "var", "cumsum", "transpose_contiguous", "clamp"):
        return (_r(*rc),)
    if name == "layer_norm":
        return (_r(*rc), _r(rc[1]), _r(rc[1]))
    if name == "batch_norm":
        c = img[1]
        return (_r(*img), _r(c), _r(c).abs() + 0.5, _r(c), _r(c))
    if name == "mm":
        m, k, n = MM[size]
        return (_r(m, k), _r(k, n))
    if name == "linear":
        b, i, o = LIN[size]
        return (_r(b, i), _r(o, i), _r(o))
    if name == "conv2d":
        shape, co = CONV[size]
        return (_r(*shape), _r(co, shape[1], 3, 3), _r(co))
    if name in ("max_pool2d", "avg_pool2d"):
        return (_r(*img),)
    if name == "cat":
        return (_r(rc[0] // 2 or 1, rc[1]), _r(rc[0] - (rc[0] // 2 or 1), rc[1]))
    if name == "index_select":
        return (_r(*rc), torch.randperm(rc[0]))
    if name == "where":
        return (_r(*rc) > 0, _r(*rc), _r(*rc))
    raise KeyError(name)


OPS = {
    "add": Add, "mul": Mul, "div": Div, "add_scalar": AddScalar, "relu": Relu, "sigmoid": Sigmoid, "tanh": Tanh,
    "exp": Exp, "log": Log, "gelu": Gelu, "silu": Silu, "softmax": Softmax, "log_softmax": LogSoftmax, "sum": Sum,
    "mean": Mean, "amax": Amax, "argmax": Argmax, "var": Var, "cumsum": Cumsum, "layer_norm": LayerNorm,
    "batch_norm": BatchNorm, "mm": Mm, "linear": Linear, "conv2d": Conv2d, "max_pool2d": MaxPool2d,
    "avg_pool2d": AvgPool2d, "cat": Cat, "transpose_contiguous": TransposeContig, "index_select": IndexSelect,
    "where": Where, "clamp": Clamp, "eq": Eq, "gt_scalar": GtScalar, "argmax_channels": ArgmaxChannels,
}
SIZES = ("small", "medium", "large")


def make_cases(work, names):
    """Writes <work>/<op>_<size>.pt (scripted module) and <op>_<size>_in.pt; returns the manifest path."""
    work.mkdir(parents=True, exist_ok=True)
    lines = []
    for name in names:
        arch = work / f"{name}.pt"
        if not arch.exists():
            torch.jit.save(torch.jit.script(OPS[name]().eval()), str(arch))
        for size in SIZES:
            inp = work / f"{name}_{size}_in.pt"
            if not inp.exists():
                torch.manual_seed(0)
                torch.save(inputs(name, size), str(inp))
            lines.append(f"{name}/{size}\t{arch}\t{inp}")
    manifest = work / "manifest.tsv"
    manifest.write_text("\n".join(lines) + "\n")
    return manifest


def parse(out):
    res = {}
    for line in out.splitlines():
        m = re.match(r"^case (\S+) cpu_ns=([\d.]+) wall_ns=([\d.]+)", line)
        if m:
            res[m.group(1)] = (float(m.group(2)), float(m.group(3)))
        elif line.startswith("case ") and " error=" in line:
            name, err = line[5:].split(" error=", 1)
            res[name] = err
    return res


def run_side(cmd, env, timeout=3600):
    e = dict(os.environ)
    e.update(env)
    cp = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, env=e, timeout=timeout)
    if cp.returncode != 0:
        print(f"  {cmd[0]}: exit {cp.returncode}: {cp.stderr.strip()[-300:]}", file=sys.stderr)
    return parse(cp.stdout)


def fmt_ns(ns):
    if ns is None:
        return "n/a"
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.1f} us"
    return f"{ns:.0f} ns"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=REPO / "build", help="build dir with bench/op_bench and bench/libtorch_op_bench")
    ap.add_argument("--work", default=None, help="where cases are generated (default BUILD/op-bench-cases)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--threads", nargs="+", type=int, default=[1, 2])
    ap.add_argument("--batches", type=int, default=7)
    ap.add_argument("--batch-ms", type=float, default=8.0)
    ap.add_argument("--ops", nargs="+", default=list(OPS))
    ap.add_argument("--only", default=None, help="substring filter on case names (e.g. small)")
    ap.add_argument("--out", default=REPO / "bench" / "RESULTS.md")
    ap.add_argument("--no-write", action="store_true", help="print the table, leave RESULTS.md alone")
    a = ap.parse_args()
    build = pathlib.Path(a.build).resolve()
    work = (pathlib.Path(a.work) if a.work else build / "op-bench-cases").resolve()
    load_start = os.getloadavg()[0]
    manifest = make_cases(work, a.ops)
    flags = open("/proc/cpuinfo").read()
    lt_env = {"LD_LIBRARY_PATH": ":".join(p for p in (OPENBLAS_OPENMP, os.environ.get("LD_LIBRARY_PATH")) if p)}
    if " avx512f" in flags:
        lt_env["OPENBLAS_CORETYPE"] = "SkylakeX"
    sides = {"kindling": (build / "bench" / "op_bench", {}), "libtorch": (build / "bench" / "libtorch_op_bench", lt_env)}
    results = {}  # (threads, side) -> list of per-round dicts
    errors = {}
    for t in a.threads:
        for r in range(a.rounds):
            order = ["kindling", "libtorch"] if r % 2 == 0 else ["libtorch", "kindling"]
            for side in order:
                exe, env = sides[side]
                cmd = [exe, manifest, "--threads", t, "--batches", a.batches, "--batch-ms", a.batch_ms]
                if a.only:
                    cmd += ["--only", a.only]
                if t > 1:  # 2 threads: only the large cases (small and medium run on one thread by design)
                    cmd += ["--only", "/large"] if not a.only else []
                res = run_side(cmd, env)
                for k, v in res.items():
                    if isinstance(v, str):
                        errors[(side, k)] = v
                results.setdefault((t, side), []).append({k: v for k, v in res.items() if not isinstance(v, str)})
                print(f"  threads={t} round {r} {side}: {len(res)} cases", file=sys.stderr)

    def med(t, side, case, idx):
        xs = [d[case][idx] for d in results.get((t, side), []) if case in d]
        return statistics.median(xs) if xs else None

    rows = []
    for t in a.threads:
        idx = 0 if t == 1 else 1  # cpu time for 1 thread, wall for 2
        for name in a.ops:
            for size in SIZES:
                case = f"{name}/{size}"
                if t > 1 and size != "large":
                    continue
                k, l = med(t, "kindling", case, idx), med(t, "libtorch", case, idx)
                if k is None and l is None:
                    continue
                rows.append({"op": name, "size": size, "threads": t, "k": k, "l": l,
                             "ratio": k / l if k and l else None})
    write(a, rows, errors, load_start, lt_env)


def write(a, rows, errors, load_start, lt_env):
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True).stdout.strip()
    L = [BEGIN, "## Op benchmark: single operators, Kindling vs libtorch\n"]
    L.append(f"Written by `bench/run_op_bench.py` on {now}, commit `{head}`.\n")
    L.append(f"- {len(a.ops)} ops x 3 sizes; each case a scripted module calling one op on its inputs, run through "
             "each side's archive loader and interpreter (bench/op_bench, bench/libtorch_op_bench; InferenceMode, "
             f"env {' '.join(f'{k}={v}' for k, v in lt_env.items())}).")
    L.append(f"- {a.rounds} alternating rounds; per round the median over {a.batches} batches of ~{a.batch_ms:g} ms; "
             "table = median over rounds. 1 thread: process CPU time per call; 2 threads (large only): wall time.")
    L.append(f"- Load average (1 min) at start / end: {load_start:.1f} / {os.getloadavg()[0]:.1f} on "
             f"{os.cpu_count()} CPUs. Ratio = kindling / libtorch (below 1: Kindling faster).\n")
    summary = []
    for t in sorted({r["threads"] for r in rows}):
        for size in SIZES:
            rs = [r["ratio"] for r in rows if r["threads"] == t and r["size"] == size and r["ratio"]]
            if rs:
                summary.append(f"| {size} | {t} | {len(rs)} | {statistics.median(rs):.2f} | {min(rs):.2f} | "
                               f"{max(rs):.2f} |")
    L.append("| size | threads | ops | median ratio | best | worst |")
    L.append("|---|---|---|---|---|---|")
    L.extend(summary)
    L.append("")
    L.append("| op | size | threads | kindling | libtorch | ratio |")
    L.append("|---|---|---|---|---|---|")
    for r in rows:
        ratio = "n/a" if r["ratio"] is None else f"{r['ratio']:.2f}"
        L.append(f"| {r['op']} | {r['size']} | {r['threads']} | {fmt_ns(r['k'])} | {fmt_ns(r['l'])} | {ratio} |")
    if errors:
        L.append("\nErrors:\n")
        L.extend(f"- {side} {case}: {msg}" for (side, case), msg in sorted(errors.items()))
    L.append(END)
    section = "\n".join(L) + "\n"
    print(section)
    if a.no_write:
        return
    out = pathlib.Path(a.out)
    text = out.read_text() if out.exists() else ""
    if BEGIN in text and END in text:
        pre, rest = text.split(BEGIN, 1)
        post = rest.split(END, 1)[1].lstrip("\n")
        text = pre + section + post
    else:
        text = text.rstrip("\n") + "\n\n" + section
    out.write_text(text)


if __name__ == "__main__":
    main()
