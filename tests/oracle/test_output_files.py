"""Output files and standard output, through the CLI (`kindling save -o P`, `kindling run --output P`).

A regular file P is replaced by a temporary file in its directory renamed over it, keeping P's permission
bits; a symbolic link's target is written and the link stays; a device or FIFO is written in place and
never replaced. Write errors (a full device, a read-only directory, stdout on /dev/full) are errors with a
non-zero exit, never a silent success.
"""
import os
import pathlib
import stat
import subprocess
import threading

import pytest
import torch

from conftest import assert_no_crash

PROGRAM = "import torch\ndef f(x: torch.Tensor) -> torch.Tensor:\n    return x * 2\n"


@pytest.fixture
def prog(tmp_path):
    p = tmp_path / "prog.py"
    p.write_text(PROGRAM)
    return p


@pytest.fixture
def inp(tmp_path):
    p = tmp_path / "in.pt"
    torch.save((torch.arange(4.0),), str(p))
    return p


def ok(res):
    assert_no_crash(res)
    assert res.returncode == 0, res.describe()


def failed(res, code, *words):
    assert_no_crash(res)
    assert res.returncode == code, res.describe()
    for w in words:
        assert w in res.stderr, res.describe()


def leftovers(d):
    return [p.name for p in pathlib.Path(d).iterdir() if ".kindling-" in p.name]


def test_run_output_replaces_a_regular_file_keeping_its_mode(run_kindling, tmp_path, prog, inp):
    out = tmp_path / "out.pt"
    out.write_bytes(b"old contents")
    os.chmod(out, 0o640)
    old_inode = out.stat().st_ino
    ok(run_kindling("run", prog, "--function", "f", "--input", inp, "--output", out))
    assert torch.equal(torch.load(str(out)), torch.arange(4.0) * 2)
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert out.stat().st_ino != old_inode  # replaced by rename, not rewritten in place
    assert not leftovers(tmp_path)


def test_new_file_gets_the_umask_mode(run_kindling, tmp_path, prog, inp):
    out = tmp_path / "new.pt"
    old = os.umask(0o027)
    try:
        ok(run_kindling("run", prog, "--function", "f", "--input", inp, "--output", out))
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert not leftovers(tmp_path)


def test_save_keeps_the_mode_of_the_archive_it_replaces(run_kindling, tmp_path, prog):
    out = tmp_path / "m.pt"
    out.write_bytes(b"x")
    os.chmod(out, 0o604)
    ok(run_kindling("save", prog, "-o", out))
    assert stat.S_IMODE(out.stat().st_mode) == 0o604
    assert torch.equal(torch.jit.load(str(out))(torch.ones(2)), torch.full((2,), 2.0))


def test_symlink_target_is_written_and_the_link_stays(run_kindling, tmp_path, prog, inp):
    real_dir = tmp_path / "real"
    real_dir.mkdir()
    target = real_dir / "target.pt"
    target.write_bytes(b"old")
    link = tmp_path / "link.pt"
    link.symlink_to(target)
    ok(run_kindling("run", prog, "--function", "f", "--input", inp, "--output", link))
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert torch.equal(torch.load(str(target)), torch.arange(4.0) * 2)
    ok(run_kindling("save", prog, "-o", link))
    assert link.is_symlink()
    torch.jit.load(str(target))
    assert not leftovers(tmp_path) and not leftovers(real_dir)


def test_dangling_symlink_creates_its_target(run_kindling, tmp_path, prog, inp):
    target = tmp_path / "made.pt"
    link = tmp_path / "dangling.pt"
    link.symlink_to(target)
    ok(run_kindling("run", prog, "--function", "f", "--input", inp, "--output", link))
    assert link.is_symlink() and target.is_file()
    assert torch.equal(torch.load(str(target)), torch.arange(4.0) * 2)


@pytest.fixture
def device(tmp_path):
    """device("null") / device("full"): a character device to write to. As root, a private node made in
    tmp_path (the same device as /dev/null or /dev/full), so that a writer that wrongly replaces its
    target can never replace the system's /dev/null; otherwise the system's node, which a user cannot
    replace."""
    numbers = {"null": (1, 3), "full": (1, 7)}

    def make(name):
        if os.geteuid() != 0:
            return pathlib.Path("/dev") / name
        p = tmp_path / f"dev_{name}"
        os.mknod(p, 0o666 | stat.S_IFCHR, os.makedev(*numbers[name]))
        return p

    return make


def same_device(path, before):
    after = os.stat(path)
    return stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev and after.st_ino == before.st_ino


def test_dev_null_is_written_not_replaced(run_kindling, tmp_path, prog, inp, device):
    null = device("null")
    before = os.stat(null)
    ok(run_kindling("run", prog, "--function", "f", "--input", inp, "--output", null))
    ok(run_kindling("save", prog, "-o", null))
    assert same_device(null, before)
    assert not leftovers(null.parent)


def test_symlink_to_dev_null(run_kindling, tmp_path, prog, inp, device):
    null = device("null")
    before = os.stat(null)
    link = tmp_path / "null.pt"
    link.symlink_to(null)
    ok(run_kindling("run", prog, "--function", "f", "--input", inp, "--output", link))
    assert link.is_symlink() and same_device(null, before)


def test_dev_full_is_an_error(run_kindling, prog, inp, device):
    full = device("full")
    before = os.stat(full)
    failed(run_kindling("run", prog, "--function", "f", "--input", inp, "--output", full), 1, str(full),
           "No space left on device")
    failed(run_kindling("save", prog, "-o", full), 1, str(full))
    assert same_device(full, before)


def test_fifo_is_written_in_place(run_kindling, tmp_path, prog, inp):
    fifo = tmp_path / "pipe.pt"
    os.mkfifo(fifo)
    got = {}

    def reader():
        with open(fifo, "rb") as f:
            got["bytes"] = f.read()

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    res = run_kindling("run", prog, "--function", "f", "--input", inp, "--output", fifo, timeout=120)
    if fifo.exists() and stat.S_ISFIFO(fifo.stat().st_mode) and t.is_alive():
        with open(fifo, "wb"):  # the FIFO was never opened for writing: release the reader
            pass
    t.join(60)
    ok(res)
    assert stat.S_ISFIFO(fifo.stat().st_mode), "the FIFO was replaced"
    assert got.get("bytes"), "nothing was written to the FIFO"
    copy = tmp_path / "copy.pt"
    copy.write_bytes(got["bytes"])
    assert torch.equal(torch.load(str(copy)), torch.arange(4.0) * 2)


class Unprivileged:
    """Runs kindling as an ordinary user: as root, permission bits do not stop writes, so the child drops to
    nobody (65534) and the files live in a directory it can read."""

    def __init__(self, kindling_bin):
        import shutil
        import tempfile
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix="kindling-perm-"))
        os.chmod(self.dir, 0o755)
        # A copy of the binary nobody can execute: the checkout may sit where nobody cannot reach it
        # (/root/kindling in a fresh root is behind /root's mode 700).
        self.bin = str(self.dir / "kindling")
        shutil.copy2(kindling_bin, self.bin)
        os.chmod(self.bin, 0o755)

    def run(self, *args):
        def drop():
            if os.geteuid() == 0:
                os.setgid(65534)
                os.setuid(65534)
        cp = subprocess.run([self.bin, *map(str, args)], capture_output=True, text=True, timeout=300,
                            preexec_fn=drop, stdin=subprocess.DEVNULL)
        from conftest import Result
        return Result(cp)

    def owned(self, path):
        if os.geteuid() == 0:
            os.chown(path, 65534, 65534)

    def program_and_input(self):
        prog = self.dir / "prog.py"
        prog.write_text(PROGRAM)
        inp = self.dir / "in.pt"
        torch.save((torch.arange(4.0),), str(inp))
        return prog, inp


@pytest.fixture
def unprivileged(kindling_bin):
    import shutil
    u = Unprivileged(kindling_bin)
    yield u
    for p in u.dir.rglob("*"):
        if p.is_dir():
            os.chmod(p, 0o755)
    shutil.rmtree(u.dir, ignore_errors=True)


def test_read_only_directory_is_an_error(unprivileged):
    u = unprivileged
    prog, inp = u.program_and_input()
    d = u.dir / "ro"
    d.mkdir()
    old = d / "out.pt"
    old.write_bytes(b"keep me")
    u.owned(old)
    u.owned(d)
    os.chmod(old, 0o644)
    os.chmod(d, 0o555)
    failed(u.run("run", prog, "--function", "f", "--input", inp, "--output", old), 1, "out.pt", "Permission denied")
    failed(u.run("save", prog, "-o", d / "new.pt"), 1, "new.pt", "Permission denied")
    assert old.read_bytes() == b"keep me"
    assert sorted(p.name for p in d.iterdir()) == ["out.pt"]


def test_read_only_file_is_an_error(unprivileged):
    u = unprivileged
    prog, inp = u.program_and_input()
    d = u.dir / "w"
    d.mkdir()
    u.owned(d)
    out = d / "ro.pt"
    out.write_bytes(b"keep me")
    u.owned(out)
    os.chmod(out, 0o444)
    failed(u.run("run", prog, "--function", "f", "--input", inp, "--output", out), 1, "ro.pt", "Permission denied")
    assert out.read_bytes() == b"keep me"
    assert sorted(p.name for p in d.iterdir()) == ["ro.pt"]


def test_directory_target_is_an_error(run_kindling, tmp_path, prog, inp):
    failed(run_kindling("run", prog, "--function", "f", "--input", inp, "--output", tmp_path), 1, "Is a directory")


def test_missing_directory_is_an_error(run_kindling, tmp_path, prog):
    failed(run_kindling("save", prog, "-o", tmp_path / "no" / "such" / "m.pt"), 1, "No such file or directory")


@pytest.mark.parametrize("cmd", [["code"], ["graph"], ["run", "--input"], ["ops"]])
def test_stdout_on_dev_full_is_an_error(kindling_bin, tmp_path, prog, inp, cmd, device):
    args = [kindling_bin] + ([cmd[0]] if cmd == ["ops"] else [cmd[0], str(prog), "--function", "f"])
    if cmd == ["run", "--input"]:
        args += ["--input", str(inp)]
    with open(device("full"), "w") as full:
        cp = subprocess.run(args, stdout=full, stderr=subprocess.PIPE, text=True, timeout=300)
    assert cp.returncode == 1, cp.stderr
    assert "cannot write to standard output" in cp.stderr and "No space left on device" in cp.stderr


def test_closed_pipe_with_sigpipe_ignored(kindling_bin, prog):
    # A reader that goes away: with SIGPIPE ignored the write fails with EPIPE, an error (exit 1).
    script = f"trap '' PIPE; {kindling_bin} ops | head -c 10 > /dev/null; echo \"rc=${{PIPESTATUS[0]}}\""
    cp = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=300)
    assert "rc=1" in cp.stdout, (cp.stdout, cp.stderr)
    assert "Broken pipe" in cp.stderr


def test_closed_pipe_with_default_sigpipe(kindling_bin, prog):
    # With SIGPIPE at its default, the process ends from SIGPIPE as other Unix tools (no message).
    script = f"trap - PIPE; {kindling_bin} ops | head -c 10 > /dev/null; echo \"rc=${{PIPESTATUS[0]}}\""
    cp = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=300, restore_signals=True)
    assert "rc=141" in cp.stdout or "rc=0" in cp.stdout, (cp.stdout, cp.stderr)
    assert "internal error" not in cp.stderr
