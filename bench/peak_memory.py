"""Peak memory: the largest resident set (/usr/bin/time %M) of `kindling run MODEL --input IN --threads 1`
against libtorch's (bench/libtorch_runner MODEL --input IN --threads 1 --warmup 0 --iters 1: load + one call,
as `kindling run` does), alternated in one run, on torchvision's resnet50 and vit_b_16 (random weights, seed
0, 1x3x224x224), each scripted (torch.jit.script) and frozen (torch.jit.freeze). A second Kindling build can
be given (--before BIN) to compare two builds in the same run. Prints a Markdown table of medians (min-max);
--write replaces the peak-memory section of bench/RESULTS.md.

  /usr/bin/python3 bench/peak_memory.py [--runs 3] [--models resnet50 vit_b_16] [--before OLD_KINDLING] [--write]

libtorch runs with OpenBLAS's OpenMP build, as bench/run_bench.py runs it. Archives are written to
build/peak-memory/ (about 900 MB; never committed).
"""
import argparse
import os
import pathlib
import platform
import statistics
import subprocess
import time

REPO = pathlib.Path(__file__).resolve().parent.parent
BEGIN, END = "<!-- peak-memory:begin -->", "<!-- peak-memory:end -->"


def cpu_name():
    for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown CPU"


def make_archives(work, models):
    import torch
    import torchvision
    work.mkdir(parents=True, exist_ok=True)
    for name in models:
        for variant in ("scripted", "frozen"):
            path = work / f"{name}_{variant}.pt"
            if path.exists():
                continue
            torch.manual_seed(0)
            s = torch.jit.script(getattr(torchvision.models, name)().eval())
            torch.jit.save(torch.jit.freeze(s) if variant == "frozen" else s, str(path))
    inp = work / "input.pt"
    if not inp.exists():
        torch.manual_seed(0)
        torch.save((torch.randn(1, 3, 224, 224),), str(inp))
    return inp


def peak_mib(cmd, env):
    p = subprocess.run(["/usr/bin/time", "-f", "%M"] + [str(c) for c in cmd], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, env=env)
    if p.returncode != 0:
        raise SystemExit(f"{cmd[0]} failed ({p.returncode}): {p.stderr[-800:]}")
    return int(p.stderr.split()[-1]) / 1024.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--models", nargs="+", default=["resnet50", "vit_b_16"])
    ap.add_argument("--kindling", default=os.environ.get("KINDLING_BIN", REPO / "build" / "tools" / "kindling" / "kindling"))
    ap.add_argument("--before", default=None, help="another kindling binary, measured in the same run")
    ap.add_argument("--runner", default=REPO / "build" / "bench" / "libtorch_runner")
    ap.add_argument("--work", default=REPO / "build" / "peak-memory")
    ap.add_argument("--write", action="store_true", help="write the section of bench/RESULTS.md")
    a = ap.parse_args()
    inp = make_archives(pathlib.Path(a.work), a.models)
    lt_env = dict(os.environ)
    lt_env["LD_LIBRARY_PATH"] = ":".join(p for p in ("/usr/lib/x86_64-linux-gnu/openblas-openmp",
                                                     os.environ.get("LD_LIBRARY_PATH")) if p)
    sides = {}
    if a.before:
        sides["before"] = (lambda m, b=a.before: [b, "run", m, "--input", inp, "--threads", "1"], dict(os.environ))
    sides["kindling"] = (lambda m: [a.kindling, "run", m, "--input", inp, "--threads", "1"], dict(os.environ))
    sides["libtorch"] = (lambda m: [a.runner, m, "--input", inp, "--threads", "1", "--warmup", "0", "--iters", "1"],
                         lt_env)
    load0 = os.getloadavg()[0]
    rows = []
    for name in a.models:
        for variant in ("scripted", "frozen"):
            model = pathlib.Path(a.work) / f"{name}_{variant}.pt"
            got = {s: [] for s in sides}
            for _ in range(a.runs):
                for s, (cmd, env) in sides.items():
                    got[s].append(peak_mib(cmd(model), env))
            med = {s: statistics.median(v) for s, v in got.items()}
            rows.append((name, variant, model.stat().st_size / 2**20, got, med))
            print(f"{name} {variant}: " + ", ".join(f"{s} {med[s]:.0f} MiB" for s in sides), flush=True)
    head = ["model", "archive MiB"] + [f"{s} MiB" for s in sides] + \
           [f"{s} / libtorch" for s in sides if s != "libtorch"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, variant, size, got, med in rows:
        cells = [f"{name} ({variant})", f"{size:.0f}"]
        cells += [f"{med[s]:.0f} ({min(got[s]):.0f}-{max(got[s]):.0f})" for s in sides]
        cells += [f"{med[s] / med['libtorch']:.2f}" for s in sides if s != "libtorch"]
        lines.append("| " + " | ".join(cells) + " |")
    table = "\n".join(lines)
    print(table)
    if a.write:
        rev = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        rev += " with uncommitted changes" if dirty else ""
        text = (f"{BEGIN}\n## Peak memory: `kindling run` against libtorch\n\n"
                f"Written by `bench/peak_memory.py` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
                f"commit `{rev}`, {cpu_name()} ({os.cpu_count()} logical CPUs), load average {load0:.1f} at start. "
                f"Peak RSS (/usr/bin/time %M) of one process: load + one call, 1 thread, 1x3x224x224; median "
                f"(min-max) of {a.runs} alternated runs. libtorch: `bench/libtorch_runner --warmup 0 --iters 1`."
                f"{' before: ' + str(a.before) + ' (another Kindling build).' if a.before else ''}\n\n"
                f"{table}\n{END}\n")
        out = REPO / "bench" / "RESULTS.md"
        old = out.read_text()
        if BEGIN in old and END in old:
            old = old.split(BEGIN, 1)[0] + text.rstrip("\n") + old.split(END, 1)[1]
        else:
            old = old.rstrip("\n") + "\n\n" + text
        out.write_text(old)


if __name__ == "__main__":
    main()
