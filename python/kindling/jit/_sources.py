"""Source text and name resolution for scripting Python objects (torch/_sources.py and
torch/jit/frontend.py's get_jit_def, torch/_jit_internal.py's resolution callbacks).

- `definition_source(obj)`: the dedented source of a function or class with its own decorators removed,
  the file it comes from and the 1-based line its first line has there (so compile errors point at the
  user's file).
- `resolution_callback(fn)`: name -> object for the names compiled code does not define: the function's
  globals, then its closure cells, then `typing` and `builtins` (dotted names walk attributes).
"""
import ast
import builtins
import inspect
import textwrap
import typing


def definition_source(obj):
    """(text, filename, first_line) of `obj`'s def or class statement, decorators removed.
    Raises OSError when Python has no source for it (as inspect.getsource)."""
    lines, first = inspect.getsourcelines(obj)
    filename = inspect.getsourcefile(obj) or inspect.getfile(obj)
    text = textwrap.dedent("".join(lines))
    tree = ast.parse(text)
    node = tree.body[0] if tree.body else None
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.decorator_list:
        skip = node.lineno - 1  # the def/class line (decorators come before it)
        text = "".join(text.splitlines(True)[skip:])
        first += skip
    return text, filename, first


def _closure_of(fn):
    captures = {}
    fn = getattr(fn, "__func__", fn)
    captures.update(getattr(fn, "__globals__", {}))
    code = getattr(fn, "__code__", None)
    if code is not None and fn.__closure__:
        for name, cell in zip(code.co_freevars, fn.__closure__):
            try:
                captures[name] = cell.cell_contents
            except ValueError:  # an empty cell (not assigned yet)
                pass
    return captures


def _lookup(env, name):
    head, *rest = name.split(".")
    if head in env:
        obj = env[head]
    elif hasattr(typing, head):
        obj = getattr(typing, head)
    elif hasattr(builtins, head):
        obj = getattr(builtins, head)
    else:
        return None
    for part in rest:
        if not hasattr(obj, part):
            return None
        obj = getattr(obj, part)
    return obj


def resolution_callback(fn):
    """name -> object for `fn`'s globals and closure (torch's createResolutionCallbackFromClosure). The
    builtin `super` resolves to a kindling.jit._recursive._Super holding the class that defines `fn` (its
    `__class__` cell, which Python creates for a method that calls super()) and this callback (to find
    the class named in super(C, self))."""
    env = _closure_of(fn)

    def rcb(name):
        obj = _lookup(env, name)
        if name == "super" and obj is builtins.super:
            from ._recursive import _Super
            return _Super(env.get("__class__"), rcb)
        return obj
    return rcb


def class_resolution_callback(cls):
    """name -> object over the globals and closures of every method of `cls`, then its module, then the
    class's bases by their names (a base defined inside a function is in no method's closure)."""
    env = {}
    module = inspect.getmodule(cls)
    if module is not None:
        env.update(vars(module))
    for value in vars(cls).values():
        fn = value.__func__ if isinstance(value, (staticmethod, classmethod)) else value
        if inspect.isfunction(fn):
            env.update(_closure_of(fn))
    bases = {b.__name__: b for b in getattr(cls, "__bases__", ())}

    def rcb(name):
        obj = _lookup(env, name)
        return bases.get(name) if obj is None else obj
    return rcb


def default_args(fn):
    """{parameter name: default value} of `fn` (torch.jit.frontend.get_default_args)."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return {}
    return {k: v.default for k, v in sig.parameters.items() if v.default is not inspect.Parameter.empty}
