"""Bad input (issue 2, item 11): broken files, archives, pickles, code and inputs. Each must give a clear
error on stderr naming what is wrong and where, exit 1 (load / compile error) or 2 (runtime error raised by
the program), and never crash, hang or abort.

Broken archives are made from a real archive written by torch.jit.save, rewritten with zipfile so that only
the record under test changes.
"""
import pickletools
import re
import zipfile

import pytest
import torch

from conftest import assert_no_crash

BASE = "mlp_scripted"


def rewrite_archive(src, dst, replace=None, drop=()):
    """Copy zip `src` to `dst`, replacing records (suffix after the top folder -> bytes) and dropping others.
    Keys of `replace` and entries of `drop` are record names without the archive's top folder, e.g. 'data.pkl'."""
    replace = dict(replace or {})
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_STORED) as zout:
        for info in zin.infolist():
            rel = info.filename.split("/", 1)[1] if "/" in info.filename else info.filename
            if rel in drop:
                continue
            data = replace.pop(rel) if rel in replace else zin.read(info.filename)
            zout.writestr(info.filename, data)
    assert not replace, f"records not found in {src}: {list(replace)}"
    return dst


def read_record(src, rel):
    with zipfile.ZipFile(src) as z:
        top = z.namelist()[0].split("/", 1)[0]
        return z.read(f"{top}/{rel}")


def check_error(res, codes, *patterns, anywhere=()):
    """Exit code in `codes`, a message on stderr whose first line matches every regex in `patterns` and
    whose whole text matches every regex in `anywhere` (e.g. the file or record where the error is)."""
    assert_no_crash(res)
    assert res.returncode in codes, f"expected exit code in {codes}\n{res.describe()}"
    err = res.stderr.strip()
    assert err, f"no error message on stderr\n{res.describe()}"
    first = err.splitlines()[0]
    for pat in patterns:
        assert re.search(pat, first, re.I), f"first stderr line lacks /{pat}/: {first!r}\n{res.describe()}"
    for pat in anywhere:
        assert re.search(pat, err, re.I), f"stderr lacks /{pat}/\n{res.describe()}"
    assert "terminate called" not in err and "internal assert" not in err.lower(), res.describe()


@pytest.fixture
def base(fixtures_dir):
    return fixtures_dir / f"{BASE}.pt"


@pytest.fixture
def base_input(fixtures_dir):
    return fixtures_dir / "mlp_input.pt"


def test_missing_program_file(run_kindling, tmp_path, base_input):
    missing = tmp_path / "no_such_model.pt"
    check_error(run_kindling("run", missing, "--input", base_input), {1}, re.escape("no_such_model.pt"))


def test_truncated_zip(run_kindling, tmp_path, base, base_input):
    data = base.read_bytes()
    bad = tmp_path / "truncated.pt"
    bad.write_bytes(data[: len(data) // 2])
    check_error(run_kindling("run", bad, "--input", base_input), {1}, "truncated.pt")


def test_garbage_bytes(run_kindling, tmp_path, base_input):
    bad = tmp_path / "garbage.pt"
    bad.write_bytes(bytes((i * 37 + 11) % 256 for i in range(4096)))
    check_error(run_kindling("run", bad, "--input", base_input), {1}, "garbage.pt")


def test_empty_file(run_kindling, tmp_path, base_input):
    bad = tmp_path / "empty.pt"
    bad.write_bytes(b"")
    check_error(run_kindling("run", bad, "--input", base_input), {1}, "empty.pt")


def test_broken_pickle(run_kindling, tmp_path, base, base_input):
    pkl = read_record(base, "data.pkl")
    bad = rewrite_archive(base, tmp_path / "broken_pickle.pt", replace={"data.pkl": pkl[: len(pkl) // 2]})
    check_error(run_kindling("run", bad, "--input", base_input), {1}, "data.pkl")


def test_pickle_bad_opcode(run_kindling, tmp_path, base, base_input):
    pkl = bytearray(read_record(base, "data.pkl"))
    # Overwrite the 6th opcode (inside the root module's state, past PROTO/GLOBAL/...) with 0xFE, which
    # is no pickle opcode.
    offsets = [pos for _, _, pos in pickletools.genops(bytes(pkl))]
    pkl[offsets[5]] = 0xFE
    bad = rewrite_archive(base, tmp_path / "bad_opcode.pt", replace={"data.pkl": bytes(pkl)})
    check_error(run_kindling("run", bad, "--input", base_input), {1}, "data.pkl")


def test_missing_data_record(run_kindling, tmp_path, base, base_input):
    bad = rewrite_archive(base, tmp_path / "missing_record.pt", drop={"data/0"})
    check_error(run_kindling("run", bad, "--input", base_input), {1}, r"data/0", anywhere=["missing_record.pt"])


def test_global_outside_allow_list(run_kindling, tmp_path, base, base_input):
    # The classic exploit: os.system('echo pwned') via GLOBAL + REDUCE. Loading must refuse, never run it.
    marker = tmp_path / "pwned"
    payload = (b"\x80\x02" + b"cos\nsystem\n" + b"X" + len(f"touch {marker}").to_bytes(4, "little")
               + f"touch {marker}".encode() + b"\x85R.")
    bad = rewrite_archive(base, tmp_path / "evil_global.pt", replace={"data.pkl": payload})
    res = run_kindling("run", bad, "--input", base_input)
    check_error(res, {1}, r"os", r"system", anywhere=["data.pkl"])
    assert not marker.exists(), "the unpickler ran os.system!"


def test_unknown_operator(run_kindling, tmp_path, base, base_input):
    replace = {}
    with zipfile.ZipFile(base) as z:
        for name in z.namelist():
            rel = name.split("/", 1)[1]
            if rel.startswith("code/") and rel.endswith(".py"):
                src = z.read(name).decode()
                if "torch.linear(" in src:
                    replace[rel] = src.replace("torch.linear(", "torch.not_a_real_op(").encode()
    assert replace, "fixture has no torch.linear call to edit"
    bad = rewrite_archive(base, tmp_path / "unknown_op.pt", replace=replace)
    # Where: the code file (code/__torch__/torch/nn/modules/linear.py) or the class in it.
    check_error(run_kindling("run", bad, "--input", base_input), {1}, "not_a_real_op", anywhere=[r"linear"])


def test_syntax_error_in_code(run_kindling, tmp_path, base, base_input):
    # the code record calling torch.linear: code/__torch__/torch/nn/modules/linear.py, or a mangled name
    # (linear/___torch_mangle_N.py) when the process that wrote the fixture had scripted Linear before
    with zipfile.ZipFile(base) as z:
        rels = [n.split("/", 1)[1] for n in z.namelist()
                if n.endswith(".py") and "/code/" in n and "    return torch.linear(" in z.read(n).decode()]
    assert rels, "fixture has no torch.linear call to edit"
    rel = rels[0]
    src = read_record(base, rel).decode()
    bad_src = src.replace("    return torch.linear(", "    return torch.linear((", 1)
    assert bad_src != src
    bad = rewrite_archive(base, tmp_path / "syntax_error.pt", replace={rel: bad_src.encode()})
    check_error(run_kindling("run", bad, "--input", base_input), {1}, anywhere=[r"linear", r"<--- HERE|line \d+"])


def test_unsupported_version_record(run_kindling, tmp_path, base, base_input):
    bad = rewrite_archive(base, tmp_path / "future_version.pt", replace={"version": b"999\n"})
    check_error(run_kindling("run", bad, "--input", base_input), {1}, "version", "999")


def test_missing_method(run_kindling, base, base_input):
    check_error(run_kindling("run", base, "--input", base_input, "--method", "no_such_method"), {1},
                "no_such_method")


def test_input_wrong_shape(run_kindling, tmp_path, fixtures_dir):
    inp = tmp_path / "wrong_shape.pt"
    torch.save((torch.zeros(1, 4, 224, 224),), inp)
    check_error(run_kindling("run", fixtures_dir / "resnet18_scripted.pt", "--input", inp), {2},
                r"channel|conv|\[1, 4, 224, 224\]")


def test_input_wrong_shape_linear(run_kindling, tmp_path, base):
    inp = tmp_path / "wrong_shape.pt"
    torch.save((torch.zeros(4, 1, 8, 9),), inp)  # flattens to 72 features, fc1 takes 64
    check_error(run_kindling("run", base, "--input", inp), {2}, r"shape|size|72|64|mat")


def test_input_wrong_dtype(run_kindling, tmp_path, fixtures_dir):
    inp = tmp_path / "wrong_dtype.pt"
    torch.save((torch.zeros(1, 3, 224, 224, dtype=torch.int64),), inp)
    check_error(run_kindling("run", fixtures_dir / "resnet18_scripted.pt", "--input", inp), {2},
                r"Long|int64|Float|dtype|scalar type")


def test_input_wrong_argument_type(run_kindling, tmp_path, base):
    inp = tmp_path / "int_arg.pt"
    torch.save((5,), inp)
    check_error(run_kindling("run", base, "--input", inp), {1, 2}, r"Tensor", r"int")


def test_input_wrong_argument_count(run_kindling, tmp_path, base):
    inp = tmp_path / "two_args.pt"
    torch.save((torch.zeros(4, 1, 8, 8), torch.zeros(1)), inp)
    check_error(run_kindling("run", base, "--input", inp), {1, 2}, r"argument|forward|expected")


def test_missing_input_file(run_kindling, tmp_path, base):
    check_error(run_kindling("run", base, "--input", tmp_path / "no_such_input.pt"), {1}, "no_such_input.pt")


def test_garbage_input_file(run_kindling, tmp_path, base):
    inp = tmp_path / "garbage_input.pt"
    inp.write_bytes(b"this is not a torch.save file\n" * 10)
    check_error(run_kindling("run", base, "--input", inp), {1}, "garbage_input.pt")


def test_model_archive_given_as_input(run_kindling, base):
    check_error(run_kindling("run", base, "--input", base), {1}, "TorchScript archive", "not a torch.save file")


def test_error_messages_cap_echoed_pickle_bytes(run_kindling, tmp_path, base, base_input):
    # A GLOBAL whose module name is 100,000 bytes of junk: the message quotes 200 of them and the length.
    name = "os" + "\x01A" * 50000
    payload = b"\x80\x02c" + name.encode() + b"\nsystem\n)R."
    bad = rewrite_archive(base, tmp_path / "long_global.pt", replace={"data.pkl": payload})
    res = run_kindling("run", bad, "--input", base_input)
    check_error(res, {1}, "disallowed global", re.escape("... (100009 bytes)"))
    assert len(res.stderr) < 1500, res.describe()
    assert "\x01" not in res.stderr and r"\x01" in res.stderr


def test_error_messages_cap_echoed_source_lines(run_kindling, tmp_path):
    line = "    return x + " + " + ".join(["x"] * 20000) + " + undefined_name + " + " + ".join(["x"] * 20000)
    src = tmp_path / "long_line.py"
    src.write_text("def f(x: int) -> int:\n" + line + "\n")
    res = run_kindling("run", src, "--function", "f")
    check_error(res, {1}, "undefined_name|too deeply nested", anywhere=[re.escape(f"(line of {len(line)} characters)")])
    assert len(res.stderr) < 2000, res.describe()


def test_bool_bytes_other_than_0_and_1(run_kindling, tmp_path):
    """A bool tensor's record holding a byte that is neither 0 nor 1 (found by fuzz_torch_save: reading it
    as bool was undefined behaviour) reads as True, as torch.load's tensor behaves in every operation."""
    import struct

    good = tmp_path / "bools.pt"
    torch.save((torch.tensor([True, False, True, False, False]),), good)
    data = bytearray(good.read_bytes())
    with zipfile.ZipFile(good) as z:
        info = next(i for i in z.infolist() if i.filename.endswith("/data/0"))
    name_len, extra_len = struct.unpack("<HH", data[info.header_offset + 26:info.header_offset + 30])
    start = info.header_offset + 30 + name_len + extra_len
    assert data[start:start + 5] == b"\x01\x00\x01\x00\x00"
    data[start + 2] = 115
    data[start + 4] = 0xFF
    bad = tmp_path / "bools_bad.pt"
    bad.write_bytes(bytes(data))
    theirs = torch.load(bad)[0]
    prog = tmp_path / "bools.py"
    prog.write_text("import torch\n\ndef f(x: torch.Tensor) -> torch.Tensor:\n"
                    "    return torch.stack([x.to(torch.int64), (~x).to(torch.int64), (x & x).to(torch.int64)])\n")
    out = tmp_path / "out.pt"
    res = run_kindling("run", prog, "--function", "f", "--input", bad, "--output", out)
    assert_no_crash(res)
    assert res.returncode == 0, res.stderr
    want = torch.stack([theirs.to(torch.int64), (~theirs).to(torch.int64), (theirs & theirs).to(torch.int64)])
    assert torch.equal(torch.load(out), want), (torch.load(out), want)
