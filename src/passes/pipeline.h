// The inference pass pipeline GraphFunction::code() runs once per function before compiling it for the
// interpreter: inline calls to TorchScript functions and methods, fold constants, remove dead code.
// (PyTorch's executor does this and more on its first run; Kindling does it at load so there is no
// warm-up cliff.)
#pragma once
#include <functional>
#include <memory>

#include "core/function.h"
#include "ir/ir.h"

namespace kindling {

/// Returns the graph to inline for a callee (already optimized), or nullptr when the callee must stay a
/// call (builtins, functions that are not TorchScript graphs). May throw CompileError (recursion).
using CalleeGraphFn = std::function<std::shared_ptr<Graph>(Function*)>;

struct PassContext {
  CalleeGraphFn calleeGraph;  // empty: no inlining
};

/// What PyTorch runs on a graph right after emitting it (ir_emitter.cpp runCleanupPasses), so that
/// print(fn.graph) matches: constant propagation on immutable types, dead code elimination, constant
/// pooling. GraphFunction runs it once after the body is emitted.
void runCleanupPasses(Graph& graph);

/// Inliner, scalar canonicalization of add/sub/mul/div with 0-dim tensor constants (as PyTorch's
/// executor), the value-changing peephole rewrites (passes/canonicalize/peephole.h), constant propagation,
/// dead code elimination, in that order. Modifies `graph` in place.
void runInferencePasses(Graph& graph, const PassContext& ctx = {});

/// Passes for a graph specialized to one module object (after passes/optimize/freeze_module.h):
/// constant propagation and DCE (drops `if self.training:` code), conv + batch_norm folding, DCE, then the
/// constant conv / linear weights packed for oneDNN (passes/optimize/prepack_weights.h). (Conv + add + activation fusion exists — passes/optimize/fuse_conv_activation.h — but is off until the
/// fused oneDNN path is faster than the separate ops.)
/// Fusion passes that need constant weights belong here.
void runFrozenGraphPasses(Graph& graph);

}  // namespace kindling
