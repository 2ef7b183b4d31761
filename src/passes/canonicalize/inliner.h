// Inliner (torch/csrc/jit/passes/inliner.h): replaces prim::CallFunction and prim::CallMethod nodes whose
// callee is a TorchScript graph by a copy of that graph, so the interpreter pays no per-call overhead
// (PyTorch's `inlined_graph` is the reference output). Methods are resolved on the ClassType of the
// call's first input; calls on interface types and on callees without a graph stay calls.
#pragma once
#include "ir/ir.h"
#include "passes/pipeline.h"

namespace kindling {

/// Inlines every eligible call in the graph (nested blocks included). `calleeGraph` returns the graph to
/// inline (it is not modified) or nullptr to keep the call. Calls in an inlined graph are inlined in
/// turn, so the callee's graph may be its emitted one: the work is linear in the size of the result, with
/// no recursion. A call of a function it is already inlined inside is CompileError "recursive calls are
/// not supported".
void inlineCalls(Graph& graph, const CalleeGraphFn& calleeGraph);

/// The function a prim::CallFunction / prim::CallMethod node calls, as inlineCalls resolves it (methods
/// on the ClassType of the first input), or nullptr (interface calls, other nodes).
Function* inlinedCallee(const Node* n);

/// Inlines one call node: `callee`'s graph inputs bind to the call's arguments (for CallFunction, the
/// inputs after the function constant). Returns the values that replaced the call's outputs.
/// Every inlined node records the call in its inlined call stack (`calleeName` and the call's range), so
/// runtime errors can name the TorchScript frames.
/// `calleeFunction`, when given, is recorded in the frames (the recursion check of inlineCalls).
std::vector<Value*> inlineCallTo(Node* call, const Graph& callee, const std::string& calleeName = "",
                                 const Function* calleeFunction = nullptr);

}  // namespace kindling
