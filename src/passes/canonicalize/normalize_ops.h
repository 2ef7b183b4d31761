// PyTorch's NormalizeOps (torch/csrc/jit/passes/normalize_ops.cpp), which the 1.13 frontend runs on every
// graph right after emitting it, before the cleanup passes: operator aliases become the operator they
// alias (aten::divide_ -> aten::div_, aten::arccos -> aten::acos, aten::true_divide -> aten::div,
// aten::clip -> aten::clamp, aten::greater -> aten::gt, ...), and aten::rsub.Tensor(a, b, alpha) becomes
// aten::sub.Tensor(b, a, alpha). Each rewritten node is replaced by a new node of the target kind inserted
// in its place (new outputs taking over the old ones' names and uses, as Node::replaceWithNewSymbol), so
// print(fn.graph) shows what PyTorch shows, value numbering included. The new node is bound to the
// target's overload matching its input types; a node whose target Kindling does not register stays.
#pragma once
#include "ir/ir.h"

namespace kindling {

/// Rewrites the graph's alias and rsub nodes (nested blocks included, each block's nodes before the node
/// that owns it, as PyTorch). Returns the number of nodes rewritten.
size_t normalizeOps(Graph& graph);

}  // namespace kindling
