"""The malformed-input corpus: archives, torch.save inputs and TorchScript programs derived from small valid
ones, each broken in one way (a truncation, a lie in a zip header, ZIP64, pickle abuse, a hostile size, deep
nesting, a huge literal, bad code/, a wrong version record).

Nothing here is committed as bytes: `write_bases(dir)` has PyTorch 1.13 write the valid originals at test time
and every case derives its bytes from them deterministically (fixed offsets, fixed seeds). `CASES` is the list
the oracle test (tests/oracle/test_malformed_corpus.py) runs one by one; `torch_verdicts(dir)` asks PyTorch
what it makes of each case, in a child process per case so that a crash of PyTorch is a verdict too.

Each case names what it expects from `kindling run`: the exit code of the command-line contract (1: the
input cannot be loaded or compiled; 2: the program raised at run time; 0: the input is in fact valid, and the
result must be PyTorch's) and a regular expression the error message must match (what is wrong, in words).

    /usr/bin/python3 tests/malformed/make_corpus.py DIR [--verdicts OUT.json]
        writes the bases and every case into DIR (and PyTorch's verdict on each into OUT.json)
"""
import io
import os
import pathlib
import random
import struct
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import zipbytes as zb  # noqa: E402

# ------------------------------------------------------------------------------------------ the valid bases

MAIN_CODE = "code/__torch__/small_module.py"  # the module class's code/ file (its class: __torch__.small_module.Small)

MODULE_SRC = '''
import torch
class Small(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 2)
        self.register_buffer("scale", torch.tensor([2.0, 3.0]))
    def forward(self, x):
        return self.lin(x) * self.scale
'''

PROGRAM = '''import torch
from typing import List

def f(x: torch.Tensor) -> torch.Tensor:
    y = x * 2.0
    for i in range(2):
        y = y + float(i)
    return y
'''

# The program every torch.save case is given to: it returns its argument, so a valid input is written back
# and compared with torch.load's value.
IDENTITY = '''import torch
from typing import Any

def f(x: Any) -> Any:
    return x
'''


def write_bases(d):
    """The valid originals, written by PyTorch 1.13: module.pt (torch.jit.save), input.pt (torch.save of the
    module's arguments), values.pt (torch.save of a tuple of several kinds), program.py, identity.py."""
    import torch
    d = pathlib.Path(d)
    d.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(0)
    import importlib.util
    (d / "small_module.py").write_text(MODULE_SRC)  # torch.jit.script reads the class's source file
    spec = importlib.util.spec_from_file_location("small_module", str(d / "small_module.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    torch.jit.save(torch.jit.script(mod.Small()), str(d / "module.pt"))
    torch.save((torch.arange(6.0).reshape(2, 3),), str(d / "input.pt"))
    torch.save(((torch.arange(4, dtype=torch.int64), [1, 2, 3], {"a": 1.5}, "s"),), str(d / "values.pt"))
    (d / "program.py").write_text(PROGRAM)
    (d / "identity.py").write_text(IDENTITY)
    torch.save((torch.ones(2, 3),), str(d / "program_input.pt"))
    torch.save((1,), str(d / "int_input.pt"))
    torch.save((1.0,), str(d / "float_input.pt"))


class Bases:
    def __init__(self, d):
        d = pathlib.Path(d)
        self.dir = d
        self.module = (d / "module.pt").read_bytes()
        self.input = (d / "input.pt").read_bytes()
        self.values = (d / "values.pt").read_bytes()
        self.program = (d / "program.py").read_text()
        self.module_entries = zb.read_entries(self.module)
        self.input_entries = zb.read_entries(self.input)

    def record(self, entries, rel):
        return next(b for n, b in entries if n.split("/", 1)[1] == rel)

    def index(self, entries, rel):
        return next(i for i, (n, _) in enumerate(entries) if n.split("/", 1)[1] == rel)


def replace_records(entries, want):
    """entries with records replaced ({rel name: bytes, or None to drop})."""
    out = []
    for n, b in entries:
        rel = n.split("/", 1)[1]
        if rel in want:
            if want[rel] is None:
                continue
            b = want[rel]
        out.append((n, b))
    return out


def with_record(entries, rel, body):
    found = any(n.split("/", 1)[1] == rel for n, _ in entries)
    assert found, rel
    return [(n, body if n.split("/", 1)[1] == rel else b) for n, b in entries]


# ------------------------------------------------------------------------------------------ pickle builders

PROTO = b"\x80\x02"


def pint(v):
    """An int as protocol 2 writes it."""
    if 0 <= v < 256:
        return b"K" + bytes([v])
    if 0 <= v < 65536:
        return b"M" + struct.pack("<H", v)
    if -2 ** 31 <= v < 2 ** 31:
        return b"J" + struct.pack("<i", v)
    n = (v.bit_length() + 8) // 8
    return b"\x8a" + bytes([n]) + v.to_bytes(n, "little", signed=True)


def pstr(s):
    b = s.encode() if isinstance(s, str) else s
    return b"X" + struct.pack("<I", len(b)) + b


def ptuple(items):
    return b"(" + b"".join(items) + b"t"


def glob(module, name):
    return b"c" + module.encode() + b"\n" + name.encode() + b"\n"


def storage_pid(key="0", cls="FloatStorage", loc="cpu", numel=6):
    k = pstr(key) if isinstance(key, str) else key
    return ptuple([pstr("storage"), glob("torch", cls), k, pstr(loc), pint(numel) if isinstance(numel, int) else numel]) + b"Q"


def tensor(sizes=(2, 3), strides=(3, 1), offset=0, pid=None, rebuild="_rebuild_tensor_v2", grad=b"\x89"):
    pid = storage_pid() if pid is None else pid
    return (glob("torch._utils", rebuild)
            + ptuple([pid, pint(offset) if isinstance(offset, int) else offset,
                      ptuple([pint(s) for s in sizes]), ptuple([pint(s) for s in strides]), grad,
                      glob("collections", "OrderedDict") + b")R"])
            + b"R")


def args_pickle(*values):
    """The pickle of torch.save((v1, v2, ...)): a tuple of the arguments."""
    return PROTO + ptuple(list(values)) + b"."


# ------------------------------------------------------------------------------------------ cases

class Case:
    """`code` 0: valid, its result must be PyTorch's (or that of case `same_as` when PyTorch rejects this
    one: `note` says why). `note` starting "stricter:": PyTorch accepts it, Kindling rejects it on purpose."""

    def __init__(self, id, family, kind, make, code, pattern, note="", same_as=None):
        self.id, self.family, self.kind, self.make, self.code, self.pattern, self.note = (
            id, family, kind, make, code, pattern, note)
        self.same_as = same_as

    @property
    def suffix(self):
        return ".py" if self.kind == "program" else ".pt"


CASES = []


def case(id, family, kind, code, pattern, note=""):
    def deco(make):
        CASES.append(Case(id, family, kind, make, code, pattern, note))
        return make
    return deco


def add(id, family, kind, make, code, pattern, note=""):
    CASES.append(Case(id, family, kind, make, code, pattern, note))


ZIP_BROKEN = r"truncated|corrupt|not a zip|inconsistent|cannot read|no record|empty archive|not a PyTorch archive"
VALID = None  # pattern of a case that is in fact valid (code 0): the result is compared with PyTorch's

# ---- truncations: at fixed fractions of the file and at the boundaries of every structure

TRUNC_FRACTIONS = [0.0, 0.01, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99]


def _trunc_at_fraction(base_attr, frac):
    def make(b):
        data = getattr(b, base_attr)
        return data[:int(len(data) * frac)]
    return make


def _trunc_at(base_attr, where, delta):
    def make(b):
        data = getattr(b, base_attr)
        lay = zb.layout(data)
        if where == "eocd":
            at = lay["eocd"]
        elif where == "cd":
            at = lay["cd"][0]
        elif where == "cd_last":
            at = lay["cd"][-1]
        elif where == "local_last":
            at = lay["local"][-1]
        elif where == "data_pkl":
            at = lay["data"][[n.split("/", 1)[1] for n, _ in zb.read_entries(data)].index("data.pkl")][0]
        return data[:at + delta]
    return make


for kind, attr in (("archive", "module"), ("input", "input")):
    for frac in TRUNC_FRACTIONS:
        add(f"trunc-{kind}-{int(frac * 100):02d}pct", "truncation", kind, _trunc_at_fraction(attr, frac), 1, ZIP_BROKEN)
    for where in ("eocd", "cd", "cd_last", "local_last", "data_pkl"):
        for delta in (0, 10, 21) if where == "eocd" else (0, 7):
            add(f"trunc-{kind}-{where}+{delta}", "truncation", kind, _trunc_at(attr, where, delta), 1, ZIP_BROKEN)


def _trunc_record(rel, frac, base="module"):
    def make(b):
        entries = b.module_entries if base == "module" else b.input_entries
        body = b.record(entries, rel)
        return zb.write_zip(with_record(entries, rel, body[:int(len(body) * frac)]))
    return make


for rel, pat in (("data.pkl", r"data\.pkl"), ("constants.pkl", r"constants\.pkl"),
                 (MAIN_CODE, r"__torch__|code/|line \d+|Expected|unexpected|end of")):
    for frac in (0.0, 0.5, 0.9):
        add(f"trunc-record-{rel.replace('/', '_')}-{int(frac * 100)}pct", "truncation", "archive",
            _trunc_record(rel, frac), 1, pat)
for frac in (0.0, 0.5, 0.9):
    add(f"trunc-record-input-data.pkl-{int(frac * 100)}pct", "truncation", "input",
        _trunc_record("data.pkl", frac, "input"), 1, r"data\.pkl")
add("trunc-record-input-data0-half", "truncation", "input",
    lambda b: zb.write_zip(with_record(b.input_entries, "data/0", b.record(b.input_entries, "data/0")[:12])),
    1, r"data/0.*bytes|needs")


def _trunc_program(frac):
    def make(b):
        return b.program[:int(len(b.program) * frac)]
    return make


for frac in (0.35, 0.6, 0.75, 0.93):
    add(f"trunc-program-{int(frac * 100)}pct", "truncation", "program", _trunc_program(frac), 1,
        r"program\.py|line \d+|expected|unexpected|end of|indent")

# ---- lies in zip headers (rewritten archives: the base's records in our own zip writer)


def _zip(base="module", **kw):
    def make(b):
        entries = b.module_entries if base == "module" else b.input_entries
        kw2 = {k: (v(b, entries) if callable(v) else v) for k, v in kw.items()}
        return zb.write_zip(entries, **kw2)
    return make


def _idx(rel, base="module"):
    return lambda b, e: b.index(e, rel)


def _per(rel, fields):
    """{index of rel: fields} for write_zip's local= / cd=."""
    return lambda b, e: {b.index(e, rel): fields}


add("zip-rewritten-valid", "zip-lies", "archive", _zip(), 0, VALID, "our zip writer's honest output")
add("zip-rewritten-valid-input", "zip-lies", "input", _zip("input"), 0, VALID)
add("zip64-valid", "zip64", "archive", _zip(zip64=True), 0, VALID, "ZIP64 end records, all true")
add("zip-unaligned-valid", "zip-lies", "archive", _zip(align=0), 0, VALID, "records not 64-byte aligned")

LIE_RECORDS = [("data.pkl", "datapkl"), ("data/0", "data0"), ("version", "version")]
for rel, tag in LIE_RECORDS:
    for field, val, code, pat in [
        ("sig", 0x04034B51, 1, ZIP_BROKEN),
        ("crc", 0x12345678, 1, r"crc|corrupt|checksum"),
        ("csize", 0, 1, ZIP_BROKEN + r"|shorter|longer"),
        ("csize", 0x7FFFFFF0, 1, ZIP_BROKEN + r"|claims"),
        ("usize", 0x7FFFFFF0, 1, ZIP_BROKEN + r"|claims"),
        ("name_len", 1, 1, ZIP_BROKEN),
        ("name_len", 0xFFFF, 1, ZIP_BROKEN),
        ("extra_len", 0xFFFF, 1, ZIP_BROKEN),
        ("method", 8, 1, ZIP_BROKEN + r"|compress|inflat|deflat"),
        ("method", 12, 1, ZIP_BROKEN + r"|compress|not supported|unsupported"),
        ("method", 99, 1, ZIP_BROKEN + r"|compress|not supported|unsupported|encrypt"),
        ("flags", 1, 1, ZIP_BROKEN + r"|encrypt|password"),
    ]:
        add(f"zip-cd-{tag}-{field}-{val:x}", "zip-lies", "archive", _zip(cd=_per(rel, {field: val})), code, pat)
    for field, val, code, pat in [
        ("sig", 0x04034B51, 1, ZIP_BROKEN),
        ("crc", 0x12345678, 1, ZIP_BROKEN + r"|crc"),
        ("csize", 3, 1, ZIP_BROKEN),
        ("usize", 0x7FFFFFF0, 1, ZIP_BROKEN),
        ("name_len", 2, 1, ZIP_BROKEN),
        ("method", 8, 1, ZIP_BROKEN + r"|compress|inflat"),
    ]:
        add(f"zip-local-{tag}-{field}-{val:x}", "zip-lies", "archive", _zip(local=_per(rel, {field: val})), code, pat)
    add(f"zip-cd-{tag}-offset-past-end", "zip-lies", "archive", _zip(cd=_per(rel, {"offset": 0x7FFFFFF0})), 1, ZIP_BROKEN)
    add(f"zip-cd-{tag}-offset-0", "zip-lies", "archive", _zip(cd=_per(rel, {"offset": 0})), 1, ZIP_BROKEN)
    add(f"zip-cd-{tag}-offset-plus-1", "zip-lies", "archive",
        lambda b, rel=rel: zb.write_zip(b.module_entries, cd={b.index(b.module_entries, rel): {
            "offset": zb.layout(zb.write_zip(b.module_entries))["local"][b.index(b.module_entries, rel)] + 1}}),
        1, ZIP_BROKEN)
    add(f"zip-data-{tag}-bytes-changed", "zip-lies", "archive",
        lambda b, rel=rel: zb.write_zip(b.module_entries, data={b.index(b.module_entries, rel): bytes(
            (c ^ 0x5A) for c in b.record(b.module_entries, rel))}),
        1, r"crc|corrupt|checksum|data\.pkl|version|unpickl|pickle")

add("zip-cd-data1-disk-7", "zip-lies", "archive", _zip(cd=_per("data/1", {"disk": 7})), 0, VALID,
    "readers ignore a record's disk number")
add("zip-cd-datapkl-made-by-unix", "zip-lies", "archive", _zip(cd=_per("data.pkl", {"made_by": 0x031E, "ext_attr": 0o100644 << 16})),
    0, VALID, "attributes of another system")
add("zip-cd-datapkl-time-date", "zip-lies", "archive", _zip(cd=_per("data.pkl", {"time": 0xFFFF, "date": 0xFFFF})), 0, VALID)
add("zip-cd-datapkl-version-needed-99", "zip-lies", "archive", _zip(cd=_per("data.pkl", {"version": 99})), 0, VALID)
add("zip-cd-datapkl-comment-len-past-cd", "zip-lies", "archive", _zip(cd=_per("data.pkl", {"comment_len": 0xFFFF})),
    1, ZIP_BROKEN)
add("zip-cd-datapkl-extra-len-past-cd", "zip-lies", "archive", _zip(cd=_per("data.pkl", {"extra_len": 0xFFFF})), 1, ZIP_BROKEN)
add("zip-cd-datapkl-sig", "zip-lies", "archive", _zip(cd=_per("data.pkl", {"sig": 0x02014B51})), 1, ZIP_BROKEN)
add("zip-cd-datapkl-name-differs-from-local", "zip-lies", "archive",
    lambda b: zb.write_zip([(n if i != b.index(b.module_entries, "data.pkl") else n, d)
                            for i, (n, d) in enumerate(b.module_entries)],
                           local={b.index(b.module_entries, "data.pkl"): {"name_len": len(b.module_entries[b.index(b.module_entries, "data.pkl")][0]) - 1}}),
    1, ZIP_BROKEN)

# end of central directory
for field, val, code, pat in [
    ("sig", 0x06054B51, 1, ZIP_BROKEN),
    ("disk", 1, 1, ZIP_BROKEN + r"|multi|disk"),
    ("cd_disk", 3, 1, ZIP_BROKEN + r"|multi|disk"),
    ("n_disk", 1, 1, ZIP_BROKEN + r"|multi|disk"),
    ("n_total", 1, 1, ZIP_BROKEN),
    ("n_total", 0, 1, ZIP_BROKEN),
    ("n_total", 0xFFF0, 1, ZIP_BROKEN),
    ("cd_size", 0, 1, ZIP_BROKEN),
    ("cd_size", 0x7FFFFFF0, 1, ZIP_BROKEN),
    ("cd_offset", 0, 1, ZIP_BROKEN),
    ("cd_offset", 0x7FFFFFF0, 1, ZIP_BROKEN),
    ("comment_len", 0xFFFF, 1, ZIP_BROKEN),
]:
    kw = {"eocd": {field: val}}
    if field in ("n_disk", "n_total"):
        # both counts lie together unless the lie is about the disk
        kw = {"eocd": {"n_disk": val, "n_total": val}} if field == "n_total" else kw
    add(f"zip-eocd-{field}-{val:x}", "zip-lies", "archive", _zip(**kw), code, pat)
add("zip-eocd-comment", "zip-lies", "archive", _zip(comment=b"a comment after the archive"), 0, VALID)
add("zip-garbage-before", "zip-lies", "archive", lambda b: b"\0" * 100 + zb.write_zip(b.module_entries), 1,
    ZIP_BROKEN, "a prefix shifts every offset")
add("zip-garbage-after", "zip-lies", "archive", _zip(tail=b"\xff" * 64), 1, ZIP_BROKEN)
add("zip-two-eocds", "zip-lies", "archive",
    lambda b: zb.write_zip(b.module_entries) + zb.pack(zb.EOCD_FIELDS, dict(
        sig=zb.EOCD_SIG, disk=0, cd_disk=0, n_disk=1, n_total=1, cd_size=46, cd_offset=0, comment_len=0)),
    1, ZIP_BROKEN)

# central directory order and duplicates
add("zip-cd-reversed", "zip-lies", "archive", lambda b: zb.write_zip(b.module_entries, cd_order=list(range(len(b.module_entries)))[::-1]),
    1, r"root folder|not a PyTorch|data\.pkl|code|constants|archive", "first record is not under the root")
add("zip-cd-entry-twice", "zip-lies", "archive",
    lambda b: zb.write_zip(b.module_entries, cd_order=list(range(len(b.module_entries))) + [0], eocd={
        "n_disk": len(b.module_entries) + 1, "n_total": len(b.module_entries) + 1}),
    1, ZIP_BROKEN + r"|duplicate|twice|more than once")


def _duplicate(rel, body_of):
    def make(b):
        e = list(b.module_entries)
        i = b.index(e, rel)
        e.insert(i + 1, (e[i][0], body_of(b, e[i][1])))
        return zb.write_zip(e)
    return make


add("zip-duplicate-datapkl", "zip-lies", "archive", _duplicate("data.pkl", lambda b, d: d), 1,
    r"duplicate|twice|more than once|inconsistent|corrupt")
add("zip-duplicate-datapkl-different", "zip-lies", "archive",
    _duplicate("data.pkl", lambda b, d: PROTO + b"N."), 1, r"duplicate|twice|more than once|inconsistent|corrupt")
add("zip-duplicate-data0-different", "zip-lies", "archive",
    _duplicate("data/0", lambda b, d: bytes(len(d))), 1, r"duplicate|twice|more than once|inconsistent|corrupt")
add("zip-duplicate-code", "zip-lies", "archive",
    _duplicate(MAIN_CODE, lambda b, d: d.replace(b"forward", b"forwarx")), 1,
    r"duplicate|twice|more than once|inconsistent|corrupt")
add("zip-two-roots", "zip-lies", "archive",
    lambda b: zb.write_zip(list(b.module_entries) + [("other/data.pkl", PROTO + b"N.")]), 0, VALID,
    "records outside the root folder are ignored by both readers")
add("zip-no-root-folder", "zip-lies", "archive",
    lambda b: zb.write_zip([(n.split("/", 1)[1], d) for n, d in b.module_entries]), 1,
    r"root folder|not a PyTorch|archive")
add("zip-name-with-dotdot", "zip-lies", "archive",
    lambda b: zb.write_zip([(n.replace("/data/0", "/../../data/0"), d) for n, d in b.module_entries]), 1,
    r"data/0|no record")
add("zip-name-nul", "zip-lies", "archive",
    lambda b: zb.write_zip([(n.replace("data.pkl", "data.pkl\0x"), d) for n, d in b.module_entries]), 1,
    r"data\.pkl|no record|corrupt|inconsistent")
add("zip-empty-archive", "zip-lies", "archive", lambda b: zb.write_zip([]), 1, r"empty archive|not a zip|truncated|corrupt")
add("zip-only-dirs", "zip-lies", "archive", lambda b: zb.write_zip([("m/", b""), ("m/data/", b"")]), 1,
    r"empty archive|no record")

# ---- ZIP64: extra fields and end records that lie
Z64 = ZIP_BROKEN + r"|zip64|ZIP64"


def _z64_extra_cd(rel, values, set_fields):
    def make(b):
        e = b.module_entries
        i = b.index(e, rel)
        return zb.write_zip(e, cd={i: set_fields}, cd_extra={i: zb.zip64_extra(*values(len(b.record(e, rel))))})
    return make


add("zip64-extra-sizes-true", "zip64", "archive",
    _z64_extra_cd("data/0", lambda n: (n, n), {"usize": 0xFFFFFFFF, "csize": 0xFFFFFFFF}), 0, VALID)
add("zip64-extra-usize-lie", "zip64", "archive",
    _z64_extra_cd("data/0", lambda n: (n + 1000, n), {"usize": 0xFFFFFFFF, "csize": 0xFFFFFFFF}), 1, Z64)
add("zip64-extra-csize-lie", "zip64", "archive",
    _z64_extra_cd("data/0", lambda n: (n, 2 ** 40), {"usize": 0xFFFFFFFF, "csize": 0xFFFFFFFF}), 1, Z64)
add("zip64-extra-huge-sizes", "zip64", "archive",
    _z64_extra_cd("data.pkl", lambda n: (2 ** 63 - 1, 2 ** 63 - 1), {"usize": 0xFFFFFFFF, "csize": 0xFFFFFFFF}), 1, Z64)
add("zip64-extra-missing", "zip64", "archive",
    _z64_extra_cd("data.pkl", lambda n: (), {"usize": 0xFFFFFFFF, "csize": 0xFFFFFFFF}), 1, Z64)
add("zip64-extra-short", "zip64", "archive",
    lambda b: zb.write_zip(b.module_entries, cd={b.index(b.module_entries, "data.pkl"): {"usize": 0xFFFFFFFF}},
                           cd_extra={b.index(b.module_entries, "data.pkl"): struct.pack("<HHI", 1, 4, 7)}), 1, Z64)
add("zip64-extra-offset-lie", "zip64", "archive",
    _z64_extra_cd("data/0", lambda n: (2 ** 62,), {"offset": 0xFFFFFFFF}), 1, Z64)
add("zip64-extra-offset-true", "zip64", "archive",
    lambda b: zb.write_zip(b.module_entries, cd={b.index(b.module_entries, "data/0"): {"offset": 0xFFFFFFFF}},
                           cd_extra={b.index(b.module_entries, "data/0"): zb.zip64_extra(
                               zb.layout(zb.write_zip(b.module_entries))["local"][b.index(b.module_entries, "data/0")])}),
    1, Z64, "the extra field changes the directory's size, so the true offset moves: still a lie")
add("zip64-extra-len-past-field", "zip64", "archive",
    lambda b: zb.write_zip(b.module_entries, cd_extra={b.index(b.module_entries, "data.pkl"): struct.pack("<HH", 1, 200) + b"\0" * 8}),
    1, Z64)
add("zip64-local-extra-true", "zip64", "archive",
    lambda b: zb.write_zip(b.module_entries, local={i: {"usize": 0xFFFFFFFF, "csize": 0xFFFFFFFF} for i in range(len(b.module_entries))},
                           local_extra={i: zb.zip64_extra(len(d), len(d)) for i, (_, d) in enumerate(b.module_entries)}),
    0, VALID, "local headers with ZIP64 sizes, as Python's zipfile writes with force_zip64")
add("zip64-local-extra-lie", "zip64", "archive",
    lambda b: zb.write_zip(b.module_entries, local={i: {"usize": 0xFFFFFFFF, "csize": 0xFFFFFFFF} for i in range(len(b.module_entries))},
                           local_extra={i: zb.zip64_extra(len(d) * 3 + 1, len(d) * 3 + 1) for i, (_, d) in enumerate(b.module_entries)}),
    1, Z64)
for field, val in [("sig", 0x06064B51), ("n_total", 1), ("n_total", 2 ** 40), ("n_disk", 2 ** 40),
                   ("cd_size", 0), ("cd_size", 2 ** 50), ("cd_offset", 2 ** 50), ("cd_offset", 1),
                   ("disk", 2), ("cd_disk", 5), ("rec_size", 2 ** 60)]:
    add(f"zip64-eocd-{field}-{val:x}", "zip64", "archive", _zip(zip64=True, z64_eocd={field: val}),
        0 if field == "rec_size" else 1, VALID if field == "rec_size" else Z64 + r"|multi|disk")
for field, val in [("sig", 0x07064B51), ("eocd_offset", 0), ("eocd_offset", 2 ** 62), ("n_disks", 5), ("disk", 3)]:
    add(f"zip64-locator-{field}-{val:x}", "zip64", "archive", _zip(zip64=True, z64_loc={field: val}), 1, Z64 + r"|multi|disk")
add("zip64-eocd-classic-fields-true", "zip64", "archive",
    lambda b: zb.write_zip(b.module_entries, zip64=True, eocd={"n_disk": len(b.module_entries), "n_total": len(b.module_entries)}),
    0, VALID, "classic counts true next to a ZIP64 record")
add("zip64-input-valid", "zip64", "input", _zip("input", zip64=True), 0, VALID)
add("zip64-input-cd-offset-lie", "zip64", "input", _zip("input", zip64=True, z64_eocd={"cd_offset": 2 ** 33}), 1, Z64)

# ---- pickle abuse: the input's data.pkl (torch.save) and the archive's data.pkl / constants.pkl replaced


def _input_pickle(pkl, extra=None):
    def make(b):
        e = with_record(b.input_entries, "data.pkl", pkl(b) if callable(pkl) else pkl)
        for rel, body in (extra or {}).items():
            e = e + [(e[0][0].split("/", 1)[0] + "/" + rel, body)]
        return zb.write_zip(e)
    return make


def _archive_pickle(rel, pkl):
    def make(b):
        return zb.write_zip(with_record(b.module_entries, rel, pkl(b) if callable(pkl) else pkl))
    return make


GOOD_TENSOR = tensor()
add("pickle-handmade-valid", "pickle", "input", _input_pickle(args_pickle(GOOD_TENSOR)), 0, VALID,
    "the hand-made tensor pickle every pickle case starts from")
PICKLE_CASES = [
    # bad opcodes and framing
    ("opcode-0xfe-first", PROTO + b"\xfe.", r"opcode|0xfe|\\xfe"),
    ("opcode-0xfe-inside", PROTO + b"(" + GOOD_TENSOR + b"\xfet.", r"opcode|0xfe|\\xfe"),
    ("opcode-0xff", b"\xff", r"opcode|0xff|\\xff"),
    ("empty", b"", r"empty|end|truncated|STOP|data\.pkl"),
    ("no-stop", PROTO + b"(" + GOOD_TENSOR + b"t", r"end|truncated|STOP|data\.pkl"),
    ("stop-on-empty-stack", PROTO + b".", r"stack|empty|underflow"),
    ("proto-6", b"\x80\x06N.", r"protocol|proto"),
    ("proto-255", b"\x80\xffN.", r"protocol|proto"),
    ("frame-huge", b"\x80\x04\x95" + struct.pack("<Q", 2 ** 62) + b"N.", r"frame|length|truncated|end|exceeds"),
    ("frame-past-end", b"\x80\x04\x95" + struct.pack("<Q", 100) + b"N.", r"frame|length|truncated|end|exceeds"),
    ("extra-after-stop", args_pickle(GOOD_TENSOR) + b"garbage", r"after|STOP|trailing|extra|garbage"),
    # stack underflow
    ("append-empty-stack", PROTO + b"a.", r"stack|empty|underflow|APPEND"),
    ("append-to-int", PROTO + b"K\x01K\x02a.", r"APPEND|list|int"),
    ("tuple2-one-item", PROTO + b"K\x01\x86.", r"stack|underflow|TUPLE"),
    ("tuple3-empty", PROTO + b"\x87.", r"stack|underflow|TUPLE"),
    ("setitem-two", PROTO + b"}K\x01s.", r"stack|underflow|SETITEM"),
    ("setitems-odd", PROTO + b"}(K\x01K\x02K\x03u.", r"odd|pairs|SETITEMS|stack"),
    ("setitem-on-list", PROTO + b"]K\x01K\x02s.", r"SETITEM|dict|list"),
    ("reduce-empty", PROTO + b"R.", r"stack|underflow|REDUCE"),
    ("reduce-int", PROTO + b"K\x01)R.", r"REDUCE|int|call"),
    ("build-empty", PROTO + b"b.", r"stack|underflow|BUILD"),
    ("build-on-int", PROTO + b"K\x01}b.", r"BUILD|int"),
    ("pop-empty", PROTO + b"0.", r"stack|underflow|POP"),
    ("pop-mark-no-mark", PROTO + b"K\x011.", r"mark|MARK"),
    ("tuple-no-mark", PROTO + b"K\x01t.", r"mark|MARK"),
    ("appends-no-mark", PROTO + b"]K\x01e.", r"mark|MARK"),
    ("dict-odd", PROTO + b"(K\x01d.", r"odd|pairs|DICT|stack"),
    ("dup-empty", PROTO + b"2.", r"stack|underflow|DUP"),
    ("unhashable-key", PROTO + b"}]K\x01s.", r"key|hash|list"),
    ("mark-left-on-stack", PROTO + b"(N\x85.", r"mark|MARK|stack"),
    # memo misuse
    ("binget-missing", PROTO + b"h\x05.", r"memo"),
    ("long-binget-huge", PROTO + b"j\xff\xff\xff\xff.", r"memo"),
    ("get-missing", PROTO + b"g999\n.", r"memo"),
    ("get-not-a-number", PROTO + b"gabc\n.", r"memo|GET|number|int"),
    ("binput-empty-stack", PROTO + b"q\x00.", r"stack|underflow|PUT|memo"),
    ("long-binput-huge-index", PROTO + b"Nr\xff\xff\xff\x7fh\x00.", r"memo"),
    ("memoize-empty", b"\x80\x04\x94.", r"stack|underflow|MEMOIZE|memo"),
    ("binget-after-pop", PROTO + b"]q\x010h\x02.", r"memo"),
    # disallowed globals, through every opcode that names or calls one
    ("global-os-system", PROTO + glob("os", "system") + pstr("true") + b"\x85R.", r"disallowed global 'os\.system'"),
    ("global-posix-system", PROTO + glob("posix", "system") + pstr("true") + b"\x85R.", r"disallowed global 'posix\.system'"),
    ("global-builtins-eval", PROTO + glob("builtins", "eval") + pstr("1+1") + b"\x85R.", r"disallowed global 'builtins\.eval'"),
    ("global-builtins-getattr", PROTO + glob("builtins", "getattr") + glob("collections", "OrderedDict") + pstr("fromkeys") + b"\x86R.",
     r"disallowed global 'builtins\.getattr'"),
    ("global-subprocess-popen", PROTO + glob("subprocess", "Popen") + b"]" + pstr("true") + b"a\x85R.", r"disallowed global 'subprocess\.Popen'"),
    ("global-torch-load", PROTO + glob("torch", "load") + pstr("x") + b"\x85R.", r"disallowed global 'torch\.load'|unknown|not allowed"),
    ("global-torch-utils-other", PROTO + glob("torch._utils", "_import_dotted_name") + pstr("os.system") + b"\x85R.",
     r"disallowed global 'torch\._utils\._import_dotted_name'"),
    ("global-no-newline", PROTO + b"cos\nsystem", r"GLOBAL|newline|end|truncated"),
    ("global-empty-name", PROTO + b"c\n\n)R.", r"disallowed global|GLOBAL"),
    ("stack-global-os-system", b"\x80\x04" + b"\x8c\x02os\x94\x8c\x06system\x94\x93" + pstr("true") + b"\x85R.",
     r"disallowed global 'os\.system'"),
    ("stack-global-not-strings", b"\x80\x04K\x01K\x02\x93.", r"STACK_GLOBAL|string"),
    ("stack-global-underflow", b"\x80\x04\x93.", r"stack|underflow|STACK_GLOBAL"),
    ("inst-os-system", PROTO + b"(" + pstr("true") + b"ios\nsystem\n.", r"INST|OBJ|not allowed|disallowed"),
    ("obj-os-system", PROTO + b"(" + glob("os", "system") + pstr("true") + b"o.", r"INST|OBJ|not allowed|disallowed"),
    ("newobj-ordereddict", PROTO + glob("collections", "OrderedDict") + b")\x81\x85.", r"NEWOBJ|not allowed|disallowed|object"),
    ("newobj-ex", b"\x80\x04" + glob("collections", "OrderedDict") + b")}\x92\x85.", r"NEWOBJ|not allowed|disallowed|object|opcode"),
    ("reduce-ordereddict-with-junk", PROTO + glob("collections", "OrderedDict") + b"K\x01\x85R.", r"OrderedDict|argument|expected"),
    ("build-on-ordereddict-sets-attr", PROTO + glob("collections", "OrderedDict") + b")R}" + pstr("__class__") + glob("os", "system") + b"sb.",
     r"disallowed global 'os\.system'"),
    ("ext1", PROTO + b"\x82\x01.", r"EXT|extension|opcode|not allowed|not supported"),
    ("ext4", PROTO + b"\x84\xff\xff\xff\xff.", r"EXT|extension|opcode|not allowed|not supported"),
    ("persid-protocol-0", b"Pfoo\n.", r"persistent id|PERSID|not a tuple"),
    # huge length prefixes
    ("binunicode-4g", PROTO + b"X\xff\xff\xff\xff" + b"abc.", r"length|truncated|end|exceeds|bytes"),
    ("binunicode8-2e63", b"\x80\x04\x8d" + struct.pack("<Q", 2 ** 63) + b"abc.", r"length|truncated|end|exceeds|bytes"),
    ("binbytes-4g", b"\x80\x03B\xff\xff\xff\xff.", r"length|truncated|end|exceeds|bytes"),
    ("binbytes8-huge", b"\x80\x04\x8e" + struct.pack("<Q", 2 ** 64 - 1) + b".", r"length|truncated|end|exceeds|bytes"),
    ("bytearray8-huge", b"\x80\x05\x96" + struct.pack("<Q", 2 ** 62) + b".", r"length|truncated|end|exceeds|bytes|opcode|BYTEARRAY"),
    ("short-binstring-past-end", PROTO + b"U\xffabc.", r"length|truncated|end|exceeds|bytes"),
    ("long4-huge", PROTO + b"\x8b\xff\xff\xff\x7f.", r"length|truncated|end|exceeds|bytes|LONG"),
    ("long1-beyond-int64", PROTO + b"\x8a\x10" + b"\x01" * 16 + b"\x85.", r"64 bits|int64|range|overflow|too large|LONG"),
    ("long-text-beyond-int64", PROTO + b"L" + b"9" * 400 + b"L\n\x85.", r"int64|range|overflow|too large|LONG"),
    ("int-text-garbage", PROTO + b"I12abc\n\x85.", r"INT|int|number|invalid"),
    ("float-text-garbage", PROTO + b"F1.2.3\n\x85.", r"FLOAT|float|number|invalid"),
    ("unicode-invalid-utf8", PROTO + b"X\x04\x00\x00\x00\xff\xfe\xfd\xfc\x85.", r"UTF-8|utf8|unicode|invalid"),
    ("unicode-lone-surrogate", PROTO + b"X\x03\x00\x00\x00\xed\xa0\x80\x85.", r"UTF-8|utf8|unicode|surrogate|invalid"),
    # persistent ids and storages
    ("persid-not-tuple", args_pickle(glob("torch._utils", "_rebuild_tensor_v2") + ptuple([pint(5) + b"Q", pint(0), ptuple([]), ptuple([]), b"\x89", glob("collections", "OrderedDict") + b")R"]) + b"R"),
     r"persistent id"),
    ("persid-short-tuple", args_pickle(tensor(pid=ptuple([pstr("storage"), glob("torch", "FloatStorage")]) + b"Q")), r"persistent id"),
    ("persid-wrong-tag", args_pickle(tensor(pid=ptuple([pstr("module"), glob("torch", "FloatStorage"), pstr("0"), pstr("cpu"), pint(6)]) + b"Q")),
     r"persistent id"),
    ("persid-unknown-storage-class", args_pickle(tensor(pid=storage_pid(cls="EvilStorage"))), r"EvilStorage|storage type|disallowed"),
    ("persid-storage-class-os", args_pickle(tensor(pid=ptuple([pstr("storage"), glob("os", "system"), pstr("0"), pstr("cpu"), pint(6)]) + b"Q")),
     r"disallowed global 'os\.system'|storage type"),
    ("persid-missing-record", args_pickle(tensor(pid=storage_pid(key="7"))), r"data/7|no record"),
    ("persid-key-path-traversal", args_pickle(tensor(pid=storage_pid(key="../data.pkl"))), r"data/\.\./data\.pkl|no record|key"),
    ("persid-key-not-string", args_pickle(tensor(pid=storage_pid(key=b"N"))), r"key|persistent id"),
    ("persid-location-cuda", args_pickle(tensor(pid=storage_pid(loc="cuda:0"))), r"cuda|CUDA|location|device"),
    ("persid-location-garbage", args_pickle(tensor(pid=storage_pid(loc="\x01\x02"))), r"location|device|\\x01"),
    ("persid-numel-negative", args_pickle(tensor(pid=storage_pid(numel=-1))), r"storage size|numel|negative|size"),
    ("persid-numel-str", args_pickle(tensor(pid=storage_pid(numel=pstr("6")))), r"storage size|numel|size"),
    ("storage-numel-beyond-record", args_pickle(tensor(sizes=(100,), strides=(1,), pid=storage_pid(numel=100))),
     r"data/0.*bytes|needs|exceeds"),
    ("storage-numel-huge", args_pickle(tensor(sizes=(1,), strides=(1,), pid=storage_pid(numel=2 ** 62))),
     r"data/0.*bytes|needs|exceeds|overflow|too large|size"),
    ("storage-numel-int64-max", args_pickle(tensor(sizes=(1,), strides=(1,), pid=storage_pid(numel=2 ** 63 - 1))),
     r"data/0.*bytes|needs|exceeds|overflow|too large|size"),
    ("storage-shared-two-dtypes", args_pickle(ptuple([GOOD_TENSOR, tensor(pid=storage_pid(cls="LongStorage", numel=3), sizes=(3,), strides=(1,))])),
     r"storage|dtype|type|data/0"),
    ("tensor-offset-beyond-storage", args_pickle(tensor(offset=5)), r"exceeds its storage|offset"),
    ("tensor-offset-negative", args_pickle(tensor(offset=-1)), r"negative storage offset|offset"),
    ("tensor-offset-huge", args_pickle(tensor(offset=2 ** 62)), r"exceeds|offset|overflow"),
    ("tensor-size-beyond-storage", args_pickle(tensor(sizes=(3, 3))), r"exceeds its storage"),
    ("tensor-size-negative", args_pickle(tensor(sizes=(-2, 3))), r"negative size"),
    ("tensor-stride-negative", args_pickle(tensor(strides=(-3, 1))), r"negative size or stride|stride"),
    ("tensor-stride-huge", args_pickle(tensor(strides=(2 ** 62, 1))), r"exceeds its storage|overflow"),
    ("tensor-stride-overflow", args_pickle(tensor(sizes=(3, 3), strides=(2 ** 62, 2 ** 62))), r"exceeds its storage|overflow"),
    ("tensor-size-stride-lengths", args_pickle(tensor(sizes=(2, 3), strides=(1,))), r"differ in length"),
    ("tensor-size-not-int", args_pickle(glob("torch._utils", "_rebuild_tensor_v2") + ptuple([storage_pid(), pint(0), ptuple([pstr("2")]), ptuple([pint(1)]), b"\x89", glob("collections", "OrderedDict") + b")R"]) + b"R"),
     r"non-int"),
    ("tensor-sizes-not-tuple", args_pickle(glob("torch._utils", "_rebuild_tensor_v2") + ptuple([storage_pid(), pint(0), pint(6), ptuple([pint(1)]), b"\x89", glob("collections", "OrderedDict") + b")R"]) + b"R"),
     r"not a tuple"),
    ("tensor-storage-not-storage", args_pickle(glob("torch._utils", "_rebuild_tensor_v2") + ptuple([pint(1), pint(0), ptuple([pint(1)]), ptuple([pint(1)]), b"\x89", glob("collections", "OrderedDict") + b")R"]) + b"R"),
     r"expected|storage"),
    ("rebuild-v2-too-few-args", args_pickle(glob("torch._utils", "_rebuild_tensor_v2") + ptuple([storage_pid(), pint(0)]) + b"R"),
     r"expected|arguments"),
    ("rebuild-v3-bad-dtype", args_pickle(glob("torch._utils", "_rebuild_tensor_v3") + ptuple([storage_pid(cls="UntypedStorage", numel=24), pint(0), ptuple([pint(6)]), ptuple([pint(1)]), b"\x89", glob("collections", "OrderedDict") + b")R", pint(200)]) + b"R"),
     r"dtype|_rebuild_tensor_v3|disallowed"),
    ("rebuild-parameter-of-int", args_pickle(glob("torch._utils", "_rebuild_parameter") + ptuple([pint(1), b"\x88", glob("collections", "OrderedDict") + b")R"]) + b"R"),
     r"_rebuild_parameter|expected"),
    ("rebuild-from-type-os", args_pickle(glob("torch._tensor", "_rebuild_from_type_v2") + ptuple([glob("torch._utils", "_rebuild_tensor_v2"), glob("os", "system"), ptuple([]), b"}"]) + b"R"),
     r"disallowed global 'os\.system'|only torch"),
    ("rebuild-qtensor", args_pickle(glob("torch._utils", "_rebuild_qtensor") + ptuple([storage_pid()]) + b"R"),
     r"_rebuild_qtensor|disallowed|not supported|quantized"),
    ("rebuild-sparse", args_pickle(glob("torch._utils", "_rebuild_sparse_tensor") + ptuple([pint(0)]) + b"R"),
     r"_rebuild_sparse_tensor|disallowed|not supported|sparse"),
    ("requires-grad-not-bool", args_pickle(tensor(grad=pint(7))), r"requires_grad|bool|expected"),
]
for name, pkl, pat in PICKLE_CASES:
    code = 1
    add(f"pickle-{name}", "pickle", "input", _input_pickle(pkl), code, pat)

# the same abuse through a TorchScript archive's own pickles
for name, pkl, pat in [
    ("archive-datapkl-os-system", PROTO + glob("os", "system") + pstr("true") + b"\x85R.", r"disallowed global 'os\.system'"),
    ("archive-datapkl-stack-global", b"\x80\x04\x8c\x08builtins\x94\x8c\x04exec\x94\x93" + pstr("x=1") + b"\x85R.", r"disallowed global 'builtins\.exec'"),
    ("archive-datapkl-unknown-class", PROTO + glob("__torch__", "NoSuchModule") + b")\x81}b.", r"unknown class|NoSuchModule"),
    ("archive-datapkl-class-outside-torch", PROTO + glob("__main__", "Small") + b")\x81}b.", r"disallowed global '__main__\.Small'"),
    ("archive-datapkl-not-object", PROTO + b"K\x05.", r"data\.pkl|module|object|int"),
    ("archive-datapkl-none", PROTO + b"N.", r"data\.pkl|module|object|None"),
    ("archive-datapkl-memo", PROTO + b"h\x09.", r"memo"),
    ("archive-constants-os", PROTO + glob("os", "system") + pstr("true") + b"\x85R.", r"disallowed global 'os\.system'"),
    ("archive-constants-not-tuple", PROTO + b"K\x05.", r"constants|tuple"),
    ("archive-constants-bad-opcode", PROTO + b"\xfe.", r"opcode|constants"),
]:
    rel = "constants.pkl" if "constants" in name else "data.pkl"
    add(f"pickle-{name}", "pickle", "archive", _archive_pickle(rel, pkl), 1, pat)


def _archive_tensor_lie(sizes, strides, offset=0):
    """The module's data.pkl with its first tensor's view replaced (sizes, strides, offset)."""
    def make(b):
        pkl = b.record(b.module_entries, "data.pkl")
        import pickletools
        ops = list(pickletools.genops(pkl))
        # the first _rebuild_tensor_v2 call: after BINPERSID come the offset and the size and stride tuples
        i = next(k for k, (op, arg, pos) in enumerate(ops) if op.name == "BINPERSID")
        j = i + 1
        while ops[j][0].name in ("BINPUT", "LONG_BINPUT", "MEMOIZE"):
            j += 1
        start = ops[j][2]
        # find the end of the stride tuple: the second TUPLE* opcode after BINPERSID
        tuples = [k for k in range(i + 1, len(ops)) if ops[k][0].name in ("TUPLE", "TUPLE1", "TUPLE2", "TUPLE3", "EMPTY_TUPLE")]
        end_k = tuples[1]
        end = ops[end_k + 1][2]
        new = pint(offset) + ptuple([pint(s) for s in sizes]) + ptuple([pint(s) for s in strides])
        return zb.write_zip(with_record(b.module_entries, "data.pkl", pkl[:start] + new + pkl[end:]))
    return make


# ---- hostile sizes
HOSTILE = [
    ("input-shape-product-overflows", args_pickle(tensor(sizes=(2 ** 32, 2 ** 32), strides=(0, 0))), 1, r"overflow|too large|exceeds"),
    ("input-shape-product-overflows-3d", args_pickle(tensor(sizes=(2 ** 21, 2 ** 21, 2 ** 22), strides=(0, 0, 0))), 1, r"overflow|too large|exceeds"),
    ("input-shape-int64-max", args_pickle(tensor(sizes=(2 ** 63 - 1,), strides=(1,))), 1, r"overflow|too large|exceeds"),
    ("input-many-dims", args_pickle(tensor(sizes=(1,) * 100000, strides=(1,) * 100000)), 1, r"dimensions|dims|too many|rank"),
    ("input-tuple-1m-items", PROTO + b"(" + b"N" * 1000000 + b"t\x85.", 0, VALID),
    ("input-storage-numel-2e40", args_pickle(tensor(sizes=(2, 3), pid=storage_pid(numel=2 ** 40))), 1, r"data/0.*bytes|needs|exceeds|too large"),
    ("input-storage-bytes-overflow", args_pickle(tensor(sizes=(1,), strides=(1,), pid=storage_pid(cls="DoubleStorage", numel=2 ** 61 + 1))),
     1, r"data/0.*bytes|needs|exceeds|overflow|too large"),
]
for name, pkl, code, pat in HOSTILE:
    add(f"size-{name}", "hostile-size", "input", _input_pickle(pkl), code, pat)
for name, sizes, strides, offset, code, pat in [
    ("archive-buffer-offset-beyond", (2,), (1,), 10 ** 6, 1, r"exceeds its storage|offset"),
    ("archive-buffer-size-overflow", (2 ** 40, 2 ** 40), (1, 1), 0, 1, r"overflow|exceeds"),
    ("archive-buffer-negative-size", (-1,), (1,), 0, 1, r"negative"),
    ("archive-buffer-beyond-storage", (3,), (1,), 0, 1, r"exceeds its storage"),
    ("archive-buffer-view-changed", (2, 1), (1, 1), 0, 0, VALID),
    ("archive-buffer-wrong-shape", (1, 1, 1, 2), (2, 2, 2, 1), 0, 0, VALID),
]:
    add(f"size-{name}", "hostile-size", "archive", _archive_tensor_lie(sizes, strides, offset), code, pat)

# ---- deep nesting
DEEP = 100000


def _prog(text):
    return lambda b: text


NEST = r"nest|deep|recursion|too deep"
add("deep-pickle-lists", "deep-nesting", "input", _input_pickle(PROTO + b"]" * DEEP + b"a" * (DEEP - 1) + b"\x85."), 1, r"nested deeper than 1000")
add("deep-pickle-tuples", "deep-nesting", "input", _input_pickle(PROTO + b")" + b"\x85" * DEEP + b"\x85."), 1, r"nested deeper than 1000")
add("deep-pickle-dicts", "deep-nesting", "input", _input_pickle(PROTO + b"}" + b"K\x00}" * DEEP + b"s" * DEEP + b"\x85."), 1, r"nested deeper than 1000")
add("deep-pickle-marks", "deep-nesting", "input", _input_pickle(PROTO + b"(" * DEEP + b"t" * DEEP + b"\x85."), 1, r"nested deeper than 1000|mark")
add("deep-pickle-ordereddict-reduce", "deep-nesting", "input",
    _input_pickle(PROTO + glob("collections", "OrderedDict") * 20000 + b"]" + b"\x85R" * 20000 + b"\x85."),
    1, NEST + r"|OrderedDict|argument")
add("deep-pickle-within-limit", "deep-nesting", "input", _input_pickle(PROTO + b"]" * 200 + b"a" * 199 + b"\x85."), 0, VALID)
add("deep-archive-constants", "deep-nesting", "archive",
    _archive_pickle("constants.pkl", PROTO + b"]" * DEEP + b"a" * (DEEP - 1) + b"\x85."), 1, r"nested deeper than 1000")
PROGRAM_HEAD = "import torch\nfrom typing import List, Optional, Dict, Tuple, Union\n\n"
add("deep-source-parens", "deep-nesting", "program", _prog(PROGRAM_HEAD + "def f(x: int) -> int:\n    return " + "(" * DEEP + "x" + ")" * DEEP + "\n"), 1, NEST)
add("deep-source-lists", "deep-nesting", "program", _prog(PROGRAM_HEAD + "def f(x: int) -> int:\n    y = " + "[" * DEEP + "x" + "]" * DEEP + "\n    return x\n"), 1, NEST)
add("deep-source-unary-minus", "deep-nesting", "program", _prog(PROGRAM_HEAD + "def f(x: int) -> int:\n    return " + "-" * DEEP + "x\n"), 1, NEST)
add("deep-source-not", "deep-nesting", "program", _prog(PROGRAM_HEAD + "def f(x: int) -> int:\n    return int(" + "not " * DEEP + "x)\n"), 1, NEST)
add("deep-source-calls", "deep-nesting", "program", _prog(PROGRAM_HEAD + "def f(x: int) -> int:\n    return " + "abs(" * DEEP + "x" + ")" * DEEP + "\n"), 1, NEST)
add("deep-source-subscripts", "deep-nesting", "program", _prog(PROGRAM_HEAD + "def f(x: List[int]) -> int:\n    return x" + "[0]" * DEEP + "\n"), 1, NEST + r"|subscript|int")
add("deep-source-power", "deep-nesting", "program", _prog(PROGRAM_HEAD + "def f(x: int) -> int:\n    return x" + " ** x" * DEEP + "\n"), 1, NEST)
add("deep-source-lambda-ternary", "deep-nesting", "program", _prog(PROGRAM_HEAD + "def f(x: int) -> int:\n    return " + "x if x else " * 20000 + "x\n"), 1, NEST)


def _deep_blocks(kw, n):
    lines = [PROGRAM_HEAD + "def f(x: int) -> int:"]
    for i in range(n):
        ind = "    " * (i + 1)
        lines.append(ind + {"if": "if x > 0:", "while": "while x > 100:", "for": "for i in range(1):",
                            "with": "with torch.no_grad():", "try": "try:"}[kw])
    lines.append("    " * (n + 1) + "x = x + 1")
    if kw == "try":
        for i in reversed(range(n)):
            lines.append("    " * (i + 1) + "except Exception:")
            lines.append("    " * (i + 2) + "pass")
    lines.append("    return x")
    return "\n".join(lines) + "\n"


for kw in ("if", "while", "for", "with", "try"):
    add(f"deep-source-{kw}-blocks", "deep-nesting", "program", _prog(_deep_blocks(kw, 10000)), 1,
        NEST + r"|indent|try|not supported")
add("deep-source-annotation-list", "deep-nesting", "program",
    _prog(PROGRAM_HEAD + "def f(x: " + "List[" * DEEP + "int" + "]" * DEEP + ") -> int:\n    return 1\n"), 1, NEST)
add("deep-source-annotation-optional", "deep-nesting", "program",
    _prog(PROGRAM_HEAD + "def f(x: int) -> int:\n    y: " + "Optional[" * DEEP + "int" + "]" * DEEP + " = None\n    return x\n"), 1, NEST)
add("deep-source-annotation-comment", "deep-nesting", "program",
    _prog(PROGRAM_HEAD + "def f(x):\n    # type: (" + "List[" * DEEP + "int" + "]" * DEEP + ") -> int\n    return 1\n"), 1, NEST)
add("deep-source-dict-type", "deep-nesting", "program",
    _prog(PROGRAM_HEAD + "def f(x: int) -> int:\n    y = torch.jit.annotate(" + "Dict[str, " * DEEP + "int" + "]" * DEEP + ", {})\n    return x\n"), 1, NEST)


def _archive_code(fn):
    def make(b):
        rel = MAIN_CODE
        src = b.record(b.module_entries, rel).decode()
        return zb.write_zip(with_record(b.module_entries, rel, fn(src).encode("utf-8", "surrogateescape")))
    return make


add("deep-code-annotation", "deep-nesting", "archive",
    _archive_code(lambda s: s.replace("def forward(self: __torch__.small_module.Small,\n    x: Tensor)",
                                      "def forward(self: __torch__.small_module.Small,\n    x: " + "List[" * DEEP + "Tensor" + "]" * DEEP + ")")),
    1, NEST)
add("deep-code-expression", "deep-nesting", "archive",
    _archive_code(lambda s: s.replace("    return ", "    _z = " + "(" * DEEP + "1" + ")" * DEEP + "\n    return ", 1)), 1, NEST)
add("deep-code-blocks", "deep-nesting", "archive",
    _archive_code(lambda s: s.replace("    return ", "".join("    " + "  " * i + "if True:\n" for i in range(10000))
                                      + "    " + "  " * 10000 + "pass\n    return ", 1)), 1, NEST + r"|indent")

# ---- huge literals
add("literal-int-1m-digits", "huge-literal", "program", _prog(PROGRAM_HEAD + "def f(x: int) -> int:\n    return x + " + "9" * 1000000 + "\n"), 1,
    r"integer|int|literal|range|too large|overflow")
add("literal-int-int64-max-plus-1", "huge-literal", "program", _prog(PROGRAM_HEAD + "def f(x: int) -> int:\n    return x + 9223372036854775808\n"), 1,
    r"integer|int|literal|range|too large|overflow")
add("literal-hex-huge", "huge-literal", "program", _prog(PROGRAM_HEAD + "def f(x: int) -> int:\n    return x + 0x" + "f" * 10000 + "\n"), 1,
    r"integer|int|literal|range|too large|overflow")
add("literal-float-1m-digits", "huge-literal", "program",
    _prog(PROGRAM_HEAD + "def f(x: float) -> float:\n    return x + " + "1" * 1000000 + ".5\n"), 0, VALID, "a long float literal is inf-free: 1.1e999999 is inf in Python")
add("literal-float-exponent-huge", "huge-literal", "program",
    _prog(PROGRAM_HEAD + "def f(x: float) -> float:\n    return x + 1e" + "9" * 5000 + "\n"), 0, VALID, "1e99999... is inf, as in Python")
add("literal-string-10mb", "huge-literal", "program",
    _prog(PROGRAM_HEAD + "def f(x: int) -> int:\n    return x + len('" + "a" * 10000000 + "')\n"), 0, VALID)
add("literal-string-unterminated-1mb", "huge-literal", "program",
    _prog(PROGRAM_HEAD + "def f(x: int) -> int:\n    return x + len('" + "a" * 1000000 + "\n"), 1, r"string|unterminated|quote|EOL|end of")
add("literal-identifier-1mb", "huge-literal", "program",
    _prog(PROGRAM_HEAD + "def f(x: int) -> int:\n    return x + " + "a" * 1000000 + "\n"), 1, r"undefined|not defined|unknown")
add("literal-list-20k-items", "huge-literal", "program",
    _prog(PROGRAM_HEAD + "def f(x: int) -> int:\n    return x + len([" + "1, " * 20000 + "])\n"), 0, VALID)
add("literal-code-int-huge", "huge-literal", "archive",
    _archive_code(lambda s: s.replace("    return ", "    _z = " + "7" * 100000 + "\n    return ", 1)), 1,
    r"integer|int|literal|range|too large|overflow")
add("literal-code-string-huge", "huge-literal", "archive",
    _archive_code(lambda s: s.replace("    return ", "    _z = \"" + "b" * 2000000 + "\"\n    return ", 1)), 0, VALID)
add("literal-code-name-huge", "huge-literal", "archive",
    _archive_code(lambda s: s.replace("    return ", "    _z = " + "q" * 1000000 + "\n    return ", 1)), 1, r"undefined|not defined|unknown")
add("literal-code-line-100k-chars", "huge-literal", "archive",
    _archive_code(lambda s: s.replace("    return ", "    _z = " + " + ".join(["1"] * 30000) + " + undefined_zzz\n    return ", 1)), 1,
    r"undefined_zzz|not defined|too deeply nested")

# ---- bad code/ in archives
BAD_CODE = [
    ("syntax-error", lambda s: s.replace("def forward(", "def forward((", 1), r"__torch__|line \d+|expected|unexpected"),
    ("tab-indent", lambda s: s.replace("\n  return", "\n\treturn", 1), r"__torch__|line \d+|indent|expected|unexpected"),
    ("nul-byte", lambda s: s.replace("return", "re\0turn", 1), r"__torch__|line \d+|character|NUL|\\x00|unexpected|invalid"),
    ("invalid-utf8", lambda s: s.replace("return", "re\udcfftu", 1), r"__torch__|line \d+|UTF-8|character|invalid|unexpected"),
    ("unknown-op", lambda s: s.replace("torch.mul(", "torch.no_such_op_zz(", 1), r"no_such_op_zz"),
    ("unknown-class", lambda s: s.replace("__torch__.torch.nn.modules.linear.Linear", "__torch__.NoSuchClassZz", 1), r"NoSuchClassZz"),
    ("wrong-return-type", lambda s: s.replace("-> Tensor:", "-> int:", 1), r"int|Tensor|return"),
    ("missing-forward", lambda s: s.replace("def forward(", "def forwarq(", 1), r"forward"),
    ("import-os", lambda s: "import os\n" + s, r"import|os"),
    ("empty", lambda s: "", r"Small|class|__torch__|forward|not found|no class"),
    ("class-twice", lambda s: s + "\n" + s[s.index("class "):], r"Small|twice|already|redefin|duplicate"),
    ("attribute-type-lie", lambda s: s.replace("scale : Tensor", "scale : int", 1), r"scale|int|Tensor|type"),
    ("undefined-attribute", lambda s: s.replace("self.scale", "self.scalezz", 1), r"scalezz"),
    ("raise-at-runtime", lambda s: s.replace("    return ", "    ops.prim.RaiseException(\"boom from code\", \"builtins.ValueError\")\n    return ", 1),
     r"boom from code"),
]
for name, fn, pat in BAD_CODE:
    # torch.jit.load compiles a return type that lies; the value is checked when it is returned
    code = 2 if name in ("raise-at-runtime", "wrong-return-type") else 1
    add(f"code-{name}", "bad-code", "archive", _archive_code(fn), code, pat)


def _archive_record(rel, body):
    def make(b):
        return zb.write_zip(replace_records(b.module_entries, {rel: body}))
    return make


add("code-missing-file", "bad-code", "archive", _archive_record(MAIN_CODE, None), 1, r"__torch__|Small|code|not found|no record")
add("code-missing-linear", "bad-code", "archive", _archive_record("code/__torch__/torch/nn/modules/linear.py", None), 1,
    r"Linear|linear|not found|no record|code")
add("code-debug-pkl-garbage", "bad-code", "archive",
    lambda b: zb.write_zip(replace_records(b.module_entries, {MAIN_CODE + ".debug_pkl": b"\xfe\xfe"})), 0, VALID,
    "debug records are optional; torch reads them lazily")
add("data-record-missing", "bad-code", "archive", _archive_record("data/0", None), 1, r"data/0|no record")
add("data-record-short", "bad-code", "archive",
    lambda b: zb.write_zip(with_record(b.module_entries, "data/0", b.record(b.module_entries, "data/0")[:4])), 1,
    r"data/0.*bytes|needs|exceeds")
add("data-record-longer", "bad-code", "archive",
    lambda b: zb.write_zip(with_record(b.module_entries, "data/1", b.record(b.module_entries, "data/1") + b"\0" * 64)), 0, VALID)

# ---- version records
for name, body, code, pat in [
    ("999", b"999\n", 1, r"version.*999"),
    ("zero", b"0\n", 1, r"version"),
    ("negative", b"-1\n", 1, r"version"),
    ("text", b"abc\n", 1, r"version"),
    ("empty", b"", 1, r"version"),
    ("huge-number", b"9" * 400 + b"\n", 1, r"version"),
    ("binary", b"\xff\xfe\x00\x01", 1, r"version"),
    ("long-line", b"3" + b" " * 100000 + b"x\n", 1, r"version"),
    ("old-1", b"1\n", 1, r"version"),
    ("with-spaces", b"  3  \n", 0, VALID),
]:
    add(f"version-{name}", "version", "archive", _archive_record("version", body), code, pat)
add("version-missing", "version", "archive", _archive_record("version", None), 1, r"version")

# ---- torch.save inputs with records of a TorchScript archive or of neither
add("input-no-datapkl", "pickle", "input", lambda b: zb.write_zip(replace_records(b.input_entries, {"data.pkl": None})), 1, r"data\.pkl")
add("input-values-valid", "pickle", "input", lambda b: b.values, 0, VALID)
add("input-byteorder-garbage", "pickle", "input",
    lambda b: zb.write_zip([(n, b"\x01" * 300 if n.endswith("/byteorder") else d) for n, d in b.input_entries]
                           if any(n.endswith("/byteorder") for n, _ in b.input_entries)
                           else list(b.input_entries) + [(b.input_entries[0][0].split("/")[0] + "/byteorder", b"\x01" * 300)]),
    1, r"byteorder")


# ---- where Kindling and PyTorch 1.13 differ on purpose
LIBZIP = ("stricter: PyTorch 1.13's reader (miniz) reads the central directory only and checks no CRC; "
          "Kindling's (libzip, ZIP_CHECKCONS) also checks the local headers against it and the CRC of every "
          "record it copies")
STRICTER = {
    "data-record-short": "stricter: PyTorch 1.13 builds a storage larger than its record",
    "pickle-storage-numel-beyond-record": "stricter: PyTorch 1.13 builds a storage larger than its record",
    "trunc-record-input-data0-half": "stricter: PyTorch 1.13 builds a storage larger than its record",
    "size-archive-buffer-offset-beyond": "stricter: torch.jit.load does not check a view against its storage",
    "pickle-long1-beyond-int64": "stricter: a TorchScript int has 64 bits",
    "pickle-long-text-beyond-int64": "stricter: a TorchScript int has 64 bits",
    "pickle-storage-shared-two-dtypes": "stricter: torch.load views the storage with its first dtype, torch.jit.load "
                                        "with each one's own; neither writer makes such a file",
    "deep-pickle-ordereddict-reduce": "stricter: Kindling's OrderedDict takes no arguments (torch.save writes "
                                      "OrderedDict() then SETITEMS)",
    "input-byteorder-garbage": "stricter: PyTorch 1.13 ignores a byteorder record it does not know",
    "version-long-line": "stricter: PyTorch reads the version with stoull, which stops at the first non-digit",
    "zip-cd-entry-twice": "stricter: two records of one name (readers disagree on which one is meant)",
    "zip-duplicate-datapkl": "stricter: two records of one name (readers disagree on which one is meant)",
    "zip-duplicate-datapkl-different": "stricter: two records of one name (readers disagree on which one is meant)",
    "zip-duplicate-data0-different": "stricter: two records of one name (readers disagree on which one is meant)",
    "zip-duplicate-code": "stricter: two records of one name (readers disagree on which one is meant)",
    "zip-eocd-comment_len-ffff": LIBZIP, "zip-garbage-after": LIBZIP, "zip-cd-datapkl-time-date": LIBZIP,
    "zip64-extra-len-past-field": LIBZIP, "zip64-extra-usize-lie": LIBZIP, "zip64-local-extra-lie": LIBZIP,
    "zip64-locator-disk-3": LIBZIP,
}
for tag in ("datapkl", "data0", "version"):
    for f in ("zip-cd-{}-crc-12345678", "zip-cd-{}-method-8", "zip-local-{}-crc-12345678", "zip-local-{}-csize-3",
              "zip-local-{}-method-8", "zip-local-{}-usize-7ffffff0", "zip-local-{}-name_len-2"):
        STRICTER[f.format(tag)] = LIBZIP
VALID_AFTER_ALL = {
    # (note, same_as): PyTorch's verdict decides these; same_as when PyTorch itself rejects the file
    "zip-cd-data0-offset-0": ("data/0 is the first record: offset 0 is its true offset", None),
    "zip-data-data0-bytes-changed": ("tensor data is used in place: neither reader checks its CRC", None),
    "zip-cd-reversed": ("the central directory in reverse order", None),
    "code-class-twice": ("torch.jit.load takes the first definition", None),
    "code-import-os": ("an import in code/ is ignored by torch.jit.load", None),
    "code-tab-indent": ("a tab indents as well as spaces", None),
    "version-old-1": ("version 1 is still read", None),
    "pickle-extra-after-stop": ("bytes after STOP are ignored", None),
    "pickle-mark-left-on-stack": ("a MARK left on the stack at STOP is ignored", None),
    "pickle-newobj-ordereddict": ("NEWOBJ of an OrderedDict: an empty one", None),
    "pickle-newobj-ex": ("NEWOBJ_EX of an OrderedDict: an empty one", None),
    "pickle-unicode-lone-surrogate": ("Python's pickle reads surrogates (surrogatepass)", None),
    "size-input-many-dims": ("100,000 dimensions of size 1", None),
    "zip64-extra-offset-true": ("torch rejects: a ZIP64 offset in a record that does not need one "
                                "(valid by the zip specification)", "zip-rewritten-valid"),
    "pickle-persid-location-cuda": ("torch rejects: no CUDA here; Kindling reads the tensor onto the CPU",
                                    "pickle-handmade-valid"),
}
for c in CASES:
    if c.id in STRICTER:
        c.note = STRICTER[c.id]
        if c.id.startswith("zip-duplicate") or c.id == "zip-cd-entry-twice":
            c.pattern = r"same name"
    if c.id in VALID_AFTER_ALL:
        c.code, c.pattern = 0, VALID
        c.note, c.same_as = VALID_AFTER_ALL[c.id]
    if c.id == "zip-cd-datapkl-time-date":
        c.code, c.pattern = 1, ZIP_BROKEN
    if c.id == "zip-cd-data1-disk-7":
        c.code, c.pattern, c.note = 1, r"multi-disk", ""

# ------------------------------------------------------------------------------------------ running

def case_by_id():
    ids = [c.id for c in CASES]
    dup = {i for i in ids if ids.count(i) > 1}
    assert not dup, f"duplicate case ids: {sorted(dup)}"
    return {c.id: c for c in CASES}


def write_cases(d, ids=None):
    """Writes every case (or those in `ids`) into DIR/cases/<id><suffix>; returns {id: path}."""
    d = pathlib.Path(d)
    b = Bases(d)
    out = d / "cases"
    out.mkdir(exist_ok=True)
    paths = {}
    for c in CASES:
        if ids is not None and c.id not in ids:
            continue
        data = c.make(b)
        p = out / (c.id + c.suffix)
        if isinstance(data, str):
            p.write_bytes(data.encode("utf-8", "surrogateescape"))
        else:
            p.write_bytes(data)
        paths[c.id] = p
    return paths


def program_input(c):
    """The torch.save file of the arguments a program case is run with."""
    if c.id.startswith(("literal-", "deep-")):
        return "float_input.pt" if "float" in c.id else "int_input.pt"
    return "program_input.pt"


# The globals a torch.save file may name for Kindling's unpickler (src/serialize/unpickler.cpp): PyTorch is
# asked with the same allow-list, so that a verdict never runs code and "torch accepts" means the same thing.
ALLOWED_GLOBALS = {
    "torch._utils": {"_rebuild_tensor", "_rebuild_tensor_v2", "_rebuild_tensor_v3", "_rebuild_parameter"},
    "torch._tensor": {"_rebuild_from_type_v2", "Tensor"},
    "torch.nn.parameter": {"Parameter"},
    "collections": {"OrderedDict"},
    "builtins": {"bytes"},
    "_codecs": {"encode"},
}


def _restricted_pickle_module():
    import pickle
    import types

    import torch

    class Unpickler(pickle.Unpickler):
        def find_class(self, module, name):
            if name in ALLOWED_GLOBALS.get(module, ()) or (module == "torch" and (
                    name.endswith("Storage") or name in ("Tensor", "Size", "device")
                    or isinstance(getattr(torch, name, None), torch.dtype))):
                return super().find_class(module, name)
            raise pickle.UnpicklingError(f"disallowed global {module}.{name}")

    return types.SimpleNamespace(Unpickler=Unpickler, load=pickle.load, __name__="restricted_pickle")


def _torch_child(c, path, d, out_path):
    import torch
    torch.set_num_threads(1)
    if c.kind == "archive":
        m = torch.jit.load(str(path))
        args = torch.load(str(d / "input.pt"))
        val = m(*args)
    elif c.kind == "input":
        val = torch.load(str(path), pickle_module=_restricted_pickle_module())
        # The value `kindling run identity.py --function f` writes back: the one argument.
        if not isinstance(val, tuple) or len(val) != 1:
            raise TypeError(f"a torch.save input holds a tuple of arguments, this one {type(val).__name__}")
        val = val[0]
    else:
        # torch.jit.CompilationUnit takes no imports: the program's imports of torch and typing are implicit.
        src = pathlib.Path(path).read_bytes().decode("utf-8", "surrogateescape")
        src = "\n".join("" if ln.startswith(("import ", "from ")) else ln for ln in src.split("\n"))
        cu = torch.jit.CompilationUnit(src)
        val = cu.f(*torch.load(str(d / program_input(c))))
    torch.save(val, str(out_path))


def torch_verdicts(d, ids=None, timeout=60):
    """{id: ('ok', path of torch's result) | ('error', message) | ('crash', signal) | ('hang', None)}: what
    PyTorch 1.13 makes of each case, each in a forked child (a crash or a hang of PyTorch is a verdict too)."""
    import signal
    import torch  # noqa: F401  (imported once, before forking)
    d = pathlib.Path(d)
    paths = write_cases(d, ids)
    res_dir = d / "torch"
    res_dir.mkdir(exist_ok=True)
    out = {}
    for c in CASES:
        if c.id not in paths:
            continue
        res = res_dir / (c.id + ".pt")
        err = res_dir / (c.id + ".err")
        for p in (res, err):
            if p.exists():
                p.unlink()
        pid = os.fork()
        if pid == 0:
            try:
                signal.alarm(timeout)
                sys.setrecursionlimit(10000)
                _torch_child(c, paths[c.id], d, res)
                os._exit(0)
            except BaseException as e:  # noqa: B902
                try:
                    err.write_text(f"{type(e).__name__}: {str(e)[:2000]}")
                except BaseException:
                    pass
                os._exit(1)
        _, status = os.waitpid(pid, 0)
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            out[c.id] = ("hang", None) if sig == signal.SIGALRM else ("crash", sig)
        elif os.WEXITSTATUS(status) == 0:
            out[c.id] = ("ok", str(res))
        else:
            out[c.id] = ("error", err.read_text() if err.exists() else "?")
    return out


def main():
    args = sys.argv[1:]
    verdicts = None
    if len(args) == 3 and args[1] == "--verdicts":
        verdicts = args[2]
        args = args[:1]
    if len(args) != 1:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 64
    d = pathlib.Path(args[0])
    write_bases(d)
    if verdicts:
        import json
        pathlib.Path(verdicts).write_text(json.dumps(torch_verdicts(d)))
        return 0
    paths = write_cases(d)
    fams = {}
    for c in CASES:
        fams[c.family] = fams.get(c.family, 0) + 1
    print(f"{len(paths)} cases in {d / 'cases'}: " + ", ".join(f"{k} {v}" for k, v in sorted(fams.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
