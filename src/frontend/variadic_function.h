// A `def` of a source program taking `*args` and/or `**kwargs`, called from compiled code: each call binds
// them statically (VariadicBinding, frontend/ir_emitter.h) and calls the def's specialization for that
// binding, compiled on first use as the function "<qualname>__variadic_<k>" (k = 1, 2, ... in the order
// the bindings are first met). A call binding nothing to them calls the def itself, compiled as taking
// neither (so it is also an entry point). torch.jit 1.13 rejects such defs ("Compiled functions can't take
// variable number of arguments"); the specializations are plain functions, so a saved archive runs in
// torch.jit.load.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "frontend/compilation_target.h"
#include "frontend/ir_emitter.h"
#include "frontend/sugared_value.h"
#include "frontend/tree.h"

namespace kindling {

/// True when `def` takes `*args` or `**kwargs`.
bool isVariadicDef(const DefStmt& def);

struct VariadicFunctionValue : SugaredValue {
  /// `def` (a statement of `file`) compiled as `qualName` into `target` with `ctx`, whose resolver is
  /// held weakly (the resolver holds this value): the resolver must outlive the calls.
  VariadicFunctionValue(CompilationTarget& target, std::shared_ptr<SourceFile> file, const DefStmt& def,
                        std::string qualName, const EmitContext& ctx);
  std::string kind() const override { return "function '" + qualName_ + "' taking *args or **kwargs"; }
  /// Throws CompileError as Python's call would: extra positional arguments without *args ("f() takes 2
  /// positional arguments but 3 were given"), unknown keywords without **kwargs, and recursion (a
  /// specialization needing itself while its schema is inferred).
  SugaredValuePtr call(const SourceRange& loc, FunctionEmitter& m, const std::vector<NamedValue>& args,
                       const std::vector<NamedValue>& kwargs, size_t nBinders) override;
  /// Defines the def as `qualName` binding nothing, when no call has yet. A def that compiles only for the
  /// arguments its calls bind (`return g(*args)`, g taking some) is still defined, with a body that raises
  /// the error: it surfaces when the program runs it or calls it binding nothing, as Python's call fails then.
  void defineUnbound();

 private:
  /// ctx_ with its resolver (a CompileError at `loc` once the resolver is gone) and `binding`.
  EmitContext context(const SourceRange& loc, std::shared_ptr<const VariadicBinding> binding) const;
  CompilationTarget& target_;
  std::shared_ptr<SourceFile> file_;
  const DefStmt& def_;
  std::string qualName_;
  EmitContext ctx_;  // without its resolver
  std::weak_ptr<Resolver> resolver_;
  std::optional<CompileError> unboundError_;          // why the def does not compile binding nothing
  std::map<std::string, Function*> specializations_;  // by binding signature
  std::set<std::string> compiling_;
};

}  // namespace kindling
