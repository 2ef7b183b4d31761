"""Measures `kindling run` (or `kindling save`) on the generated programs of growth_programs.py at given
sizes: wall time, user+system CPU time and peak RSS of the whole process (/usr/bin/time -v).

  /usr/bin/python3 tests/growth/measure.py [--bin KINDLING] [--save] [--family NAME]... N [N...]

Prints one line per family and size. Run with Debian's Python (torch writes the argument file).
"""
import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import growth_programs  # noqa: E402


def measure(binary, family, n, save, tmp):
    import torch
    src, fn, args, expected = growth_programs.FAMILIES[family](n)
    prog = pathlib.Path(tmp) / f"{family}_{n}.py"
    prog.write_text(src)
    argf = pathlib.Path(tmp) / f"{family}_{n}.args.pt"
    torch.save(args, str(argf))
    if save:
        cmd = [binary, "save", str(prog), "-o", str(pathlib.Path(tmp) / "out.pt")]
    else:
        cmd = [binary, "run", str(prog), "--function", fn, "--input", str(argf)]
    cp = subprocess.run(["/usr/bin/time", "-v"] + cmd, capture_output=True, text=True)
    err = cp.stderr
    def field(name):
        m = re.search(r"^\s*" + re.escape(name) + r": (.*)$", err, re.M)
        return m.group(1) if m else "?"
    wall = field("Elapsed (wall clock) time (h:mm:ss or m:ss)")
    secs = 0.0
    for part in wall.split(":"):
        secs = secs * 60 + float(part)
    cpu = float(field("User time (seconds)")) + float(field("System time (seconds)"))
    rss = int(field("Maximum resident set size (kbytes)")) / 1024
    status = field("Exit status")
    ok = "ok"
    if not save and cp.returncode == 0:
        out = cp.stdout.strip()
        if out != str(expected):
            ok = f"WRONG({out[:40]})"
    elif cp.returncode != 0:
        last = [l for l in err.splitlines() if l.strip() and not l.startswith("\t")]
        ok = f"exit {cp.returncode}: {(last[0] if last else '')[:100]}"
    return secs, cpu, rss, ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.environ.get("KINDLING_BIN", "build/tools/kindling/kindling"))
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--family", action="append")
    ap.add_argument("sizes", nargs="+", type=int)
    a = ap.parse_args()
    fams = a.family or list(growth_programs.FAMILIES)
    with tempfile.TemporaryDirectory() as tmp:
        for fam in fams:
            for n in a.sizes:
                secs, cpu, rss, ok = measure(a.bin, fam, n, a.save, tmp)
                print(f"{fam:16s} N={n:<8d} wall={secs:7.2f}s cpu={cpu:7.2f}s rss={rss:8.1f}MB {ok}", flush=True)


if __name__ == "__main__":
    main()
