// IR parser: reads the textual graph format that Graph::toString() prints (and PyTorch prints) back into
// a Graph — used by pass and interpreter tests (graph-in / graph-out text files).
//
//   graph(%x.1 : Tensor, %n : int):
//     %c : int = prim::Constant[value=1]()
//     %y : Tensor = aten::add(%x.1, %x.1, %c) # f.py:3:4      (trailing "# ..." comments are ignored)
//     %r : Tensor = prim::If(%b)
//       block0():
//         -> (%y)
//       block1():
//         -> (%x.1)
//     return (%r)
//
// Types use the graph spelling (Tensor, int[], Tensor?, (int, float), Dict(str, int), NoneType, Device,
// Function) or the annotation spelling (List[int], Optional[Tensor], Tuple[int, float], Dict[str, int]);
// tensor types with shapes ("Float(2, 3, strides=[3, 1], ...)") read as Tensor. Other names (class types)
// go to `resolveType`. A value without a type is a Tensor. Values named by a number ("%5") get no debug
// name (they print with their own number). prim::Constant values are converted to the output's type (1 →
// True for bool, 1 → 1.0 for float, "cpu" → Device). Operator nodes (any kind except the structural prims
// the interpreter implements itself) are resolved with matchOperator (ir/operator_matching.h) on their
// input types and output count; unresolved ones keep op() == nullptr.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "ir/ir.h"

namespace kindling {

struct IRParserOptions {
  /// Resolves a class (or other named) type by qualified name; nullptr → parse error.
  std::function<TypePtr(const std::string&)> resolveType;
  /// Resolves `prim::Constant[name="f"]()` of type Function to the function (for prim::CallFunction).
  std::function<Function*(const std::string&)> resolveFunction;
  /// Resolve operator nodes against the global registry (default true).
  bool resolveOperators = true;
};

/// Parses `text` into `graph` (which must be empty). Throws Error with the line and column on bad input.
void parseIR(const std::string& text, Graph& graph, const IRParserOptions& options = {});
std::shared_ptr<Graph> parseIR(const std::string& text, const IRParserOptions& options = {});

/// Parses one type in graph or annotation spelling ("int[]", "Tensor?", "Dict(str, int)", "List[int]").
TypePtr parseIRType(const std::string& text, const std::function<TypePtr(const std::string&)>& resolveType = nullptr);

/// True for node kinds the interpreter implements itself (never resolved to a registry operator):
/// prim::Constant, If, Loop, GetAttr, SetAttr, CallMethod, CallFunction, Tuple*/List*/DictConstruct,
/// CreateObject, Uninitialized, unchecked_cast, isinstance, Enter, Exit, Param, Return.
bool isStructuralKind(Symbol kind);

}  // namespace kindling
