// Module classes and objects built from Python nn.Modules (see module_builder.h).
#include "module_builder.h"

#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>

#include "core/error.h"
#include "frontend/compiler.h"
#include "frontend/parser.h"
#include "frontend/type_parser.h"
#include "python_resolver.h"
#include "script_compiler.h"
#include "runtime/module.h"
#include "tensor_bridge.h"
#include "value_conversion.h"

namespace kindling::python {

namespace {

constexpr const char* kManglePrefix = "___torch_mangle_";

// torch's NameMangler: replace an existing ___torch_mangle_<N> atom, else insert one before the last atom.
std::string mangle(const std::string& qualName, size_t index) {
  std::vector<std::string> atoms;
  size_t start = 0;
  while (true) {
    size_t dot = qualName.find('.', start);
    atoms.push_back(qualName.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  std::string tag = kManglePrefix + std::to_string(index);
  bool replaced = false;
  for (auto& a : atoms)
    if (a.rfind(kManglePrefix, 0) == 0) {
      a = tag;
      replaced = true;
    }
  if (!replaced) atoms.insert(atoms.end() - 1, tag);
  std::string out;
  for (size_t i = 0; i < atoms.size(); ++i) out += (i ? "." : "") + atoms[i];
  return out;
}

ClassType::Container containerFromName(const std::string& kind) {
  if (kind.empty() || kind == "none") return ClassType::Container::None;
  if (kind == "module_list") return ClassType::Container::ModuleList;
  if (kind == "module_dict") return ClassType::Container::ModuleDict;
  if (kind == "parameter_list") return ClassType::Container::ParameterList;
  if (kind == "parameter_dict") return ClassType::Container::ParameterDict;
  throw py::value_error("unknown module container kind '" + kind +
                        "' (module_list, module_dict, parameter_list, parameter_dict)");
}

void checkNewAttribute(const ModuleTypeHandle& h, const std::string& name) {
  if (h.type->findAttributeSlot(name) >= 0 || h.type->findConstant(name))
    throw py::value_error("module type '" + h.type->qualName() + "' already has an attribute '" + name + "'");
}

// A constant of a module (a `__constants__` or Final attribute): bool, int, float, str, None, device,
// dtype/layout/memory format (ints), and tuples of those (torch's _get_valid_constant turns lists into
// tuples first).
IValue constantValue(py::handle v) {
  if (py::isinstance<py::tuple>(v) || py::isinstance<py::list>(v)) {
    std::vector<IValue> elems;
    std::vector<TypePtr> types;
    for (py::handle e : v) {
      elems.push_back(constantValue(e));
      TypePtr t = inferType(e);
      types.push_back(t ? t : AnyType());
    }
    return IValue(makeIntrusive<TupleValue>(std::move(elems), TupleType::create(std::move(types))));
  }
  return toIValueInferred(v);
}

}  // namespace

ModuleTypeHandle createModuleType(const std::string& qualName) {
  static std::atomic<size_t> mangleIndex{0};
  auto cu = pythonCompilationUnit();
  std::string name = qualName;
  while (cu->findType(name)) name = mangle(qualName, mangleIndex++);
  auto type = ClassType::create(name, /*isModule=*/true);
  cu->addType(type);
  return ModuleTypeHandle{type, cu};
}

TypePtr parseAnnotation(const std::string& annotation, const std::shared_ptr<CompilationUnit>& cu) {
  auto source = std::make_shared<Source>(annotation, "<annotation>");
  ExprPtr e = parseExpression(source);
  TypeParser parser([cu](const std::string& name, const SourceRange&) -> TypePtr { return cu->findType(name); });
  bool isFinal = false;
  return parser.parse(e, &isFinal);
}

Function* defineModuleMethod(const ModuleTypeHandle& h, const std::string& source, const std::string& filename,
                             size_t firstLine, const std::shared_ptr<Resolver>& resolver, bool unused,
                             const py::dict& defaults, const PythonSource& signature) {
  auto src = std::make_shared<Source>(source, filename, firstLine);
  std::shared_ptr<SourceFile> file = parseFile(src);
  const DefStmt* def = nullptr;
  for (auto& s : file->body)
    if (s->kind == StmtKind::Def) {
      if (def) throw py::value_error("expected the source of a single method, found several defs");
      def = &static_cast<const DefStmt&>(*s);
    }
  if (!def) throw py::value_error("expected the source of a method (a def statement)");
  std::string name = def->name;
  if (!signature.text.empty()) {
    auto sigFile = parseFile(std::make_shared<Source>(signature.text, signature.filename, signature.startingLine));
    for (auto& s : sigFile->body)
      if (s->kind == StmtKind::Def) name = static_cast<const DefStmt&>(*s).name;
  }
  if (Function* existing = h.type->findMethod(name)) return existing;
  // A method taken out of the class after its body failed to compile (remove_failed_methods, when a
  // property's accessor that called it was left out) is still the unit's function of that name: it goes
  // back into the class and its body is emitted again (the same error when it fails again).
  if (GraphFunction* failed = h.cu->findGraphFunction(h.type->qualName() + "." + name); failed && !failed->isDefined()) {
    h.type->addMethod(failed);
    failed->ensureDefined();
    return failed;
  }
  // As any Python function: the unit's call graph (recursion through methods and functions is found),
  // defaults from the live function, the body emitted now (methods it calls on self compile on demand).
  CompileFunctionOptions options;
  options.defaults = defaults;
  options.unused = unused;
  options.signature = signature;
  return compilePythonFunction(h.cu, PythonSource{source, filename, firstLine}, h.type->qualName() + "." + name,
                               h.type, resolver, options);
}

py::object createModuleObject(const ModuleTypeHandle& h, const py::dict& values) {
  const auto& attrs = h.type->attributes();
  auto obj = makeIntrusive<Object>(h.type, attrs.size());
  for (size_t i = 0; i < attrs.size(); ++i) {
    const auto& a = attrs[i];
    py::str key(a.name);
    if (!values.contains(key))
      throw py::value_error("no value given for attribute '" + a.name + "' of module type '" + h.type->qualName() + "'");
    py::handle v = values[key];
    if (a.type->kind() == TypeKind::Class && a.type->cast<ClassType>()->isModule()) {
      // a submodule: the ScriptModule (or its ScriptObject handle) created for it
      py::object handle = py::reinterpret_borrow<py::object>(v);
      if (py::hasattr(handle, "_c")) handle = handle.attr("_c");
      ObjectHandle* oh = nullptr;
      try {
        oh = &handle.cast<ObjectHandle&>();
      } catch (const py::cast_error&) {
        throw py::type_error("submodule '" + a.name + "' of '" + h.type->qualName() + "' must be a scripted module");
      }
      if (!oh->module.type()->equals(*a.type))
        throw py::type_error("submodule '" + a.name + "' has type '" + oh->module.type()->qualName() +
                             "' but the class declares '" + a.type->str() + "'");
      obj->slots[i] = IValue(oh->module.object());
      continue;
    }
    try {
      obj->slots[i] = toIValue(v, a.type);
      // A parameter keeps its requires_grad flag, as in an archive torch saved: compiled code that reads
      // p.requires_grad (nn.MultiheadAttention's and TransformerEncoder's fast-path checks) answers as eager.
      if (obj->slots[i].isTensor() && isTorchTensor(v) && py::hasattr(v, "requires_grad")) {
        const Tensor& t = obj->slots[i].toTensor();
        if (t.defined()) t.impl()->requiresGrad = v.attr("requires_grad").cast<bool>();
      }
    } catch (const py::type_error& e) {
      throw py::type_error("attribute '" + a.name + "' of module type '" + h.type->qualName() +
                           "' (declared '" + a.type->annotationStr() + "'): " + e.what());
    }
  }
  return wrapObject(IValue(obj), h.cu);
}

void initModuleBuilderBindings(py::module_& m) {
  py::class_<ModuleTypeHandle>(m, "ModuleType", "A TorchScript module class built from a Python nn.Module.")
      .def_property_readonly("qualified_name", [](const ModuleTypeHandle& h) { return h.type->qualName(); })
      .def("add_attribute",
           [](ModuleTypeHandle& h, const std::string& name, const std::string& annotation, bool isParameter,
              bool isBuffer) {
             checkNewAttribute(h, name);
             TypePtr t = parseAnnotation(annotation, h.cu);
             h.type->addAttribute(name, t, isParameter, isBuffer);
           },
           py::arg("name"), py::arg("type"), py::arg("is_parameter") = false, py::arg("is_buffer") = false,
           "Adds attribute `name` of TorchScript type `type` (an annotation string).")
      .def("add_module",
           [](ModuleTypeHandle& h, const std::string& name, const ModuleTypeHandle& sub) {
             checkNewAttribute(h, name);
             h.type->addAttribute(name, sub.type);
           },
           "Adds a submodule attribute whose class is `sub`.")
      .def("add_constant",
           [](ModuleTypeHandle& h, const std::string& name, py::handle value) {
             checkNewAttribute(h, name);
             h.type->addConstant(name, constantValue(value));
           },
           "Adds a constant (bool, int, float, str, None, device, dtype, or tuples of those).")
      .def("set_container",
           [](ModuleTypeHandle& h, const std::string& kind) { h.type->setContainer(containerFromName(kind)); },
           "module_list (ModuleList, Sequential), module_dict, parameter_list, parameter_dict.")
      .def("attribute_type",
           [](const ModuleTypeHandle& h, const std::string& name) -> py::object {
             int slot = h.type->findAttributeSlot(name);
             if (slot < 0) return py::none();
             return py::str(h.type->attributes()[static_cast<size_t>(slot)].type->annotationStr());
           })
      .def("has_method", [](const ModuleTypeHandle& h, const std::string& name) { return h.type->findMethod(name) != nullptr; })
      // ClassType only grows (src/core/type.h has no removal); a module class being built from Python is
      // still private to the builder, so taking out what a failed property compilation added is safe here.
      .def("remove_failed_methods",
           [](ModuleTypeHandle& h, const std::vector<std::string>& among) {
             auto& methods = const_cast<std::vector<Function*>&>(h.type->methods());
             std::vector<std::string> removed;
             std::erase_if(methods, [&](const Function* f) {
               auto* gf = dynamic_cast<const GraphFunction*>(f);
               bool failed = gf && !gf->isDefined() && std::find(among.begin(), among.end(), f->name()) != among.end();
               if (failed) removed.push_back(f->name());
               return failed;
             });
             return removed;
           },
           py::arg("among"),
           "Takes out of the class the methods named in `among` whose body failed to compile (their Functions "
           "stay in the unit: compiling the method again retries them); returns their names.")
      .def("remove_property",
           [](ModuleTypeHandle& h, const std::string& name) {
             auto& props = const_cast<std::vector<ClassType::Property>&>(h.type->properties());
             std::erase_if(props, [&](const ClassType::Property& p) { return p.name == name; });
           },
           "Takes property `name` out of the class (one whose accessors did not compile).")
      .def("add_property",
           [](ModuleTypeHandle& h, const std::string& name, bool hasSetter) {
             checkNewAttribute(h, name);
             if (h.type->findProperty(name))
               throw py::value_error("module type '" + h.type->qualName() + "' already has a property '" + name + "'");
             h.type->addProperty({name, "__" + name + "_getter", hasSetter ? "__" + name + "_setter" : ""});
           },
           py::arg("name"), py::arg("has_setter") = false,
           "Declares property `name` (torch's module properties): `self.name` in compiled code calls the method "
           "__<name>_getter and `self.name = v` __<name>_setter (when `has_setter`); the methods are compiled "
           "on first use through the method compiler (_set_method_compiler), or defined with define_method.")
      .def("method_names",
           [](const ModuleTypeHandle& h) {
             std::vector<std::string> out;
             for (Function* f : h.type->methods()) out.push_back(f->name());
             return out;
           })
      .def("define_method",
           [](ModuleTypeHandle& h, const std::string& source, const std::string& filename, size_t firstLine,
              py::object rcb, bool unused, py::object defaults, py::object signature) {
             std::shared_ptr<Resolver> resolver;
             if (!rcb.is_none()) {
               if (!PyCallable_Check(rcb.ptr()))
                 throw py::type_error("define_method: rcb must be a resolution callback (name -> object or None)");
               resolver = std::make_shared<PythonResolver>(rcb, h.cu, h.type->name());
             }
             py::dict d = defaults.is_none() ? py::dict() : defaults.cast<py::dict>();
             PythonSource sig;
             if (!signature.is_none()) {
               auto t = signature.cast<py::tuple>();
               if (t.size() != 3) throw py::type_error("define_method: signature must be (source, filename, first_line)");
               sig = PythonSource{t[0].cast<std::string>(), t[1].cast<std::string>(), t[2].cast<size_t>()};
             }
             Function* f = defineModuleMethod(h, source, filename, firstLine, resolver, unused, d, sig);
             return f->name();
           },
           py::arg("source"), py::arg("filename") = "<string>", py::arg("first_line") = 1,
           py::arg("rcb") = py::none(), py::arg("unused") = false, py::arg("defaults") = py::none(),
           py::arg("signature") = py::none(),
           "Compiles one method from the source of a def (decorators removed) and emits its body; returns its "
           "name. `rcb` (name -> object or None, as for functions) resolves the body's free names: Python "
           "globals, closure variables; None resolves only TorchScript's builtins. `defaults` ({parameter: "
           "value}) replaces the default expressions of the source. `signature` = (source, filename, first_line) of an "
           "overload declaration compiles the body under that declaration's signature, named by its def's name.")
      .def("define_python_method",
           [](ModuleTypeHandle& h, const std::string& source, const std::string& filename, size_t firstLine,
              py::object rcb, py::object fn) {
             auto resolver = std::make_shared<PythonResolver>(rcb, h.cu, h.type->name());
             return definePythonMethod(h.cu, PythonSource{source, filename, firstLine}, h.type, resolver, std::move(fn))
                 ->name();
           },
           py::arg("source"), py::arg("filename"), py::arg("first_line"), py::arg("rcb"), py::arg("fn"),
           "Declares the @torch.jit.ignore'd method of the def in `source`: compiled code calling it calls the "
           "Python function `fn` (with the module's ScriptModule as self), as torch.jit's PythonOp.")
      .def("add_overloads",
           [](ModuleTypeHandle& h, const std::string& name, std::vector<std::string> overloadNames) {
             for (const std::string& o : overloadNames)
               if (!h.type->findMethod(o))
                 throw py::value_error("overload '" + o + "' of method '" + name + "' is not a method of '" +
                                       h.type->qualName() + "'");
             registerMethodOverloads(*h.type, name, std::move(overloadNames));
           },
           py::arg("name"), py::arg("overloads"),
           "Declares method `name` overloaded (torch's ConcreteModuleType add_overload): calls of `name` on "
           "objects of this class choose the first of the methods `overloads` (already defined) whose schema "
           "matches the arguments.")
      .def("add_function_attribute",
           [](ModuleTypeHandle& h, const std::string& name, py::object fn) {
             checkNewAttribute(h, name);
             registerModuleFunctionAttribute(*h.type, name, std::move(fn));
           },
           py::arg("name"), py::arg("fn"),
           "Declares `name` a function attribute (torch's add_function_attribute / add_builtin_function): "
           "`self.name` in compiled code is the Python function or torch builtin `fn`, compiled on first use.")
      .def("emit_methods",
           [](ModuleTypeHandle& h) {
             for (Function* f : h.type->methods())
               if (auto* gf = dynamic_cast<GraphFunction*>(f)) gf->ensureDefined();
           },
           "Emits every method body now, so compile errors surface at script time.")
      .def("create_object", &createModuleObject, py::arg("values"),
           "An object of this class with its attributes from `values` ({name: value}); a ScriptModule.")
      .def("same_type", [](const ModuleTypeHandle& a, const ModuleTypeHandle& b) { return a.type == b.type; });

  m.def(
      "_module_type_of", [](const ObjectHandle& h) { return ModuleTypeHandle{h.module.type(), h.module.compilationUnit()}; },
      "The class of a scripted or loaded module, to declare it as a submodule of a module built from Python.");
  m.def("create_module_type", &createModuleType, py::arg("qualified_name"),
        "A new module class named `qualified_name`, mangled (___torch_mangle_N) when the name is taken.");
  m.def("_parse_annotation",
        [](const std::string& annotation) { return parseAnnotation(annotation, pythonCompilationUnit())->annotationStr(); },
        "The TorchScript type an annotation string denotes, as its annotation string (for tests).");
}

}  // namespace kindling::python
