"""Scripting nn.Module instances recursively, as torch/jit/_recursive.py does, on Kindling's compiler.

script_module(nn_module) infers a concrete module type for the module and each submodule (parameters,
buffers, submodules, constants from __constants__ / Final, other attributes typed from class annotations,
Attribute markers or their values), builds one TorchScript class per distinct concrete type (types are
shared between modules of the same Python class whose concrete types are equal, as torch shares them;
others get ___torch_mangle_N names), compiles `forward`, the @export'ed methods and the methods they call
(@unused ones raise, @ignore'd ones stay Python and cannot be called from compiled code), and creates
the object tree whose tensors share memory with the Python model.

Method bodies resolve free names as scripted functions do (their globals and closure: F, math, module
constants, helper functions compiled recursively); methods called on self are compiled when the compiler
first meets the call (_compile_method_on_demand, registered with the C++ resolver).
"""
import inspect
import re

import torch

from .. import _C
from . import _markers, _sources
from ._concrete_module_type import CompiledModuleType, infer_concrete_type, type_store


# qualified name of a module class -> (its concrete type, the Python class): what
# _compile_method_on_demand compiles from when compiled code calls a method the class does not have yet.
_classes_by_name = {}


def _methods_to_compile(nn_module):
    """forward (when the class defines its own) plus the @export'ed methods; the methods they call on
    self are compiled when the compiler meets the call (_compile_method_on_demand), as torch does."""
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
    return names


def _overloads_attribute(cls):
    """The `__overloads__` table of module class `cls` (torch's, e.g. torch.jit.quantized's
    {'forward': ['forward_packed', 'forward_tensor']}): {name: [method names]}, a call of `self.name(...)`
    choosing the first listed method whose schema matches. Read from the class: torch.jit.script writes the
    table it used (with the @_overload_method names merged in) to the module object, and into the class's own
    dict. A name that has @_overload_method declarations takes those instead, as torch's update of the table."""
    table = getattr(cls, "__overloads__", None)
    if table is None:
        return {}
    if not isinstance(table, dict):
        raise _C.CompileError("__overloads__ of %s must be a dict {method name: [overload method names]}, got %s"
                              % (cls.__name__, type(table).__name__))
    out = {}
    for name, targets in table.items():
        fn = inspect.getattr_static(cls, name, None)
        if inspect.isfunction(fn) and _markers.method_overloads(fn, cls):
            continue
        if isinstance(targets, str) or not all(isinstance(t, str) for t in targets) or not targets:
            raise _C.CompileError("__overloads__['%s'] of %s must be a non-empty list of method names, got %r"
                                  % (name, cls.__name__, targets))
        out[name] = list(targets)
    return out


# qualified name of a module class -> its __overloads__ table as compiled (for the error of calling a module
# whose forward is overloaded)
_overload_tables = {}


def _declare_overloads_attribute(concrete, cls, table):
    """Compiles the methods `__overloads__` lists and declares each name overloaded by them. torch.jit 1.13
    requires the listed methods compiled already (exported): it fails with "Couldn't find method" otherwise;
    Kindling compiles the class's Python methods of those names."""
    jt = concrete.jit_type
    for name, targets in table.items():
        for target in targets:
            if jt.has_method(target):
                continue
            fn = inspect.getattr_static(cls, target, None)
            if isinstance(fn, staticmethod) or not inspect.isfunction(fn):
                raise _C.CompileError("Couldn't find method: '%s' on class: '%s' (listed in __overloads__['%s'])"
                                      % (target, cls.__name__, name))
            if _markers.get_modifier(fn) is _markers.FunctionModifiers.IGNORE:
                raise _C.CompileError("'%s.%s' is listed in __overloads__['%s'] but marked @ignore: overloads are "
                                      "compiled methods" % (cls.__name__, target, name))
            _define_method(concrete, fn, target, cls)
        jt.add_overloads(name, targets)
        _overload_tables.setdefault(jt.qualified_name, {})[name] = targets


def _check_overload_declarations(decls, impl, what):
    """torch's checks on @_overload / @_overload_method declarations: the implementation must follow them,
    and each declaration must be annotated (its signature is all it contributes)."""
    qualname = "%s.%s" % (getattr(impl, "__module__", "?"), getattr(impl, "__qualname__", impl.__name__))
    if impl in decls:
        raise _C.CompileError('Implementation for the %s "%s" is missing. Please make sure a definition is provided '
                              "and defined after all overload declarations." % (what, qualname))
    for d in decls:
        sig = inspect.signature(d)
        params = list(sig.parameters.values())[1 if what == "method" else 0:]
        if sig.return_annotation is inspect.Signature.empty and \
                all(p.annotation is inspect.Parameter.empty for p in params):
            raise _C.CompileError("Must explicitly add type annotations to overloaded functions: %s" % qualname)


def _define_method(concrete, fn, name=None, cls=None):
    """Compiles the Python function `fn` as method `name` of concrete.jit_type, its free names resolved
    through its globals and closure (torch's createResolutionCallbackFromClosure). A method declared with
    @_overload_method compiles to name__0, name__1, ... (the implementation's body under each
    declaration's signature, defaults from the implementation) and calls of `name` choose the first
    overload whose schema matches, as torch's ConcreteModuleType overloads (make_stubs_for_overloads)."""
    name = name or fn.__name__
    src, filename, first = _sources.definition_source(fn)
    rcb = _sources.resolution_callback(fn)
    defaults = _sources.default_args(fn)
    unused = _markers.is_unused(fn)
    decls = _markers.method_overloads(fn, cls) if cls is not None else None
    if not decls:
        concrete.jit_type.define_method(src, filename, first, rcb, unused, defaults)
        return
    _check_overload_declarations(decls, fn, "method")
    names = []
    for i, decl in enumerate(decls):
        overload_name = "%s__%d" % (name, i)
        decl_src, decl_file, decl_line = _sources.definition_source(decl)
        # the declaration's def renamed: its name is the overload's (torch's _replace_overloaded_method_decl)
        concrete.jit_type.define_method(src, filename, first, rcb, unused, defaults,
                                        signature=(_renamed_def(decl_src, overload_name), decl_file, decl_line))
        names.append(overload_name)
    concrete.jit_type.add_overloads(name, names)


def _renamed_def(def_src, new_name):
    """The source of one def with its function name replaced by `new_name` (same lines and columns
    elsewhere, so errors in the signature still point at the declaration)."""
    out, n = re.subn(r"^(\s*(?:async\s+)?def\s+)([A-Za-z_][A-Za-z_0-9]*)", lambda m: m.group(1) + new_name, def_src,
                      count=1)
    if not n:
        raise _C.CompileError("expected an overload declaration (a def), got:\n" + def_src)
    return out


def _module_properties(cls):
    """The properties of module class `cls` that are compiled, as torch.jit.frontend.get_class_properties
    chooses them: every property the class has (inherited ones too, sorted by name) except those named in
    `__jit_unused_properties__` and those whose getter is @unused. {name: property}."""
    unused = getattr(cls, "__jit_unused_properties__", [])
    out = {}
    for name in sorted(dir(cls)):
        item = inspect.getattr_static(cls, name, None)
        if not isinstance(item, property) or name in unused:
            continue
        if item.fget is None:
            raise _C.CompileError("Property %s of %s must have a getter" % (name, cls.__name__))
        if _markers.is_unused(item.fget):
            continue
        out[name] = item
    return out


def _property_accessor(cls, name):
    """(Python function, property name) when `name` is the getter ("__<p>_getter") or setter
    ("__<p>_setter") method of a compiled property of `cls`, else None."""
    m = re.fullmatch(r"__(.+)_(getter|setter)", name)
    if m is None:
        return None
    prop = _module_properties(cls).get(m.group(1))
    if prop is None:
        return None
    fn = prop.fget if m.group(2) == "getter" else prop.fset
    return (fn, m.group(1)) if fn is not None else None


def _define_property_accessor(concrete, fn, method_name):
    """Compiles a property's getter or setter `fn` as method `method_name` of concrete.jit_type (torch's
    get_jit_def(fget, "__<name>_getter")): its body under its own signature renamed."""
    try:
        src, filename, first = _sources.definition_source(fn)
    except (OSError, TypeError) as e:
        raise _C.CompileError("property accessor '%s' has no Python source to compile (%s)" % (method_name, e))
    concrete.jit_type.define_method(src, filename, first, _sources.resolution_callback(fn), _markers.is_unused(fn),
                                    _sources.default_args(fn), signature=(_renamed_def(src, method_name), filename, first))


def _compile_method_on_demand(qualname, name):
    """The compiler's hook for `self.name(...)` on the module class `qualname` when the class has no such
    method: compiles the Python class's method `name` (or the property accessor it names). False when the
    class has no such Python function (the compiler then reports the missing attribute)."""
    entry = _classes_by_name.get(qualname)
    if entry is None:
        return False
    concrete, cls = entry
    accessor = _property_accessor(cls, name)
    if accessor is not None:
        try:
            _define_property_accessor(concrete, accessor[0], name)
        except _C.CompileError as e:
            raise _with_attribute_hint(e, concrete) from None
        return True
    item = inspect.getattr_static(cls, name, None)
    if isinstance(item, staticmethod) or not inspect.isfunction(item):
        return False
    if _markers.get_modifier(item) is _markers.FunctionModifiers.IGNORE:
        # called back in Python, as torch.jit's PythonOp (an archive cannot hold it: saving refuses)
        src, filename, first = _sources.definition_source(item)
        concrete.jit_type.define_python_method(src, filename, first, _sources.resolution_callback(item), item)
        return True
    try:
        _define_method(concrete, item, name, cls)
    except _C.CompileError as e:
        raise _with_attribute_hint(e, concrete) from None
    return True


class _Super:
    """What `super` names in a compiled method (kindling/jit/_sources.py's resolution callback gives it):
    `super().name` / `super(C, self).name` is found as Python finds it, in the MRO of self's class after C
    (the class defining the method when omitted), and compiled as a method of self's module class: under
    its own name when self.name is that same function, else as `name__super_<Base>` (a name the archive
    keeps, so torch.jit.load runs it). torch.jit.script rejects super() ("'Tensor' object has no attribute
    or method 'forward'" for super().forward)."""

    def __init__(self, defining_class, rcb):
        self.defining_class = defining_class
        self.rcb = rcb

    def method_for(self, self_qualname, start_name, name):
        if name == "__init__":
            raise _C.CompileError("super().__init__() cannot be called from compiled code: modules are constructed "
                                  "in Python, before scripting")
        entry = _classes_by_name.get(self_qualname)
        if entry is None:
            raise _C.CompileError("super() is supported in methods of nn.Module subclasses being scripted")
        concrete, cls = entry
        if start_name:
            start = self.rcb(start_name)
            if not isinstance(start, type):
                raise _C.CompileError("super(%s, self): '%s' is not a class" % (start_name, start_name))
        else:
            start = self.defining_class
            if start is None:
                raise _C.CompileError("super() without arguments needs the class defining the method "
                                      "(its __class__ cell); write super(C, self)")
        mro = cls.__mro__
        if start not in mro:
            raise _C.CompileError("super(type, obj): obj must be an instance or subtype of type (%s is not a base "
                                  "of %s)" % (start.__name__, cls.__name__))
        for base in mro[mro.index(start) + 1:]:
            if name in vars(base):
                item = vars(base)[name]
                break
        else:
            raise _C.CompileError("'super' object has no attribute '%s'" % name)
        if base.__module__ == torch.nn.Module.__module__ and base is torch.nn.Module:
            raise _C.CompileError("super().%s is torch.nn.Module.%s, which compiled code cannot call" % (name, name))
        if not inspect.isfunction(item):
            raise _C.CompileError("super().%s is not a method of %s (only methods can be called through super())"
                                  % (name, base.__name__))
        if inspect.getattr_static(cls, name, None) is item:
            if not concrete.jit_type.has_method(name):
                _define_method(concrete, item, name, base)
            return name
        method = "%s__super_%s" % (name, re.sub(r"\W", "_", base.__qualname__))
        if _markers.method_overloads(item, base):
            # an overloaded base method (nn.LSTM's, nn.GRU's forward): its overloads under the new name,
            # method__0, method__1, ..., and the call chooses among them as for self.name
            if not concrete.jit_type.has_method(method + "__0"):
                _define_method(concrete, item, method, base)
            return method
        if not concrete.jit_type.has_method(method):
            src, filename, first = _sources.definition_source(item)
            concrete.jit_type.define_method(src, filename, first, _sources.resolution_callback(item),
                                            _markers.is_unused(item), _sources.default_args(item),
                                            signature=(_renamed_def(src, method), filename, first))
        return method


def _declare_properties(concrete, cls):
    """Declares the compiled properties of the module class (_module_properties) on concrete.jit_type, so
    `self.name` in methods calls their accessors, compiled when first used. Returns {name: property}.

    A property named as a constant of the module is left out: the constant's value was read through the
    property when the module was scripted, and `self.name` reads the constant. A property named as a
    submodule, parameter, buffer or other attribute is an error: Python's `self.name` is the property (a
    class's data descriptor hides the instance's entry), while the module's state holds the other value
    (torch.jit 1.13 fails too, "Expected Module but got ..." for a submodule)."""
    props = _module_properties(cls)
    constants = {n for n, _ in concrete.constants}
    kinds = {n: "submodule" for n, _ in concrete.modules}
    kinds.update((n, concrete.kinds.get(n, "attribute")) for n, _ in concrete.attributes)
    kinds.update((n, "function attribute") for n, _ in concrete.function_attributes)
    for name in props:
        if name in kinds and name not in constants:
            raise _C.CompileError(
                "Module '%s' has a property and a %s both named '%s': Python reads the property, so compiled "
                "code could not reach the %s; rename one of them" % (cls.__name__, kinds[name], name, kinds[name]))
    props = {n: p for n, p in props.items() if n not in constants}
    for name, prop in props.items():
        concrete.jit_type.add_property(name, prop.fset is not None)
    return props


# qualified name of a module class -> {property name: why its accessors did not compile}
_failed_properties = {}


def _compile_remaining_properties(concrete, props):
    """Compiles the accessors of the properties compiled code did not use (torch.jit 1.13 compiles them all,
    so the archive has them). One that does not compile is left out of the class instead of failing
    scripting as in torch.jit (the module runs in Python with it, as long as nothing calls it): the methods
    whose bodies failed are taken out again, the property is dropped (or only its setter, when its getter
    compiled) and reading it from Python raises AttributeError with the compile error."""
    jt = concrete.jit_type
    for name, prop in props.items():
        getter, setter = "__%s_getter" % name, "__%s_setter" % name
        todo = [(f, m) for f, m in ((prop.fget, getter), (prop.fset, setter)) if f is not None and not jt.has_method(m)]
        if not todo:
            continue
        before = set(jt.method_names())
        try:
            for fn, method in todo:
                _define_property_accessor(concrete, fn, method)
        except _C.CompileError as e:
            # the methods whose bodies failed (the accessor, methods it called); those that compiled stay
            jt.remove_failed_methods(sorted(set(jt.method_names()) - before))
            jt.remove_property(name)
            if jt.has_method(getter):  # the getter compiled (or compiled code reads it): it stays, read-only
                jt.add_property(name, False)
                why = "its setter did not compile"
            else:
                why = "it did not compile"
            _failed_properties.setdefault(jt.qualified_name, {})[name] = "%s:\n%s" % (why, e)
            concrete.failed_attributes[name] = "(This property exists on the Python module, but %s: %s)" % (
                why, str(e).strip().splitlines()[0])


def _compile_methods(concrete, nn_module):
    cls = type(nn_module)
    _classes_by_name[concrete.jit_type.qualified_name] = (concrete, cls)
    props = _declare_properties(concrete, cls)
    overloaded = _overloads_attribute(cls)
    try:
        _declare_overloads_attribute(concrete, cls, overloaded)
    except _C.CompileError as e:
        raise _with_attribute_hint(e, concrete) from None
    for name in _methods_to_compile(nn_module):
        if name in overloaded:  # torch compiles the overloads only, not the Python implementation
            continue
        fn = getattr(cls, name)
        if _markers.get_modifier(fn) is _markers.FunctionModifiers.IGNORE:
            continue
        if concrete.jit_type.has_method(name):
            continue
        try:
            _define_method(concrete, getattr(fn, "__func__", fn), name, cls)
        except _C.CompileError as e:
            raise _with_attribute_hint(e, concrete) from None
    _compile_remaining_properties(concrete, props)
    try:
        concrete.jit_type.emit_methods()
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
    if isinstance(concrete, CompiledModuleType):  # a submodule compiled already: itself
        return concrete.script_module
    if not concrete.methods_compiled:
        _compile_tree(concrete, nn_module)
    return _create_object(concrete, nn_module)


def _compile_tree(concrete, nn_module):
    """Compiles the methods of `concrete` and of its submodules' types (submodules first). A type whose
    compilation failed is dropped from the type store, so scripting the module again reports the same
    error instead of using a class without its methods."""
    concrete.methods_compiled = True
    try:
        for name, sub in concrete.modules:
            if not sub.methods_compiled:
                _compile_tree(sub, nn_module._modules[name])
        _compile_methods(concrete, nn_module)
    except BaseException:
        concrete.methods_compiled = False
        type_store.forget(concrete)
        raise


def script_module(nn_module):
    """kindling.jit.script for an nn.Module instance: a kindling.jit.ScriptModule (torch.jit's
    RecursiveScriptModule counterpart) sharing the module's tensors."""
    if hasattr(nn_module, "__prepare_scriptable__"):
        nn_module = nn_module.__prepare_scriptable__()
    concrete = infer_concrete_type(nn_module)
    return _create(concrete, nn_module)


_C._set_method_compiler(_compile_method_on_demand)
