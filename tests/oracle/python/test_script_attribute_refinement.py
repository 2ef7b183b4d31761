"""Optional attributes of nn.Modules refined by `is not None` tests in compiled code, against eager.

torch.jit.script 1.13 types a module attribute declared `Optional[T]` (class annotation) as Optional and
never refines attribute reads, so `if self.scale is not None: x = x * self.scale` fails to compile
("Arguments for call are not valid"); users copy the attribute to a local first. Kindling refines the
read `self.scale` where the test holds (frontend/emitter/environment.h: attribute refinements, ended by
assignments to the attribute and calls of compiled code) and saves it as a checked unwrap that
torch.jit.load runs. Each module is scripted by Kindling (torch.jit forbidden), compared with eager, saved,
and loaded back by torch.jit.load.
"""
from pyapi_helpers import assert_same, kindling_only  # noqa: F401  (first: puts the package on sys.path)
from typing import Optional

import pytest
import torch

import kindling.jit


class Scaled(torch.nn.Module):
    scale: Optional[float]
    shift: Optional[torch.Tensor]

    def __init__(self, scale: Optional[float], shift: Optional[torch.Tensor]):
        super().__init__()
        self.scale = scale
        self.shift = shift

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.scale is not None:
            x = x * self.scale
        if self.shift is None:
            return x
        return x + self.shift


class Guarded(torch.nn.Module):
    limit: Optional[int]

    def __init__(self, limit: Optional[int]):
        super().__init__()
        self.limit = limit

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert self.limit is not None, "limit must be set"
        return x[: self.limit] * 2 if self.limit > 0 else x


CASES = [
    ("scale_and_shift", lambda: Scaled(2.0, torch.arange(3.0))),
    ("scale_only", lambda: Scaled(0.5, None)),
    ("neither", lambda: Scaled(None, None)),
    ("assert_then_use", lambda: Guarded(2)),
]


@pytest.mark.parametrize("make", [c[1] for c in CASES], ids=[c[0] for c in CASES])
def test_refined_attribute_matches_eager(make, tmp_path, kindling_only):
    torch.manual_seed(0)
    m = make()
    x = torch.randn(3)
    expected = m(x)
    with kindling_only():
        scripted = kindling.jit.script(m)
        got = scripted(x)
        scripted.save(str(tmp_path / "m.pt"))
    assert_same(got, expected)
    assert_same(torch.jit.load(str(tmp_path / "m.pt"))(x), expected)


def test_failed_assert_raises_its_message():
    scripted = kindling.jit.script(Guarded(None))
    with pytest.raises(Exception, match="limit must be set"):
        scripted(torch.ones(3))
