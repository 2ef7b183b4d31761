// Subgraph attributes: nodes that carry a whole Graph, as PyTorch's g_(attr::Subgraph, ...) — prim::fork
// holds the body of the forked call (its inputs are the values the body captures from the enclosing
// graph, in order of first use).
//
// The graph is stored as an attribute named "Subgraph" whose IValue is a Capsule wrapping the
// shared_ptr<Graph>, so copies of the node (Graph::copy, createClone) share the subgraph: subgraphs are
// not modified after the emitter builds them (the runtime optimizes a copy). The printer shows such a
// node as "prim::fork_0(...)" followed, after the graph, by "with prim::fork_0 = graph(...)" (PyTorch's
// format).
#pragma once
#include <memory>

#include "ir/ir.h"

namespace kindling {

/// Attaches `g` as n's subgraph (replacing any).
void setSubgraph(Node* n, std::shared_ptr<Graph> g);
/// n's subgraph, or nullptr.
std::shared_ptr<Graph> subgraphOf(const Node* n);
/// True for the attribute that holds the subgraph (printers skip it in the attribute list).
bool isSubgraphAttribute(const Node* n, const std::string& name);

}  // namespace kindling
