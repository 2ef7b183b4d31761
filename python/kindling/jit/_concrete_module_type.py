"""ConcreteModuleType inference for nn.Module instances (torch/jit/_recursive.py's
infer_concrete_type_builder and ConcreteTypeStore), on Kindling's module builder (kindling._C.ModuleType).

A concrete type records, in torch's order, the module's parameters, buffers, other attributes (typed from
class annotations, an Attribute marker or their values), constants (__constants__ and Final annotations)
and submodules (their own concrete types); functions the module holds as attributes (`self.act = F.relu`,
a torch builtin) are function attributes: no slot, `self.act(x)` calls the function. Two modules of the same Python class with equal concrete types
share one TorchScript class; each new one gets a new class (mangled name).
"""
import inspect
import sys
import typing

import torch

from .. import _C
from . import _markers

_CONSTANT_TYPES = (bool, float, int, str, type(None), torch.device, torch.layout, torch.dtype)

# nn.Module bookkeeping that is never compiled (torch's ignored_attributes)
_IGNORED_ATTRIBUTES = {
    "_version", "_parameters", "_buffers", "_non_persistent_buffers_set", "_backward_hooks", "_forward_hooks",
    "_forward_pre_hooks", "_state_dict_hooks", "_state_dict_pre_hooks", "_load_state_dict_pre_hooks",
    "_load_state_dict_post_hooks", "_modules", "_initializing", "dump_patches", "_is_full_backward_hook",
}


def annotation_str(ann):
    """The TorchScript spelling of a Python annotation (List[int] -> 'List[int]'); raises TypeError."""
    if isinstance(ann, str):
        return ann
    if ann is torch.Tensor or (isinstance(ann, type) and issubclass(ann, torch.Tensor)):
        return "Tensor"
    simple = {int: "int", float: "float", bool: "bool", str: "str", type(None): "NoneType", None: "NoneType",
              typing.Any: "Any", torch.device: "Device", torch.dtype: "int", complex: "complex"}
    if ann in simple:
        return simple[ann]
    origin = getattr(ann, "__origin__", None)
    args = getattr(ann, "__args__", ()) or ()
    if _markers.is_final(ann):
        return annotation_str(args[0]) if args else "Any"
    if origin in (list, typing.List):
        return "List[%s]" % annotation_str(args[0])
    if origin in (dict, typing.Dict):
        return "Dict[%s, %s]" % (annotation_str(args[0]), annotation_str(args[1]))
    if origin in (tuple, typing.Tuple):
        if args == ((),) or not args:
            return "Tuple[()]"
        return "Tuple[%s]" % ", ".join(annotation_str(a) for a in args)
    if origin is typing.Union:
        if len(args) == 2 and type(None) in args:
            other = args[0] if args[1] is type(None) else args[1]
            return "Optional[%s]" % annotation_str(other)
        return "Union[%s]" % ", ".join(annotation_str(a) for a in args)
    if _can_compile_class(ann):  # a plain Python class: compiled as a TorchScript class, named by its type
        from ._script import _compile_class
        return _compile_class(ann)
    raise TypeError("unknown type annotation %r" % (ann,))


def _class_annotations(nn_module):
    cls = type(nn_module)
    if sys.version_info >= (3, 10):
        ann = inspect.get_annotations(cls)
        if not ann and cls.__bases__:
            ann = inspect.get_annotations(cls.__bases__[0])
        return dict(ann)
    return dict(getattr(cls, "__annotations__", {}))


def _valid_constant(attr, v, owner):
    if isinstance(v, _CONSTANT_TYPES):
        return v
    if isinstance(v, (tuple, list)):
        return tuple(_valid_constant(attr, x, owner) for x in v)
    raise TypeError(
        "'%s' object in attribute '%s.%s' is not a valid constant.\nValid constants are:\n1. a nn.ModuleList\n"
        "2. a value of type {bool, float, int, str, NoneType, torch.device, torch.layout, torch.dtype}\n"
        "3. a list or tuple of (2)" % (torch.typename(type(v)), owner, attr))


def _qualified_name(cls):
    module = cls.__module__ or "__main__"
    if module == "builtins":
        module = "__builtins__"
    return "__torch__." + module + "." + cls.__qualname__.replace(".<locals>.", "._").replace("<", "_").replace(">", "_")


class ConcreteModuleType:
    """What a module's TorchScript class is made of; `key` compares concrete types for sharing."""

    def __init__(self, nn_module):
        self.py_class = type(nn_module)
        self.attributes = []   # (name, annotation) in slot order; kinds in self.kinds
        self.kinds = {}
        self.constants = []    # (name, value)
        self.modules = []      # (name, ConcreteModuleType)
        self.function_attributes = []  # (name, Python function or torch builtin): no slot, called directly
        self.failed_attributes = {}
        self.container = "none"
        self.jit_type = None
        self.methods_compiled = False

    def key(self):
        return (self.py_class, self.container, tuple(self.attributes), tuple(sorted(self.kinds.items())),
                tuple((n, repr(v)) for n, v in self.constants),
                tuple((n, id(m.jit_type)) for n, m in self.modules),
                tuple((n, id(f)) for n, f in self.function_attributes))

    def build(self):
        t = _C.create_module_type(_qualified_name(self.py_class))
        if self.container != "none":
            t.set_container(self.container)
        for name, ann in self.attributes:
            kind = self.kinds[name]
            t.add_attribute(name, ann, kind == "parameter", kind == "buffer")
        for name, value in self.constants:
            t.add_constant(name, value)
        for name, sub in self.modules:
            t.add_module(name, sub.jit_type)
        for name, fn in self.function_attributes:
            t.add_function_attribute(name, fn)
        self.jit_type = t


def _infer(name, item, class_annotations):
    """(annotation string or None, reason, inferred)"""
    try:
        if name in class_annotations and name != "forward":
            return annotation_str(class_annotations[name]), "", False
        if _markers.is_attribute_marker(item):
            return annotation_str(item.type), "", False
    except TypeError as e:
        raise RuntimeError("Error inferring type for %s: %s: %s" % (name, item, e)) from None
    ann, why = _C._infer_type(item)
    if ann is None and _can_compile_class(type(item)):
        # an instance of a plain Python class: its class compiled as a TorchScript class (torch's
        # tryToInferType does the same); a class that does not compile keeps the first reason
        from ._script import _compile_class
        try:
            _compile_class(type(item))
        except Exception as e:  # noqa: BLE001  (any compile error: the attribute stays uninferable)
            return None, "%s; compiling its class '%s' as a TorchScript class failed: %s" % (
                why, type(item).__name__, str(e).strip().splitlines()[0]), True
        ann, why = _C._infer_type(item)
    return ann, why, True


def _can_compile_class(cls):
    """torch._jit_internal.can_compile_class: a Python class (not a module, tuple, list or exception) whose
    functions all have Python code."""
    if not isinstance(cls, type) or cls.__module__ == "builtins" or _markers.is_ignored(cls):
        return False
    if issubclass(cls, (torch.nn.Module, tuple, list, dict, Exception, torch.Tensor)) or \
            cls.__module__.split(".")[0] in ("torch", "typing", "enum", "collections"):
        return False
    for name in cls.__dict__:
        fn = getattr(cls, name, None)
        if inspect.isroutine(fn) and not hasattr(fn, "__code__"):
            return False
    return True


def _build_concrete(nn_module):
    c = ConcreteModuleType(nn_module)
    if isinstance(nn_module, torch.nn.ModuleDict):
        c.container = "module_dict"
    elif isinstance(nn_module, (torch.nn.ModuleList, torch.nn.Sequential)):
        c.container = "module_list"
    elif isinstance(nn_module, torch.nn.ParameterList):
        c.container = "parameter_list"
    elif isinstance(nn_module, torch.nn.ParameterDict):
        c.container = "parameter_dict"
    if nn_module._forward_hooks or nn_module._forward_pre_hooks:
        # compiled callers would skip them: refuse rather than compute something else than eager
        raise NotImplementedError(
            "module '%s' (%s) has forward hooks or pre-hooks: Kindling does not compile hooks yet"
            % (type(nn_module).__name__, _qualified_name(type(nn_module))))
    annotations = _class_annotations(nn_module)
    ignored = set(getattr(nn_module, "__jit_ignored_attributes__", []))
    added = set()
    for kind, table in (("parameter", nn_module._parameters), ("buffer", nn_module._buffers)):
        for name, item in table.items():
            if name in ignored:
                continue
            ann = "Tensor" if item is not None else "NoneType"
            if item is not None and name in annotations:
                ann, _, _ = _infer(name, item, annotations)
            c.attributes.append((name, ann))
            c.kinds[name] = kind
            added.add(name)
    submodules = []
    for name, item in nn_module._modules.items():
        if name in ignored:
            continue
        added.add(name)
        if item is None:
            c.attributes.append((name, "NoneType"))
            c.kinds[name] = "attribute"
            continue
        submodules.append((name, item))
    constants = set(getattr(nn_module, "__constants__", ()))
    constants.update(n for n, a in annotations.items() if _markers.is_final(a))
    for name in sorted(constants, key=lambda n: list(nn_module.__dict__).index(n) if n in nn_module.__dict__ else 0):
        if name in added or not hasattr(nn_module, name):
            continue
        c.constants.append((name, _valid_constant(name, getattr(nn_module, name), type(nn_module).__name__)))
        added.add(name)
    for name, value in nn_module.__dict__.items():
        if name in _IGNORED_ATTRIBUTES or name.startswith("__") or name in ignored or name in added:
            continue
        if inspect.isfunction(value) or inspect.isbuiltin(value):
            # torch's function attributes / builtin functions: `self.name(...)` calls the function itself
            c.function_attributes.append((name, value))
            added.add(name)
            continue
        if inspect.ismethod(value):
            c.failed_attributes[name] = ("(This attribute exists on the Python module, but it holds a bound method, "
                                         "which cannot be converted to a TorchScript value)")
            continue
        if _markers.is_attribute_marker(value):
            ann, why, inferred = _infer(name, value, annotations)
        else:
            ann, why, inferred = _infer(name, value, annotations)
        if ann is None:
            more = "Its type was inferred; try adding a type annotation for the attribute." if inferred else ""
            c.failed_attributes[name] = (
                "(This attribute exists on the Python module, but we failed to convert Python type: '%s' to a "
                "TorchScript type. %s. %s)" % (torch.typename(type(value)), why, more))
            continue
        c.attributes.append((name, ann))
        c.kinds[name] = "attribute"
    # @staticmethods of the class reached through self (`self.generate_square_subsequent_mask(n)`): free
    # functions, as torch resolves them from the Python class
    for name in dir(type(nn_module)):
        if name in added or name in ignored:
            continue
        item = inspect.getattr_static(type(nn_module), name, None)
        if isinstance(item, staticmethod) and inspect.isfunction(item.__func__):
            c.function_attributes.append((name, item.__func__))
            added.add(name)
    for name, item in submodules:
        c.modules.append((name, _compiled_submodule(item) or infer_concrete_type(item)))
    return c


class CompiledModuleType:
    """A submodule compiled already: a kindling.jit ScriptModule (scripted or loaded), or a module torch.jit
    scripted or traced, taken as the ScriptModule loaded from the archive torch writes of it (torch.jit.script
    of a parent reuses such a child's class and methods the same way). Its class is the submodule's type."""

    def __init__(self, script_module):
        self.script_module = script_module
        self.jit_type = _C._module_type_of(script_module._c)
        self.methods_compiled = True
        self.modules = []
        self.attributes = []
        self.failed_attributes = {}


def _compiled_submodule(item):
    from ._script_module import ScriptModule
    if isinstance(item, ScriptModule):
        return CompiledModuleType(item)
    torch_script_module = getattr(getattr(torch, "jit", None), "ScriptModule", None)
    if torch_script_module is not None and isinstance(item, torch_script_module):
        from ._script import script
        return CompiledModuleType(script(item))
    return None


class ConcreteTypeStore:
    """Python class -> concrete types made for it (torch's ConcreteTypeStore)."""

    def __init__(self):
        self.types = {}

    def get_or_create(self, nn_module):
        c = _build_concrete(nn_module)
        known = self.types.setdefault(type(nn_module), [])
        key = c.key()
        for k in known:
            if k.key() == key:
                return k
        c.build()
        known.append(c)
        return c

    def forget(self, concrete):
        """Drops `concrete` (its methods failed to compile): equal modules get a new class next time."""
        known = self.types.get(concrete.py_class, [])
        if concrete in known:
            known.remove(concrete)


type_store = ConcreteTypeStore()


def infer_concrete_type(nn_module):
    return type_store.get_or_create(nn_module)
