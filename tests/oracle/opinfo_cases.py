"""Cases of the OpInfo conformance test (test_opinfo.py), built from PyTorch 1.13's own OpInfo database.

For every OpInfo of `torch.testing._internal.common_methods_invocations.op_db` whose operator Kindling
registers (see `covered_reason`), take its CPU sample inputs for float32, float64, int64 and bool (those
the OpInfo supports), turn each sample into a tiny TorchScript program

    import torch
    import torch.nn.functional as F
    def fn(x: Tensor, t1: Tensor, ...):
        return torch.<op>(x, <literal args>, <kw>=<literal>, ...)

(tensors and lists of tensors are inputs, everything else is a literal of the source), script it with
PyTorch (torch.jit.CompilationUnit) and run it to get the expected value or the expected error. The test
then runs the same source with `kindling run`. OpInfo error inputs become cases that must raise in both.

Nothing is hidden: every sample that is not run gets a skip reason (complex dtype, an argument TorchScript
cannot spell as a literal, PyTorch itself cannot script it, ...), counted in the summary.

Sampling: to keep the test within a few minutes on two busy cores, at most MAX_SAMPLES (5) samples per
(OpInfo, dtype) are taken, spread evenly over the OpInfo's sample list (fixed: the same every run, seeded),
and at most MAX_ERROR_INPUTS error inputs per OpInfo.
"""
import copy
import linecache
import math
import sys
import types
import unittest

MAX_SAMPLES = 5
MAX_ERROR_INPUTS = 4


def _import_op_db():
    # PyTorch's testing package imports `expecttest` (a PyPI-only test helper Debian does not ship) for the
    # base class of its TestCase and an ACCEPT flag; OpInfo and op_db use neither, so a stand-in is enough.
    if "expecttest" not in sys.modules:
        try:
            import expecttest  # noqa: F401
        except ImportError:
            m = types.ModuleType("expecttest")
            m.TestCase = unittest.TestCase
            m.ACCEPT = False
            sys.modules["expecttest"] = m
    # common_utils parses sys.argv with argparse (parse_known_args): hide pytest's arguments from it.
    saved = sys.argv
    sys.argv = saved[:1]
    try:
        from torch.testing._internal.common_methods_invocations import op_db
    finally:
        sys.argv = saved
    return op_db


import torch  # noqa: E402

import rounding_bounds  # noqa: E402

DTYPES = [torch.float32, torch.float64, torch.int64, torch.bool]

# Ops whose values are random or uninitialized: only dtype and shape are compared.
VALUE_FREE = {
    "uniform", "normal", "multinomial", "randn", "randn_like",
    "empty", "empty_like", "new_empty", "new_empty_strided", "empty_strided", "nn.functional.rrelu",
    "svd_lowrank", "pca_lowrank", "exponential", "geometric", "log_normal", "cauchy", "random_", "torch.empty",
}
# Random ops whose values Kindling reproduces bit for bit (its CPU generator is PyTorch's): the program seeds
# the generator first (`torch.manual_seed(0)`, compiled to aten::manual_seed) and values are compared.
SEEDED = {
    "bernoulli", "rand_like", "randint_like", "nn.functional.dropout", "nn.functional.dropout2d",
    "nn.functional.dropout3d", "nn.functional.alpha_dropout", "nn.functional.feature_alpha_dropout",
}

# Python operators of the reflected OpInfos (`__radd__`: args[0] + input).
REFLECTED = {"__radd__": "+", "__rsub__": "-", "__rmul__": "*", "__rdiv__": "/", "__rpow__": "**",
             "__rmod__": "%", "__rand__": "&", "__ror__": "|", "__rxor__": "^", "__rmatmul__": "@"}
PROPERTIES = {"T", "H", "mT", "mH"}

# Ops whose every floating output element is a sum of products of input elements with coefficient 1 (a
# convolution, a matrix product, a sum): PyTorch and Kindling sum them in orders their BLAS / oneDNN / vector
# kernels pick per CPU. Their float samples are compared within the rounding bound of that sum
# (rounding_bounds.sum_of_products_bound), on top of the fixed tolerance of every other op: sum_k |term_k| is
# the program run on the inputs' absolute values in float64, the number of terms the program run on ones.
# (addmm-style ops are not listed: their alpha/beta literals may be negative, so |inputs| does not give
# sum_k |term_k|.)
SUM_OF_PRODUCTS = {
    "nn.functional.conv1d", "nn.functional.conv2d", "nn.functional.conv3d", "nn.functional.conv_transpose1d",
    "nn.functional.conv_transpose2d", "nn.functional.conv_transpose3d", "nn.functional.linear",
    "nn.functional.bilinear", "matmul", "__rmatmul__", "mm", "bmm", "mv", "dot", "vdot", "inner", "tensordot",
    "einsum", "trace", "sum", "nansum", "cumsum",
}


class Unsupported(Exception):
    """A sample argument that cannot be spelled in a TorchScript program; the message is the skip reason."""


def full_name(op):
    return op.name + ("." + op.variant_test_name if op.variant_test_name else "")


def aten_names(op):
    """Candidate aten operator names for an OpInfo (its aten_name, with the Python namespace dropped)."""
    n = op.aten_name
    out = [n]
    if n.startswith("nn.functional."):
        out.append(n[len("nn.functional."):])
    if n.startswith("linalg.") or n.startswith("special.") or n.startswith("fft."):
        out.append(n.replace(".", "_"))
    return ["aten::" + x for x in out]


class Case:
    """One program: source text, inputs, and the PyTorch outcome (value or error), or a skip reason."""

    def __init__(self, opname, dtype, index, kind):
        self.opname = opname          # full OpInfo name (name.variant)
        self.dtype = dtype            # "float32", ... or "error"
        self.index = index
        self.kind = kind              # "sample" | "error"
        self.source = None
        self.inputs = None
        self.expected = None          # PyTorch's result (kind == sample)
        self.expect_raise = False
        self.values_compared = True   # False for random / uninitialized results
        self.skip = None              # reason string when not run
        self.bound = None             # float64 tensor: allowed |Kindling - PyTorch| per element, or None

    @property
    def id(self):
        return f"{self.opname}[{self.dtype}#{self.index}]"


class _Builder:
    """Renders one call's arguments: tensors become parameters, the rest literals."""

    def __init__(self):
        self.params = []   # (name, annotation)
        self.inputs = []

    def tensor_param(self, t):
        if t.is_complex():
            raise Unsupported("complex tensor")
        if t.dtype in (torch.bfloat16, torch.float16, torch.complex32):
            raise Unsupported(f"{t.dtype} tensor")
        if t.layout != torch.strided:
            raise Unsupported(f"{t.layout} tensor")
        if t.is_conj() or t.is_neg():
            raise Unsupported("conjugate/negative view tensor")
        name = f"t{len(self.params)}"
        self.params.append((name, "Tensor"))
        self.inputs.append(t.detach().clone() if t.requires_grad else t)
        return name

    def list_param(self, ts, ann):
        for t in ts:
            if t is None:
                continue
            if t.is_complex():
                raise Unsupported("complex tensor")
            if t.dtype in (torch.bfloat16, torch.float16):
                raise Unsupported(f"{t.dtype} tensor")
        name = f"t{len(self.params)}"
        self.params.append((name, ann))
        self.inputs.append(list(ts))
        return name

    def render(self, v, top=True):
        if isinstance(v, torch.Tensor):
            return self.tensor_param(v)
        if isinstance(v, (list, tuple)) and len(v) > 0 and all(isinstance(e, torch.Tensor) for e in v):
            return self.list_param(v, "List[Tensor]")
        if isinstance(v, (list, tuple)) and len(v) > 0 and any(isinstance(e, torch.Tensor) for e in v):
            if all(e is None or isinstance(e, torch.Tensor) for e in v):
                return self.list_param(v, "List[Optional[Tensor]]")
            raise Unsupported("list mixing tensors and other values")
        if v is None:
            return "None"
        if isinstance(v, bool):
            return "True" if v else "False"
        if isinstance(v, int):
            return repr(v)
        if isinstance(v, float):
            if math.isnan(v):
                return "float('nan')"
            if math.isinf(v):
                return "float('inf')" if v > 0 else "float('-inf')"
            return repr(v)
        if isinstance(v, complex):
            raise Unsupported("complex scalar argument")
        if isinstance(v, str):
            return repr(v)
        if isinstance(v, torch.dtype):
            if v.is_complex or v in (torch.bfloat16, torch.float16, torch.complex32):
                raise Unsupported(f"{v} dtype argument")
            return "torch." + str(v).split(".")[1]
        if isinstance(v, torch.device):
            return f"torch.device({str(v)!r})"
        if isinstance(v, torch.memory_format):
            return "torch." + str(v).split(".")[1]
        if isinstance(v, torch.layout):
            if v != torch.strided:
                raise Unsupported(f"{v} layout")
            return "torch.strided"
        if isinstance(v, torch.Size):
            return "[" + ", ".join(self.render(e, False) for e in v) + "]"
        if isinstance(v, list):
            if len(v) == 0:
                raise Unsupported("empty list literal (type not inferable)")
            return "[" + ", ".join(self.render(e, False) for e in v) + "]"
        if isinstance(v, tuple):
            if len(v) == 0:
                return "()"
            inner = ", ".join(self.render(e, False) for e in v)
            return "(" + inner + ("," if len(v) == 1 else "") + ")"
        if isinstance(v, slice) or v is Ellipsis:
            raise Unsupported("slice/Ellipsis argument")
        if callable(v):
            raise Unsupported("callable argument")
        raise Unsupported(f"argument of type {type(v).__name__}")


def _call_text(op, b, sample):
    """The call expression of one sample (and fills the builder's params)."""
    name = op.name
    inp = sample.input
    if isinstance(inp, (list, tuple)):
        x = b.render(inp)
    else:
        x = b.render(inp)
    args = [b.render(a) for a in sample.args]
    kwargs = [f"{k}={b.render(v)}" for k, v in sample.kwargs.items()]
    if name in REFLECTED:
        if len(args) != 1 or kwargs:
            raise Unsupported("reflected operator with extra arguments")
        return f"{args[0]} {REFLECTED[name]} {x}"
    if name in PROPERTIES:
        if args or kwargs:
            raise Unsupported("property with arguments")
        return f"{x}.{name}"
    all_args = ", ".join([x] + args + kwargs)
    if name.startswith("nn.functional."):
        return f"F.{name[len('nn.functional.'):]}({all_args})"
    head = name.split(".")[0]
    if head in ("linalg", "special", "fft", "masked", "sparse"):
        return f"torch.{name}({all_args})"
    attr = getattr(torch, name, None)
    if callable(attr) and not isinstance(attr, (torch.dtype, type)):
        return f"torch.{name}({all_args})"
    if op.method_variant is not None:
        return f"{x}.{name}({', '.join(args + kwargs)})"
    raise Unsupported("no torch.<name> function or Tensor method to call")


def make_source(op, sample, seeded=False):
    """(source text, inputs list) of a program calling the op on one sample; raises Unsupported. seeded: the
    program first seeds the random generator (torch.manual_seed(0))."""
    b = _Builder()
    call = _call_text(op, b, sample)
    params = ", ".join(f"{n}: {a}" for n, a in b.params)
    seed = "    torch.manual_seed(0)\n" if seeded else ""
    src = ("import torch\nimport torch.nn.functional as F\nfrom typing import List, Optional, Tuple\n"
           "from torch import Tensor\n\n\n"
           f"def fn({params}):\n{seed}    return {call}\n")
    return src, b.inputs


_CU_CACHE = {}


class _Scripted:
    def __init__(self, fn):
        self.fn = fn


def script(src):
    """torch.jit.script of the source's fn, as the language harness does for a module file: the text is
    registered with linecache under a unique file name so that inspect.getsource finds it."""
    cu = _CU_CACHE.get(src)
    if cu is None:
        fname = f"<opinfo_{len(_CU_CACHE)}>"
        linecache.cache[fname] = (len(src), None, src.splitlines(True), fname)
        ns = {"__name__": f"opinfo_{len(_CU_CACHE)}"}
        exec(compile(src, fname, "exec"), ns)
        cu = _Scripted(torch.jit.script(ns["fn"]))
        _CU_CACHE[src] = cu
    return cu


def _plain(v):
    """PyTorch's result as plain containers (named tuples such as torch.return_types.sort become tuples)."""
    if isinstance(v, torch.Tensor):
        return v.detach().clone()
    if isinstance(v, tuple):
        return tuple(_plain(e) for e in v)
    if isinstance(v, list):
        return [_plain(e) for e in v]
    return v


def graph_aten_ops(src):
    """aten:: kinds in PyTorch's inlined graph of fn (what a functional call compiles to)."""
    cu = script(src)
    g = cu.fn.graph.copy()
    torch._C._jit_pass_inline(g)
    kinds = set()

    def walk(block):
        for n in block.nodes():
            if n.kind().startswith("aten::"):
                kinds.add(n.kind())
            for sub in n.blocks():
                walk(sub)
    walk(g)
    return kinds


def evenly(seq, k):
    if len(seq) <= k:
        return list(enumerate(seq))
    step = len(seq) / k
    idx = sorted({int(i * step) for i in range(k)})
    return [(i, seq[i]) for i in idx]


def covered_reason(op, kindling_names):
    """(covered, how): an OpInfo is covered when Kindling registers its aten operator by name, or when Kindling
    registers every aten operator of PyTorch's inlined graph of its first scriptable sample (torch.nn.functional
    and torch.functional ops PyTorch compiles from Python source, methods such as x.float() or x.T, reflected
    operators such as 2 + x, aliases such as torch.ravel)."""
    for n in aten_names(op):
        if n in kindling_names:
            return True, n
    for dt in DTYPES:
        if dt not in op.supported_dtypes("cpu"):
            continue
        try:
            torch.manual_seed(0)
            for s in op.sample_inputs("cpu", dt):
                try:
                    src, _ = make_source(op, s)
                    kinds = graph_aten_ops(src)
                except Exception:
                    continue
                missing = sorted(k for k in kinds if k not in kindling_names)
                if not missing:
                    return True, "graph: " + " ".join(sorted(kinds))
                return False, "graph needs " + " ".join(missing)
        except Exception:
            continue
    return False, "aten::" + aten_names(op)[-1][6:] + " not registered"


def _torch_outcome(case, src, inputs):
    try:
        cu = script(src)
    except Exception as e:  # noqa: BLE001
        msg = str(e).strip().splitlines()
        case.skip = "PyTorch cannot script it: " + (msg[0][:120] if msg else type(e).__name__)
        return
    case.source = src
    case.inputs = copy.deepcopy(inputs)
    try:
        torch.manual_seed(0)
        out = cu.fn(*copy.deepcopy(inputs))
        case.expected = _plain(out)
    except Exception:  # noqa: BLE001
        case.expect_raise = True
        return
    if case.opname in SUM_OF_PRODUCTS:
        case.bound = _sum_of_products_bound(cu, inputs, case.expected)


def _map_tensors(v, f):
    if isinstance(v, torch.Tensor):
        return f(v)
    if isinstance(v, (list, tuple)):
        return type(v)(_map_tensors(e, f) for e in v)
    return v


def _sum_of_products_bound(cu, inputs, expected):
    """The rounding bound of a SUM_OF_PRODUCTS sample with a floating tensor result, else None: the program
    on |inputs| in float64 gives sum_k |term_k| per element, on ones (float64) the number of terms; each term
    has at most as many factors as the program has tensor arguments."""
    if not isinstance(expected, torch.Tensor) or not expected.is_floating_point():
        return None
    flat = []
    _map_tensors(inputs, flat.append)
    if not all(t.is_floating_point() for t in flat):
        return None
    try:
        abs_sum = cu.fn(*_map_tensors(inputs, lambda t: t.detach().abs().double()))
        n_terms = cu.fn(*_map_tensors(inputs, lambda t: torch.ones_like(t, dtype=torch.float64)))
    except Exception:  # noqa: BLE001
        return None
    if not isinstance(abs_sum, torch.Tensor) or abs_sum.shape != expected.shape:
        return None
    return rounding_bounds.sum_of_products_bound(abs_sum, n_terms, expected.dtype, factors=len(flat))


def build_cases(kindling_names, only=None):
    """All cases, plus the coverage table: (cases, coverage) with coverage a list of
    (opinfo full name, covered, how)."""
    op_db = _import_op_db()
    cases, coverage = [], []
    for op in op_db:
        fname = full_name(op)
        if only and not any(o in fname for o in only):
            continue
        covered, how = covered_reason(op, kindling_names)
        coverage.append((fname, covered, how))
        if not covered:
            continue
        value_free = op.name in VALUE_FREE or fname in VALUE_FREE
        seeded = op.name in SEEDED or fname in SEEDED
        supported = op.supported_dtypes("cpu")
        for dt in DTYPES:
            dname = str(dt).split(".")[1]
            if dt not in supported:
                continue
            torch.manual_seed(0)
            try:
                samples = list(op.sample_inputs("cpu", dt))
            except Exception as e:  # noqa: BLE001
                c = Case(fname, dname, 0, "sample")
                c.skip = f"OpInfo cannot make samples: {type(e).__name__}"
                cases.append(c)
                continue
            for i, s in evenly(samples, MAX_SAMPLES):
                c = Case(fname, dname, i, "sample")
                c.values_compared = not value_free
                cases.append(c)
                try:
                    src, inputs = make_source(op, s, seeded)
                except Unsupported as e:
                    c.skip = str(e)
                    continue
                _torch_outcome(c, src, inputs)
                if c.skip is None and c.expect_raise:
                    c.kind = "error"   # a sample PyTorch's scripted call rejects: both must raise
        # Error inputs: PyTorch's scripted call must raise (else the case is skipped), Kindling too.
        try:
            errs = list(op.error_inputs("cpu"))
        except Exception:  # noqa: BLE001
            errs = []
        for i, ei in evenly(errs, MAX_ERROR_INPUTS):
            c = Case(fname, "error", i, "error")
            cases.append(c)
            try:
                src, inputs = make_source(op, ei.sample_input)
            except Unsupported as e:
                c.skip = str(e)
                continue
            except Exception as e:  # noqa: BLE001
                c.skip = f"error input not renderable: {type(e).__name__}"
                continue
            _torch_outcome(c, src, inputs)
            if c.skip is None and not c.expect_raise:
                c.skip = "PyTorch's scripted call does not raise on this error input"
    return cases, coverage
