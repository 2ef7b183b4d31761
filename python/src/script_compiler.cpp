// Compiling Python functions and classes with Kindling's frontend. See script_compiler.h.
#include "script_compiler.h"

#include <unordered_map>

#include "frontend/class_inheritance.h"
#include "frontend/compiler.h"
#include "frontend/emitter/control_flow_analysis.h"
#include "frontend/parser.h"
#include "python_method.h"
#include "python_resolver.h"
#include "script_objects.h"
#include "tensor_bridge.h"
#include "value_conversion.h"

namespace kindling::python {

namespace {

// What every compilation into a compilation unit shares: the calls seen so far (recursion across
// separately scripted functions is found as in one program) and the static methods of its classes.
struct UnitState {
  std::shared_ptr<CallGraph> callGraph = std::make_shared<CallGraph>();
  std::shared_ptr<std::unordered_map<std::string, Function*>> staticMethods =
      std::make_shared<std::unordered_map<std::string, Function*>>();
};

UnitState& stateOf(const CompilationUnit& cu) {
  static auto* states = new std::unordered_map<const CompilationUnit*, UnitState>();  // lives as long as the process
  return (*states)[&cu];
}

EmitContext contextFor(const std::shared_ptr<CompilationUnit>& cu, const std::shared_ptr<Resolver>& resolver) {
  EmitContext ctx;
  ctx.resolver = resolver;
  UnitState& st = stateOf(*cu);
  ctx.callGraph = st.callGraph;
  ctx.staticMethods = st.staticMethods;
  return ctx;
}

bool isDocstringOrPass(const StmtPtr& s) {
  return s->kind == StmtKind::Pass || (s->kind == StmtKind::Expr && s->as<ExprStmt>().value->kind == ExprKind::Str);
}

// The one statement of kind `kind` a definition's source must consist of.
const Stmt& singleDefinition(const SourceFile& file, StmtKind kind, const char* what, const std::shared_ptr<const Source>& src) {
  const Stmt* found = nullptr;
  for (auto& s : file.body) {
    if (isDocstringOrPass(s)) continue;
    if (s->kind != kind || found)
      throw CompileError(std::string("expected the source of a single ") + what, s->range);
    found = s.get();
  }
  if (!found) throw CompileError(std::string("expected the source of a single ") + what,
                                 SourceRange(src, 0, src->text.size()));
  return *found;
}

// The VariadicBinding (types, [(key, type), ...]) of _compile_function, its annotations parsed with `resolver`.
VariadicBinding variadicBinding(const py::object& spec, const std::shared_ptr<Resolver>& resolver) {
  TypeParser parser([resolver](const std::string& n, const SourceRange& l) { return resolver->resolveType(n, l); });
  auto parse = [&](const std::string& annotation) {
    return parser.parse(parseExpression(std::make_shared<Source>(annotation, "<variadic binding>", 1)));
  };
  auto t = spec.cast<py::tuple>();
  if (t.size() != 2) throw py::type_error("_compile_function: variadic must be (types, keywords)");
  VariadicBinding b;
  for (py::handle x : t[0]) b.positional.push_back(parse(x.cast<std::string>()));
  for (py::handle kv : t[1]) {
    auto pair = kv.cast<py::tuple>();
    b.keywords.emplace_back(pair[0].cast<std::string>(), parse(pair[1].cast<std::string>()));
  }
  return b;
}

}  // namespace

std::string lastComponent(const std::string& q) {
  size_t dot = q.rfind('.');
  return dot == std::string::npos ? q : q.substr(dot + 1);
}

std::string uniqueQualifiedName(const CompilationUnit& cu, const std::string& qualName) {
  auto taken = [&](const std::string& q) { return cu.findFunction(q) || cu.findType(q); };
  if (!taken(qualName)) return qualName;
  static size_t mangleIndex = 0;  // as torch's CompilationUnit::mangle: one counter, names never reused
  size_t dot = qualName.rfind('.');
  std::string prefix = dot == std::string::npos ? "" : qualName.substr(0, dot + 1);
  std::string name = lastComponent(qualName);
  while (true) {
    std::string candidate = prefix + "___torch_mangle_" + std::to_string(mangleIndex++) + "." + name;
    if (!taken(candidate)) return candidate;
  }
}

GraphFunction* compilePythonFunction(const std::shared_ptr<CompilationUnit>& cu, const PythonSource& source,
                                     const std::string& qualName, const std::shared_ptr<ClassType>& selfType,
                                     const std::shared_ptr<Resolver>& resolver, const CompileFunctionOptions& options) {
  auto src = std::make_shared<Source>(source.text, source.filename, source.startingLine);
  std::shared_ptr<SourceFile> file = parseFile(src);
  // A copy: defaults given by Python are removed from it.
  auto defCopy = std::make_shared<DefStmt>(static_cast<const DefStmt&>(singleDefinition(*file, StmtKind::Def, "function definition", src)));
  DefStmt& def = *defCopy;
  std::shared_ptr<SourceFile> signatureFile;
  if (!options.signature.text.empty()) {
    auto sigSrc = std::make_shared<Source>(options.signature.text, options.signature.filename, options.signature.startingLine);
    signatureFile = parseFile(sigSrc);
    auto& decl = static_cast<const DefStmt&>(singleDefinition(*signatureFile, StmtKind::Def, "overload declaration", sigSrc));
    def.params = decl.params;
    def.returnType = decl.returnType;
    def.typeComment = decl.typeComment;
    def.typeCommentRange = decl.typeCommentRange;
    def.name = lastComponent(qualName);
  }
  // Defaults come from the live function (they may name globals the source cannot evaluate).
  std::unordered_map<std::string, SourceRange> pythonDefaults;
  for (auto& p : def.params) {
    if (p.defaultValue && options.defaults.contains(p.name.c_str())) {
      pythonDefaults[p.name] = p.defaultValue->range;
      p.defaultValue = nullptr;
    }
  }
  if (options.unused) {
    // @unused: the signature stays, the body raises (as torch.jit's unused stub); the return type is
    // declared or inferred from that body
    def.body = parseFile(std::make_shared<Source>("raise Exception(\"This function has been marked unused\")\n"))->body;
  }
  EmitContext ctx = contextFor(cu, resolver);
  if (options.variadic) {
    auto binding = std::make_shared<VariadicBinding>(*options.variadic);
    binding->def = defCopy.get();
    ctx.variadic = std::move(binding);
  }
  TypePtr self = selfType;
  if (self && def.params.empty()) throw CompileError("methods must have a self argument", def.range);
  FunctionSchema schema = schemaForDef(def, def.name, self, ctx);
  for (auto& a : schema.arguments) {
    auto it = pythonDefaults.find(a.name);
    if (it == pythonDefaults.end()) continue;
    if (options.variadic && !options.variadic->positional.empty() && !a.kwargOnly) continue;  // all passed
    py::handle value = options.defaults[a.name.c_str()];
    // A parameter without annotation (taken as Tensor) whose default is a plain value (`device='cpu'`,
    // `k=3`): typed from the default, as Python accepts it (torch.jit 1.13 rejects "Expected a default value
    // of type Tensor (inferred)").
    const Param* param = nullptr;
    for (const Param& p : def.params)
      if (p.name == a.name) param = &p;
    if (param && !param->annotation && !param->typeComment && def.typeComment.empty() && !value.is_none() &&
        !isTorchTensor(value)) {
      if (TypePtr inferred = inferType(value)) a.type = inferred;
    }
    try {
      a.defaultValue = toIValue(value, a.type);
    } catch (const py::type_error& e) {
      throw CompileError("Expected a default value of type " + a.type->annotationStr() + " on parameter \"" + a.name +
                             "\": " + e.what(),
                         it->second);
    }
  }
  const DefStmt* defp = defCopy.get();
  auto holder = std::make_shared<const Function*>(nullptr);
  Function* fn = cu->defineFunction(qualName, schema, [file, signatureFile, defCopy, defp, self, ctx, schema, holder](Graph& g) {
    EmitContext c = ctx;
    c.currentFunction = *holder;
    emitFunctionBody(g, *defp, schema, self, c);
  });
  *holder = fn;
  if (selfType) selfType->addMethod(fn);
  auto* gf = static_cast<GraphFunction*>(fn);
  gf->ensureDefined();
  return gf;
}

Function* definePythonMethod(const std::shared_ptr<CompilationUnit>& cu, const PythonSource& source,
                             const std::shared_ptr<ClassType>& selfType, const std::shared_ptr<Resolver>& resolver,
                             py::object fn) {
  auto src = std::make_shared<Source>(source.text, source.filename, source.startingLine);
  std::shared_ptr<SourceFile> file = parseFile(src);
  DefStmt def = static_cast<const DefStmt&>(singleDefinition(*file, StmtKind::Def, "function definition", src));
  if (!def.returnType && def.typeComment.empty() && emitter::containsReturn(def.body))
    def.returnType = std::make_shared<NameExpr>(def.nameRange, "Tensor");  // never inferred from Python's body
  def.body.clear();
  FunctionSchema schema = schemaForDef(def, def.name, selfType, contextFor(cu, resolver));
  // the class (or caller) holds the function by pointer: Python methods live as long as the process, as the
  // classes do
  static auto* owned = new std::vector<std::unique_ptr<PythonMethod>>();
  std::string qualName = (selfType ? selfType->qualName() : std::string("__torch__")) + "." + def.name;
  owned->push_back(std::make_unique<PythonMethod>(qualName, def.name, std::move(schema), std::move(fn), cu));
  if (selfType) selfType->addMethod(owned->back().get());
  return owned->back().get();
}

std::shared_ptr<const ClassDefinition> pythonClassDefinition(const std::shared_ptr<CompilationUnit>& cu,
                                                             const PythonSource& source, const std::string& qualName,
                                                             const std::shared_ptr<Resolver>& resolver) {
  auto src = std::make_shared<Source>(source.text, source.filename, source.startingLine);
  std::shared_ptr<SourceFile> file = parseFile(src);
  auto& cls = static_cast<const ClassStmt&>(singleDefinition(*file, StmtKind::Class, "class definition", src));
  return std::make_shared<ClassDefinition>(ClassDefinition{qualName, file, &cls, contextFor(cu, resolver)});
}

TypePtr compilePythonClass(const std::shared_ptr<CompilationUnit>& cu, const PythonSource& source,
                           const std::string& qualName, const std::shared_ptr<Resolver>& resolver) {
  auto src = std::make_shared<Source>(source.text, source.filename, source.startingLine);
  std::shared_ptr<SourceFile> file = parseFile(src);
  auto& cls = static_cast<const ClassStmt&>(singleDefinition(*file, StmtKind::Class, "class definition", src));
  EmitContext ctx = contextFor(cu, resolver);
  TypePtr t = defineClass(*cu, file, cls, qualName, ctx);
  if (auto* ct = t->cast<ClassType>()) {
    // by index: emitting a method adds the base implementations its super() calls reach
    for (size_t i = 0; i < ct->methods().size(); ++i)
      if (auto* gf = dynamic_cast<GraphFunction*>(ct->methods()[i])) gf->ensureDefined();
    for (auto& [name, f] : *ctx.staticMethods)
      if (name.compare(0, qualName.size() + 1, qualName + ".") == 0)
        if (auto* gf = dynamic_cast<GraphFunction*>(f)) gf->ensureDefined();
  }
  return t;
}

void initScriptCompilerBindings(py::module_& m) {
  m.def("_set_object_classifier", &setObjectClassifier,
        "Registers kindling.jit._script._classify, which tells the compiler what a Python object is.");
  m.def("_set_class_definition_finder", &setClassDefinitionFinder,
        "Registers kindling.jit._script._class_definition(rcb, name) -> (source, filename, line, qualname, rcb) "
        "or None, which finds the base classes of TorchScript classes.");
  m.def("_set_method_compiler", &setMethodCompiler,
        "Registers kindling.jit._recursive._compile_method_on_demand(qualname, name) -> bool, which compiles a "
        "method compiled code calls on a module built from Python.");
  m.def("_unique_name", [](const std::string& q) { return uniqueQualifiedName(*pythonCompilationUnit(), q); },
        "The qualified name, mangled as torch does when the Python compilation unit already has it.");
  m.def(
      "_compile_function",
      [](const std::string& text, const std::string& filename, size_t line, const std::string& qualName,
         py::object rcb, py::dict defaults, bool unused, py::object signature, py::object variadic) {
        auto cu = pythonCompilationUnit();
        auto resolver = std::make_shared<PythonResolver>(std::move(rcb), cu, lastComponent(qualName));
        CompileFunctionOptions options;
        options.defaults = std::move(defaults);
        options.unused = unused;
        if (!signature.is_none()) {
          auto t = signature.cast<py::tuple>();
          if (t.size() != 3) throw py::type_error("_compile_function: signature must be (source, filename, first_line)");
          options.signature = PythonSource{t[0].cast<std::string>(), t[1].cast<std::string>(), t[2].cast<size_t>()};
        }
        if (!variadic.is_none()) options.variadic = variadicBinding(variadic, resolver);
        GraphFunction* fn = compilePythonFunction(cu, PythonSource{text, filename, line}, qualName, nullptr, resolver, options);
        return FunctionHandle{cu, fn};
      },
      py::arg("source"), py::arg("filename"), py::arg("line"), py::arg("qualname"), py::arg("rcb"),
      py::arg("defaults"), py::arg("unused") = false, py::arg("signature") = py::none(),
      py::arg("variadic") = py::none(),
      "Compiles the Python source of one def (see script_compiler.h) into the Python compilation unit. "
      "`signature` = (source, filename, first_line) of an overload declaration (@torch.jit._overload) compiles "
      "the body under that declaration's parameters and return type. `variadic` = (types, keywords) compiles a def "
      "taking *args / **kwargs for one call: `types` the annotations (str) of the arguments *args binds, `keywords` "
      "the (key, annotation) pairs of those **kwargs binds (frontend's VariadicBinding).");
  m.def(
      "_compile_class",
      [](const std::string& text, const std::string& filename, size_t line, const std::string& qualName, py::object rcb,
         py::object pythonClass) {
        auto cu = pythonCompilationUnit();
        auto resolver = std::make_shared<PythonResolver>(std::move(rcb), cu, lastComponent(qualName));
        TypePtr t = compilePythonClass(cu, PythonSource{text, filename, line}, qualName, resolver);
        if (!pythonClass.is_none()) {
          registerTypeOfPythonClass(pythonClass, t);
          registerPythonClass(qualName, pythonClass);
        }
        return qualName;
      },
      py::arg("source"), py::arg("filename"), py::arg("line"), py::arg("qualname"), py::arg("rcb"),
      py::arg("python_class") = py::none(),
      "Compiles the Python source of one class (TorchScript class, NamedTuple or Enum) into the Python "
      "compilation unit; returns its qualified name.");
  py::class_<PythonFunctionHandle>(m, "_PythonFunctionHandle", "A @torch.jit.ignore'd function compiled code calls back.");
  m.def(
      "_define_python_function",
      [](const std::string& text, const std::string& filename, size_t line, py::object rcb, py::object fn) {
        auto cu = pythonCompilationUnit();
        auto resolver = std::make_shared<PythonResolver>(rcb, cu, py::str(fn.attr("__name__")).cast<std::string>());
        return PythonFunctionHandle{definePythonMethod(cu, PythonSource{text, filename, line}, nullptr, resolver, fn)};
      },
      py::arg("source"), py::arg("filename"), py::arg("line"), py::arg("rcb"), py::arg("fn"),
      "A @torch.jit.ignore'd Python function that compiled code calls: its schema from the def's annotations, its "
      "body the Python function `fn` (python_method.h), as torch.jit's PythonOp.");
  m.def("_has_type", [](const std::string& q) { return pythonCompilationUnit()->findType(q) != nullptr; });
}

}  // namespace kindling::python
