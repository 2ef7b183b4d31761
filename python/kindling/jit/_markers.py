"""The markers user code carries for TorchScript, and kindling.jit's own spellings of them.

torch.jit's decorators leave a `_torchscript_modifier` attribute on the function (export, ignore,
unused, copy-to-script-wrapper); kindling.jit's decorators set the same attribute to the same values, so
code marked with either is understood by both (and by torch.jit when it still exists). Reading a marker
is reading an attribute: nothing here calls torch.jit.

Also the annotation helpers that mean something only to the compiler and are identity functions in
Python (annotate, isinstance's container form (jit_isinstance, exported as kindling.jit.isinstance), is_scripting, is_tracing), `Final`, `Attribute` and
`interface`.
"""
import builtins
import enum
import typing

import torch

try:  # the marker values torch.jit uses; kept identical so both systems read each other's marks
    from torch._jit_internal import FunctionModifiers as _TorchModifiers
except ImportError:  # pragma: no cover - torch without TorchScript
    _TorchModifiers = None


class FunctionModifiers:
    """What a decorator asks of the compiler for a function or method."""
    UNUSED = getattr(_TorchModifiers, "UNUSED", "unused")
    IGNORE = getattr(_TorchModifiers, "IGNORE", "ignore")
    EXPORT = getattr(_TorchModifiers, "EXPORT", "export")
    DEFAULT = getattr(_TorchModifiers, "DEFAULT", "default")
    COPY_TO_SCRIPT_WRAPPER = getattr(_TorchModifiers, "COPY_TO_SCRIPT_WRAPPER", "copy_to_script_wrapper")


def get_modifier(fn):
    """The modifier on `fn` (a function, bound method or property accessor), DEFAULT when none."""
    if fn is None:
        return FunctionModifiers.DEFAULT
    fn = getattr(fn, "__func__", fn)
    try:
        return getattr(fn, "_torchscript_modifier", FunctionModifiers.DEFAULT)
    except Exception:  # objects whose __getattr__ raises something else
        return FunctionModifiers.DEFAULT


def is_ignored(fn):
    m = get_modifier(fn)
    return m is FunctionModifiers.IGNORE or m is FunctionModifiers.UNUSED


def is_unused(fn):
    return get_modifier(fn) is FunctionModifiers.UNUSED


def is_exported(fn):
    return get_modifier(fn) is FunctionModifiers.EXPORT


def _set_modifier(fn, modifier):
    fn._torchscript_modifier = modifier
    return fn


def export(fn):
    """Compile this method of an nn.Module even if forward does not call it (torch.jit.export)."""
    return _set_modifier(fn, FunctionModifiers.EXPORT)


def unused(fn):
    """Compile only the signature: the body is replaced by a raise (torch.jit.unused). Works on
    properties too."""
    if isinstance(fn, property):
        for acc in (fn.fget, fn.fset):
            if acc is not None:
                _set_modifier(acc, FunctionModifiers.UNUSED)
        return fn
    return _set_modifier(fn, FunctionModifiers.UNUSED)


def ignore(drop=False, **kwargs):
    """Leave this function to Python (torch.jit.ignore). `@ignore(drop=True)` is `@unused`.

    Kindling runs compiled code without Python: a call to an ignored function from compiled code is a
    compile error that names the function (mark it @unused when compiled code never really calls it)."""
    if callable(drop):
        return _set_modifier(drop, FunctionModifiers.IGNORE)
    drop = kwargs.pop("drop_on_export", drop)

    def decorator(fn):
        return _set_modifier(fn, FunctionModifiers.UNUSED if drop else FunctionModifiers.IGNORE)
    return decorator


def _copy_to_script_wrapper(fn):
    return _set_modifier(fn, FunctionModifiers.COPY_TO_SCRIPT_WRAPPER)


# Final[T] marks a module constant. torch.jit.Final is typing.Final; so is ours.
Final = typing.Final


def is_final(ann):
    if ann is Final:
        return True
    return getattr(ann, "__module__", None) in ("typing", "typing_extensions") and \
        getattr(ann, "__origin__", None) is Final


class Attribute(typing.NamedTuple):
    """`self.x = kindling.jit.Attribute(value, type)` in __init__ gives attribute x the TorchScript type
    `type` (torch.jit.Attribute). In Python it is the value's holder."""
    value: typing.Any
    type: typing.Any


def is_attribute_marker(value):
    """True for kindling.jit.Attribute and torch.jit.Attribute values."""
    if isinstance(value, Attribute):
        return True
    torch_attr = getattr(torch.jit, "Attribute", None)
    return isinstance(torch_attr, type) and isinstance(value, torch_attr)


def annotate(the_type, the_value):
    """Tells the compiler the type of a value (torch.jit.annotate); returns the value in Python."""
    return the_value


def is_scripting():
    """True inside compiled code, False in Python (torch.jit.is_scripting)."""
    return False


def is_tracing():
    """True while a trace records, False otherwise (torch.jit.is_tracing)."""
    from . import _state
    return _state.is_tracing()


def jit_isinstance(obj, target_type):
    """isinstance that understands container annotations (List[int], Dict[str, Tensor], Optional[T]);
    in compiled code it refines the type statically (torch.jit.isinstance)."""
    return _container_isinstance(obj, target_type)


def _container_isinstance(obj, t):
    origin = getattr(t, "__origin__", None)
    args = getattr(t, "__args__", ())
    if t is typing.Any:
        return True
    if origin in (list, typing.List):
        return builtins.isinstance(obj, list) and all(_container_isinstance(e, args[0]) for e in obj)
    if origin in (tuple, typing.Tuple):
        return builtins.isinstance(obj, tuple) and len(obj) == len(args) and \
            all(_container_isinstance(e, a) for e, a in zip(obj, args))
    if origin in (dict, typing.Dict):
        return builtins.isinstance(obj, dict) and all(
            _container_isinstance(k, args[0]) and _container_isinstance(v, args[1]) for k, v in obj.items())
    if origin is typing.Union:
        return any(_container_isinstance(obj, a) for a in args)
    if t is type(None) or t is None:
        return obj is None
    if t is float:
        return builtins.isinstance(obj, float)
    if t is int:
        return builtins.isinstance(obj, int) and not builtins.isinstance(obj, bool)
    return builtins.isinstance(obj, t)


def interface(cls):
    """Marks a class as a TorchScript interface (torch.jit.interface): classes or modules with these
    methods can be used where the interface is expected. Kindling records the mark."""
    cls.__kindling_interface__ = True
    cls.__torch_script_interface__ = True
    return cls


def is_interface(cls):
    return getattr(cls, "__kindling_interface__", False) or getattr(cls, "__torch_script_interface__", False)


def is_enum_class(cls):
    return builtins.isinstance(cls, type) and issubclass(cls, enum.Enum)


def is_namedtuple_class(cls):
    return builtins.isinstance(cls, type) and issubclass(cls, tuple) and hasattr(cls, "_fields")


# ------------------------------------------------------------------ overloads
# Overload declarations (`@_overload def f(x: int) -> int: ...` before the implementation `def f(x)`):
# each declaration's signature is compiled with the implementation's body (torch.jit._overload,
# torch._jit_internal._overload_method). kindling.jit's decorators key them by the function's module and
# __qualname__ ("Cls.forward" for methods), so no stack inspection is needed; torch's registries are read
# too, so code marked with torch's decorators overloads the same way.
_fn_overloads = {}      # (module, qualname) -> [declarations]
_method_overloads = {}  # (module, qualname) -> [declarations]
_torch_cleared_fn_overloads = {}  # torch's qualified name -> declarations torch dropped after compiling them


def _check_declaration_body(fn):
    import ast
    import inspect
    import textwrap
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return
    body = tree.body[0].body if tree.body and hasattr(tree.body[0], "body") else []
    ok = len(body) == 1 and (isinstance(body[0], ast.Pass) or (
        isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and body[0].value.value is ...))
    if not ok:
        raise RuntimeError("Only `pass` statement or `...` can be the body of overload declaration: '%s'"
                           % fn.__qualname__)


def _overload(fn):
    """Declares an overload of a free function (torch.jit._overload): a def whose body is `pass` or `...`
    and whose annotations give one signature; the implementation (an undecorated def of the same name)
    follows the declarations. Compiled code calling the function picks the first declaration whose
    signature matches the arguments."""
    _check_declaration_body(fn)
    _fn_overloads.setdefault((fn.__module__, fn.__qualname__), []).append(fn)
    return fn


def _overload_method(fn):
    """Declares an overload of an nn.Module method (torch._jit_internal._overload_method), as _overload:
    the method compiles to name__0, name__1, ... and calls choose among them."""
    _check_declaration_body(fn)
    _method_overloads.setdefault((fn.__module__, fn.__qualname__), []).append(fn)
    return fn


def function_overloads(fn):
    """The overload declarations of the free function `fn` (kindling's, then torch's), or None."""
    decls = list(_fn_overloads.get((fn.__module__, fn.__qualname__), ()))
    try:
        from torch import _jit_internal
        qual = _jit_internal._qualified_name(fn)
        decls += _jit_internal._overloaded_fns.get(qual, None) or _torch_cleared_fn_overloads.get(qual, [])
    except (ImportError, AttributeError, RuntimeError):
        pass
    return decls or None


def method_overloads(fn, cls):
    """The overload declarations of method `fn` of the nn.Module class `cls` (kindling's, then torch's
    registry entry of the class that defines `fn`), in declaration order, or None."""
    decls = list(_method_overloads.get((fn.__module__, fn.__qualname__), ()))
    try:
        from torch import _jit_internal
        by_class = _jit_internal._overloaded_methods.get(_jit_internal._qualified_name(fn))
    except (ImportError, AttributeError, RuntimeError):
        by_class = None
    if by_class:
        for klass in cls.__mro__:  # the class that defines fn
            if klass.__dict__.get(fn.__name__) is fn:
                decls += by_class.get(klass.__name__, [])
                break
    return decls or None


def _keep_torch_cleared_overloads():
    """torch.jit.script drops a function's overload declarations from torch's registry once it compiled
    them (_jit_internal._clear_fn_overloads); keep them, so Kindling compiles the function after torch did."""
    try:
        from torch import _jit_internal
    except ImportError:  # pragma: no cover
        return
    clear = getattr(_jit_internal, "_clear_fn_overloads", None)
    if clear is None or getattr(clear, "_kindling_keeps", False):
        return

    def _clear_fn_overloads(qual_name):
        decls = _jit_internal._overloaded_fns.get(qual_name)
        if decls:
            _torch_cleared_fn_overloads[qual_name] = list(decls)
        return clear(qual_name)
    _clear_fn_overloads._kindling_keeps = True
    _jit_internal._clear_fn_overloads = _clear_fn_overloads


_keep_torch_cleared_overloads()
