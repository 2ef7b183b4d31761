// Defs taking *args / **kwargs, specialized per call. See variadic_function.h.
#include "frontend/variadic_function.h"

#include "frontend/compiler.h"

namespace kindling {

bool isVariadicDef(const DefStmt& def) {
  for (const Param& p : def.params)
    if (p.isVarArgs || p.isKwArgs) return true;
  return false;
}

VariadicFunctionValue::VariadicFunctionValue(CompilationTarget& target, std::shared_ptr<SourceFile> file,
                                             const DefStmt& def, std::string qualName, const EmitContext& ctx)
    : target_(target), file_(std::move(file)), def_(def), qualName_(std::move(qualName)), ctx_(ctx),
      resolver_(ctx.resolver) {
  ctx_.resolver = nullptr;
}

EmitContext VariadicFunctionValue::context(const SourceRange& loc, std::shared_ptr<const VariadicBinding> binding) const {
  std::shared_ptr<Resolver> resolver = resolver_.lock();
  if (!resolver) throw CompileError("function '" + def_.name + "' is no longer available to compile", loc);
  EmitContext c = ctx_;
  c.resolver = std::move(resolver);
  c.variadic = std::move(binding);
  return c;
}

void VariadicFunctionValue::defineUnbound() {
  if (target_.findFunction(qualName_)) return;
  try {
    defineFunction(target_, file_, def_, qualName_, nullptr, context(def_.range, nullptr));
  } catch (const CompileError& e) {
    unboundError_ = e;
    FunctionSchema stub;
    stub.name = def_.name;
    Argument none;
    none.type = NoneType();
    stub.returns.push_back(none);
    target_.defineFunction(qualName_, stub, [e](Graph&) { throw e; });
  }
}

SugaredValuePtr VariadicFunctionValue::call(const SourceRange& loc, FunctionEmitter& m,
                                            const std::vector<NamedValue>& args,
                                            const std::vector<NamedValue>& kwargs, size_t nBinders) {
  size_t fixed = 0;
  bool varArgs = false, kwArgs = false;
  std::set<std::string> named;
  for (const Param& p : def_.params) {
    if (p.isVarArgs) varArgs = true;
    else if (p.isKwArgs) kwArgs = true;
    else named.insert(p.name);
    if (!p.isVarArgs && !p.isKwArgs && !p.kwargOnly) ++fixed;
  }
  auto binding = std::make_shared<VariadicBinding>();
  binding->def = &def_;
  std::string signature;
  for (size_t i = fixed; i < args.size(); ++i) {
    if (!varArgs)
      throw CompileError(def_.name + "() takes " + std::to_string(fixed) + " positional arguments but " +
                             std::to_string(args.size()) + " were given",
                         loc);
    TypePtr t = args[i].value ? args[i].value->type() : ListType::create(TensorType());
    binding->positional.push_back(t);
    signature += t->annotationStr() + ",";
  }
  signature += "|";
  for (const NamedValue& k : kwargs) {
    if (named.count(k.name)) continue;
    if (!kwArgs) throw CompileError(def_.name + "() got an unexpected keyword argument '" + k.name + "'", k.loc);
    TypePtr t = k.value ? k.value->type() : ListType::create(TensorType());
    binding->keywords.emplace_back(k.name, t);
    signature += k.name + ":" + t->annotationStr() + ",";
  }
  // defines the def as `name` for `binding` once; a binding needing itself while it is defined is recursion
  auto define = [&](const std::string& name, std::shared_ptr<const VariadicBinding> b) {
    if (!compiling_.insert(signature).second)
      throw CompileError("function '" + def_.name + "' is called recursively. Recursive calls are not supported", loc);
    struct Done {
      std::set<std::string>& s;
      const std::string& k;
      ~Done() { s.erase(k); }
    } done{compiling_, signature};
    return defineFunction(target_, file_, def_, name, nullptr, context(loc, std::move(b)));
  };
  const bool unbound = binding->positional.empty() && binding->keywords.empty();
  if (unbound && unboundError_) throw *unboundError_;
  Function* fn = unbound ? target_.findFunction(qualName_) : nullptr;
  if (unbound && !fn) fn = define(qualName_, nullptr);
  if (!unbound) {
    auto it = specializations_.find(signature);
    fn = it != specializations_.end()
             ? it->second
             : (specializations_[signature] =
                    define(qualName_ + "__variadic_" + std::to_string(specializations_.size() + 1), binding));
  }
  if (!fn) throw CompileError("function '" + def_.name + "' is not defined yet", loc);
  return std::make_shared<FunctionValue>(fn)->call(loc, m, args, kwargs, nBinders);
}

}  // namespace kindling
