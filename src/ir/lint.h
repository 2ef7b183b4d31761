// The graph verifier: Graph::lint() (declared in ir/ir.h) checks the IR's invariants, as PyTorch's
// Graph::lint (torch/csrc/jit/ir/ir.cpp) does, plus the operator binding Kindling's interpreter relies on.
// A graph that fails is a bug in whatever built or rewrote it (frontend, importer, pass), so every failure
// is an InternalError (core/internal_error.h) whose message names the rule and prints the node:
//
//   graph lint [ssa]: input 0 (%x) is used before it is defined
//     node: %y : Tensor = aten::relu(%x)
//
// Rules (the bracketed name appears in the message):
//   [structure]  each block starts with its prim::Param node (no inputs) and ends with its prim::Return
//                node (no outputs); next/prev links and owning block/graph pointers agree; nodes of a
//                block are in increasing topological position (Node::isBefore).
//   [dangling]   every node and block the graph owns is reachable from the top block (nothing created
//                and left out, nothing freed and still listed).
//   [value]      each output's node()/offset() name the node and position that produce it; every value
//                has a type.
//   [uses]       node inputs and value use lists agree both ways: input i of n is v exactly when v's uses
//                hold {n, i}, once.
//   [ssa]        every input (and every block output) is defined before its use: earlier in the same
//                block, or earlier in an enclosing block than the node holding the use; values defined
//                inside a block are not visible after it. Block inputs are defined at the block's start.
//   [block]      prim::If: one bool input, two blocks without inputs, each with as many outputs as the
//                node, each block output a subtype of the node's output type. prim::Loop: inputs
//                (max trip count int, condition bool, carried...), one block with inputs (iteration int,
//                carried...) and outputs (condition bool, carried...), node outputs = carried, carried
//                types consistent. prim::Try: two blocks, the handler with 3 inputs (class, message,
//                text), as many block outputs as node outputs. Other nodes have no blocks.
//   [unbound]    every aten:: node is bound to a registered operator (Node::op()); bound nodes' operators
//                are registered under the node's kind.
//   [schema]     a bound node's inputs match its schema: the argument count (more for `...` varargs) and
//                each input's type accepted by the argument's type (ir/operator_matching.h's
//                argumentTypeMatches); its output count is the schema's return count (unless `...`).
// Subgraphs (prim::fork's, ir/subgraph.h) are linted too.
//
// Running it: passes/pipeline.cpp lints after every pass when verification is on. It is on when the
// environment variable KINDLING_VERIFY is set to anything but "" or "0" at start-up (the test suites set
// it), after setGraphVerification(true), and under the CLI's --verify. Off, the cost is one relaxed
// atomic load per pass.
#pragma once
#include <string>

namespace kindling {

class Graph;

/// Whether verifyGraph lints (see above). Thread-safe.
/// Graph::lint's rules except [unbound] and [schema], and without the count of owned blocks in
/// [dangling]: for graphs whose nodes need not name registered operators (the IR parser's, which reads
/// operators Kindling lacks). Throws InternalError as Graph::lint does.
void lintWithoutOperators(const Graph& graph);

bool graphVerificationEnabled();
void setGraphVerification(bool on);

/// When verification is on, lints `graph`; a failure is an InternalError "after <what>: <lint message>"
/// followed by the whole graph's text. `what` names the pass just run ("pass constant propagation").
void verifyGraph(const Graph& graph, const char* what);

}  // namespace kindling
