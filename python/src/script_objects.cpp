// ScriptObject / ScriptMethod / ScriptFunction / Graph bindings and calls from Python. See script_objects.h.
#include "script_objects.h"

#include <fmt/format.h>
#include <pybind11/stl.h>

#include "api/api.h"
#include "ops/kernels/prim/grad_mode.h"
#include "passes/canonicalize/inliner.h"
#include "serialize/export_archive.h"
#include "serialize/import_archive.h"
#include "serialize/python_print.h"

namespace kindling::python {

namespace {

std::string shortName(const FunctionSchema& schema) {
  std::string fn = schema.name;
  size_t dot = fn.find_last_of(".:");
  return dot == std::string::npos ? fn : fn.substr(dot + 1);
}

}  // namespace

py::object invokeFunction(Function& fn, const IValue* self, const py::args& args, const py::kwargs& kwargs,
                          const std::shared_ptr<CompilationUnit>& cu) {
  const FunctionSchema& schema = fn.getSchema();
  size_t first = self ? 1 : 0;
  size_t declared = schema.arguments.size() - first;
  size_t nargs = args.size();
  size_t nkw = kwargs ? kwargs.size() : 0;
  if (nargs > declared)
    throw py::type_error(fmt::format("{}() expected at most {} argument(s) but received {} argument(s). Declaration: {}",
                                     shortName(schema), declared, nargs, schema.str()));
  Stack stack;
  stack.reserve(schema.arguments.size());
  if (self) stack.push_back(*self);
  size_t usedKw = 0;
  for (size_t i = 0; i < declared; ++i) {
    const Argument& a = schema.arguments[first + i];
    py::handle value;
    if (i < nargs) {
      value = args[i];
      if (nkw && kwargs.contains(a.name.c_str()))
        throw py::type_error(fmt::format("{}() got multiple values for argument '{}'", shortName(schema), a.name));
    } else if (nkw && kwargs.contains(a.name.c_str())) {
      value = kwargs[a.name.c_str()];
      ++usedKw;
    } else if (a.defaultValue) {
      stack.push_back(*a.defaultValue);
      continue;
    } else {
      throw py::type_error(fmt::format("{}() is missing value for argument '{}'. Declaration: {}", shortName(schema),
                                       a.name, schema.str()));
    }
    try {
      stack.push_back(toIValue(value, a.type));
    } catch (const py::type_error& e) {
      std::string found = e.what();
      throw py::type_error(fmt::format("{}() Expected a value of type '{}' for argument '{}' but instead found type "
                                       "'{}'.\nPosition: {}\nDeclaration: {}\nCast error details: {}",
                                       shortName(schema), a.type->annotationStr(), a.name,
                                       py::str(py::type::handle_of(value).attr("__name__")).cast<std::string>(),
                                       i + first, schema.str(), found));
    }
  }
  if (usedKw != nkw) {
    for (auto kv : kwargs) {
      std::string k = py::str(kv.first);
      if (schema.argumentIndex(k) < static_cast<int>(first))
        throw py::type_error(fmt::format("{}() got an unexpected keyword argument '{}'. Declaration: {}",
                                         shortName(schema), k, schema.str()));
    }
  }
  // the call runs in torch's grad mode (torch.no_grad() around it: torch.is_grad_enabled() is False inside)
  static py::object* torchGradEnabled =
      new py::object(py::module_::import("torch").attr("is_grad_enabled"));  // lives as long as the process
  setGradModeEnabled((*torchGradEnabled)().cast<bool>());
  {
    py::gil_scoped_release noGil;
    fn.run(stack);
  }
  if (stack.empty()) return py::none();
  return toPyObject(std::move(stack.back()), cu);
}

std::shared_ptr<Graph> inlinedGraphOf(GraphFunction& fn) {
  std::shared_ptr<Graph> g = fn.graph()->copy();
  CalleeGraphFn callee = [&](Function* f) -> std::shared_ptr<Graph> {
    auto* gf = dynamic_cast<GraphFunction*>(f);
    if (!gf) return nullptr;
    return inlinedGraphOf(*gf);
  };
  inlineCalls(*g, callee);
  return g;
}

namespace {

GraphFunction& asGraphFunction(Function* f) {
  auto* gf = dynamic_cast<GraphFunction*>(f);
  if (!gf) throw py::type_error("'" + f->qualname() + "' is not a TorchScript graph function");
  return *gf;
}

ExtraFilesMap extraFilesFrom(const py::object& extra) {
  ExtraFilesMap out;
  if (extra.is_none()) return out;
  for (auto kv : py::reinterpret_borrow<py::dict>(extra)) {
    std::string k = py::str(kv.first);
    py::handle v = kv.second;
    if (PyBytes_Check(v.ptr())) out[k] = std::string(PyBytes_AS_STRING(v.ptr()), PyBytes_GET_SIZE(v.ptr()));
    else out[k] = py::str(v).cast<std::string>();
  }
  return out;
}

// The attributes of a class, by kind, in slot order: ("parameter" | "buffer" | "module" | "attribute").
py::list attributeList(const ClassType& cls) {
  py::list out;
  for (const auto& a : cls.attributes()) {
    const char* kind = a.isParameter ? "parameter"
                       : a.isBuffer  ? "buffer"
                       : (a.type->kind() == TypeKind::Class && a.type->cast<ClassType>()->isModule()) ? "module"
                                                                                                  : "attribute";
    out.append(py::make_tuple(a.name, kind, a.type->annotationStr()));
  }
  return out;
}

}  // namespace

void initScriptObjectBindings(py::module_& m) {
  py::class_<GraphHandle>(m, "Graph", "A TorchScript graph (prints as print(fn.graph) does).")
      .def("__str__", [](const GraphHandle& g) { return g.graph->toString(); })
      .def("__repr__", [](const GraphHandle& g) { return g.graph->toString(); })
      .def("str", [](const GraphHandle& g, bool printSourceLocations) { return g.graph->toString(printSourceLocations); },
           py::arg("print_source_locations") = true);

  py::class_<MethodHandle>(m, "ScriptMethod", "A method of a TorchScript object, bound to it.")
      .def("__call__",
           [](const MethodHandle& h, const py::args& args, const py::kwargs& kwargs) {
             Function* fn = h.module.frozenMethod(h.fn->name());
             IValue self(h.module.object());
             return invokeFunction(fn ? *fn : *h.fn, &self, args, kwargs, h.module.compilationUnit());
           })
      .def_property_readonly("name", [](const MethodHandle& h) { return h.fn->name(); })
      .def_property_readonly("qualified_name", [](const MethodHandle& h) { return h.fn->qualname(); })
      .def_property_readonly("schema", [](const MethodHandle& h) { return h.fn->getSchema().str(); })
      .def_property_readonly("graph",
                             [](const MethodHandle& h) {
                               // A frozen method shows its specialized graph (as torch.jit.freeze's module).
                               if (Function* frozen = h.module.frozenMethod(h.fn->name()))
                                 return GraphHandle{asGraphFunction(frozen).optimizedGraph(), h.module.compilationUnit()};
                               return GraphHandle{asGraphFunction(h.fn).graph(), h.module.compilationUnit()};
                             })
      .def_property_readonly("inlined_graph",
                             [](const MethodHandle& h) {
                               return GraphHandle{inlinedGraphOf(asGraphFunction(h.fn)), h.module.compilationUnit()};
                             })
      .def_property_readonly("code", [](const MethodHandle& h) { return pythonCodeOf(*h.fn, /*isMethod=*/true); })
      .def_property_readonly("owner", [](const MethodHandle& h) { return ObjectHandle{h.module}; });

  py::class_<FunctionHandle>(m, "ScriptFunction", "A TorchScript function.")
      .def("__call__",
           [](const FunctionHandle& h, const py::args& args, const py::kwargs& kwargs) {
             return invokeFunction(*h.fn, nullptr, args, kwargs, h.cu);
           })
      .def_property_readonly("name", [](const FunctionHandle& h) { return h.fn->name(); })
      .def_property_readonly("qualified_name", [](const FunctionHandle& h) { return h.fn->qualname(); })
      .def_property_readonly("schema", [](const FunctionHandle& h) { return h.fn->getSchema().str(); })
      .def_property_readonly("graph", [](const FunctionHandle& h) { return GraphHandle{h.fn->graph(), h.cu}; })
      .def_property_readonly("inlined_graph",
                             [](const FunctionHandle& h) { return GraphHandle{inlinedGraphOf(*h.fn), h.cu}; })
      .def_property_readonly("code", [](const FunctionHandle& h) { return pythonCodeOf(*h.fn, /*isMethod=*/false); })
      .def("save",
           [](const FunctionHandle& h, const std::string& path, const py::object& extra) {
             ExtraFilesMap files = extraFilesFrom(extra);
             Module placeholder = placeholderModuleFor(*h.fn);
             py::gil_scoped_release noGil;
             exportModule(placeholder, path, files);
           },
           py::arg("path"), py::arg("extra_files") = py::none());

  py::class_<ObjectHandle>(m, "ScriptObject", "A TorchScript object (module or class instance).")
      .def_property_readonly("qualified_name", [](const ObjectHandle& h) { return h.module.type()->qualName(); })
      .def_property_readonly("is_module", [](const ObjectHandle& h) { return h.module.type()->isModule(); })
      .def("new_handle", [](const ObjectHandle& h) { return ObjectHandle{Module(h.module.compilationUnit(), h.module.object())}; },
           "A new handle on the same object, with its own specialized (frozen) methods.")
      .def("same", [](const ObjectHandle& a, const ObjectHandle& b) { return a.module.object() == b.module.object(); })
      .def("object_id", [](const ObjectHandle& h) { return reinterpret_cast<uintptr_t>(h.module.object().get()); })
      .def("attributes", [](const ObjectHandle& h) { return attributeList(*h.module.type()); })
      .def("hasattr", [](const ObjectHandle& h, const std::string& name) { return h.module.hasattr(name); })
      // An object of a class (not a module: kindling.jit.ScriptModule wraps those) reads as torch's
      // ScriptObject: obj.attr (an attribute, a property through its getter, a constant) and obj.method(...).
      // A class loaded from an archive has no properties, only their getter methods: `obj.p` calls the
      // method __p_getter (the name TorchScript gives the getter of property p).
      .def("__getattr__",
           [](const ObjectHandle& h, const std::string& name) -> py::object {
             const ClassType& t = *h.module.type();
             if (!t.isModule()) {
               if (h.module.hasattr(name)) return toPyObject(h.module.attr(name), h.module.compilationUnit());
               if (const ClassType::Property* p = t.findProperty(name))
                 if (Function* getter = t.findMethod(p->getter))
                   return py::cast(MethodHandle{h.module, getter})();
               if (const IValue* c = t.findConstant(name)) return toPyObject(*c, h.module.compilationUnit());
               if (Function* f = h.module.findMethod(name)) return py::cast(MethodHandle{h.module, f});
               if (Function* getter = t.findMethod("__" + name + "_getter"))
                 return py::cast(MethodHandle{h.module, getter})();
             }
             throw py::attribute_error("'" + t.qualName() + "' object has no attribute '" + name + "'");
           })
      .def("getattr",
           [](const ObjectHandle& h, const std::string& name) {
             if (!h.module.hasattr(name))
               throw py::attribute_error("'" + h.module.type()->qualName() + "' object has no attribute '" + name + "'");
             return toPyObject(h.module.attr(name), h.module.compilationUnit());
           })
      .def("setattr",
           [](ObjectHandle& h, const std::string& name, py::handle value) {
             int slot = h.module.type()->findAttributeSlot(name);
             if (slot < 0)
               throw py::attribute_error("'" + h.module.type()->qualName() + "' object has no attribute '" + name + "'");
             const TypePtr& t = h.module.type()->attributes()[slot].type;
             IValue v;
             try {
               v = toIValue(value, t);
             } catch (const py::type_error& e) {
               throw py::type_error("cannot set attribute '" + name + "' of type '" + t->annotationStr() + "': " +
                                    e.what());
             }
             h.module.setattr(name, std::move(v));
           })
      .def("constant_names",
           [](const ObjectHandle& h) {
             std::vector<std::string> out;
             for (const auto& c : h.module.type()->constants()) out.push_back(c.name);
             return out;
           })
      .def("constant",
           [](const ObjectHandle& h, const std::string& name) {
             const IValue* v = h.module.type()->findConstant(name);
             if (!v) throw py::attribute_error("no constant '" + name + "'");
             return toPyObject(*v, h.module.compilationUnit());
           })
      .def("method_names",
           [](const ObjectHandle& h) {
             std::vector<std::string> out;
             for (Function* f : h.module.type()->methods()) out.push_back(f->name());
             return out;
           })
      .def("has_method", [](const ObjectHandle& h, const std::string& name) { return h.module.findMethod(name) != nullptr; })
      .def("property",
           [](const ObjectHandle& h, const std::string& name) -> py::object {
             const ClassType::Property* p = h.module.type()->findProperty(name);
             if (!p) return py::none();
             return py::make_tuple(p->getter, p->setter.empty() ? py::object(py::none()) : py::object(py::str(p->setter)));
           },
           "(getter method, setter method or None) of the class's property `name`, None when it has none.")
      .def("get_method",
           [](const ObjectHandle& h, const std::string& name) {
             Function* f = h.module.findMethod(name);
             if (!f)
               throw py::attribute_error("'" + h.module.type()->qualName() + "' object has no method '" + name + "'");
             return MethodHandle{h.module, f};
           })
      .def("freeze_method", [](ObjectHandle& h, const std::string& name) {
             py::gil_scoped_release noGil;
             h.module.freezeMethod(name);
           })
      .def("save",
           [](const ObjectHandle& h, const std::string& path, const py::object& extra) {
             ExtraFilesMap files = extraFilesFrom(extra);
             py::gil_scoped_release noGil;
             exportModule(h.module, path, files);
           },
           py::arg("path"), py::arg("extra_files") = py::none());

  m.def(
      "load",
      [](const std::string& path) {
        ImportedArchive a;
        {
          py::gil_scoped_release noGil;
          a = importArchive(path);
        }
        py::dict extra;
        for (const auto& [k, v] : a.extraFiles) extra[py::str(k)] = py::bytes(v);
        return py::make_tuple(ObjectHandle{a.module}, extra);
      },
      "Loads a TorchScript archive: (root object, {extra file name: bytes}).");
}

}  // namespace kindling::python
