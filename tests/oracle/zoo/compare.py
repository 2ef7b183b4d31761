"""Recursive comparison of a Kindling output (read back with torch.load) with PyTorch's, for the zoo.

Tensors: same dtype and shape, NaN/inf where expected has them, and for floating point
|got - expected| <= atol * max(1, max|expected|) + rtol * |expected| (rtol = atol = 1e-4): the absolute part
scales with the output's magnitude, because deep random-weight nets amplify float32 rounding: PyTorch's own
torch.jit.freeze (conv-bn folding) of efficientnet_b0 / regnet_x_400mf at 64x64 differs from the unfrozen model
by 1e-2 / 3e-4 on outputs of magnitude 407 / 25. Integers and bools exact. Tuples (namedtuples count as tuples) and lists element by element, dicts key by key
in order, everything else by ==. Returns the max abs error over all floating tensors; raises Mismatch naming
the path of the first difference.
"""
import math

import torch

RTOL = 1e-4
ATOL = 1e-4


class Mismatch(AssertionError):
    pass


def compare(got, expected, path="out", rtol=RTOL, atol=ATOL):
    """Max abs error (float) over all tensors of `expected`; Mismatch on any difference."""
    if isinstance(expected, torch.Tensor):
        if not isinstance(got, torch.Tensor):
            raise Mismatch(f"{path}: got a {type(got).__name__}, expected a Tensor")
        if got.dtype != expected.dtype:
            raise Mismatch(f"{path}: dtype {got.dtype} != {expected.dtype}")
        if got.shape != expected.shape:
            raise Mismatch(f"{path}: shape {tuple(got.shape)} != {tuple(expected.shape)}")
        if got.numel() == 0:
            return 0.0
        if expected.is_floating_point() or expected.is_complex():
            nan_ok = torch.isnan(expected)
            if not torch.equal(torch.isnan(got), nan_ok):
                raise Mismatch(f"{path}: NaN positions differ")
            diff = (got.double() - expected.double()).abs().masked_fill(nan_ok, 0.0)
            inf = torch.isinf(expected)
            if inf.any() and not torch.equal(got[inf], expected[inf]):
                raise Mismatch(f"{path}: infinities differ")
            diff = diff.masked_fill(inf, 0.0)
            err = float(diff.max())
            finite = expected.masked_fill(~torch.isfinite(expected), 0).abs()
            scale = max(1.0, float(finite.max()))
            if not torch.allclose(got, expected, rtol=rtol, atol=atol * scale, equal_nan=True):
                idx = int(diff.flatten().argmax())
                raise Mismatch(f"{path}: max abs error {err:.4g} at flat index {idx}: got "
                               f"{got.flatten()[idx].item():.6g}, expected {expected.flatten()[idx].item():.6g}")
            return err
        if not torch.equal(got, expected):
            raise Mismatch(f"{path}: integer/bool values differ ({int((got != expected).sum())} elements)")
        return 0.0
    if isinstance(expected, (tuple, list)):
        kind = tuple if isinstance(expected, tuple) else list
        if not isinstance(got, kind):
            raise Mismatch(f"{path}: got a {type(got).__name__}, expected a {kind.__name__}")
        if len(got) != len(expected):
            raise Mismatch(f"{path}: length {len(got)} != {len(expected)}")
        return max([compare(g, e, f"{path}[{i}]", rtol, atol) for i, (g, e) in enumerate(zip(got, expected))],
                   default=0.0)
    if isinstance(expected, dict):
        if not isinstance(got, dict):
            raise Mismatch(f"{path}: got a {type(got).__name__}, expected a dict")
        if list(got) != list(expected):
            raise Mismatch(f"{path}: keys {list(got)} != {list(expected)}")
        return max([compare(got[k], expected[k], f"{path}[{k!r}]", rtol, atol) for k in expected], default=0.0)
    if isinstance(expected, float):
        if not isinstance(got, float) or not (got == expected or (math.isnan(got) and math.isnan(expected))):
            raise Mismatch(f"{path}: {got!r} != {expected!r}")
        return 0.0
    if type(got) is not type(expected) or got != expected:
        raise Mismatch(f"{path}: {got!r} != {expected!r}")
    return 0.0
