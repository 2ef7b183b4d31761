"""kindling.jit.trace / trace_module / script_if_tracing (torch.jit.trace's counterparts), recording the
tensor operations that run into Kindling's IR without torch.jit.

How it records: the function runs once on the example inputs under a ``torch.overrides.TorchFunctionMode``
that sees every call at the level of ``torch.*`` / ``Tensor.*`` / ``torch._C._nn.*`` / ``torch._VF.*``.

- A call of a C function (``torch.conv2d``, ``Tensor.add``, ``torch._C._nn.linear``) runs for real, then
  becomes a node of the operator of the same name in the ``aten`` namespace (Tensor dunders by their
  operator: ``__add__`` -> ``aten::add``, ``__and__`` -> ``aten::__and__``, ``__iadd__`` -> ``aten::add_``);
  the overload is chosen by Kindling's schema matching from the argument types, as a call in TorchScript
  source would be (kindling._C.GraphBuilder). As in torch.jit.trace, convolutions are recorded as
  ``aten::_convolution`` and the dtype-named conversions (``x.float()``) as ``aten::to``.
- A Python function of torch (``F.relu``, ``F.softmax``, ``Tensor.split``) is not recorded itself: a copy
  of it whose ``has_torch_function*`` checks answer False runs under the mode, so what it calls is
  recorded, as torch.jit.trace records the operators a Python function reaches.
- Sizes read from tensors (``x.size(0)``, ``x.shape``, ``x.numel()``) are ints that remember their node
  (``aten::size`` -> ``prim::NumToTensor`` -> ``aten::Int``, as torch's tracer records them), and int
  arithmetic on them is recorded, so a trace replays on other shapes where torch's does.
- ``x[...]`` becomes ``aten::select`` / ``slice`` / ``unsqueeze`` / ``index``; ``x[...] = v`` the same
  views followed by ``aten::copy_`` / ``fill_``.
- Converting a tensor to a Python value (``float(x)``, ``bool(x)``, ``x.item()``, ``x.tolist()``) gives a
  TracerWarning, as torch does: the value is a constant of the trace.
- Tensors the function did not receive (globals, parameters of modules it calls) are constants.
- A kindling ScriptFunction called during the trace is recorded as prim::CallFunction.

Known differences: modules are traced into one graph (their parameters constants) until modules can be
built from live nn.Modules; an operator Kindling's registry lacks is an error naming the torch function;
a kindling ScriptModule called inside the traced code is an error (not yet recorded); a size used on the
right of a Python float (``2.0 * x.size(0)``) becomes a constant (float's own operator runs first), where
torch's tracer keeps it.
"""
import contextlib
import functools
import inspect
import operator
import re
import sys
import types
import warnings

import torch
from torch.overrides import TorchFunctionMode, resolve_name

from .. import _C
from . import _state
from ._script_module import ScriptFunction, ScriptModule


class TracerWarning(Warning):
    """The trace might not generalize (torch.jit.TracerWarning's counterpart)."""

    @staticmethod
    def ignore_lib_warnings():
        warnings.filterwarnings("ignore", category=TracerWarning, module="torch.(?!jit)")


class TracingCheckError(Exception):
    """check_trace found a re-trace or its outputs disagree (torch.jit.TracingCheckError's counterpart)."""

    def __init__(self, graph_diff_error, tensor_compare_error, extra_msg=None):
        self.message = "Tracing failed sanity checks!\n"
        if extra_msg is not None:
            self.message += extra_msg + "\n"
        if graph_diff_error is not None:
            self.message += "ERROR: Graphs differed across invocations!\n" + graph_diff_error + "\n"
        if tensor_compare_error is not None:
            self.message += ("ERROR: Tensor-valued Constant nodes differed in value across invocations. This often "
                             "indicates that the tracer has encountered untraceable code.\n" + tensor_compare_error
                             + "\n")
        super().__init__(self.message)


_NUMBER_WARNING = ("Converting a tensor to a Python {} might cause the trace to be incorrect. We can't record the "
                   "data flow of Python values, so this value will be treated as a constant in the future. This "
                   "means that the trace might not generalize to other inputs!")


def _warn(msg):
    warnings.warn(msg, TracerWarning, stacklevel=4)


# ---------------------------------------------------------------- traced ints
def _plain(x):
    if isinstance(x, _TracedInt):
        return int.__int__(x)
    if isinstance(x, _TracedFloat):
        return float.__float__(x)
    return x


_PY_OPS = {"add": operator.add, "sub": operator.sub, "mul": operator.mul, "floordiv": operator.floordiv,
           "remainder": operator.mod, "div": operator.truediv, "pow": operator.pow}


def _scalar_op(rec, op, a, b):
    """a <op> b where one side is a traced int/float: the Python result, recorded as aten::<op> on ints and
    floats when the recorder is on (a size read from a tensor keeps flowing: torch's tracer keeps sizes as
    tensors, so x * x.size(0) ** 0.5 replays on other shapes there too)."""
    for x in (a, b):
        if isinstance(x, bool) or not isinstance(x, (int, float)):
            return NotImplemented  # tensors and others: their own operators see the traced scalar
    result = _PY_OPS[op](_plain(a), _plain(b))
    if not rec.active or (op == "pow" and isinstance(result, int)):
        return result  # (int ** int: the registry's aten::pow.int is float-valued)
    try:
        out = rec.builder.call("aten::" + op, [rec.arg(a), rec.arg(b)])[0]
    except _C.CompileError:  # float <op> int with no mixed overload: the int as a float
        try:
            out = rec.builder.call("aten::" + op, [float(x) if type(x) is int else rec.arg(x) for x in (a, b)])[0]
        except _C.CompileError:
            return result
    if out.type == "int" and isinstance(result, int):
        return _TracedInt(result, out, rec)
    if out.type == "float" and isinstance(result, float):
        return _TracedFloat(result, out, rec)
    return result


class _TracedScalar:
    """Arithmetic of the traced scalars (mixed into int and float)."""
    __slots__ = ()

    def __add__(self, o): return _scalar_op(self._rec, "add", self, o)
    def __radd__(self, o): return _scalar_op(self._rec, "add", o, self)
    def __sub__(self, o): return _scalar_op(self._rec, "sub", self, o)
    def __rsub__(self, o): return _scalar_op(self._rec, "sub", o, self)
    def __mul__(self, o): return _scalar_op(self._rec, "mul", self, o)
    def __rmul__(self, o): return _scalar_op(self._rec, "mul", o, self)
    def __truediv__(self, o): return _scalar_op(self._rec, "div", self, o)
    def __rtruediv__(self, o): return _scalar_op(self._rec, "div", o, self)
    def __floordiv__(self, o): return _scalar_op(self._rec, "floordiv", self, o)
    def __rfloordiv__(self, o): return _scalar_op(self._rec, "floordiv", o, self)
    def __mod__(self, o): return _scalar_op(self._rec, "remainder", self, o)
    def __rmod__(self, o): return _scalar_op(self._rec, "remainder", o, self)
    def __pow__(self, o): return _scalar_op(self._rec, "pow", self, o)
    def __rpow__(self, o): return _scalar_op(self._rec, "pow", o, self)

    def __neg__(self):
        plain = -_plain(self)
        if not self._rec.active:
            return plain
        return type(self)(plain, self._rec.builder.call("aten::neg", [self._gv])[0], self._rec)


class _TracedInt(_TracedScalar, int):
    """An int read from a tensor's shape while recording: arithmetic on it is recorded."""

    def __new__(cls, value, graph_value, recorder):
        obj = int.__new__(cls, value)
        obj._gv = graph_value
        obj._rec = recorder
        return obj

    def __float__(self):  # math.sqrt(x.size(0)): a constant, as torch's tracer warns
        if self._rec.active:
            _warn(_NUMBER_WARNING.format("float"))
        return float(int.__int__(self))


class _TracedFloat(_TracedScalar, float):
    """A float computed from traced sizes while recording."""

    def __new__(cls, value, graph_value, recorder):
        obj = float.__new__(cls, value)
        obj._gv = graph_value
        obj._rec = recorder
        return obj


# ---------------------------------------------------------------- name mapping
_DTYPE_METHODS = {"float": torch.float32, "double": torch.float64, "half": torch.float16, "bfloat16": torch.bfloat16,
                  "int": torch.int32, "long": torch.int64, "short": torch.int16, "char": torch.int8,
                  "byte": torch.uint8, "bool": torch.bool, "cfloat": torch.complex64, "cdouble": torch.complex128}
_CONVOLUTIONS = {"conv1d": (1, False), "conv2d": (2, False), "conv3d": (3, False),
                 "conv_transpose1d": (1, True), "conv_transpose2d": (2, True), "conv_transpose3d": (3, True)}
_DUNDER_ALIASES = {"truediv": "div", "floordiv": "floor_divide", "mod": "remainder", "invert": "bitwise_not",
                   "div": "div", "pos": "positive"}
_BINARY_DUNDERS = {"add", "sub", "mul", "truediv", "div", "floordiv", "mod", "pow", "matmul", "and", "or", "xor",
                   "lshift", "rshift"}
_CONVERSIONS = {"__bool__": "boolean", "__float__": "float", "__int__": "integer", "__index__": "index",
                "item": "number", "__complex__": "number", "tolist": "list", "numpy": "NumPy array",
                "__array__": "NumPy array"}
_NOT_RECORDED = {"dim", "ndimension", "is_floating_point", "is_complex", "is_contiguous", "get_device",
                 "element_size", "is_signed", "nelement_", "data_ptr", "storage_offset", "stride",
                 "__repr__", "__str__", "__format__", "__hash__", "is_nonzero", "has_names", "__reduce_ex__",
                 "_is_view", "is_set_to", "is_pinned", "is_shared", "_version", "__dlpack__", "__dlpack_device__"}
_PYTHON_LEVEL_WARNINGS = {  # torch 1.13's warnings from Tensor methods written in Python
    "__len__": "Using len to get tensor shape might cause the trace to be incorrect. Recommended usage would be "
               "tensor.shape[0]. Passing a tensor of different shape might lead to errors or silently give incorrect "
               "results.",
    "__iter__": "Iterating over a tensor might cause the trace to be incorrect. Passing a tensor of different shape "
                "won't change the number of iterations executed (and might lead to errors or silently give incorrect "
                "results).",
}
_PROPERTY_OPS = {"T": "numpy_T", "mT": "mT", "H": "H", "mH": "mH", "real": "real", "imag": "imag"}

@functools.lru_cache(maxsize=None)
def _qualified(name):
    """aten::name when the registry has it."""
    q = "aten::" + name
    return q if _C._has_operator(q) else None


def _func_name(func):
    name = getattr(func, "__name__", None)
    if name == "__get__" or name is None:  # a property getter: torch.Tensor.shape.__get__
        full = resolve_name(func) or ""
        parts = full.split(".")
        return parts[-2] if len(parts) >= 2 and parts[-1] == "__get__" else full, True
    return name, False


def _python_copy(func, cache={}):
    """A copy of a Python function of torch whose has_torch_function* checks answer False, so its body
    runs (and is recorded) under the mode instead of dispatching to it again."""
    got = cache.get(func)
    if got is not None:
        return got
    g = dict(func.__globals__)
    never = lambda *a, **k: False  # noqa: E731
    for n in ("has_torch_function", "has_torch_function_unary", "has_torch_function_variadic"):
        if n in g:
            g[n] = never
    copy = types.FunctionType(func.__code__, g, func.__name__, func.__defaults__, func.__closure__)
    copy.__kwdefaults__ = func.__kwdefaults__
    copy.__dict__.update(getattr(func, "__dict__", {}))
    cache[func] = copy
    return copy


_HANDLE_CODE = torch.overrides.handle_torch_function.__code__


def _dispatching_function(func):
    """The Python function whose body called handle_torch_function for `func`: usually `func` itself,
    but a wrapper (F.max_pool2d's boolean dispatch) passes its public name for an inner function."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code is not _HANDLE_CODE:
        frame = frame.f_back
    caller = frame.f_back.f_code if frame is not None and frame.f_back is not None else None
    if caller is None or getattr(func, "__code__", None) is caller:
        return func
    for cell in func.__closure__ or ():
        try:
            v = cell.cell_contents
        except ValueError:
            continue
        if isinstance(v, types.FunctionType) and v.__code__ is caller:
            return v
    for v in func.__globals__.values():
        if isinstance(v, types.FunctionType) and v.__code__ is caller:
            return v
    return func


def _holds_tensor(x):
    if isinstance(x, torch.Tensor):
        return True
    if isinstance(x, (tuple, list)):
        return any(_holds_tensor(e) for e in x)
    return False


def _floats_for_ints(args, scalars):
    """The arguments with int constants inside lists (and, when `scalars`, plain ints) as floats: a
    traced call passes Python ints where the schema declares float[] / float."""
    def conv(a, top):
        if isinstance(a, bool) or not isinstance(a, (int, list)):
            return a
        if isinstance(a, int) and (scalars or not top):
            return float(a)
        if isinstance(a, list):
            return [conv(e, False) for e in a]
        return a
    return [conv(a, True) for a in args]


# ---------------------------------------------------------------- the recorder
class _Recorder(TorchFunctionMode):
    def __init__(self, name):
        super().__init__()
        self.builder = _C.GraphBuilder()
        self.values = {}     # id(tensor) -> (tensor, GraphValue)
        self.callees = []    # kindling functions called (kept alive with the result)
        self.active = True
        self.name = name
        self.running = []    # code objects of the torch Python functions whose copies run

    # --- values ---
    def bind(self, tensor, gv):
        self.values[id(tensor)] = (tensor, gv)

    def lookup(self, tensor):
        got = self.values.get(id(tensor))
        return got[1] if got is not None and got[0] is tensor else None

    def arg(self, obj):
        """The GraphValue or constant for a Python argument."""
        if isinstance(obj, torch.Tensor):
            gv = self.lookup(obj)
            if gv is not None:
                return gv
            t = obj.detach()
            if t.dtype == torch.bool:
                gv = self.builder.call("aten::to", [self.builder.constant(t.to(torch.uint8).clone()),
                                                    torch.bool, False, False, None])[0]
            else:
                gv = self.builder.constant(t)
            self.bind(obj, gv)
            return gv
        if isinstance(obj, (_TracedInt, _TracedFloat)) and obj._rec is self:
            return obj._gv
        if isinstance(obj, (list, tuple)):  # torch.Size included
            return [self.arg(e) for e in obj]
        if isinstance(obj, ScriptFunction):
            raise TypeError("a ScriptFunction cannot be an argument of a traced operation")
        return obj

    def symbolic_size(self, tensor, dim, value):
        gv = self.arg(tensor)
        n = self.builder.call("aten::size", [gv, dim])[0]
        t = self.builder.call("prim::NumToTensor", [n])[0]
        return _TracedInt(value, self.builder.call("aten::Int", [t])[0], self)

    def bind_result(self, result, outs, func_name):
        if isinstance(result, torch.Tensor):
            if len(outs) != 1:
                raise RuntimeError("%s: expected one output" % func_name)
            self.bind(result, outs[0])
            return result
        if isinstance(result, (tuple, list)):
            if len(outs) == len(result) and len(outs) > 1:
                for r, o in zip(result, outs):
                    self.bind_result(r, [o], func_name)
                return result
            if len(outs) == 1 and outs[0].type.startswith("List["):
                elems = self.builder.unpack(outs[0], len(result))
                for r, o in zip(result, elems):
                    self.bind_result(r, [o], func_name)
                return result
            if len(outs) == 1 and outs[0].type.startswith("Tuple["):
                elems = self.builder.unpack(outs[0])
                for r, o in zip(result, elems):
                    self.bind_result(r, [o], func_name)
                return result
        if isinstance(result, int) and not isinstance(result, bool) and len(outs) == 1 and outs[0].type == "int":
            return _TracedInt(result, outs[0], self)
        return result

    # --- the mode ---
    def __torch_function__(self, func, types_, args=(), kwargs=None):
        kwargs = kwargs or {}
        if not self.active:
            return func(*args, **kwargs)
        if func is _tuple_getitem:
            return self.record_getitem(_base_getitem, args)
        warning = _PYTHON_LEVEL_WARNINGS.get(getattr(func, "__name__", None))
        if warning is not None and getattr(torch.Tensor, func.__name__, None) is func:
            _warn(warning)
        if isinstance(func, types.FunctionType):
            target = _dispatching_function(func)
            if self.running and self.running[-1] is target.__code__:
                # The copy dispatched again (its check is not a patched global, e.g. a local import):
                # run the body outside the mode; a tensor result is recorded as the operator of its name.
                result = func(*args, **kwargs)
                if _holds_tensor(result):
                    self.record_call(func, func.__name__, args, kwargs, result)
                return result
            copy = _python_copy(target)
            self.running.append(target.__code__)
            try:
                with self:
                    return copy(*args, **kwargs)
            finally:
                self.running.pop()
        name, is_property = _func_name(func)
        if is_property:
            return self.record_property(func, name, args)
        if name in _CONVERSIONS:
            _warn(_NUMBER_WARNING.format(_CONVERSIONS[name]) if name not in ("tolist", "numpy", "__array__") else
                  "Converting a tensor to a %s might cause the trace to be incorrect. We can't record the data flow "
                  "of Python values, so this value will be treated as a constant in the future. This means that the "
                  "trace might not generalize to other inputs!" % ("Python list" if name == "tolist" else
                                                                   "NumPy array"))
            return func(*args, **kwargs)
        if name in _NOT_RECORDED:
            return func(*args, **kwargs)
        if name == "size":
            return self.record_size(func, args, kwargs)
        if name in ("numel", "nelement"):
            result = func(*args, **kwargs)
            out = self.builder.call("aten::numel", [self.arg(args[0])])[0]
            return _TracedInt(result, out, self)
        if name == "__getitem__":
            return self.record_getitem(func, args)
        if name == "__setitem__":
            return self.record_setitem(func, args)
        result = func(*args, **kwargs)
        if not _holds_tensor(result) and (not isinstance(result, int) or isinstance(result, bool)):
            return result  # dtypes, devices, bools, floats: constants of the trace, as in torch's
        self.record_call(func, name, args, kwargs, result)
        return result

    # --- what each kind of call records ---
    def record_property(self, func, name, args):
        result = func(*args)
        if name == "shape":
            return torch.Size([self.symbolic_size(args[0], i, s) for i, s in enumerate(result)])
        if name == "data":
            gv = self.lookup(args[0])
            if gv is not None:
                self.bind(result, self.builder.call("aten::detach", [gv])[0])
            return result
        op = _PROPERTY_OPS.get(name)
        if op is not None and isinstance(result, torch.Tensor):
            self.bind(result, self.builder.call("aten::" + op, [self.arg(args[0])])[0])
        return result

    def record_size(self, func, args, kwargs):
        result = func(*args, **kwargs)
        dim = args[1] if len(args) > 1 else kwargs.get("dim")
        if dim is None:
            return torch.Size([self.symbolic_size(args[0], i, s) for i, s in enumerate(result)])
        return self.symbolic_size(args[0], self.arg(dim), result)

    def record_call(self, func, name, args, kwargs, result):
        args, kwargs = list(args), dict(kwargs)
        op = None
        if name in _CONVOLUTIONS:
            op, args, kwargs = self.convolution_args(name, args, kwargs)
        elif name in _DTYPE_METHODS and len(args) == 1 and not kwargs.get("memory_format"):
            op, args, kwargs = "aten::to", [args[0], _DTYPE_METHODS[name], False, False, None], {}
        elif name.startswith("__") and name.endswith("__"):
            op, args = self.dunder(name, args)
        else:
            op = _qualified(name)
        if op is None:
            raise RuntimeError("kindling.jit.trace cannot record %s: Kindling has no operator aten::%s"
                               % (resolve_name(func) or name, name))
        kwargs.pop("out", None) if kwargs.get("out") is None else None
        if "requires_grad" in kwargs and not kwargs["requires_grad"]:
            del kwargs["requires_grad"]
        gargs = [self.arg(a) for a in args]
        gkwargs = {k: self.arg(v) for k, v in kwargs.items()}
        try:
            outs = self.builder.call(op, gargs, gkwargs)
        except _C.CompileError as e:
            outs = None
            for scalars in (False, True):  # ints where the schema wants floats
                try:
                    outs = self.builder.call(op, _floats_for_ints(gargs, scalars),
                                             dict(zip(gkwargs, _floats_for_ints(list(gkwargs.values()), scalars))))
                    break
                except _C.CompileError:
                    pass
            if outs is None:
                raise RuntimeError("kindling.jit.trace cannot record %s as %s: %s"
                                   % (resolve_name(func) or name, op, e)) from None
        if isinstance(func, _C.ScriptFunction):  # pragma: no cover - handled by the ScriptFunction hook
            return
        is_inplace = op.endswith("_") and not op.endswith("__") and args and result is args[0]
        if is_inplace:
            self.bind(result, outs[0])
            return
        self.bind_result(result, outs, name)

    def dunder(self, name, args):
        core = name[2:-2]
        if core in ("getitem", "setitem", "len", "iter", "contains"):
            return None, args
        q = _qualified(name)
        if q is not None and core not in ("add", "sub", "mul", "div", "truediv"):
            return q, args
        if core.startswith("r") and core[1:] in _BINARY_DUNDERS:
            return self.dunder("__" + core[1:] + "__", args)[0], args
        if core.startswith("i") and core[1:] in _BINARY_DUNDERS:
            base = _DUNDER_ALIASES.get(core[1:], core[1:])
            return _qualified(base + "_") or _qualified("__" + core + "__"), args
        return _qualified(_DUNDER_ALIASES.get(core, core)), args

    def convolution_args(self, name, args, kwargs):
        dims, transposed = _CONVOLUTIONS[name]
        params = ["input", "weight", "bias", "stride", "padding"] + \
            (["output_padding", "groups", "dilation"] if transposed else ["dilation", "groups"])
        bound = dict(zip(params, args))
        bound.update(kwargs)
        padding = bound.get("padding", 0)
        if isinstance(padding, str):  # padding="same"/"valid": the overload taking a string
            return _qualified(name + ".padding") and "aten::" + name, args, kwargs

        def expand(v, default):
            v = default if v is None else v
            if isinstance(v, int):
                return [v] * dims
            return list(v)
        return "aten::_convolution", [
            bound["input"], bound["weight"], bound.get("bias"), expand(bound.get("stride"), 1), expand(padding, 0),
            expand(bound.get("dilation"), 1), transposed, expand(bound.get("output_padding"), 0),
            bound.get("groups", 1) or 1, False, False, True, True], {}

    # --- indexing ---
    def index_views(self, tensor, index):
        """Records the views x[index] makes; returns (GraphValue of the view, advanced index list or None)."""
        if not isinstance(index, tuple):
            index = (index,)
        gv = self.arg(tensor)
        dim = 0
        ndim = tensor.dim()
        count = sum(1 for i in index if i is not None and i is not Ellipsis and not (isinstance(i, torch.Tensor)
                                                                                    and i.dtype == torch.bool))
        advanced = []
        has_advanced = False
        for i in index:
            if i is Ellipsis:
                skip = ndim - count
                advanced.extend([None] * skip)
                dim += skip
            elif i is None:
                gv = self.builder.call("aten::unsqueeze", [gv, dim])[0]
                advanced.append(None)
                dim += 1
            elif isinstance(i, slice):
                if not (i.start is None and i.stop is None and i.step is None):
                    gv = self.builder.call("aten::slice", [gv, dim, self.arg(i.start), self.arg(i.stop),
                                                           self.arg(1 if i.step is None else i.step)])[0]
                advanced.append(None)
                dim += 1
            elif isinstance(i, bool):
                raise RuntimeError("kindling.jit.trace cannot record indexing with a bool")
            elif isinstance(i, int):
                gv = self.builder.call("aten::select", [gv, dim, self.arg(i)])[0]
            elif isinstance(i, (torch.Tensor, list)):
                t = i if isinstance(i, torch.Tensor) else torch.tensor(i)
                advanced.append(self.arg(t))
                has_advanced = True
                dim += 1
            else:
                raise RuntimeError("kindling.jit.trace cannot record indexing with %s" % type(i).__name__)
        return gv, (advanced if has_advanced else None)

    def record_getitem(self, func, args):
        tensor, index = args
        result = func(*args)
        gv, advanced = self.index_views(tensor, index)
        if advanced is not None:
            while advanced and advanced[-1] is None:
                advanced.pop()
            gv = self.builder.call("aten::index", [gv, self.builder.list(advanced, True)])[0]
        self.bind(result, gv)
        return result

    def record_setitem(self, func, args):
        tensor, index, value = args
        gv, advanced = self.index_views(tensor, index)
        if advanced is not None:
            while advanced and advanced[-1] is None:
                advanced.pop()
            v = self.arg(value if isinstance(value, torch.Tensor) else torch.tensor(value, dtype=tensor.dtype))
            self.builder.call("aten::index_put_", [gv, self.builder.list(advanced, True), v, False])
        elif isinstance(value, torch.Tensor):
            self.builder.call("aten::copy_", [gv, self.arg(value)])
        else:
            self.builder.call("aten::fill_", [gv, self.arg(value)])
        return func(*args)


# ---------------------------------------------------------------- inputs and outputs
def _is_traceable(ex):
    if isinstance(ex, torch.Tensor):
        return True
    if isinstance(ex, (tuple, list)):
        return len(ex) > 0 and all(_is_traceable(e) for e in ex)
    if isinstance(ex, dict):
        return len(ex) > 0 and all(isinstance(k, str) for k in ex) and all(_is_traceable(v) for v in ex.values())
    return False


def _bind_structure(rec, ex, gv):
    """Binds the tensors of an input structure to the values unpacked from its graph input."""
    if isinstance(ex, torch.Tensor):
        rec.bind(ex, gv)
    elif isinstance(ex, (tuple, list)):
        for e, v in zip(ex, rec.builder.unpack(gv, len(ex))):
            _bind_structure(rec, e, v)
    else:  # a dict: its values are read by key (aten::__getitem__), as torch's tracer unpacks them
        for k, e in ex.items():
            _bind_structure(rec, e, rec.builder.call("aten::__getitem__", [gv, k])[0])


def _detached(ex):
    if isinstance(ex, torch.Tensor):
        return ex.detach()
    if isinstance(ex, (tuple, list)):
        return type(ex)(_detached(e) for e in ex)
    return {k: _detached(v) for k, v in ex.items()}


def _add_inputs(rec, names, example_inputs):
    """Graph inputs for the example inputs: tensors, and non-empty tuples, lists and dicts (str keys) of
    them, nested (torch.jit.trace's traceable inputs)."""
    for name, ex in zip(names, example_inputs):
        if not _is_traceable(ex):
            raise RuntimeError("Type '%s' cannot be traced. Only Tensors and (possibly nested) Lists, Dicts, and "
                               "Tuples of Tensors can be traced" % type(ex).__name__)
        _bind_structure(rec, ex, rec.builder.add_input(name, _detached(ex)))
    return list(example_inputs)


_LIST_OUTPUT = ("Encountering a list at the output of the tracer might cause the trace to be incorrect, this is only "
                "valid if the container structure does not change based on the module's inputs. Consider using a "
                "constant container instead (e.g. for `list`, use a `tuple` instead. for `dict`, use a `NamedTuple` "
                "instead). If you absolutely need this and know the side effects, pass strict=False to trace() to "
                "allow this behavior.")


def _output_value(rec, out, strict):
    if isinstance(out, torch.Tensor):
        return rec.arg(out)
    if isinstance(out, tuple):
        return rec.builder.tuple([_output_value(rec, o, strict) for o in out])
    if isinstance(out, list):
        if strict:  # torch 1.13 warns for lists, raises for dicts
            _warn(_LIST_OUTPUT)
        return rec.builder.list([_output_value(rec, o, strict) for o in out])
    if isinstance(out, dict):
        if strict:
            raise RuntimeError(_LIST_OUTPUT.replace("a list", "a dict"))
        return rec.builder.dict(list(out.keys()), [_output_value(rec, o, strict) for o in out.values()])
    raise RuntimeError("Only tensors, lists, tuples of tensors, or dictionary of tensors can be output from traced "
                       "functions (got %s)" % type(out).__name__)


def _input_names(fn, n):
    try:
        sig = inspect.signature(fn.forward if isinstance(fn, torch.nn.Module) else fn)
        names = [p.name for p in sig.parameters.values()
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        names = []
    names = names[:n]
    while len(names) < n:
        names.append("input_%d" % len(names))
    return names


@contextlib.contextmanager
def _script_function_hook(rec):
    """While recording, a call of a kindling ScriptFunction becomes prim::CallFunction."""
    original = ScriptFunction.__call__

    def call(self, *args, **kwargs):
        if not rec.active:
            return original(self, *args, **kwargs)
        rec.active = False
        try:
            result = original(self, *args, **kwargs)
        finally:
            rec.active = True
        outs = rec.builder.call_function(self._c, [rec.arg(a) for a in args], {k: rec.arg(v) for k, v in kwargs.items()})
        rec.callees.append(self)
        return rec.bind_result(result, outs, self.name)

    module_call = ScriptModule.__call__

    def refuse(self, *args, **kwargs):
        if rec.active:
            raise RuntimeError("kindling.jit.trace cannot record a call of the ScriptModule %s yet: its outputs would "
                               "become constants of the trace. Trace the Python module instead, or call the "
                               "ScriptModule outside the traced code" % self.original_name)
        return module_call(self, *args, **kwargs)

    ScriptFunction.__call__ = call
    ScriptModule.__call__ = refuse
    try:
        yield
    finally:
        ScriptFunction.__call__ = original
        ScriptModule.__call__ = module_call


_base_getitem = torch._C._TensorBase.__getitem__


def _tuple_getitem(self, index):
    return _base_getitem(self, index if isinstance(index, tuple) else (index,))


@contextlib.contextmanager
def _tuple_indexing():
    """torch 1.13 hands x[i] to a TorchFunctionMode only when the index is a tuple: while recording,
    Tensor.__getitem__ passes other indices as a 1-tuple (x[(i,)] means x[i]). Iterating over a tensor
    warns as torch's tracer does."""
    had_own = "__getitem__" in torch.Tensor.__dict__
    previous = torch.Tensor.__dict__.get("__getitem__")
    original_iter = torch.Tensor.__iter__

    def warning_iter(self):  # torch's __iter__ has no torch-function dispatch: warn here, as torch's tracer
        _warn(_PYTHON_LEVEL_WARNINGS["__iter__"])
        return original_iter(self)

    torch.Tensor.__getitem__ = _tuple_getitem
    torch.Tensor.__iter__ = warning_iter
    try:
        yield
    finally:
        torch.Tensor.__iter__ = original_iter
        if had_own:
            torch.Tensor.__getitem__ = previous
        else:
            del torch.Tensor.__getitem__


def _record(fn, example_inputs, strict, name):
    rec = _Recorder(name)
    inputs = _add_inputs(rec, _input_names(fn, len(example_inputs)), example_inputs)
    _state.enter_tracing()
    try:
        with torch.no_grad(), _script_function_hook(rec), _tuple_indexing(), rec:
            out = fn(*inputs)
        rec.active = False
        rec.builder.set_output(_output_value(rec, out, strict))
    finally:
        rec.active = False
        _state.exit_tracing()
    handle = rec.builder.finish_function("__torch__." + name)
    result = ScriptFunction(handle, fn if inspect.isfunction(fn) else None)
    result._callees = rec.callees
    return result


# ---------------------------------------------------------------- checking
def _as_tuple(x):
    return x if isinstance(x, tuple) else (x,)


def _clone_inputs(inputs):
    def clone(i):
        if isinstance(i, torch.Tensor):
            return i.clone()
        if isinstance(i, (tuple, list)):
            return type(i)(clone(e) for e in i)
        if isinstance(i, dict):
            return {k: clone(v) for k, v in i.items()}
        return i
    return tuple(clone(i) for i in inputs)


def _flatten(x):
    if isinstance(x, torch.Tensor):
        return [x]
    if isinstance(x, (tuple, list)):
        return [t for e in x for t in _flatten(e)]
    if isinstance(x, dict):
        return [t for e in x.values() for t in _flatten(e)]
    return []


def _graph_kinds(traced):
    return [line.split("=", 1)[1].strip().split("(")[0].split("[")[0]
            for line in str(traced.graph).splitlines() if " = " in line]


def _check(fn, traced, check_inputs, strict, name, rtol=1e-5, atol=1e-5):
    for inputs in check_inputs:
        inputs = _as_tuple(inputs)
        retraced = _record(fn, _clone_inputs(inputs), strict, name)
        if _graph_kinds(retraced) != _graph_kinds(traced):
            raise TracingCheckError("First diverging operator:\n" + _first_difference(traced, retraced), None)
        with torch.no_grad():
            expected = fn(*_clone_inputs(inputs))
        got = traced(*_clone_inputs(inputs))
        again = retraced(*_clone_inputs(inputs))
        nondeterministic = [line.strip() for line in str(traced.graph).splitlines()
                            if re.search(r"= aten::(rand|randn|rand_like|randn_like|randint|randint_like|randperm|"
                                         r"normal|bernoulli|multinomial|uniform_|normal_|bernoulli_|exponential_)\(",
                                         line)]
        if nondeterministic:
            _warn("Trace had nondeterministic nodes. Did you forget call .eval() on your model? Nodes:\n\t%s\nThis "
                  "may cause errors in trace checking. To disable trace checking, pass check_trace=False to "
                  "kindling.jit.trace()" % "\n\t".join(nondeterministic))
        for nr, (a, c) in enumerate(zip(_flatten(got), _flatten(expected))):
            if a.shape != c.shape or not torch.allclose(a.double(), c.double(), rtol=rtol, atol=atol, equal_nan=True):
                _warn("Output nr %d. of the traced function does not match the corresponding output of the Python "
                      "function. Detailed error:\nshapes %s and %s, greatest absolute difference %s"
                      % (nr + 1, tuple(a.shape), tuple(c.shape),
                         (a.double() - c.double()).abs().max().item() if a.shape == c.shape else "n/a"))
        del again


def _first_difference(a, b):
    ka, kb = _graph_kinds(a), _graph_kinds(b)
    for i, (x, y) in enumerate(zip(ka, kb)):
        if x != y:
            return "\t%s (first trace) vs %s (check trace), node %d" % (x, y, i)
    return "\t%d nodes vs %d nodes" % (len(ka), len(kb))


# ---------------------------------------------------------------- public API
def trace(func, example_inputs=None, optimize=None, check_trace=True, check_inputs=None, check_tolerance=1e-5,
          strict=True, _force_outplace=False, _module_class=None, _compilation_unit=None, example_kwarg_inputs=None):
    """Records what `func` (a function or nn.Module) does on `example_inputs` (a tensor or a tuple of
    arguments) as a TorchScript graph, as torch.jit.trace does, and returns it compiled by Kindling.

    check_trace re-traces on `check_inputs` (default: the example inputs) and raises TracingCheckError
    when the graphs differ or the outputs disagree with the trace, the re-trace or the Python function.
    strict=False allows list and dict outputs. With PYTORCH_JIT=0 `func` is returned unchanged.
    """
    if not _state.enabled:
        return func
    if example_inputs is None:
        raise RuntimeError("kindling.jit.trace needs example_inputs")
    if isinstance(func, torch.nn.Module):
        return trace_module(func, {"forward": example_inputs}, check_trace=check_trace, check_inputs=(
            [{"forward": c} for c in check_inputs] if check_inputs else None), check_tolerance=check_tolerance,
            strict=strict)
    if isinstance(func, ScriptFunction):
        return func
    inputs = _as_tuple(example_inputs)
    name = getattr(func, "__name__", "traced_fn")
    if not name.isidentifier():
        name = "traced_fn"
    traced = _record(func, inputs, strict, name)
    if check_trace:
        _check(func, traced, check_inputs if check_inputs is not None else [inputs], strict, name,
               rtol=check_tolerance, atol=check_tolerance)
    return traced


def trace_module(mod, inputs, optimize=None, check_trace=True, check_inputs=None, check_tolerance=1e-5, strict=True,
                 _force_outplace=False, _module_class=None, _compilation_unit=None, example_inputs_is_kwarg=False):
    """Traces the methods of `mod` named in `inputs` ({"forward": example inputs}).

    Kindling records a module's method into one graph whose parameters are constants and returns it as
    a ScriptFunction (one per method; for a single "forward" the function itself)."""
    if not _state.enabled:
        return mod
    if not isinstance(mod, torch.nn.Module):
        raise AttributeError("expected torch.nn.Module as the first argument")
    if not isinstance(inputs, dict):
        raise AttributeError("expected a dictionary of (method_name, input) pairs")
    results = {}
    for method_name, example in inputs.items():
        method = getattr(mod, method_name)
        fn = mod if method_name == "forward" else method
        example = _as_tuple(example)
        traced = _record(fn, example, strict, type(mod).__name__ + "_" + method_name)
        if check_trace:
            checks = [c[method_name] for c in check_inputs] if check_inputs else [example]
            _check(fn, traced, checks, strict, type(mod).__name__ + "_" + method_name, rtol=check_tolerance,
                   atol=check_tolerance)
        results[method_name] = traced
    if list(results) == ["forward"]:
        return results["forward"]
    return results


def script_if_tracing(fn):
    """Compiles `fn` with kindling.jit.script the first time it is called while tracing; otherwise runs
    the Python function (torch.jit.script_if_tracing's counterpart)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if not _state.is_tracing():
            return fn(*args, **kwargs)
        compiled = wrapper.__dict__.get("_compiled")
        if compiled is None:
            from . import __dict__ as jit_names
            script = jit_names.get("script")
            if script is None:  # no kindling.jit.script in this build: the trace records the Python body
                return fn(*args, **kwargs)
            compiled = script(fn)
            wrapper._compiled = compiled
        return compiled(*args, **kwargs)

    wrapper.__original_fn = fn
    wrapper.__script_if_tracing_wrapper = True
    return wrapper
