// Lambdas: `f = lambda x, k=2: x * k` bound to a name (or called in place) and called with values. A
// lambda is a compile-time value (LambdaValue): each call inlines its body, emitted in a scope where the
// parameters are local names bound to the arguments; the names the body uses otherwise are the function's
// variables as they are at the call (Python's late binding of free variables). Defaults are evaluated
// where the lambda is written, as Python does. PyTorch 1.13 rejects lambdas ("Lambda aren't supported");
// the inlined code is plain TorchScript, so `kindling save` writes it as PyTorch compiles it. A lambda used
// as a value (returned, stored in a container, passed to a function) is a compile error: it has no
// TorchScript type. A lambda that calls itself is a compile error (its inlining would not end).
#include "frontend/ir_emitter.h"

#include <algorithm>

#include "frontend/emitter/environment.h"

namespace kindling {

using namespace emitter;

namespace {

struct LambdaValue : SugaredValue {
  LambdaValue(ExprPtr e, std::vector<Value*> d) : expr(std::move(e)), defaults(std::move(d)) {}
  std::string kind() const override { return "lambda"; }
  Value* asValue(const SourceRange& loc, FunctionEmitter&) override {
    throw CompileError("a lambda can only be called here: it cannot be used as a value (TorchScript has no "
                       "function values)",
                       loc);
  }
  SugaredValuePtr call(const SourceRange& loc, FunctionEmitter& m, const std::vector<NamedValue>& args,
                       const std::vector<NamedValue>& kwargs, size_t) override {
    return m.inlineLambda(loc, expr, defaults, args, kwargs);
  }
  ExprPtr expr;                 // a LambdaExpr
  std::vector<Value*> defaults;  // one per parameter, null without a default
};

}  // namespace

SugaredValuePtr FunctionEmitter::emitLambda(const ExprPtr& e) {
  auto& l = e->as<LambdaExpr>();
  std::vector<Value*> defaults;
  for (const ExprPtr& d : l.defaults) defaults.push_back(d ? emitExpr(d) : nullptr);
  return std::make_shared<LambdaValue>(e, std::move(defaults));
}

SugaredValuePtr FunctionEmitter::inlineLambda(const SourceRange& loc, const ExprPtr& e,
                                              const std::vector<Value*>& defaults,
                                              const std::vector<NamedValue>& args,
                                              const std::vector<NamedValue>& kwargs) {
  auto& l = e->as<LambdaExpr>();
  if (std::find(inlining_.begin(), inlining_.end(), &l) != inlining_.end())
    throw CompileError("a lambda that calls itself cannot be inlined (recursion is not supported)", loc);
  const size_t n = l.params.size();
  if (args.size() > n)
    throw CompileError("lambda takes " + std::to_string(n) + " positional argument" + (n == 1 ? "" : "s") +
                           " but " + std::to_string(args.size()) + " were given",
                       loc);
  std::vector<Value*> bound(n, nullptr);
  auto valueOf = [&](const NamedValue& a) {
    return a.emptyListLiteral ? createList(TensorType(), {}, a.loc) : a.value;
  };
  for (size_t i = 0; i < args.size(); ++i) bound[i] = valueOf(args[i]);
  for (const NamedValue& kw : kwargs) {
    auto it = std::find(l.params.begin(), l.params.end(), kw.name);
    if (it == l.params.end()) throw CompileError("lambda got an unexpected keyword argument '" + kw.name + "'", kw.loc);
    size_t i = static_cast<size_t>(it - l.params.begin());
    if (bound[i]) throw CompileError("lambda got multiple values for argument '" + kw.name + "'", kw.loc);
    bound[i] = valueOf(kw);
  }
  for (size_t i = 0; i < n; ++i) {
    if (!bound[i]) bound[i] = defaults[i];
    if (!bound[i]) throw CompileError("lambda missing required argument '" + l.params[i] + "'", loc);
  }
  auto scope = std::make_shared<Environment>(env_->block, env_);
  scope->locals.insert(l.params.begin(), l.params.end());
  env_ = scope;
  inlining_.push_back(&l);
  struct Restore {
    FunctionEmitter* m;
    std::shared_ptr<Environment> next;
    ~Restore() {
      m->env_ = next;
      m->inlining_.pop_back();
    }
  } restore{this, scope->next};
  for (size_t i = 0; i < n; ++i) setVar(*this, *env_, l.params[i], std::make_shared<SimpleValue>(bound[i]), loc);
  return emitSugaredExpr(l.body);
}

}  // namespace kindling
