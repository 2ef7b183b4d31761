"""Helpers of the Python API tests (kindling.jit against torch.jit 1.13). Every test module imports this
first: it puts the built package on sys.path — $KINDLING_PYTHONPATH, else <build>/python next to
$KINDLING_BIN (default <repo>/build/python) — and skips the module with a message when the package was not
built (no pybind11/python3-dev at configure time); a built package that fails to import fails the run.

- `kindling_only` (a fixture; use `with kindling_only(): ...`): inside it torch.jit.script, trace,
  trace_module, load, save, freeze, optimize_for_inference, fork, wait and every torch._C._jit_* function
  are replaced by functions that raise, proving Kindling never calls them.
- `assert_same`: outputs compared as the oracle tests compare them: tensors by dtype, shape and closeness;
  ints, strings, containers exactly.
- `script_save_and_compare`: scripts a model or function with Kindling (torch.jit forbidden), runs and saves
  it, and compares its output and torch.jit.load's of the archive with eager's (and torch.jit's).
"""
import contextlib
import os
import pathlib
import sys

import pytest
import torch

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent.parent


def _package_dir():
    env = os.environ.get("KINDLING_PYTHONPATH")
    if env:
        return pathlib.Path(env)
    kbin = os.environ.get("KINDLING_BIN")
    if kbin:
        return pathlib.Path(kbin).resolve().parents[2] / "python"
    return REPO / "build" / "python"


PACKAGE_DIR = _package_dir()
if not (PACKAGE_DIR / "kindling").is_dir():
    pytest.skip(f"the kindling Python package was not built (no {PACKAGE_DIR}/kindling)", allow_module_level=True)
if str(PACKAGE_DIR) not in sys.path:
    sys.path.insert(0, str(PACKAGE_DIR))
import kindling  # noqa: E402,F401  (a built package that does not import fails the run)


_JIT_NAMES = ["script", "trace", "trace_module", "load", "save", "freeze", "optimize_for_inference",
              "script_if_tracing", "fork", "wait"]


class TorchJitCalled(AssertionError):
    pass


@contextlib.contextmanager
def forbid_torch_jit():
    """Replaces torch.jit's entry points and torch._C._jit_* by functions that raise."""
    saved = []

    def raiser(name):
        def f(*args, **kwargs):
            raise TorchJitCalled(f"{name} was called while Kindling's API ran")
        return f

    for n in _JIT_NAMES:
        if hasattr(torch.jit, n):
            saved.append((torch.jit, n, getattr(torch.jit, n)))
            setattr(torch.jit, n, raiser("torch.jit." + n))
    for n in dir(torch._C):
        if n.startswith("_jit_"):
            saved.append((torch._C, n, getattr(torch._C, n)))
            setattr(torch._C, n, raiser("torch._C." + n))
    try:
        yield
    finally:
        for obj, n, v in reversed(saved):
            setattr(obj, n, v)



@pytest.fixture
def kindling_only():
    """Use as `with kindling_only(): ...` around the calls into kindling.jit."""
    return forbid_torch_jit


def assert_same(actual, expected, atol=1e-5, rtol=1e-5, path="output"):
    """Tensors by dtype, shape and closeness; ints, strings, containers exactly."""
    if isinstance(expected, torch.Tensor):
        assert isinstance(actual, torch.Tensor), f"{path}: expected a Tensor, got {type(actual).__name__}"
        assert actual.dtype == expected.dtype, f"{path}: dtype {actual.dtype} != {expected.dtype}"
        assert actual.shape == expected.shape, f"{path}: shape {tuple(actual.shape)} != {tuple(expected.shape)}"
        if expected.dtype.is_floating_point or expected.dtype.is_complex:
            torch.testing.assert_close(actual, expected, atol=atol, rtol=rtol, equal_nan=True, msg=path)
        else:
            assert torch.equal(actual, expected), f"{path}: values differ"
        return
    if isinstance(expected, (tuple, list)):
        assert type(actual) is type(expected) or (isinstance(actual, tuple) and isinstance(expected, tuple)), \
            f"{path}: {type(actual).__name__} != {type(expected).__name__}"
        assert len(actual) == len(expected), f"{path}: length {len(actual)} != {len(expected)}"
        for i, (a, e) in enumerate(zip(actual, expected)):
            assert_same(a, e, atol, rtol, f"{path}[{i}]")
        return
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{path}: expected a dict, got {type(actual).__name__}"
        assert list(actual.keys()) == list(expected.keys()), f"{path}: keys differ"
        for k in expected:
            assert_same(actual[k], expected[k], atol, rtol, f"{path}[{k!r}]")
        return
    if isinstance(expected, float):
        assert isinstance(actual, float), f"{path}: expected float, got {type(actual).__name__}"
        if expected != expected:
            assert actual != actual, f"{path}: expected nan"
        else:
            assert actual == pytest.approx(expected, rel=rtol, abs=atol), f"{path}: {actual} != {expected}"
        return
    assert type(actual) is type(expected), f"{path}: {type(actual).__name__} != {type(expected).__name__}"
    assert actual == expected, f"{path}: {actual!r} != {expected!r}"


def script_save_and_compare(model, args, expected, path, theirs=None, script=None):
    """Scripts `model` (an nn.Module or function) with `script` (default kindling.jit.script) while torch.jit
    is forbidden, calls it on `args` and saves it to `path`; asserts that its output equals `expected`
    (eager's) and `theirs` (torch.jit's, when given) and that torch.jit.load of the archive gives `expected`.
    Returns Kindling's scripted object."""
    import kindling.jit
    with forbid_torch_jit():
        ours = (script or kindling.jit.script)(model)
        out = ours(*args)
        ours.save(str(path))
    assert_same(out, expected)
    if theirs is not None:
        assert_same(out, theirs)
    assert_same(torch.jit.load(str(path))(*args), expected)
    return ours
