// The inference pass pipeline GraphFunction::code() runs once per function before compiling it for the
// interpreter: inline calls to TorchScript functions and methods, fold constants, remove dead code.
// (PyTorch's executor does this and more on its first run; Kindling does it at load for the methods
// that run, so there is no warm-up cliff.)
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "core/function.h"
#include "ir/ir.h"

namespace kindling {

/// Returns the graph to inline for a callee (its emitted graph: the calls in it are inlined in turn), or
/// nullptr when the callee must stay a call (builtins, functions that are not TorchScript graphs). May
/// throw CompileError (recursion).
using CalleeGraphFn = std::function<std::shared_ptr<Graph>(Function*)>;

struct PassContext {
  CalleeGraphFn calleeGraph;  // empty: no inlining
};

/// The deepest nesting of blocks (prim::If, prim::Loop, ...) a graph may have. The passes, the printers
/// and the interpreter's compiler walk blocks recursively; this bound keeps them within the stack.
constexpr size_t kMaxBlockNesting = 1000;

/// Throws CompileError "nesting too deep: blocks <what> nest N levels" (at a node of the deepest block)
/// when `graph` nests blocks more than kMaxBlockNesting levels. Source nests that deep only through long
/// chains of inlined calls, each inside a block (the parser bounds the nesting of one function).
void checkBlockNesting(const Graph& graph, const std::string& what);

/// What PyTorch runs on a graph right after emitting it (ir_emitter.cpp runCleanupPasses), so that
/// print(fn.graph) matches: constant propagation on immutable types, dead code elimination, constant
/// pooling. GraphFunction runs it once after the body is emitted. Checks the nesting first.
void runCleanupPasses(Graph& graph);

/// Inliner, scalar canonicalization of add/sub/mul/div with 0-dim tensor constants (as PyTorch's
/// executor), the value-changing peephole rewrites (passes/canonicalize/peephole.h), constant propagation,
/// dead code elimination, in that order; the nesting is checked after inlining. Modifies `graph` in place.
void runInferencePasses(Graph& graph, const PassContext& ctx = {});

/// Passes for a graph specialized to one module object (after passes/optimize/freeze_module.h):
/// constant propagation and DCE (drops `if self.training:` code), conv + batch_norm folding, DCE, then the
/// constant conv / linear weights packed for oneDNN (passes/optimize/prepack_weights.h). (Conv + add + activation fusion exists — passes/optimize/fuse_conv_activation.h — but is off until the
/// fused oneDNN path is faster than the separate ops.)
/// Fusion passes that need constant weights belong here.
void runFrozenGraphPasses(Graph& graph);

}  // namespace kindling
