"""Oracle test (issue 2, item 12): every model of item 9, scripted and traced, run through `kindling run`,
compared with the output of the same archive loaded and run by PyTorch 1.13 (float32: rtol 1e-4, atol 1e-4).
"""
import pytest
import torch

from conftest import MODEL_ERRORS, assert_no_crash
from gen_models import MODELS, MODES

RTOL = 1e-4
ATOL = 1e-4


def _compare(got, expected, key):
    assert isinstance(got, torch.Tensor), f"{key}: kindling wrote a {type(got).__name__}, expected a Tensor"
    assert got.dtype == expected.dtype, f"{key}: dtype {got.dtype} != {expected.dtype}"
    assert got.shape == expected.shape, f"{key}: shape {tuple(got.shape)} != {tuple(expected.shape)}"
    diff = (got.double() - expected.double()).abs()
    max_err = float(diff.max()) if diff.numel() else 0.0
    MODEL_ERRORS[key] = f"max_abs_err={max_err:.3g}  (|expected| max {float(expected.abs().max()):.3g})"
    assert torch.isfinite(got).all(), f"{key}: kindling output has non-finite values"
    assert torch.allclose(got, expected, rtol=RTOL, atol=ATOL), (
        f"{key}: mismatch, max abs error {max_err:.4g}; first values got {got.flatten()[:5].tolist()} "
        f"expected {expected.flatten()[:5].tolist()}")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("model", list(MODELS))
def test_model_matches_pytorch(model, mode, fixtures_dir, run_kindling, tmp_path):
    archive = fixtures_dir / f"{model}_{mode}.pt"
    inp = fixtures_dir / f"{model}_input.pt"
    out = tmp_path / "out.pt"
    res = run_kindling("run", archive, "--input", inp, "--output", out)
    assert_no_crash(res)
    assert res.returncode == 0, f"kindling run {model}_{mode} failed\n{res.describe()}"
    assert out.is_file(), f"kindling run wrote no {out}\n{res.describe()}"
    got = torch.load(out)
    expected = torch.load(fixtures_dir / f"{model}_{mode}_expected.pt")
    _compare(got, expected, f"{model}_{mode}")


@pytest.mark.parametrize("threads", [1, 2])
def test_threads_option_same_result(threads, fixtures_dir, run_kindling, tmp_path):
    """--threads N changes how the work is split, never the answer."""
    out = tmp_path / "out.pt"
    res = run_kindling("run", fixtures_dir / "cnn_scripted.pt", "--input", fixtures_dir / "cnn_input.pt",
                       "--output", out, "--threads", threads)
    assert_no_crash(res)
    assert res.returncode == 0, res.describe()
    _compare(torch.load(out), torch.load(fixtures_dir / "cnn_scripted_expected.pt"), f"cnn_scripted_t{threads}")


def test_bundled_example(run_kindling, tmp_path):
    """The example README.md runs (examples/tiny_cnn.pt, committed) gives PyTorch's numbers."""
    from conftest import REPO
    archive, inp = REPO / "examples" / "tiny_cnn.pt", REPO / "examples" / "input.pt"
    out = tmp_path / "out.pt"
    res = run_kindling("run", archive, "--input", inp, "--output", out)
    assert_no_crash(res)
    assert res.returncode == 0, res.describe()
    with torch.no_grad():
        expected = torch.jit.load(str(archive))(*torch.load(inp))
    _compare(torch.load(out), expected, "examples/tiny_cnn")


def _assert_same_value(got, expected, path="out"):
    """Structural equality of torch.load results: same Python types, tensors equal in dtype/shape/values."""
    if isinstance(expected, torch.Tensor):
        assert isinstance(got, torch.Tensor), f"{path}: {type(got).__name__} instead of Tensor"
        assert got.dtype == expected.dtype and got.shape == expected.shape, \
            f"{path}: {got.dtype}{tuple(got.shape)} != {expected.dtype}{tuple(expected.shape)}"
        assert torch.allclose(got, expected, rtol=RTOL, atol=ATOL), f"{path}: {got} != {expected}"
    elif isinstance(expected, (tuple, list)):
        assert type(got) is type(expected) and len(got) == len(expected), f"{path}: {got!r} != {expected!r}"
        for i, (g, e) in enumerate(zip(got, expected)):
            _assert_same_value(g, e, f"{path}[{i}]")
    elif isinstance(expected, dict):
        assert isinstance(got, dict) and list(got) == list(expected), f"{path}: keys {list(got)} != {list(expected)}"
        for k in expected:
            _assert_same_value(got[k], expected[k], f"{path}[{k!r}]")
    else:
        assert type(got) is type(expected) and got == expected, f"{path}: {got!r} != {expected!r}"


def test_output_values_of_every_kind(fixtures_dir, run_kindling, tmp_path):
    """--output writes tuples, ints, floats, bools, strs, None, lists and dicts as torch.save does."""
    out = tmp_path / "out.pt"
    res = run_kindling("run", fixtures_dir / "values.pt", "--input", fixtures_dir / "values_input.pt", "--output", out)
    assert_no_crash(res)
    assert res.returncode == 0, res.describe()
    _assert_same_value(torch.load(out), torch.load(fixtures_dir / "values_expected.pt"))


def _run_and_compare(run_kindling, tmp_path, archive, args, key):
    inp, out = tmp_path / "in.pt", tmp_path / "out.pt"
    torch.save(args, inp)
    res = run_kindling("run", archive, "--input", inp, "--output", out)
    assert_no_crash(res)
    assert res.returncode == 0, res.describe()
    with torch.no_grad():
        expected = torch.jit.load(str(archive))(*args)
    _compare(torch.load(out), expected, key)


@pytest.mark.parametrize("model", ["squeezenet1_1", "mobilenet_v2", "resnet18"])
def test_other_batch_and_size(model, fixtures_dir, run_kindling, tmp_path):
    """Nothing is specialized to the 1x3x224x224 the models were saved with: batch 2 at 96x96."""
    x = torch.randn(2, 3, 96, 96, generator=torch.Generator().manual_seed(5))
    _run_and_compare(run_kindling, tmp_path, fixtures_dir / f"{model}_scripted.pt", (x,), f"{model}_2x96")


def test_channels_last_input(fixtures_dir, run_kindling, tmp_path):
    """A channels_last input (torch.save keeps its strides) gives the same numbers."""
    x = torch.load(fixtures_dir / "resnet18_input.pt")[0].contiguous(memory_format=torch.channels_last)
    _run_and_compare(run_kindling, tmp_path, fixtures_dir / "resnet18_traced.pt", (x,), "resnet18_channels_last")


def test_non_contiguous_input(fixtures_dir, run_kindling, tmp_path):
    """A transposed (non-contiguous) input view."""
    x = torch.randn(8, 1, 8, 4, generator=torch.Generator().manual_seed(6)).transpose(0, 3)
    assert not x.is_contiguous()
    _run_and_compare(run_kindling, tmp_path, fixtures_dir / "mlp_scripted.pt", (x,), "mlp_non_contiguous")
