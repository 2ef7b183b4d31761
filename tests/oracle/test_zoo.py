"""The model zoo (issue 5, item 4): every model of tests/oracle/zoo/gen_zoo.py, in every variant PyTorch can
make (scripted, traced, frozen, optimize_for_inference), run through `kindling run` and compared with the
output of the same archive loaded and run by PyTorch 1.13 (float32 rtol/atol 1e-4; tuples, lists and dicts
compared recursively, see zoo/compare.py).

Fixtures are generated per model on first use into build/zoo-fixtures (or $KINDLING_ZOO_FIXTURES).
Slow models carry the `zoo_slow` marker and are skipped unless KINDLING_ZOO=all (`-m zoo_slow` selects them).
"""
import os
import pathlib
import sys

import pytest
import torch

from conftest import MODEL_ERRORS, REPO, assert_no_crash

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent / "zoo"))
import gen_zoo  # noqa: E402
from compare import Mismatch, compare  # noqa: E402

from known_gaps import KNOWN_GAPS  # noqa: E402  (model, variant) -> the exact missing piece

RUN_ALL = os.environ.get("KINDLING_ZOO", "") == "all"


def _params():
    out = []
    for spec in gen_zoo.zoo().values():
        for variant in spec.variants:
            marks = [getattr(pytest.mark, f"zoo_{spec.category}")]
            if (spec.name, variant) in KNOWN_GAPS:
                marks.append(pytest.mark.xfail(reason=KNOWN_GAPS[(spec.name, variant)], strict=False))
            if spec.slow:
                marks += [pytest.mark.zoo_slow,
                          pytest.mark.skipif(not RUN_ALL, reason="zoo_slow: set KINDLING_ZOO=all to run")]
            out.append(pytest.param(spec.name, variant, marks=marks, id=f"{spec.name}-{variant}"))
    return out


@pytest.fixture(scope="session")
def zoo_dir():
    d = pathlib.Path(os.environ.get("KINDLING_ZOO_FIXTURES", REPO / "build" / "zoo-fixtures"))
    d.mkdir(parents=True, exist_ok=True)
    return d


@pytest.mark.parametrize("name,variant", _params())
def test_zoo_model(name, variant, zoo_dir, run_kindling, tmp_path):
    spec = gen_zoo.zoo()[name]
    d = pathlib.Path(gen_zoo.ensure_model(str(zoo_dir), name))
    err = d / f"{variant}.error"
    if err.exists():
        pytest.skip(f"PyTorch 1.13 cannot make this variant: {err.read_text().strip()}")
    out = tmp_path / "out.pt"
    res = run_kindling("run", d / f"{variant}.pt", "--input", d / "input.pt", "--output", out, "--threads", 2)
    assert_no_crash(res)
    assert res.returncode == 0, f"kindling run {name} ({variant}) failed\n{res.describe()}"
    expected = torch.load(d / f"{variant}_expected.pt")
    try:
        max_err = compare(torch.load(out), expected, atol=spec.atol)
    except Mismatch as e:
        pytest.fail(f"{name} ({variant}): {e}")
    MODEL_ERRORS[f"zoo/{name}-{variant}"] = f"max_abs_err={max_err:.3g}"
