"""Tuples held by Python globals, used in functions and nn.Module methods scripted by kindling.jit.script:
iterated (`for s in SCALES`, unrolled as loops over tuple values are), in comprehensions, with enumerate and
zip, unpacked in the loop target, indexed, sliced, len()'d.

torch.jit.script 1.13 rejects iterating them ("python value of type 'tuple' cannot be used as an iterable",
checked below for every iterating case) although Python runs them, so outputs are compared with eager
Python (DESIGN.md: where PyTorch rejects a valid program, Kindling does what Python does); the loops are
unrolled, so Kindling's saved archive is plain TorchScript: torch.jit.load runs it with the same outputs.
torch rejects indexing, slicing and len() of them as well ("cannot be used as a value"); Kindling
accepts those with Python's meaning too.

Tuples held as module constants (__constants__), which torch does iterate, are compared with
torch.jit.script as well."""
from pyapi_helpers import assert_same, kindling_only  # noqa: F401  (first: puts the package on sys.path)
from typing import List

import pytest
import torch
import torch.nn as nn

import kindling.jit

SCALES = (1, 2, 3)
NAMES = ("a", "bcd")
MIXED = (2, 0.5, "xy", True, None)
PAIRS = ((1, "one"), (2, "two"), (3, "three"))
NESTED = ((1, 2), (3, (4, 5)))
EMPTY = ()
X = torch.arange(6, dtype=torch.float32).reshape(2, 3)


def iter_ints(x: torch.Tensor) -> torch.Tensor:
    for s in SCALES:
        x = x * s + 1
    return x


def iter_strings(n: int) -> int:
    for name in NAMES:
        n = n * 10 + len(name)
    return n


def iter_mixed(x: torch.Tensor) -> List[str]:
    # each unrolled iteration sees the element's own type
    out: List[str] = []
    for v in MIXED:
        if v is None:
            out.append("none")
        elif isinstance(v, str):
            out.append(v)
        elif isinstance(v, bool):
            out.append(str(v))
        else:
            out.append(str(int(float(x.sum()) * v)))
    return out


def iter_unpack_pairs(k: int) -> List[str]:
    out: List[str] = []
    for i, word in PAIRS:
        if i <= k:
            out.append(word + str(i))
    return out


def iter_nested(x: torch.Tensor) -> torch.Tensor:
    for a, b in NESTED:
        x = x + a
        if isinstance(b, int):
            x = x * b
        else:
            for c in b:
                x = x - c
    return x


def iter_enumerate_zip(x: torch.Tensor) -> torch.Tensor:
    for i, s in enumerate(SCALES):
        x = x + i * s
    for s, name in zip(SCALES, NAMES):
        x = x * s + len(name)
    return x


def iter_empty(x: torch.Tensor) -> torch.Tensor:
    for s in EMPTY:
        x = x * s
    return x


def comprehension(n: int) -> List[int]:
    return [s * n for s in SCALES] + [len(w) for w in NAMES]


def index_len_slice(k: int) -> int:
    t = SCALES[1:]
    return SCALES[-1] * 100 + len(NAMES) * 10 + t[0] + len(PAIRS[k][1])


class ModuleLoops(nn.Module):
    def forward(self, x):
        for s in SCALES:
            x = x * s
        for i, (n, w) in enumerate(PAIRS):
            x = x + n * len(w) + i
        return x


ITERATING = [
    (iter_ints, [(X,)]),
    (iter_strings, [(7,)]),
    (iter_mixed, [(X,)]),
    (iter_unpack_pairs, [(0,), (2,), (5,)]),
    (iter_nested, [(X,)]),
    (iter_enumerate_zip, [(X,)]),
    (comprehension, [(3,)]),
    (index_len_slice, [(0,), (1,), (2,)]),
]


def _ids(cases):
    return [fn.__name__ for fn, _ in cases]


def _check(obj, inputs, tmp_path):
    expected = [obj(*a) for a in inputs]
    path = tmp_path / "k.pt"
    with kindling_only_ctx():
        ks = kindling.jit.script(obj)
        got = [ks(*a) for a in inputs]
        ks.save(str(path))
    for g, e in zip(got, expected):
        assert_same(g, e)
    loaded = torch.jit.load(str(path))
    for a, e in zip(inputs, expected):
        assert_same(loaded(*a), e)
    return ks


def kindling_only_ctx():
    from pyapi_helpers import forbid_torch_jit
    return forbid_torch_jit()


@pytest.mark.parametrize("fn,inputs", ITERATING, ids=_ids(ITERATING))
def test_global_tuple(fn, inputs, tmp_path):
    with pytest.raises(Exception, match="python value of type 'tuple' cannot be used as a"):
        torch.jit.script(fn)
    _check(fn, inputs, tmp_path)


def test_iterating_empty_global_tuple(tmp_path):
    _check(iter_empty, [(X,)], tmp_path)


def test_module_method_iterates_global_tuple(tmp_path):
    m = ModuleLoops()
    with pytest.raises(Exception, match="python value of type 'tuple' cannot be used as an iterable"):
        torch.jit.script(m)
    _check(m, [(X,)], tmp_path)


class ConstantsLoops(nn.Module):
    __constants__ = ["strides", "pairs"]

    def __init__(self):
        super().__init__()
        self.strides = (1, 2, 3)
        self.pairs = ((1, "a"), (2, "bc"))

    def forward(self, x):
        for s in self.strides:
            x = x * s
        for i, (n, w) in enumerate(self.pairs):
            x = x + n * len(w) + i
        return x + len(self.strides) + self.strides[-1]


def test_module_constant_tuples_match_torch(tmp_path):
    m = ConstantsLoops()
    expected_ts = torch.jit.script(m)(X)
    ks = _check(m, [(X,)], tmp_path)
    assert_same(ks(X), expected_ts)


def test_break_in_unrolled_loop_is_a_clear_error():
    def breaks(x: torch.Tensor) -> torch.Tensor:
        for s in SCALES:
            if s > 1:
                break
            x = x * s
        return x

    with kindling_only_ctx():
        with pytest.raises(kindling.jit.CompileError, match="we do not support break, continue or return inside the body of these loops"):
            kindling.jit.script(breaks)
