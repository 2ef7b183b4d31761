// A Graph as a Graphviz picture (the DOT language), for `kindling graph --format dot|svg|png`.
//
// One box per operator node (its kind, e.g. "aten::conv2d", with its attributes), one edge per use of a
// value (labelled "%name : Type"), the graph's inputs and its return as ellipses. The blocks of
// prim::If / prim::Loop (and other nodes with blocks) are clusters inside which their nodes sit; a
// block's inputs and outputs are small "param" / "return" points in its cluster, and the block's return
// feeds the node that owns the block (dashed). Module scopes are labels: a value reached from `self` by
// prim::GetAttr is named by its attribute path ("self.layer1.0.conv1") on the GetAttr and on the
// prim::CallMethod that calls it, with the submodule's class.
#pragma once
#include <string>

#include "ir/ir.h"

namespace kindling {

/// The DOT text of `graph`, titled `name` ("forward"). Deterministic: the same graph gives the same text.
std::string graphToDot(const Graph& graph, const std::string& name);

}  // namespace kindling
