// aten::wait(Future(t) self) -> t: the value of a torch.jit.fork()ed call.
//
// The interpreter runs aten::wait itself (runtime/interpreter.cpp: it blocks on the runtime Future of
// runtime/future.h, running the forked task inline when no pool worker has started it). This kernel is
// the operator's registration, so schema matching binds `torch.jit.wait(fut)` as PyTorch does, and its
// fallback for callers outside the interpreter: it returns the value of a completed future and raises
// otherwise (the ops layer cannot block on the runtime's pool).
#include "ops/registry/operator.h"

namespace kindling {

namespace {
void waitKernel(Stack& stack) {
  IValue f = pop(stack);
  if (!f.isFuture()) throw RuntimeError("aten::wait expects a Future");
  stack.push_back(f.toFuture()->wait());
}
}  // namespace

void registerFutureOps(OperatorRegistry& r) { r.add("aten::wait(Future(t) self) -> t", waitKernel); }

}  // namespace kindling
