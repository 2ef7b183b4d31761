"""kindling.jit.script for Python functions and TorchScript classes, NamedTuples and Enums
(torch/jit/_script.py's script), compiled by Kindling's frontend; nothing here calls torch.jit.

Functions compile to ScriptFunctions named as torch names them ("__torch__.<module>.<name>", mangled
"___torch_mangle_<N>" when taken); the functions they call are compiled on demand through the
resolution callback (_sources.py) and the object classifier `_classify` (the C++ side is
python/src/script_compiler.h). Results are cached per Python object.
"""
import enum
import inspect
import math
import types
import typing
import weakref
import builtins

import torch

from .. import _C
from . import _markers, _sources, _state
from ._recursive import _Super
from ._script_module import ScriptFunction

_function_cache = weakref.WeakKeyDictionary()   # Python function -> ScriptFunction
_class_cache = weakref.WeakKeyDictionary()      # Python class -> qualified name of its type
_in_progress = {}                                # id(obj) -> qualified name being compiled


def _qualified_name(obj):
    override = getattr(obj, "_jit_override_qualname", None)
    if isinstance(override, str):
        return override
    name = obj.__name__
    if name == "<lambda>":
        name = "_lambda"
    module = getattr(obj, "__module__", None) or "__main__"
    prefix = "__torch__" if module == "__main__" else "__torch__." + module
    return prefix + "." + name


def _compile_function(fn):
    cached = _function_cache.get(fn)
    if cached is not None:
        return cached
    text, filename, line = _sources.definition_source(fn)
    qualname = _C._unique_name(_qualified_name(fn))
    _in_progress[id(fn)] = qualname
    try:
        c = _C._compile_function(text, filename, line, qualname, _sources.resolution_callback(fn),
                                 _sources.default_args(fn), _markers.is_unused(fn))
    finally:
        _in_progress.pop(id(fn), None)
    sf = ScriptFunction(c, fn)
    _function_cache[fn] = sf
    return sf


class _VarArgsFunction:
    """A Python function taking *args and/or **kwargs, called from compiled code (torch.jit 1.13 rejects it:
    "Compiled functions can't take variable number of arguments"). Each call binds them statically:
    specialize(types, keywords) compiles, once per binding, the function for the types of the extra positional
    arguments (`types`, annotations) and the keyword arguments that match no parameter (`keywords`, (name,
    annotation) pairs of every keyword argument of the call; those naming a parameter are left to it). The
    frontend lists the bound arguments as parameters NAME_0 ... and keyword-only parameters named by their keys;
    the body sees *args as their tuple and **kwargs as a dict known statically (frontend's VariadicBinding)."""

    def __init__(self, fn):
        self.fn = fn
        params = list(inspect.signature(fn).parameters.values())
        kinds = [p.kind for p in params]
        P = inspect.Parameter
        self.has_varargs = P.VAR_POSITIONAL in kinds
        self.has_kwargs = P.VAR_KEYWORD in kinds
        # the parameters a call can pass positionally before *args
        self.fixed_count = sum(1 for k in kinds if k in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD))
        self.named = {p.name for p in params if p.kind not in (P.VAR_POSITIONAL, P.VAR_KEYWORD)}
        self.specializations = {}
        self.compiling = set()  # keys of the specializations being compiled (a recursive call finds its own)

    def specialize(self, types, keywords=()):
        types = tuple(types)
        extra = tuple((k, t) for k, t in keywords if k not in self.named)
        if types and not self.has_varargs:
            raise _C.CompileError("%s() takes %d positional arguments but %d were given"
                                  % (self.fn.__name__, self.fixed_count, self.fixed_count + len(types)))
        if extra and not self.has_kwargs:
            raise _C.CompileError("%s() got an unexpected keyword argument '%s'" % (self.fn.__name__, extra[0][0]))
        key = (types, extra)
        done = self.specializations.get(key)
        if done is not None:
            return done._c
        if key in self.compiling:  # as the compiler reports other recursive calls
            raise _C.CompileError("function '%s' is called recursively. Recursive calls are not supported"
                                  % self.fn.__name__)
        self.compiling.add(key)
        try:
            text, filename, line = _sources.definition_source(self.fn)
            qualname = _C._unique_name(_qualified_name(self.fn))
            c = _C._compile_function(text, filename, line, qualname, _sources.resolution_callback(self.fn),
                                     _sources.default_args(self.fn), _markers.is_unused(self.fn),
                                     variadic=(list(types), list(extra)))
            self.specializations[key] = ScriptFunction(c, self.fn)
            return c
        finally:
            self.compiling.discard(key)


_varargs_cache = weakref.WeakKeyDictionary()  # Python function -> _VarArgsFunction


def _varargs_function(fn):
    v = _varargs_cache.get(fn)
    if v is None:
        v = _varargs_cache[fn] = _VarArgsFunction(fn)
    return v


_overload_cache = weakref.WeakKeyDictionary()  # implementation -> [ScriptFunction per declaration]


def _compile_overloads(fn, decls):
    """The overloads of `fn` (torch.jit._script._get_overloads): each declaration's signature compiled with
    `fn`'s body and defaults as its own function, named as torch names them (the implementation's qualified
    name, mangled ___torch_mangle_N after the first)."""
    cached = _overload_cache.get(fn)
    if cached is not None:
        return cached
    from ._recursive import _check_overload_declarations, _renamed_def
    _check_overload_declarations(decls, fn, "function")
    text, filename, line = _sources.definition_source(fn)
    rcb = _sources.resolution_callback(fn)
    defaults = _sources.default_args(fn)
    out = []
    for decl in decls:
        decl_defaults = _sources.default_args(decl)
        for name, value in decl_defaults.items():
            if name not in defaults or defaults[name] != value:
                raise _C.CompileError(
                    "Default parameters on overloads do not affect the runtime so they must equal to the default "
                    "parameter on the implementation function. Found on parameter %s of '%s'" % (name, fn.__name__))
        decl_text, decl_file, decl_line = _sources.definition_source(decl)
        qualname = _C._unique_name(_qualified_name(fn))
        c = _C._compile_function(text, filename, line, qualname, rcb, defaults, _markers.is_unused(fn),
                                 signature=(_renamed_def(decl_text, fn.__name__), decl_file, decl_line))
        out.append(ScriptFunction(c, fn))
    _overload_cache[fn] = out
    return out


def _class_source(cls):
    """Source text for a NamedTuple or Enum class built from the live class (torch reads them live too)."""
    name = cls.__name__
    if _markers.is_enum_class(cls):
        body = ["    %s = %r" % (m.name, m.value) for m in cls]
        return "class %s(Enum):\n%s\n" % (name, "\n".join(body))
    # a subclass of a NamedTuple (torch.nn.utils.rnn.PackedSequence) has no annotations of its own: the
    # fields' annotations are those of the nearest class that has them, as torch reads them
    anns = {}
    for klass in cls.__mro__:
        own = klass.__dict__.get("__annotations__")
        if own:
            anns = dict(own)
            break
    body = []
    for f in cls._fields:
        body.append("    %s : %s" % (f, _annotation_text(anns.get(f, torch.Tensor))))
    return "class %s(NamedTuple):\n%s\n" % (name, "\n".join(body) or "    pass")


def _annotation_text(ann):
    """A Python annotation as TorchScript annotation source."""
    if isinstance(ann, str):
        return ann
    if ann is None or ann is type(None):
        return "None"
    simple = {torch.Tensor: "Tensor", int: "int", float: "float", bool: "bool", str: "str", complex: "complex",
              torch.device: "Device", torch.dtype: "int", typing.Any: "Any"}
    if ann in simple:
        return simple[ann]
    origin = getattr(ann, "__origin__", None)
    args = getattr(ann, "__args__", None) or ()
    if origin is not None:
        names = {list: "List", dict: "Dict", tuple: "Tuple", typing.Union: "Union"}
        if origin is typing.Union and len(args) == 2 and type(None) in args:
            other = args[0] if args[1] is type(None) else args[1]
            return "Optional[%s]" % _annotation_text(other)
        base = names.get(origin)
        if base is None and _markers.is_final(ann):
            base = "Final"
        if base is None:
            raise TypeError("unsupported annotation %r" % (ann,))
        if base == "Tuple" and not args:
            return "Tuple[()]"
        return "%s[%s]" % (base, ", ".join(_annotation_text(a) for a in args))
    if isinstance(ann, type):
        return _compile_class(ann)  # a class type: its qualified name
    raise TypeError("unsupported annotation %r" % (ann,))


_planned_names = weakref.WeakKeyDictionary()  # Python class -> qualified name its type will have


def _class_qualname(cls):
    """The qualified name `cls`'s type has, or will have once compiled (named as a base before that)."""
    name = _class_cache.get(cls) or _in_progress.get(id(cls)) or _planned_names.get(cls)
    if name is None:
        name = _planned_names[cls] = _C._unique_name(_qualified_name(cls))
    return name


def _class_definition(rcb, name):
    """What a TorchScript class compiled from Python needs of its base class named `name` (a dotted name
    resolved through `rcb`): (source, filename, first_line, qualified name, resolution callback), or None
    when the name is not a class with Python source that TorchScript compiles (builtins, nn.Module,
    NamedTuple and Enum classes). The base itself is not compiled: its methods are compiled as methods of
    the derived class (frontend/class_inheritance.h)."""
    parts = name.split(".")
    obj = rcb(parts[0])
    for p in parts[1:]:
        obj = getattr(obj, p, None)
    if not inspect.isclass(obj) or obj is object or issubclass(obj, torch.nn.Module):
        return None
    if _markers.is_enum_class(obj) or _markers.is_namedtuple_class(obj):
        return None
    try:
        text, filename, line = _sources.definition_source(obj)
    except (OSError, TypeError):
        return None
    return (text, filename, line, _class_qualname(obj), _sources.class_resolution_callback(obj))


def _compile_class(cls):
    """Compiles a TorchScript class, NamedTuple or Enum; returns the qualified name of its type."""
    cached = _class_cache.get(cls)
    if cached is not None:
        return cached
    if id(cls) in _in_progress:
        return _in_progress[id(cls)]
    if issubclass(cls, torch.nn.Module):
        raise _C.CompileError("'%s' is an nn.Module subclass: script an instance of it instead" % cls.__name__)
    qualname = _class_qualname(cls)
    _in_progress[id(cls)] = qualname
    try:
        if _markers.is_enum_class(cls) or _markers.is_namedtuple_class(cls):
            text = _class_source(cls)
            try:
                _, filename, line = _sources.definition_source(cls)
            except (OSError, TypeError):
                filename, line = "<%s>" % cls.__name__, 1
            rcb = _sources.class_resolution_callback(cls)
        else:
            text, filename, line = _sources.definition_source(cls)
            rcb = _sources.class_resolution_callback(cls)
        _C._compile_class(text, filename, line, qualname, rcb, cls)
    finally:
        _in_progress.pop(id(cls), None)
    _class_cache[cls] = qualname
    return qualname


_BUILTIN_NAMESPACES = ["torch.nn.functional", "torch.linalg", "torch.special", "torch.fft", "torch", "math"]
_FRONTEND_MODULES = {"torch", "math", "torch.nn.functional", "torch.jit", "torch.nn", "torch.linalg",
                     "torch.special", "torch.fft", "torch.functional", "torch._VF"}


def _is_constant(v):
    if v is None or isinstance(v, (bool, int, float, str, complex, torch.dtype, torch.device)):
        return True
    if type(v) is tuple:
        return all(_is_constant(e) for e in v)
    return False


def _special_form(obj):
    import kindling.jit as kj
    from . import _fork
    table = [(torch.finfo, "finfo"), (torch.iinfo, "iinfo"),
             (_markers.annotate, "annotate"), (_markers.jit_isinstance, "isinstance"),
             (_markers.is_scripting, "is_scripting"), (_markers.is_tracing, "is_tracing"),
             (_fork.fork, "fork"), (_fork.wait, "wait"), (kj.is_tracing, "is_tracing")]
    tj = torch.jit
    for n in ("annotate", "isinstance", "is_scripting", "is_tracing", "_unwrap_optional"):
        f = getattr(tj, n, None)
        if f is not None:
            table.append((f, n))
    ji = getattr(torch, "_jit_internal", None)
    if ji is not None:
        for n in ("is_scripting", "_unwrap_optional"):
            if hasattr(ji, n):
                table.append((getattr(ji, n), n))
    overrides = getattr(torch, "overrides", None)
    for n in ("has_torch_function", "has_torch_function_unary", "has_torch_function_variadic"):
        f = getattr(overrides, n, None)
        if f is not None:
            table.append((f, "has_torch_function"))
    utils = getattr(getattr(getattr(torch, "nn", None), "modules", None), "utils", None)
    for n in ("_single", "_pair", "_triple", "_quadruple"):
        f = getattr(utils, n, None)
        if f is not None:
            table.append((f, n))
    for f, n in table:
        if obj is f:
            return n
    # torch.jit.fork / wait (their torch.jit objects; reading them does not call them)
    if obj is getattr(torch.jit, "fork", None) or getattr(obj, "__name__", None) == "fork" and \
            getattr(obj, "__module__", "").startswith("torch.jit"):
        return "fork"
    if obj is getattr(torch.jit, "wait", None) or getattr(obj, "__name__", None) == "wait" and \
            getattr(obj, "__module__", "").startswith("torch.jit"):
        return "wait"
    return None


def _builtin_operator(obj):
    """The operator torch's builtin table maps a Python function to (torch/jit/_builtins.py), or None."""
    import collections
    import warnings
    if obj is warnings.warn:
        return "aten::warn"
    if obj is collections.OrderedDict:  # torch's table maps it to dict(): TorchScript dicts keep insertion order
        return "aten::dict"
    if obj is getattr(torch._C, "_get_tracing_state", None):  # False in compiled code (torch.nn.utils.rnn)
        return "aten::_get_tracing_state"
    ops = getattr(torch, "_ops", None)
    packet = getattr(ops, "OpOverloadPacket", None)
    if packet is not None and isinstance(obj, packet):  # torch.ops.<namespace>.<op>: the operator itself
        return obj._qualified_op_name
    return None


def _module_class(cls):
    """An nn.Module subclass named in compiled code (`isinstance(self.layer, nn.TransformerEncoderLayer)`):
    the module classes built so far from Python subclasses of `cls` (type sharing and mangling give one
    Python class several), so isinstance answers as Python's does; the class's own qualified name when
    none exists (isinstance is then False). torch.jit 1.13 instead finds only the unmangled class of that
    exact name and rejects a class it never scripted ("Unknown type name")."""
    from ._concrete_module_type import _qualified_name as module_qualified_name, type_store
    names = []
    for py_class, concretes in type_store.types.items():
        if isinstance(py_class, type) and issubclass(py_class, cls):
            names.extend(c.jit_type.qualified_name for c in concretes if c.jit_type is not None)
    return ("module_class", names, module_qualified_name(cls))


_torch_script_function_sources = weakref.WeakKeyDictionary()  # torch ScriptFunction -> Python function


_ignored_cache = weakref.WeakKeyDictionary()  # @ignore'd Python function -> FunctionHandle of its call-back


def _ignored_function(fn):
    """The function compiled code calls for the @torch.jit.ignore'd Python function `fn`: `fn` itself, called back
    in Python (torch.jit's PythonOp), typed by its annotations; None when its source cannot be read."""
    done = _ignored_cache.get(fn)
    if done is None:
        try:
            text, filename, line = _sources.definition_source(fn)
        except (OSError, TypeError):
            return None
        done = _ignored_cache[fn] = _C._define_python_function(text, filename, line, _sources.resolution_callback(fn),
                                                               fn)
    return done


def _python_function_of_torch_script_function(obj):
    """A Python function for the torch ScriptFunction `obj` (`@torch.jit.script def f` in a module, called from code
    Kindling compiles), without calling torch.jit: torch keeps no reference to the function it compiled, so the
    def is found again by `obj.qualified_name` ("__torch__.<module>.<name>") in its module's source file and
    defined anew, undecorated, over a copy of the module's globals (its source lines are the file's, so errors
    point there). None for anything else, or when the def cannot be found."""
    import ast
    import sys
    script_function = getattr(getattr(torch, "jit", None), "ScriptFunction", None)
    if script_function is None or not isinstance(obj, script_function):
        return None
    done = _torch_script_function_sources.get(obj)
    if done is not None:
        return done
    parts = str(getattr(obj, "qualified_name", "")).split(".")
    if len(parts) < 2 or parts[0] != "__torch__":
        return None
    module = sys.modules.get(".".join(parts[1:-1]) or "__main__")
    try:
        filename = inspect.getsourcefile(module)
        tree = ast.parse(open(filename).read(), filename)
    except (TypeError, OSError, SyntaxError):
        return None
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == parts[-1]]
    if len(defs) != 1:
        return None
    node = defs[0]
    node.decorator_list = []
    namespace = dict(module.__dict__)
    exec(compile(ast.Module(body=[node], type_ignores=[]), filename, "exec"), namespace)
    fn = namespace[node.name]
    _torch_script_function_sources[obj] = fn
    return fn


def _unwrap_script_if_tracing(fn):
    """The function a torch.jit._script_if_tracing / kindling.jit.script_if_tracing wrapper wraps (compiled code
    calls it, as torch.jit.script does: its source, globals and closure are the original's)."""
    while getattr(fn, "__script_if_tracing_wrapper", False) and inspect.isfunction(getattr(fn, "__original_fn", None)):
        fn = getattr(fn, "__original_fn")
    return fn


def _classify(obj):
    """What a Python object is to the compiler (the tuple forms are listed in python_resolver.h)."""
    if obj is torch.Size:  # torch.Size([2, 3]): aten::Size, a list of ints in TorchScript
        return ("builtin", "torch", "Size")
    if _is_constant(obj):
        return ("constant", obj)
    if isinstance(obj, _Super):
        return ("super", obj)
    op = _builtin_operator(obj)
    if op is not None:
        return ("builtin_op", op)
    ops = getattr(torch, "_ops", None)
    if ops is not None and isinstance(obj, getattr(ops, "_Ops", ())):  # torch.ops: operator namespaces by name
        return ("module", "ops")
    if ops is not None and isinstance(obj, getattr(ops, "_OpNamespace", ())):
        # torch.ops.<ns>: its attributes are the operators "<ns>::<name>" (read without the Python namespace,
        # whose lazy lookup calls torch._C._jit_get_operation)
        return ("module", "ops." + obj.name)
    if isinstance(obj, types.ModuleType):
        name = obj.__name__
        if name in _FRONTEND_MODULES:
            return ("module", name, obj)
        return ("pymodule", obj)
    if isinstance(obj, ScriptFunction):
        return ("function", obj._c)
    special = _special_form(obj)
    if special is not None:
        return ("special", special)
    if isinstance(obj, type):
        if obj.__module__ == "builtins":
            return ("python_builtin", obj.__name__)
        if obj is torch.Tensor:
            return ("annotation", "Tensor")
        if obj is torch.device:
            return ("annotation", "Device")
        if issubclass(obj, torch.nn.Module):
            return _module_class(obj)
        return ("type", _compile_class(obj))
    if getattr(obj, "__module__", None) == "typing" or getattr(obj, "__origin__", None) is not None:
        try:
            return ("annotation", _annotation_text(obj))
        except TypeError:
            return None
    name = getattr(obj, "__name__", None)
    if isinstance(obj, (types.BuiltinFunctionType, types.FunctionType)) and name:
        if getattr(builtins, name, None) is obj:
            return ("python_builtin", name)
        for ns in _BUILTIN_NAMESPACES:
            mod = torch.nn.functional if ns == "torch.nn.functional" else \
                math if ns == "math" else torch if ns == "torch" else getattr(torch, ns.split(".")[1], None)
            if mod is not None and getattr(mod, name, None) is obj:
                return ("builtin", ns, name)
    if inspect.isfunction(obj):
        obj = _unwrap_script_if_tracing(obj)
        if _markers.get_modifier(obj) is _markers.FunctionModifiers.IGNORE:
            return ("ignored", obj.__name__, _ignored_function(obj))
        if id(obj) in _in_progress:
            return ("function_name", _in_progress[id(obj)])
        decls = _markers.function_overloads(obj)
        if decls:
            return ("overloads", [f._c for f in _compile_overloads(obj, decls)])
        kinds = {p.kind for p in inspect.signature(obj).parameters.values()}
        if inspect.Parameter.VAR_POSITIONAL in kinds or inspect.Parameter.VAR_KEYWORD in kinds:
            return ("varargs_function", _varargs_function(obj))
        wrapped = getattr(obj, "_torchdynamo_inline", None)
        return ("function", _compile_function(wrapped if wrapped is not None else obj)._c)
    inline = getattr(obj, "_torchdynamo_inline", None)  # a torch.jit.ScriptFunction: its Python function
    if not inspect.isfunction(inline):
        inline = _python_function_of_torch_script_function(obj)
    if inspect.isfunction(inline):
        return ("function", _compile_function(inline)._c)
    if isinstance(obj, torch.Tensor):
        return ("error", "python value of type 'Tensor' cannot be used as a value in TorchScript code: pass it "
                         "as an argument, or make it an attribute of a scripted module")
    return ("error", "python value of type '%s' cannot be used as a value in TorchScript code" % type(obj).__name__)


_C._set_object_classifier(_classify)
_C._set_class_definition_finder(_class_definition)


def script(obj, optimize=None, _frame_depth=0, _rcb=None, example_inputs=None):
    """Compiles a Python function or class to TorchScript with Kindling (torch.jit.script).

    - a function: returns a ScriptFunction (cached per function); the functions it calls are compiled too;
    - a class (TorchScript class, NamedTuple, Enum): compiles its type and returns the class itself;
    - a ScriptFunction / ScriptModule: returned unchanged; torch.jit's (scripted or traced): a ScriptModule
      loaded from the archive torch writes of it, a ScriptFunction compiled from the def torch compiled.
    With PYTORCH_JIT=0 the object is returned unchanged. Compile errors raise kindling.jit.CompileError with
    the user's file, line and the ``~~~ <--- HERE`` marker."""
    if not _state.enabled:
        return obj
    from ._script_module import ScriptModule
    if isinstance(obj, (ScriptFunction, ScriptModule)):
        return obj
    torch_script_module = getattr(getattr(torch, "jit", None), "ScriptModule", None)
    if torch_script_module is not None and isinstance(obj, torch_script_module):
        # a module torch.jit compiled already (scripted or traced): the archive torch writes of it, loaded
        import io
        from ._serialization import load
        return load(io.BytesIO(obj.save_to_buffer()))
    torch_function = _python_function_of_torch_script_function(obj)
    if torch_function is not None:
        return _compile_function(torch_function)
    if isinstance(obj, torch.nn.Module):
        from ._recursive import script_module  # nn.Module instances, recursively
        return script_module(obj)
    if isinstance(obj, type):
        _compile_class(obj)
        return obj
    if inspect.isfunction(obj) or inspect.ismethod(obj):
        fn = _unwrap_script_if_tracing(getattr(obj, "__func__", obj))
        if _markers.is_ignored(fn) and not _markers.is_unused(fn):
            raise _C.CompileError("'%s' is marked @ignore: it cannot be scripted" % fn.__name__)
        if _markers.function_overloads(fn):
            raise _C.CompileError("Function '%s' cannot be directly compiled because it is overloaded. It must be "
                                  "used in a context of a function where its inputs can determine which overload "
                                  "to call." % fn.__name__)
        return _compile_function(fn)
    raise TypeError("kindling.jit.script expects a function, a class or an nn.Module, got %s" % type(obj).__name__)
