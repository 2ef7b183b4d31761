// A variable first bound to None and later to a value of type T in a nested block or a loop is
// Optional[T], as Python lets it be (PyTorch 1.13 rejects it: "Variable 'x' previously had type NoneType
// but is now being assigned to a value of type int"). The emitter cannot know T when it emits `x = None`,
// so a function where such a variable may occur (settleNoneWidenings' syntactic check: a name assigned the
// literal None and assigned again elsewhere) is first emitted into scratch graphs: each time setVar meets
// the mismatch it throws a NoneWideningRequest, the name is recorded as Optional[T], and the function is
// emitted again, until it compiles or fails for another reason. The real emission then types every
// `x = None` of a recorded name as Optional[T] (a placeholder prim::Load, as `x : Optional[T] = None`).
// Internal to frontend/emitter/.
#pragma once
#include <string>
#include <unordered_map>

#include "frontend/ir_emitter.h"

namespace kindling::emitter {

/// Thrown by setVar while widenings are collected; never escapes settleNoneWidenings.
struct NoneWideningRequest {
  std::string name;
  TypePtr type;  // Optional[T]
};

/// The widened variables of `def` (name → Optional[T]); empty, without emitting anything, when no name is
/// both assigned None and assigned again. Archive code (ctx.archiveMode) is never widened.
NoneWidenings settleNoneWidenings(const DefStmt& def, const FunctionSchema& schema, const TypePtr& selfType,
                                  const EmitContext& ctx);

}  // namespace kindling::emitter
