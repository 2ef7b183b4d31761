"""The exceptions kindling.jit raises.

- ``Error``: an error raised by TorchScript code while it runs (torch.jit.Error's counterpart; a
  RuntimeError). When the program raised a specific Python exception (``raise ValueError(...)``) the
  exception is also an instance of that class, so ``except ValueError`` catches it.
- ``CompileError``: the source could not be compiled; the message shows the user's file and line with
  TorchScript's ``~~~ <--- HERE`` marker (a RuntimeError, as torch.jit raises).
"""
import builtins

from .. import _C

CompileError = _C.CompileError


class Error(RuntimeError):
    """An error raised by TorchScript code while it ran (the message has the TorchScript frames)."""


_classes = {"builtins.RuntimeError": Error}


def script_error_class(python_class):
    """The exception class for an error a TorchScript program raised as `python_class`
    ("builtins.ValueError" -> a subclass of both Error and ValueError)."""
    cls = _classes.get(python_class)
    if cls is not None:
        return cls
    base = None
    if python_class.startswith("builtins."):
        candidate = getattr(builtins, python_class[len("builtins."):], None)
        if isinstance(candidate, type) and issubclass(candidate, Exception):
            base = candidate
    if base is None or issubclass(Error, base):
        cls = Error
    else:
        try:
            cls = type(base.__name__, (Error, base), {"__module__": "kindling.jit"})
        except TypeError:  # incompatible layouts: fall back to the generic class
            cls = Error
    _classes[python_class] = cls
    return cls


_C._set_error_factory(script_error_class)
