// torch.jit.fork in the emitter (PyTorch's emitForkExpr + liftClosures/inlineForkedClosures, done in one
// step): `torch.jit.fork(fn, *args, **kwargs)` becomes
//
//   %fut : Future[T] = prim::fork_0(%captured...)      with prim::fork_0 = graph(%captured...):
//                                                          ... the call fn(*args, **kwargs) ...
//                                                          return (%result)
//
// The call is emitted into a temporary block of the fork node (so it sees the enclosing variables and
// resolves like any call: functions, module methods `self.m`, builtins), then lifted into a separate
// Graph whose inputs are the values the block used from outside, in order of first use; the node gets
// those values as inputs and the graph as its subgraph (ir/subgraph.h). The result type is Future[T]
// with T the call's result type. `torch.jit.wait(fut)` is the aten::wait operator.
//
// Archive code (code/ written by PyTorch's printer) spells a fork as a closure:
//     def __forked_function():
//       return __torch__.m.foo(x, 2, )
//     fut = fork(__forked_function)
// A nested `def` in archive code binds a ClosureValue; fork(closure) emits the closure's return
// expression the same way. Closures are only supported in that shape (no parameters, one `return`).
#pragma once
#include <functional>
#include <memory>

#include "frontend/sugared_value.h"
#include "frontend/tree.h"

namespace kindling {

/// A nested `def` of archive code, usable only as the argument of fork().
struct ClosureValue : SugaredValue {
  explicit ClosureValue(std::shared_ptr<const DefStmt> d) : def(std::move(d)) {}
  std::string kind() const override { return "closure '" + def->name + "'"; }
  /// The expression the closure returns; CompileError unless the closure has no parameters and its
  /// body is a single `return <expr>`.
  const ExprPtr& returnedExpr(const SourceRange& use) const;
  std::shared_ptr<const DefStmt> def;
};

/// Emits a prim::fork at the insertion point: `emitCall` is run with the insertion point inside the
/// forked body and returns the call's result. Returns the Future[T] value.
SugaredValuePtr emitFork(FunctionEmitter& m, const SourceRange& loc, const std::function<Value*()>& emitCall);

}  // namespace kindling
