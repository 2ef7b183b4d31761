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
