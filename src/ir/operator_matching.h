// Operator matching on IR types: which registered overload of a node kind ("aten::add") accepts the
// node's input types and produces its output count. Used by the IR parser (textual graphs name only the
// kind) and by the interpreter for nodes the frontend left unresolved. The frontend does full schema
// matching (defaults, implicit conversions); this is the simpler check on already-complete argument lists.
#pragma once
#include <vector>

#include "core/type.h"
#include "ops/registry/operator.h"

namespace kindling {

class Node;

/// True if a value of type `actual` may be passed where a schema argument of type `formal` is expected:
/// subtyping, plus Number accepting int/float/bool, ScalarType/Layout/MemoryFormat accepting int, type
/// variables and Any accepting everything, None/T accepted by T?.
bool argumentTypeMatches(const TypePtr& actual, const TypePtr& formal);

/// The first overload (registration order) of `kind` in `registry` whose arguments match `inputs`
/// (count and types; `...` varargs accept any extra inputs) and whose return count equals numOutputs
/// (`...` returns accept any). nullptr when none matches or the kind is unknown.
const Operator* matchOperator(const OperatorRegistry& registry, const std::string& kind,
                              const std::vector<TypePtr>& inputs, size_t numOutputs);

/// matchOperator on a node's kind, input types and output count, using the global registry.
const Operator* matchOperator(const Node* node);

}  // namespace kindling
