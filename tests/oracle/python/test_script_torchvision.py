"""torchvision 0.14 models scripted and traced by kindling.jit (issue 11's torchvision item): every classification
model of torchvision.models, the zoo's three segmentation and three detection models, built, calibrated and fed
exactly as the model zoo builds them (tests/oracle/zoo/gen_zoo.py: weights=None, BatchNorm statistics from a
calibration batch, small inputs, per-model tolerances) and compared with eager PyTorch by the zoo's comparison
(zoo/compare.py: dtype, shape, |got - eager| <= atol * max(1, max|eager|) + 1e-4 * |eager|).

- `script`: kindling.jit.script(model) inside forbid_torch_jit (torch.jit and torch._C._jit_* raise there),
  called on the zoo's input; then Kindling's saved archive is loaded by torch.jit.load and must give the same
  outputs. A scripted model returns what torch.jit.script's returns: torchvision's GoogLeNet / Inception3
  return their namedtuple with the aux outputs None (eager returns the logits), the detection models return
  (losses, detections) with empty losses (eager returns the detections).
- `script_all_scores` (fasterrcnn, retinanet): as `script` with the score threshold 0, because at the zoo's
  thresholds their random-weight detections are empty and only the (0, 4) shapes would be compared.
- `trace`: kindling.jit.trace(model, inputs, check_trace=False, strict=False) under no_grad, as the zoo traces
  (strict=False: segmentation models return dicts). Detection models are not traced (their forward takes a
  list of images and returns a list of dicts of data-dependent sizes; the zoo scripts them only).

Runtime: the default run covers the zoo's default set (one or two small models per family, segmentation and
detection models that are not `slow` in gen_zoo): 29 tests in about 25 s; every other model carries the
zoo_slow marker and is skipped with that reason unless KINDLING_ZOO=all, as in test_zoo.py (the full set,
171 tests, took 7.5 min on the shared 2-core machine: 168 passed, 2 xfailed, ssdlite's non-strict xfail passed). A model that does not work yet is an xfail whose reason names the missing
piece (KNOWN_FAILURES), never a silent skip.
"""
from pyapi_helpers import forbid_torch_jit  # noqa: F401  (first: puts the package on sys.path)
import functools
import io
import os
import pathlib
import sys
import warnings

import pytest
import torch

import kindling.jit

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "zoo"))
import gen_zoo  # noqa: E402
from compare import Mismatch, compare  # noqa: E402

RUN_ALL = os.environ.get("KINDLING_ZOO", "") == "all"
CATEGORIES = ("classification", "segmentation", "detection")

# (model, variant) -> the precise reason it does not work yet
_RESAVED_AFTER_RUN = ("under OMP_NUM_THREADS=1 only (passes with 2 threads): Kindling's archive of ssdlite320, saved "
                      "after the scripted module ran in Kindling, gives other boxes for the second image when "
                      "torch.jit.load runs it (max abs error 62, a box clipped to 100); saved before any run, or "
                      "run by Kindling, it matches eager")
NOT_STRICT = {("ssdlite320_mobilenet_v3_large", "script")}  # depends on the thread count: xfail, not strict
_DETECTION_ORDER = ("with score_thresh 0 (300 detections per image) Kindling's in-process boxes of the first image "
                    "differ from eager's (max abs error 56 / 86) while its archive run by torch.jit.load matches: "
                    "the order of near-equal scores (sort/topk/nms ties) is not yet PyTorch's")
KNOWN_FAILURES = {
    ("ssdlite320_mobilenet_v3_large", "script"): _RESAVED_AFTER_RUN,
    ("fasterrcnn_mobilenet_v3_large_320_fpn", "script_all_scores"): _DETECTION_ORDER,
    ("retinanet_resnet50_fpn", "script_all_scores"): _DETECTION_ORDER,
}

# Detection models whose detections at the zoo's score thresholds are empty (random weights): a second
# variant keeps every score, so boxes, scores and labels are compared, not only their (0, 4) shapes.
_ALL_SCORES = {
    "fasterrcnn_mobilenet_v3_large_320_fpn": lambda m: setattr(m.roi_heads, "score_thresh", 0.0),
    "retinanet_resnet50_fpn": lambda m: setattr(m, "score_thresh", 0.0),
}


def _scripted_expected(spec, eager):
    """What torch.jit.script's module returns for the eager output `eager` (torchvision's scripting branches)."""
    if spec.category == "detection":
        return ({}, eager)
    if spec.name == "googlenet":
        return (eager, None, None)   # GoogLeNetOutputs(logits, aux_logits2, aux_logits1), aux_logits=False
    if spec.name == "inception_v3":
        return (eager, None)         # InceptionOutputs(logits, aux_logits), aux_logits=False
    return eager


def _params():
    out = []
    for spec in gen_zoo.zoo().values():
        if spec.category not in CATEGORIES:
            continue
        variants = ("script", "trace") if spec.category != "detection" else \
            ("script",) + (("script_all_scores",) if spec.name in _ALL_SCORES else ())
        for variant in variants:
            marks = [getattr(pytest.mark, "zoo_" + spec.category)]
            if (spec.name, variant) in KNOWN_FAILURES:
                marks.append(pytest.mark.xfail(reason=KNOWN_FAILURES[(spec.name, variant)],
                                               strict=(spec.name, variant) not in NOT_STRICT))
            if spec.slow:
                marks += [pytest.mark.zoo_slow,
                          pytest.mark.skipif(not RUN_ALL, reason="zoo_slow: set KINDLING_ZOO=all to run")]
            out.append(pytest.param(spec.name, variant, marks=marks, id=f"{spec.name}-{variant}"))
    return out


@functools.lru_cache(maxsize=1)  # parameters are ordered model by model: script and trace share one build
def _model(name, all_scores=False):
    spec = gen_zoo.zoo()[name]
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = spec.build().eval()
        gen_zoo.randomize_norms(m, spec.calibrate)
        m.eval()
        if all_scores:
            _ALL_SCORES[name](m)
        args = spec.inputs()
        with torch.no_grad():
            eager = m(*args)
    return spec, m, args, eager


def _check(got, expected, spec, what):
    try:
        compare(got, expected, atol=spec.atol)
    except Mismatch as e:
        pytest.fail(f"{spec.name} {what}: {e}")


@pytest.mark.parametrize("name,variant", _params())
def test_torchvision_model(name, variant):
    spec, model, args, eager = _model(name, variant == "script_all_scores")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if variant.startswith("script"):
            expected = _scripted_expected(spec, eager)
            buf = io.BytesIO()
            with forbid_torch_jit():
                scripted = kindling.jit.script(model)
                got = scripted(*args)
                scripted.save(buf)
            _check(got, expected, spec, "kindling.jit.script vs eager")
            buf.seek(0)
            loaded = torch.jit.load(buf)
            _check(loaded(*args), expected, spec, "Kindling's archive run by torch.jit.load vs eager")
        else:
            with forbid_torch_jit(), torch.no_grad():
                traced = kindling.jit.trace(model, args, check_trace=False, strict=False)
                got = traced(*args)
            _check(got, eager, spec, "kindling.jit.trace vs eager")
