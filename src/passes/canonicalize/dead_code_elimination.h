// Dead code elimination (torch/csrc/jit/passes/dead_code_elimination.h): removes nodes whose outputs are
// unused and that have no side effects (Node::hasSideEffects: prints, raises, attribute writes, calls,
// operators that mutate an argument), unused outputs of prim::If and unused carried values of prim::Loop.
#pragma once
#include "ir/ir.h"

namespace kindling {

/// Runs to a fixpoint over the whole graph. Graph inputs and outputs are kept.
void eliminateDeadCode(Graph& graph);
/// Same, on one block and the blocks nested in it (block outputs are kept).
void eliminateDeadCode(Block* block);

}  // namespace kindling
