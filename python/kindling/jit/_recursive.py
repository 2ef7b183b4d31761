"""Scripting nn.Module instances recursively, as torch/jit/_recursive.py does, on Kindling's compiler.

script_module(nn_module) infers a concrete module type for the module and each submodule (parameters,
buffers, submodules, constants from __constants__ / Final, other attributes typed from class annotations,
Attribute markers or their values), builds one TorchScript class per distinct concrete type (types are
shared between modules of the same Python class whose concrete types are equal, as torch shares them;
others get ___torch_mangle_N names), compiles `forward`, the @export'ed methods and the methods they call
(@unused ones raise, @ignore'd ones stay Python and cannot be called from compiled code), and creates
the object tree whose tensors share memory with the Python model.

Methods are compiled without a Python resolution callback for now: their bodies may use `self`, torch.*,
math and TorchScript's builtins; names of other Python globals are a compile error naming them.
"""
import inspect
import re
import textwrap
import typing

import torch

from .. import _C
from . import _markers
from ._concrete_module_type import infer_concrete_type, type_store


def _self_calls(fn, src):
    """Names of methods called as <self>.name( in fn's source (<self> is its first parameter's name)."""
    params = list(inspect.signature(fn).parameters)
    me = re.escape(params[0]) if params else "self"
    return re.findall(r"\b%s\.([A-Za-z_][A-Za-z0-9_]*)\s*\(" % me, src)


def _method_source(fn):
    lines, first = inspect.getsourcelines(fn)
    src = textwrap.dedent("".join(lines))
    return src, inspect.getsourcefile(fn) or "<unknown>", first


def _methods_to_compile(nn_module):
    """forward (when the class defines its own) plus @export'ed methods, then every method they call
    on self, transitively (torch compiles what forward reaches)."""
    cls = type(nn_module)
    names = []
    forward = getattr(cls, "forward", None)
    if forward is not None and forward is not torch.nn.Module.forward and \
            getattr(forward, "__name__", "") != "_forward_unimplemented":
        names.append("forward")
    for name in dir(cls):
        item = getattr(cls, name, None)
        if callable(item) and _markers.is_exported(item) and name not in names:
            names.append(name)
    todo, seen = list(names), set(names)
    while todo:
        fn = getattr(cls, todo.pop(), None)
        try:
            src = inspect.getsource(fn)
        except (OSError, TypeError):
            continue
        for callee in _self_calls(fn, src):
            item = inspect.getattr_static(cls, callee, None)
            if callee in seen or not inspect.isfunction(item) or callee in nn_module._modules:
                continue
            seen.add(callee)
            names.append(callee)
            todo.append(callee)
    # callees first: a method without a return annotation is emitted when declared, so what it calls
    # must be declared before it
    return list(reversed(names))


def _compile_methods(concrete, nn_module):
    mtype = concrete.jit_type
    cls = type(nn_module)
    for name in _methods_to_compile(nn_module):
        fn = getattr(cls, name)
        if _markers.get_modifier(fn) is _markers.FunctionModifiers.IGNORE:
            continue
        src, filename, first = _method_source(fn)
        try:
            mtype.define_method(src, filename, first, None, _markers.is_unused(fn))
        except _C.CompileError as e:
            raise _with_attribute_hint(e, concrete) from None
    try:
        mtype.emit_methods()
    except _C.CompileError as e:
        raise _with_attribute_hint(e, concrete) from None


def _with_attribute_hint(err, concrete):
    """A compile error about a missing attribute that exists on the Python module says why it could not be
    converted (torch's failed-attribute hint)."""
    msg = str(err)
    for name, hint in concrete.failed_attributes.items():
        if "attribute '%s'" % name in msg:
            return type(err)(msg.rstrip() + "\n" + hint)
    return err


def _create_object(concrete, nn_module):
    values = {}
    for name, _ in concrete.attributes:
        value = getattr(nn_module, name)
        if _markers.is_attribute_marker(value):
            value = value.value
        values[name] = value
    for name, sub in concrete.modules:
        values[name] = _create(sub, nn_module._modules[name])
    return concrete.jit_type.create_object(values)


def _create(concrete, nn_module):
    if not concrete.methods_compiled:
        concrete.methods_compiled = True
        for name, sub in concrete.modules:
            pass
        _compile_tree(concrete, nn_module)
    return _create_object(concrete, nn_module)


def _compile_tree(concrete, nn_module):
    for name, sub in concrete.modules:
        if not sub.methods_compiled:
            sub.methods_compiled = True
            _compile_tree(sub, nn_module._modules[name])
    _compile_methods(concrete, nn_module)


def script_module(nn_module):
    """kindling.jit.script for an nn.Module instance: a kindling.jit.ScriptModule (torch.jit's
    RecursiveScriptModule counterpart) sharing the module's tensors."""
    if hasattr(nn_module, "__prepare_scriptable__"):
        nn_module = nn_module.__prepare_scriptable__()
    concrete = infer_concrete_type(nn_module)
    return _create(concrete, nn_module)
