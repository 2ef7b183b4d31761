"""Shared fixtures for the oracle tests: the `kindling` binary, PyTorch-made fixtures, and a runner.

The oracle is Debian's PyTorch 1.13 (`/usr/bin/python3 -m pytest tests/oracle`). Fixtures (archives written
by torch.jit.save, inputs, expected outputs) are generated once into <repo>/build/oracle-fixtures (or
$KINDLING_FIXTURES_DIR) by gen_models.py and reused while its GENERATOR_VERSION is unchanged.
The binary is $KINDLING_BIN, default <repo>/build/tools/kindling/kindling.
"""
import os
import pathlib
import re
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))

import gen_models  # noqa: E402

# A report of AddressSanitizer, LeakSanitizer, UndefinedBehaviorSanitizer or ThreadSanitizer on stderr
# (a binary built with -DKINDLING_SANITIZE=..., scripts/run-sanitizers.sh): the run fails whatever its exit code.
# UndefinedBehaviorSanitizer built with -fno-sanitize-recover prints only "FILE:LINE:COL: runtime error: ...".
SANITIZER_REPORT = re.compile(
    r"^(==\d+==ERROR: \w+Sanitizer|SUMMARY: \w+Sanitizer|WARNING: ThreadSanitizer|\S+:\d+:\d+: runtime error: )", re.M)

# Max abs errors recorded by the model tests, printed in the terminal summary.
MODEL_ERRORS = {}


def kindling_bin_path():
    return pathlib.Path(os.environ.get("KINDLING_BIN", REPO / "build" / "tools" / "kindling" / "kindling"))


@pytest.fixture(scope="session")
def kindling_bin():
    path = kindling_bin_path()
    if not path.is_file() or not os.access(path, os.X_OK):
        pytest.fail(f"kindling binary not found at {path} (build it, or set KINDLING_BIN)")
    return str(path)


@pytest.fixture(scope="session")
def fixtures_dir():
    out = pathlib.Path(os.environ.get("KINDLING_FIXTURES_DIR", REPO / "build" / "oracle-fixtures"))
    gen_models.ensure_fixtures(str(out))
    return out


class Result:
    def __init__(self, cp):
        self.returncode = cp.returncode
        self.stdout = cp.stdout
        self.stderr = cp.stderr

    def describe(self):
        return (f"exit={self.returncode}\n--- stdout (last 2000 chars) ---\n{self.stdout[-2000:]}"
                f"\n--- stderr (last 2000 chars) ---\n{self.stderr[-2000:]}")


@pytest.fixture(scope="session")
def run_kindling(kindling_bin):
    """run_kindling(*args, timeout=...) -> Result; runs `kindling args...` with text output captured."""

    def run(*args, timeout=600, env=None):
        full_env = dict(os.environ)
        if env:
            full_env.update(env)
        try:
            cp = subprocess.run([kindling_bin, *map(str, args)], capture_output=True, text=True,
                                errors="replace", timeout=timeout, env=full_env, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            pytest.fail(f"kindling {' '.join(map(str, args))} timed out after {timeout}s (hang)")
        if SANITIZER_REPORT.search(cp.stderr):
            pytest.fail(f"sanitizer report from kindling {' '.join(map(str, args))}\n{cp.stderr[-6000:]}")
        return Result(cp)

    return run


def assert_no_crash(res):
    """A crash is a signal (negative code from subprocess) or a shell-style 128+signal code."""
    assert res.returncode >= 0, f"kindling died from signal {-res.returncode}\n{res.describe()}"
    assert res.returncode not in (134, 136, 139), f"kindling crashed\n{res.describe()}"


def pytest_terminal_summary(terminalreporter):
    if not MODEL_ERRORS:
        return
    terminalreporter.section("kindling vs PyTorch: max abs error per model")
    for key in sorted(MODEL_ERRORS):
        terminalreporter.write_line(f"{key:32s} {MODEL_ERRORS[key]}")


def pytest_configure(config):
    # The model zoo (test_zoo.py): zoo_slow models run only with KINDLING_ZOO=all; zoo_<category> selects one
    # category (-m zoo_rnn).
    config.addinivalue_line("markers", "zoo_slow: slow zoo model, skipped unless KINDLING_ZOO=all")
    for cat in ("classification", "segmentation", "detection", "video", "optical_flow", "attention", "rnn",
                "frozen", "language", "audio"):
        config.addinivalue_line("markers", f"zoo_{cat}: zoo models of category {cat}")
