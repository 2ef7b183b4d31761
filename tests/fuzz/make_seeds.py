"""Seed corpora for the fuzz targets, written with PyTorch 1.13 (/usr/bin/python3): small archives of
torch.jit.save (modules with parameters, buffers, containers, tuples, strings, nested submodules, extra
files), torch.save files of every value kind, the pickles inside them, and the graphs of the language corpus
(tests/oracle/lang) as str(torch.jit.script(f).graph).

    /usr/bin/python3 tests/fuzz/make_seeds.py OUTDIR     (writes OUTDIR/<target>/...)
"""
import importlib.util
import inspect
import io
import pathlib
import sys
import zipfile
from typing import Dict, List, Optional, Tuple

import torch

REPO = pathlib.Path(__file__).resolve().parents[2]


class Small(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 2)
        self.register_buffer("steps", torch.zeros(2, dtype=torch.int64))
        self.names: List[str] = ["a", "b"]
        self.table: Dict[str, int] = {"x": 1}
        self.pair: Tuple[int, float] = (1, 2.5)
        self.maybe: Optional[torch.Tensor] = None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.dim() > 1:
            x = x.sum(0)
        return self.lin(x) + float(self.table["x"]) + self.pair[1]


class Nested(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3), torch.nn.BatchNorm2d(2), torch.nn.ReLU())
        self.heads = torch.nn.ModuleList([torch.nn.Linear(2, 1), torch.nn.Linear(2, 1)])

    def forward(self, x: torch.Tensor) -> List[torch.Tensor]:
        y = self.blocks(x).mean([2, 3])
        return [h(y) for h in self.heads]


def archives():
    torch.manual_seed(0)
    out = {}
    for name, mod in [("small", Small()), ("nested", Nested().eval())]:
        s = torch.jit.script(mod)
        buf = io.BytesIO()
        torch.jit.save(s, buf, _extra_files={"meta.txt": "seed"})
        out[name] = buf.getvalue()
        buf = io.BytesIO()
        torch.jit.save(torch.jit.freeze(s.eval()), buf)
        out[name + "_frozen"] = buf.getvalue()
    return out


def torch_saves():
    torch.manual_seed(0)
    values = {
        "tensor": torch.randn(2, 3),
        "dtypes": [torch.arange(4).to(d) for d in (torch.int8, torch.int32, torch.float16, torch.bool, torch.float64)],
        "view": torch.arange(10.0)[2:8:2],
        "containers": {"a": (1, 2.5, "s", None, True), "b": [torch.ones(1), {"c": torch.zeros(2, 2)}]},
        "scalar": torch.tensor(3),
    }
    out = {}
    for name, v in values.items():
        buf = io.BytesIO()
        torch.save(v, buf)
        out[name] = buf.getvalue()
    return out


def pickles(zips):
    out = {}
    for name, data in zips.items():
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            for rec in z.namelist():
                if rec.endswith(".pkl"):
                    out[f"{name}_{rec.split('/')[-1]}"] = z.read(rec)
    return out


def graphs(limit=150):
    out = {}
    for path in sorted((REPO / "tests" / "oracle" / "lang").glob("*.py")):
        spec = importlib.util.spec_from_file_location(path.stem, path)
        mod = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(mod)
        except Exception:  # noqa: BLE001 - a corpus file PyTorch cannot import adds no seed
            continue
        for fname, fn in inspect.getmembers(mod, inspect.isfunction):
            if fn.__module__ != mod.__name__ or len(out) >= limit:
                continue
            try:
                out[f"{path.stem}_{fname}"] = str(torch.jit.script(fn).graph)
            except Exception:  # noqa: BLE001 - programs torch rejects (the corpus has some) add no seed
                pass
    return out


def main(outdir):
    outdir = pathlib.Path(outdir)
    a = archives()
    t = torch_saves()
    sets = {
        "archive": a,
        "zip_reader": {**a, **t},
        "torch_save": t,
        "unpickler": pickles({**a, **t}),
        "irparser": {k: v.encode() for k, v in graphs().items()},
    }
    for target, files in sets.items():
        d = outdir / target
        d.mkdir(parents=True, exist_ok=True)
        for name, data in files.items():
            (d / f"seed_{name}").write_bytes(data)
        print(f"{target}: {len(files)} seeds")


if __name__ == "__main__":
    main(sys.argv[1])
