// Constant pooling (torch/csrc/jit/passes/constant_pooling.h): equal prim::Constant nodes anywhere in the
// graph become one, and every constant moves to the beginning of the graph — in PyTorch's order (each
// newly seen constant is moved before the current first node, so the last new one ends up first).
// Constants are equal when their output types print the same and their values are equal; tensors only
// when they are the same tensor; lists and dicts (mutable) are never merged.
#pragma once
#include "ir/ir.h"

namespace kindling {

void poolConstants(Graph& graph);

}  // namespace kindling
