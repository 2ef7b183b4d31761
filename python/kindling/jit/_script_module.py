"""What kindling.jit hands back: ScriptModule and ScriptFunction (torch.jit's RecursiveScriptModule and
ScriptFunction counterparts), backed by Kindling's C++ objects (``kindling._C``).

A ScriptModule is a ``torch.nn.Module`` whose parameters, buffers, submodules and attributes live in the
TorchScript object: reading them converts the object's values (tensors share memory, no copies), writing
them converts and type-checks the new value into the object, as torch.jit does. Methods are compiled
TorchScript run by Kindling's interpreter; calling the module calls ``forward``.
"""
import io
import os
import tempfile

import torch

from .. import _C
from . import _errors  # noqa: F401  (installs the exception factory)


def _is_path(f):
    return isinstance(f, (str, os.PathLike))


def _write_via_temp(write, f, stem="archive"):
    """Runs write(path) into a temporary file and copies its bytes into the file object f."""
    with tempfile.TemporaryDirectory(prefix="kindling-") as d:
        path = os.path.join(d, stem + ".pt")
        write(path)
        with open(path, "rb") as src:
            f.write(src.read())


def _extra_files_for_save(_extra_files):
    if _extra_files is None:
        return None
    return {str(k): (v if isinstance(v, bytes) else str(v)) for k, v in _extra_files.items()}


class Graph:
    """A TorchScript graph; prints as ``print(fn.graph)`` does."""

    def __init__(self, c):
        self._c = c

    def __str__(self):
        return str(self._c)

    __repr__ = __str__

    def str(self, print_source_locations=True):
        return self._c.str(print_source_locations)


class ScriptMethod:
    """A compiled method bound to its ScriptModule (torch._C.ScriptMethod's counterpart)."""

    __slots__ = ("_c", "_owner")

    def __init__(self, c, owner):
        self._c = c
        self._owner = owner

    def __call__(self, *args, **kwargs):
        return self._c(*args, **kwargs)

    @property
    def name(self):
        return self._c.name

    @property
    def schema(self):
        return self._c.schema

    @property
    def graph(self):
        return Graph(self._c.graph)

    @property
    def inlined_graph(self):
        return Graph(self._c.inlined_graph)

    @property
    def code(self):
        return self._c.code

    @property
    def owner(self):
        return self._owner

    def __repr__(self):
        return "<kindling.jit.ScriptMethod %s of %s>" % (self._c.name, self._owner.original_name)


class _SlotDict:
    """A live mapping over one kind of the object's attributes (parameters, buffers or submodules), as
    nn.Module keeps them in _parameters/_buffers/_modules. Values are converted on access; the same
    Kindling value gives the same Python object back while it is unchanged."""

    def __init__(self, module, kind):
        self._module = module
        self._kind = kind
        self._names = [n for n, k, _ in module._c.attributes() if k == kind]
        self._cache = {}

    def __getitem__(self, name):
        if name not in self._names:
            raise KeyError(name)
        cached = self._cache.get(name)
        current = self._module._c.getattr(name) if self._kind != "module" else None
        if cached is not None:
            if self._kind == "module":
                return cached
            if isinstance(current, torch.Tensor) and isinstance(cached, torch.Tensor) and \
                    current.data_ptr() == cached.data_ptr() and current.shape == cached.shape and \
                    current.dtype == cached.dtype and current.stride() == cached.stride():
                return cached
        if self._kind == "module":
            value = self._module._c.getattr(name)
        elif self._kind == "parameter" and isinstance(current, torch.Tensor):
            value = torch.nn.Parameter(current, requires_grad=current.is_floating_point() or current.is_complex())
        else:
            value = current
        self._cache[name] = value
        return value

    def __setitem__(self, name, value):
        if name not in self._names:
            raise KeyError("cannot add %r to a ScriptModule's %ss" % (name, self._kind))
        if self._kind == "module":
            raise RuntimeError("cannot replace the submodule %r of a ScriptModule" % name)
        if isinstance(value, torch.Tensor):
            value = value.detach()
        self._module._c.setattr(name, value)
        self._cache.pop(name, None)

    def __delitem__(self, name):
        raise RuntimeError("cannot delete %r of a ScriptModule" % name)

    def __contains__(self, name):
        return name in self._names

    def __iter__(self):
        return iter(list(self._names))

    def __len__(self):
        return len(self._names)

    def keys(self):
        return list(self._names)

    def values(self):
        return [self[n] for n in self._names]

    def items(self):
        return [(n, self[n]) for n in self._names]

    def get(self, name, default=None):
        return self[name] if name in self._names else default


def _unmangled(qualified_name):
    name = qualified_name.rsplit(".", 1)[-1]
    return name


class ScriptModule(torch.nn.Module):
    """A TorchScript module compiled or loaded by Kindling (torch.jit.RecursiveScriptModule's
    counterpart). Calling it runs ``forward`` in Kindling's interpreter with torch tensors in and out.

    Attribute access reads the TorchScript object (parameters, buffers, submodules, other attributes,
    constants, methods); assignment to an attribute the class declares converts and type-checks the value
    (as torch.jit does); other assignments make plain Python attributes that compiled code does not see.
    Tensors share memory with the object's (and with the original model's when it was scripted).
    """

    def __init__(self, c):
        object.__setattr__(self, "_initializing", True)
        object.__setattr__(self, "_c", c)
        super().__init__()
        self.__dict__.pop("training", None)  # read from the object
        object.__setattr__(self, "_parameters", _SlotDict(self, "parameter"))
        object.__setattr__(self, "_buffers", _SlotDict(self, "buffer"))
        object.__setattr__(self, "_modules", _SlotDict(self, "module"))
        self._install_methods()
        object.__setattr__(self, "_initializing", False)

    def _install_methods(self):
        for name in self._c.method_names():
            object.__setattr__(self, name, ScriptMethod(self._c.get_method(name), self))
        fwd = self.__dict__.get("forward")
        object.__setattr__(self, "_call", fwd._c if fwd is not None else None)

    # --- calling ---
    def __call__(self, *args, **kwargs):
        call = self._call
        if call is None:
            from ._recursive import _overload_tables
            overloads = sorted(n for n in self._c.method_names() if n.startswith("forward__")) or \
                _overload_tables.get(self._c.qualified_name, {}).get("forward")
            if overloads:  # torch.jit's module has no forward either; calls from compiled code choose one
                raise RuntimeError("%s has no forward method: its forward is overloaded (%s); call one of them, "
                                   "or call the module from a scripted module, where the arguments choose the "
                                   "overload" % (self.original_name, ", ".join(overloads)))
            raise RuntimeError("%s has no forward method" % self.original_name)
        return call(*args, **kwargs)

    # --- attributes ---
    def __getattr__(self, name):
        d = self.__dict__
        if "_c" not in d:
            raise AttributeError(name)
        c = d["_c"]
        if name in d["_parameters"]:
            return d["_parameters"][name]
        if name in d["_buffers"]:
            return d["_buffers"][name]
        if name in d["_modules"]:
            return d["_modules"][name]
        if c.hasattr(name):
            return c.getattr(name)
        if name in c.constant_names():
            return c.constant(name)
        prop = c.property(name)
        if prop is not None:  # runs the compiled getter (torch.jit 1.13 returns a `property` object here)
            return c.get_method(prop[0])()
        if c.has_method(name):
            m = ScriptMethod(c.get_method(name), self)
            object.__setattr__(self, name, m)
            return m
        from ._recursive import _failed_properties
        why = _failed_properties.get(c.qualified_name, {}).get(name)
        if why is not None:
            raise AttributeError("'%s' object has no attribute '%s': the property of the Python module was left "
                                 "out because %s" % (type(self).__name__, name, why))
        raise AttributeError("'%s' object has no attribute '%s'" % (type(self).__name__, name))

    def __setattr__(self, name, value):
        d = self.__dict__
        if d.get("_initializing", True):
            if name == "training":
                return
            object.__setattr__(self, name, value)
            return
        c = d["_c"]
        if name in d["_parameters"] or name in d["_buffers"]:
            (d["_parameters"] if name in d["_parameters"] else d["_buffers"])[name] = value
            return
        if c.hasattr(name):
            if name in d["_modules"]:
                raise RuntimeError("cannot replace the submodule '%s' of a ScriptModule" % name)
            c.setattr(name, value)
            return
        if name in c.constant_names():
            raise AttributeError("Cannot mutate TorchScript constant value: '%s'. Value: '%r'" % (name, value))
        prop = c.property(name)
        if prop is not None:  # the compiled setter, as Python's property (torch.jit 1.13 shadows it instead)
            if prop[1] is None:
                raise AttributeError("property '%s' of '%s' object has no setter" % (name, type(self).__name__))
            c.get_method(prop[1])(value)
            return
        object.__setattr__(self, name, value)

    def __dir__(self):
        names = set(super().__dir__())
        names.update(n for n, _, _ in self._c.attributes())
        names.update(self._c.method_names())
        names.update(self._c.constant_names())
        return sorted(names)

    # --- TorchScript views ---
    @property
    def original_name(self):
        return _unmangled(self._c.qualified_name)

    @property
    def qualified_name(self):
        return self._c.qualified_name

    @property
    def graph(self):
        return self.forward.graph

    @property
    def inlined_graph(self):
        return self.forward.inlined_graph

    @property
    def code(self):
        return self.forward.code

    @property
    def code_with_constants(self):
        return self.forward.code, {}

    def extra_repr(self):
        return "original_name=" + self.original_name

    def _get_name(self):
        return "RecursiveScriptModule"

    # --- saving ---
    def save(self, f, _extra_files=None):
        """Writes the module as a TorchScript archive torch.jit.load (and kindling.jit.load) reads.
        `f` is a path or a writable binary file object; `_extra_files` maps names to str/bytes contents
        stored as extra/<name>."""
        extra = _extra_files_for_save(_extra_files)
        if _is_path(f):
            self._c.save(os.fspath(f), extra)
        else:
            _write_via_temp(lambda p: self._c.save(p, extra), f)

    def save_to_buffer(self, _extra_files=None):
        buf = io.BytesIO()
        self.save(buf, _extra_files)
        return buf.getvalue()

    # --- nn.Module behaviour that does not apply ---
    def __getstate__(self):
        raise RuntimeError("ScriptModules cannot be pickled: save them with kindling.jit.save")

    def _replicate_for_data_parallel(self):
        raise RuntimeError("Kindling ScriptModules run on the CPU only")


class ScriptFunction:
    """A compiled TorchScript function (torch.jit.ScriptFunction's counterpart)."""

    def __init__(self, c, original=None):
        self._c = c
        self._original = original
        if original is not None:
            self.__doc__ = getattr(original, "__doc__", None)
            self.__wrapped__ = original

    def __call__(self, *args, **kwargs):
        return self._c(*args, **kwargs)

    @property
    def name(self):
        return self._c.name

    @property
    def __name__(self):
        return self._c.name

    @property
    def qualified_name(self):
        return self._c.qualified_name

    @property
    def schema(self):
        return self._c.schema

    @property
    def graph(self):
        return Graph(self._c.graph)

    @property
    def inlined_graph(self):
        return Graph(self._c.inlined_graph)

    @property
    def code(self):
        return self._c.code

    @property
    def code_with_constants(self):
        return self._c.code, {}

    def save(self, f, _extra_files=None):
        """Saves as torch.jit.script(fn).save does: a module whose forward is the function."""
        extra = _extra_files_for_save(_extra_files)
        if _is_path(f):
            self._c.save(os.fspath(f), extra)
        else:
            _write_via_temp(lambda p: self._c.save(p, extra), f)

    def __repr__(self):
        return "<kindling.jit.ScriptFunction %s>" % self._c.qualified_name


def _wrap_module(c):
    return ScriptModule(c)


_C._set_module_wrapper(_wrap_module)
