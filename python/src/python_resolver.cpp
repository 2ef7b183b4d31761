// PythonResolver: names of compiled Python source resolved through live Python objects. See python_resolver.h.
#include "python_resolver.h"

#include "python_method.h"

#include "frontend/class_inheritance.h"
#include "script_compiler.h"

#include "frontend/functional_library.h"
#include "frontend/parser.h"
#include "frontend/type_parser.h"
#include "script_objects.h"
#include "value_conversion.h"

#include <mutex>
#include <unordered_map>

namespace kindling::python {

namespace {

py::handle gClassifier;  // (never released) kindling.jit._script._classify
py::handle gClassDefinitionFinder;  // (never released) kindling.jit._script._class_definition
py::handle gMethodCompiler;  // (never released) kindling.jit._recursive._compile_method_on_demand

// Overloaded methods of module classes built from Python: class qualified name -> method -> overloads.
// Filled while scripting (with the GIL held), read by the emitter; entries live as long as the classes,
// which the Python compilation unit keeps for the process.
std::mutex gOverloadsMutex;
std::unordered_map<std::string, std::unordered_map<std::string, std::vector<std::string>>>& methodOverloads() {
  static auto* table = new std::unordered_map<std::string, std::unordered_map<std::string, std::vector<std::string>>>();
  return *table;
}

// `super` in a method compiled from Python: the Python object that walks self's class's MRO and compiles
// the base implementation (kindling/jit/_recursive.py's _Super.method_for).
struct PythonSuperValue : SuperValue {
  explicit PythonSuperValue(py::object r) : resolver(std::move(r)) {}
  ~PythonSuperValue() override {
    py::gil_scoped_acquire gil;
    resolver = py::object();
  }
  std::string methodFor(const SourceRange& loc, FunctionEmitter&, const TypePtr& selfType,
                        const std::string& startClass, const std::string& field) override {
    auto* cls = selfType->cast<ClassType>();
    if (!cls || !cls->isModule())
      throw CompileError("super() is supported in methods of nn.Module subclasses, not on '" + selfType->annotationStr() +
                             "'",
                         loc);
    py::gil_scoped_acquire gil;
    try {
      return resolver.attr("method_for")(cls->qualName(), startClass, field).cast<std::string>();
    } catch (py::error_already_set& e) {
      rethrowAsCompileError(e, "while resolving super()." + field, loc);
    }
  }
  py::object resolver;
};

// A Python function taking *args and/or **kwargs (kindling/jit/_script.py's _VarArgsFunction): a call
// compiles the specialization for what it binds to them (the types of the extra positional arguments and of
// the keyword arguments) and calls it.
struct PythonVarArgsFunctionValue : SugaredValue {
  explicit PythonVarArgsFunctionValue(py::object f) : function(std::move(f)) {}
  ~PythonVarArgsFunctionValue() override {
    py::gil_scoped_acquire gil;
    function = py::object();
  }
  std::string kind() const override { return "function taking *args or **kwargs"; }
  SugaredValuePtr call(const SourceRange& loc, FunctionEmitter& m, const std::vector<NamedValue>& args,
                       const std::vector<NamedValue>& kwargs, size_t nBinders) override {
    auto annotation = [](const NamedValue& v) {
      return v.value ? v.value->type()->annotationStr() : std::string("List[Tensor]");
    };
    Function* fn = nullptr;
    {
      py::gil_scoped_acquire gil;
      size_t fixed = function.attr("fixed_count").cast<size_t>();
      py::list types, keywords;
      for (size_t i = fixed; i < args.size(); ++i) types.append(annotation(args[i]));
      for (const NamedValue& k : kwargs) keywords.append(py::make_tuple(k.name, annotation(k)));
      try {
        fn = function.attr("specialize")(types, keywords).cast<FunctionHandle&>().fn;
      } catch (py::error_already_set& e) {
        rethrowAsCompileError(e, "while compiling the call's specialization of a function taking *args or **kwargs",
                              loc);
      }
    }
    return std::make_shared<FunctionValue>(fn)->call(loc, m, args, kwargs, nBinders);
  }
  py::object function;
};

// An nn.Module subclass named in compiled code: `isinstance(x, M)` (through objectToType) and its static
// methods and constants, `M.scale(x, 2.0)`, as torch.jit resolves them; constructing or otherwise using the
// class is a CompileError (a module is built in Python).
struct PythonModuleClassValue : SugaredValue {
  PythonModuleClassValue(py::object c, std::shared_ptr<PythonResolver> r, std::string n)
      : cls(std::move(c)), resolver(std::move(r)), name(std::move(n)) {}
  ~PythonModuleClassValue() override {
    py::gil_scoped_acquire gil;
    cls = py::object();
  }
  std::string kind() const override { return "nn.Module subclass '" + name + "'"; }
  SugaredValuePtr attr(const SourceRange& loc, FunctionEmitter&, const std::string& field) override {
    py::gil_scoped_acquire gil;
    py::object raw = py::module_::import("inspect").attr("getattr_static")(cls, field.c_str(), py::none());
    bool isStatic = py::isinstance(raw, py::module_::import("builtins").attr("staticmethod"));
    if (raw.is_none() || (!isStatic && (PyCallable_Check(raw.ptr()) || py::hasattr(raw, "__get__"))))
      throw CompileError("'" + name + "." + field + "' is not a static method or constant of the nn.Module subclass '" +
                             name + "': compiled code reaches a module's methods through a module object (self)",
                         loc);
    SugaredValuePtr v = resolver->objectToSugared(cls.attr(field.c_str()), field, loc);
    if (!v) throw CompileError("'" + name + "." + field + "' cannot be used in TorchScript code", loc);
    return v;
  }
  SugaredValuePtr call(const SourceRange& loc, FunctionEmitter&, const std::vector<NamedValue>&,
                       const std::vector<NamedValue>&, size_t) override {
    throw CompileError("'" + name + "' is an nn.Module subclass: compiled code cannot create modules; create the "
                       "module in Python and make it an attribute of the scripted module",
                       loc);
  }
  py::object cls;
  std::shared_ptr<PythonResolver> resolver;
  std::string name;
};

// A Python module other than the namespaces the frontend knows: `mymod.helper(x)`, `kindling.jit.annotate`.
struct PythonModuleValue : SugaredValue {
  PythonModuleValue(py::object m, std::shared_ptr<PythonResolver> r) : module(std::move(m)), resolver(std::move(r)) {}
  ~PythonModuleValue() override {
    py::gil_scoped_acquire gil;
    module = py::object();
  }
  std::string kind() const override {
    py::gil_scoped_acquire gil;
    return "python module '" + py::str(module.attr("__name__")).cast<std::string>() + "'";
  }
  SugaredValuePtr attr(const SourceRange& loc, FunctionEmitter&, const std::string& field) override {
    py::gil_scoped_acquire gil;
    if (!py::hasattr(module, field.c_str()))
      throw CompileError("Module '" + py::str(module.attr("__name__")).cast<std::string>() + "' has no attribute '" +
                             field + "'",
                         loc);
    SugaredValuePtr v = resolver->objectToSugared(module.attr(field.c_str()), field, loc);
    if (!v) throw CompileError("'" + field + "' of a Python module cannot be used in TorchScript code", loc);
    return v;
  }
  py::object module;
  std::shared_ptr<PythonResolver> resolver;
};

// A namespace the frontend knows (torch, torch.nn, math, ...) found through a live Python module: its
// attributes are the frontend's builtins, except those Python classifies as submodules, special forms or
// @ignore'd functions (`torch.overrides.has_torch_function`, `torch.nn.modules.utils._pair`), which
// resolve as Python objects do.
struct PythonBackedNamespace : BuiltinModule {
  PythonBackedNamespace(std::string n, py::object m, std::shared_ptr<PythonResolver> r)
      : BuiltinModule(std::move(n)), module(std::move(m)), resolver(std::move(r)) {}
  ~PythonBackedNamespace() override {
    py::gil_scoped_acquire gil;
    module = py::object();
  }
  SugaredValuePtr attr(const SourceRange& loc, FunctionEmitter& m, const std::string& field) override {
    {
      py::gil_scoped_acquire gil;
      py::object member = py::getattr(module, field.c_str(), py::none());
      if (!member.is_none())
        if (SugaredValuePtr v = resolver->namespaceMember(member, field, loc)) return v;
    }
    return BuiltinModule::attr(loc, m, field);
  }
  py::object module;
  std::shared_ptr<PythonResolver> resolver;
};

// An attribute of a frontend namespace, looked up when used: `relu` after `from torch import relu`.
struct NamespaceMemberValue : SugaredValue {
  NamespaceMemberValue(std::string ns, std::string f) : space(std::make_shared<BuiltinModule>(std::move(ns))), field(std::move(f)) {}
  std::string kind() const override { return "builtin '" + space->name + "." + field + "'"; }
  SugaredValuePtr resolved(const SourceRange& loc, FunctionEmitter& m) { return space->attr(loc, m, field); }
  Value* asValue(const SourceRange& loc, FunctionEmitter& m) override { return resolved(loc, m)->asValue(loc, m); }
  SugaredValuePtr attr(const SourceRange& loc, FunctionEmitter& m, const std::string& f) override {
    return resolved(loc, m)->attr(loc, m, f);
  }
  SugaredValuePtr call(const SourceRange& loc, FunctionEmitter& m, const std::vector<NamedValue>& args,
                       const std::vector<NamedValue>& kwargs, size_t nBinders) override {
    return resolved(loc, m)->call(loc, m, args, kwargs, nBinders);
  }
  std::shared_ptr<BuiltinModule> space;
  std::string field;
};

// `torch.jit.is_scripting()` (True in compiled code) and `is_tracing()` (False).
struct ConstantCallValue : SugaredValue {
  ConstantCallValue(std::string n, IValue v) : name(std::move(n)), value(std::move(v)) {}
  std::string kind() const override { return "builtin '" + name + "'"; }
  SugaredValuePtr call(const SourceRange& loc, FunctionEmitter& m, const std::vector<NamedValue>& args,
                       const std::vector<NamedValue>& kwargs, size_t) override {
    if (!args.empty() || !kwargs.empty()) throw CompileError(name + "() takes no arguments", loc);
    return std::make_shared<SimpleValue>(m.insertConstant(value, loc));
  }
  std::string name;
  IValue value;
};

// torch.overrides.has_torch_function(...) (and its _unary / _variadic forms): False in compiled code,
// which sees only plain tensors (torch registers them as aten::has_torch_function, which answers False for
// every TorchScript value); the arguments are evaluated and dropped.
struct NoTorchFunctionValue : SugaredValue {
  std::string kind() const override { return "builtin 'has_torch_function'"; }
  SugaredValuePtr call(const SourceRange& loc, FunctionEmitter& m, const std::vector<NamedValue>&,
                       const std::vector<NamedValue>&, size_t) override {
    return std::make_shared<SimpleValue>(m.insertConstant(IValue(false), loc));
  }
};

// torch.nn.modules.utils._single/_pair/_triple/_quadruple (torch's aten::_pair family): an int or float
// becomes a list of `n` copies of it, a list stays as it is, a tuple becomes a list of its elements.
struct NTupleValue : SugaredValue {
  NTupleValue(std::string n, size_t k) : name(std::move(n)), count(k) {}
  std::string kind() const override { return "builtin '" + name + "'"; }
  SugaredValuePtr call(const SourceRange& loc, FunctionEmitter& m, const std::vector<NamedValue>& args,
                       const std::vector<NamedValue>& kwargs, size_t) override {
    if (args.size() != 1 || !kwargs.empty()) throw CompileError(name + "() takes exactly one argument", loc);
    Value* v = args[0].value;
    const TypePtr& t = v->type();
    if (t->kind() == TypeKind::List) return std::make_shared<SimpleValue>(v);
    if (t->kind() == TypeKind::Int || t->kind() == TypeKind::Float)
      return std::make_shared<SimpleValue>(m.createList(t, std::vector<Value*>(count, v), loc));
    if (auto* tt = t->cast<TupleType>()) {
      TypePtr elem = tt->elements().empty() ? IntType() : tt->elements()[0];
      for (const auto& e : tt->elements())
        if (!e->equals(*elem))
          throw CompileError(name + "() expects a tuple of one element type, got " + t->annotationStr(), loc);
      std::vector<Value*> elems;
      for (auto& e : SimpleValue(v).asTuple(loc, m, std::nullopt)) elems.push_back(e->asValue(loc, m));
      return std::make_shared<SimpleValue>(m.createList(elem, elems, loc));
    }
    throw CompileError(name + "() expects an int, a float, a list or a tuple, got " + t->annotationStr(), loc);
  }
  std::string name;
  size_t count;
};

// A function marked @ignore: torch.jit runs it in Python; Kindling runs compiled code without Python.
struct IgnoredFunctionValue : SugaredValue {
  explicit IgnoredFunctionValue(std::string n) : name(std::move(n)) {}
  std::string kind() const override { return "ignored function '" + name + "'"; }
  [[noreturn]] void reject(const SourceRange& loc) const {
    throw CompileError("'" + name + "' is marked @ignore: it runs in Python, and Kindling runs compiled code "
                       "without Python. Mark it @unused if compiled code never really calls it, or make it "
                       "TorchScript",
                       loc);
  }
  Value* asValue(const SourceRange& loc, FunctionEmitter&) override { reject(loc); }
  SugaredValuePtr call(const SourceRange& loc, FunctionEmitter&, const std::vector<NamedValue>&,
                       const std::vector<NamedValue>&, size_t) override {
    reject(loc);
  }
  std::string name;
};

bool isCompileError(py::error_already_set& e) {
  static py::handle cls = py::object(py::module_::import("kindling._C").attr("CompileError")).release();  // lives as long as the process
  return e.matches(cls);
}

}  // namespace

// Function attributes of module classes built from Python: class qualified name -> name -> function
// (references kept for the process, as the classes are).
std::unordered_map<std::string, std::unordered_map<std::string, py::object>>& moduleFunctionAttributes() {
  static auto* table = new std::unordered_map<std::string, std::unordered_map<std::string, py::object>>();
  return *table;
}

void registerModuleFunctionAttribute(const ClassType& cls, const std::string& name, py::object fn) {
  moduleFunctionAttributes()[cls.qualName()][name] = std::move(fn);
}

SugaredValuePtr PythonResolver::resolveModuleAttribute(const ClassType& cls, const std::string& name, const SourceRange& loc) {
  py::gil_scoped_acquire gil;
  auto& table = moduleFunctionAttributes();
  auto c = table.find(cls.qualName());
  if (c == table.end()) return nullptr;
  auto f = c->second.find(name);
  if (f == c->second.end()) return nullptr;
  SugaredValuePtr v = objectToSugared(f->second, name, loc);
  if (!v) {
    // the emitter's own builtins under the function's name (a Python builtin such as `len`)
    throw CompileError("the function held by attribute '" + name + "' of '" + cls.name() +
                           "' cannot be called from TorchScript code",
                       loc);
  }
  return v;
}

void registerMethodOverloads(const ClassType& cls, const std::string& name, std::vector<std::string> overloadNames) {
  if (overloadNames.empty())
    throw py::value_error("method '" + name + "' of '" + cls.qualName() + "' declared overloaded without overloads");
  std::lock_guard<std::mutex> lock(gOverloadsMutex);
  methodOverloads()[cls.qualName()][name] = std::move(overloadNames);
}

std::vector<std::string> PythonResolver::resolveMethodOverloads(const ClassType& cls, const std::string& name,
                                                                const SourceRange&) {
  std::lock_guard<std::mutex> lock(gOverloadsMutex);
  auto& table = methodOverloads();
  auto c = table.find(cls.qualName());
  if (c == table.end()) return {};
  auto m = c->second.find(name);
  return m == c->second.end() ? std::vector<std::string>{} : m->second;
}

void setObjectClassifier(py::object classifier) { gClassifier = classifier.release(); }
void setMethodCompiler(py::object compiler) { gMethodCompiler = compiler.release(); }
void setClassDefinitionFinder(py::object finder) { gClassDefinitionFinder = finder.release(); }

void rethrowAsCompileError(py::error_already_set& e, const std::string& context, const SourceRange& loc) {
  if (isCompileError(e)) {
    std::string inner = py::str(e.value());
    throw CompileError(inner + "\n" + context, loc);
  }
  std::string type = py::str(e.type().attr("__name__"));
  std::string msg = py::str(e.value());
  throw CompileError(context + ": " + type + ": " + msg, loc);
}

PythonResolver::PythonResolver(py::object rcb, std::shared_ptr<CompilationUnit> cu, std::string owner)
    : rcb_(std::move(rcb)), cu_(std::move(cu)), owner_(std::move(owner)) {}

PythonResolver::~PythonResolver() {
  if (!rcb_) return;
  py::gil_scoped_acquire gil;
  rcb_ = py::object();
}

py::object PythonResolver::lookup(const std::string& name, const SourceRange& loc) {
  py::gil_scoped_acquire gil;
  try {
    return rcb_(name);
  } catch (py::error_already_set& e) {
    rethrowAsCompileError(e, "while looking up '" + name + "'", loc);
  }
}

py::object PythonResolver::classify(py::handle obj, const std::string& name, const SourceRange& loc) {
  if (!gClassifier) return py::none();
  try {
    return gClassifier(obj);
  } catch (py::error_already_set& e) {
    rethrowAsCompileError(e, "'" + name + "' is being compiled since it was called from '" + owner_ + "'", loc);
  }
}

SugaredValuePtr PythonResolver::resolveValue(const std::string& name, const SourceRange& loc) {
  py::gil_scoped_acquire gil;
  py::object obj = lookup(name, loc);
  if (obj.is_none()) {
    // None itself is a constant; a missing name is reported by the emitter ("undefined value x")
    return nullptr;
  }
  return objectToSugared(obj, name, loc);
}

SugaredValuePtr PythonResolver::objectToSugared(py::handle obj, const std::string& name, const SourceRange& loc) {
  py::gil_scoped_acquire gil;
  py::object c = classify(obj, name, loc);
  if (c.is_none()) return nullptr;
  py::tuple t = c.cast<py::tuple>();
  std::string tag = t[0].cast<std::string>();
  if (tag == "constant") {
    try {
      return std::make_shared<ConstantValue>(toIValueInferred(t[1]));
    } catch (const py::type_error& e) {
      throw CompileError("the Python value '" + name + "' cannot be used as a constant: " + e.what(), loc);
    }
  }
  if (tag == "function") {
    auto& h = t[1].cast<FunctionHandle&>();
    return std::make_shared<FunctionValue>(h.fn);
  }
  if (tag == "overloads") {
    std::vector<Function*> fns;
    for (py::handle h : t[1]) fns.push_back(h.cast<FunctionHandle&>().fn);
    if (fns.empty()) throw CompileError("the overloaded function '" + name + "' has no compiled overloads", loc);
    return std::make_shared<FunctionValue>(std::move(fns));
  }
  if (tag == "function_name") {
    std::string q = t[1].cast<std::string>();
    if (Function* f = cu_->findFunction(q)) return std::make_shared<FunctionValue>(f);
    throw CompileError("function '" + name + "' is called recursively. Recursive calls are not supported", loc);
  }
  if (tag == "type") {
    std::string q = t[1].cast<std::string>();
    if (TypePtr ty = cu_->findType(q)) return std::make_shared<ClassValue>(ty);
    throw CompileError("class '" + name + "' is used while it is being compiled", loc);
  }
  if (tag == "module") {
    if (t.size() > 2)
      return std::make_shared<PythonBackedNamespace>(t[1].cast<std::string>(), py::reinterpret_borrow<py::object>(t[2]),
                                                     shared_from_this());
    return std::make_shared<BuiltinModule>(t[1].cast<std::string>());
  }
  if (tag == "pymodule") return std::make_shared<PythonModuleValue>(py::reinterpret_borrow<py::object>(t[1]), shared_from_this());
  if (tag == "builtin") return std::make_shared<NamespaceMemberValue>(t[1].cast<std::string>(), t[2].cast<std::string>());
  if (tag == "special") {
    std::string f = t[1].cast<std::string>();
    if (f == "is_scripting") return std::make_shared<ConstantCallValue>("is_scripting", IValue(true));
    if (f == "is_tracing") return std::make_shared<ConstantCallValue>("is_tracing", IValue(false));
    if (f == "wait") return std::make_shared<BuiltinFunction>("aten::wait");
    if (f == "_unwrap_optional") return std::make_shared<BuiltinFunction>("aten::_unwrap_optional");
    if (f == "has_torch_function") return std::make_shared<NoTorchFunctionValue>();
    if (f == "_single") return std::make_shared<NTupleValue>(f, 1);
    if (f == "_pair") return std::make_shared<NTupleValue>(f, 2);
    if (f == "_triple") return std::make_shared<NTupleValue>(f, 3);
    if (f == "_quadruple") return std::make_shared<NTupleValue>(f, 4);
    return std::make_shared<SpecialFormValue>(f);  // annotate, isinstance, fork
  }
  if (tag == "python_builtin") {
    std::string b = t[1].cast<std::string>();
    if (b == name) return nullptr;  // the emitter knows it by this name
    throw CompileError("'" + name + "' is the Python builtin '" + b + "': use it under its own name in TorchScript code",
                       loc);
  }
  if (tag == "builtin_op") return std::make_shared<BuiltinFunction>(t[1].cast<std::string>());
  if (tag == "ignored") {
    // a Python function compiled code calls back (python_method.h), when its source was found
    if (t.size() > 2 && !t[2].is_none()) return std::make_shared<FunctionValue>(t[2].cast<PythonFunctionHandle&>().fn);
    return std::make_shared<IgnoredFunctionValue>(t[1].cast<std::string>());
  }
  if (tag == "error") throw CompileError(t[1].cast<std::string>(), loc);
  if (tag == "varargs_function")
    return std::make_shared<PythonVarArgsFunctionValue>(py::reinterpret_borrow<py::object>(t[1]));
  if (tag == "super") return std::make_shared<PythonSuperValue>(py::reinterpret_borrow<py::object>(t[1]));
  if (tag == "annotation") throw CompileError("'" + name + "' is a type, not a value", loc);
  if (tag == "module_class")
    return std::make_shared<PythonModuleClassValue>(py::reinterpret_borrow<py::object>(obj), shared_from_this(), name);
  throw CompileError("internal error: unknown classification '" + tag + "' of '" + name + "'", loc);
}

SugaredValuePtr PythonResolver::namespaceMember(py::handle obj, const std::string& name, const SourceRange& loc) {
  py::gil_scoped_acquire gil;
  py::object c = classify(obj, name, loc);
  if (c.is_none()) return nullptr;
  std::string tag = c.cast<py::tuple>()[0].cast<std::string>();
  if (tag != "special" && tag != "module" && tag != "pymodule" && tag != "ignored") return nullptr;
  return objectToSugared(obj, name, loc);
}

TypePtr PythonResolver::objectToType(py::handle obj, const std::string& name, const SourceRange& loc) {
  py::gil_scoped_acquire gil;
  py::object c = classify(obj, name, loc);
  if (c.is_none()) return nullptr;
  py::tuple t = c.cast<py::tuple>();
  std::string tag = t[0].cast<std::string>();
  if (tag == "type") return cu_->findType(t[1].cast<std::string>());
  if (tag == "module_class") {
    // the module classes made from subclasses: one is the type, several a Union of them; none a module
    // class of the Python class's name that no value has
    std::vector<TypePtr> types;
    for (py::handle q : t[1])
      if (TypePtr ty = cu_->findType(q.cast<std::string>())) types.push_back(ty);
    if (types.empty()) return ClassType::create(t[2].cast<std::string>(), /*isModule=*/true);
    if (types.size() == 1) return types[0];
    return UnionType::create(types);
  }
  if (tag == "annotation") {
    std::string text = t[1].cast<std::string>();
    auto src = std::make_shared<Source>(text, loc.valid() ? loc.source->filename : "");
    ExprPtr e;
    try {
      e = parseExpression(src);
    } catch (const CompileError&) {
      throw CompileError("'" + name + "' (" + text + ") is not a TorchScript type", loc);
    }
    auto self = shared_from_this();
    TypeParser tp([self](const std::string& n, const SourceRange& l) { return self->resolveType(n, l); });
    try {
      return tp.parse(e);
    } catch (const CompileError& err) {
      throw CompileError(err.message() + " (in '" + name + "' = " + text + ")", loc);
    }
  }
  return nullptr;
}

TypePtr PythonResolver::resolveType(const std::string& name, const SourceRange& loc) {
  if (TypePtr t = cu_->findType(name)) return t;  // a qualified name ("__torch__.m.Point")
  py::gil_scoped_acquire gil;
  py::object obj = lookup(name, loc);
  if (obj.is_none()) return nullptr;
  return objectToType(obj, name, loc);
}

Function* PythonResolver::resolveMethod(const ClassType& cls, const std::string& name, const SourceRange& loc) {
  if (!gMethodCompiler || !cls.isModule()) return nullptr;
  py::gil_scoped_acquire gil;
  bool defined = false;
  try {
    defined = gMethodCompiler(cls.qualName(), name).cast<bool>();
  } catch (py::error_already_set& e) {
    rethrowAsCompileError(e, "'" + name + "' is being compiled since it was called from '" + owner_ + "'", loc);
  }
  return defined ? cls.findMethod(name) : nullptr;
}

std::shared_ptr<const ClassDefinition> PythonResolver::resolveClassDefinition(const std::string& name,
                                                                              const SourceRange& loc) {
  if (!gClassDefinitionFinder) return nullptr;
  py::gil_scoped_acquire gil;
  py::object found;
  try {
    found = gClassDefinitionFinder(rcb_, name);
  } catch (py::error_already_set& e) {
    rethrowAsCompileError(e, "the base class '" + name + "' of a class compiled from '" + owner_ + "'", loc);
  }
  if (found.is_none()) return nullptr;
  auto t = found.cast<py::tuple>();
  std::string qualName = t[3].cast<std::string>();
  auto resolver = std::make_shared<PythonResolver>(py::reinterpret_borrow<py::object>(t[4]), cu_, lastComponent(qualName));
  return pythonClassDefinition(cu_, PythonSource{t[0].cast<std::string>(), t[1].cast<std::string>(), t[2].cast<size_t>()},
                               qualName, resolver);
}

Function* PythonResolver::resolveFunction(const std::string& name, const SourceRange& loc) {
  if (Function* f = cu_->findFunction(name)) return f;
  // torch.nn.functional / torch.functional functions PyTorch compiles from Python source: Kindling's own
  // library, compiled into the Python compilation unit on first use.
  if (isLibraryQualifiedName(name)) return functionalLibraryFunction(*cu_, name, nullptr);
  (void)loc;
  return nullptr;
}

}  // namespace kindling::python
