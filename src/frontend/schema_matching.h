// Schema matching: binds the arguments of a call to one overload of an operator or function, as
// PyTorch's torch/csrc/jit/frontend/schema_matching.cpp does:
//   - positional arguments first, then keywords by name, then defaults (inserted as prim::Constant);
//     `self` (for method-style calls `x.add(y)`) binds the schema argument named "self";
//   - type variables (`t`, `t1`) are bound consistently across arguments and substituted in returns;
//   - a single int/float is broadcast to a fixed-size list argument (`int[2] stride` accepts `1`);
//   - a homogeneous tuple converts to a list argument; trailing positional arguments pack into a
//     final non-broadcast list argument (`x.view(1, -1)`, `x.permute(0, 2, 1)`);
//   - an empty list literal takes the list type the argument expects;
//   - with PyTorch's implicit conversions (second pass): Tensor → int/float/Scalar via aten::IntImplicit/
//     FloatImplicit/ScalarImplicit, Scalar → int/float via aten::Int/aten::Float, str → Device via
//     aten::device. No int → float conversion (TorchScript has none).
//   - with Python's conversions (third pass, Kindling's extension; PyTorch 1.13 rejects these calls): a bool
//     where an int or float is expected, via aten::Int/aten::Float, as Python's bool is an int (True + 1 == 2).
//     Never a bool as a Scalar: the number would change a result's dtype (torch.full([2], True) is a bool
//     tensor in Python), so such a call stays an error as in PyTorch.
//     Tensors are not converted in that pass: True + x would otherwise be aten::add.int on IntImplicit(x).
//   - overloads are tried in registration order at each level in turn; the first match wins, so an overload
//     taking bools (prim::max(bool[]) for max(a, b)) is chosen before any bool is converted.
// Nodes created while trying an overload that then fails are removed again.
// Errors follow PyTorch's text: "Expected a value of type 'float' for argument 'p' but instead found
// type 'int'." and, for several overloads, "Arguments for call are not valid.\nThe following variants
// are available:\n ... The original call is".
#pragma once
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/function_schema.h"
#include "ir/ir.h"
#include "ops/registry/operator.h"

namespace kindling {

/// How far matching may convert an argument (see the header comment): matchSchemas tries every overload
/// at each level in this order.
enum class Conversions {
  None,      ///< subtypes only
  Implicit,  ///< PyTorch's implicit conversions, and trailing positional arguments packed into a list
  Python,    ///< also bool → int/float
  /// matchSchemas' third pass: Python's, except that a Tensor is never converted to a number there (True + x
  /// is PyTorch's error, not int arithmetic on x.item())
  PythonArguments,
};

/// One argument of a call: its value, the keyword name ("" when positional) and its source range.
struct NamedValue {
  NamedValue() = default;
  NamedValue(SourceRange l, Value* v) : loc(std::move(l)), value(v) {}
  NamedValue(SourceRange l, std::string n, Value* v) : loc(std::move(l)), name(std::move(n)), value(v) {}
  /// An empty list literal `[]` passed directly as an argument: value is null and matching creates the
  /// list with the element type the argument expects (List[Tensor] otherwise), as PyTorch's
  /// EmptyListLiteral.
  static NamedValue emptyList(SourceRange l, std::string n = "") {
    NamedValue v(std::move(l), std::move(n), nullptr);
    v.emptyListLiteral = true;
    return v;
  }
  SourceRange loc;
  std::string name;
  Value* value = nullptr;
  bool emptyListLiteral = false;
};

struct MatchedSchema {
  std::vector<Value*> inputs;        // one per schema argument (plus varargs), in schema order
  std::vector<TypePtr> returnTypes;  // with type variables substituted
};

/// Tries one schema. On failure returns nullopt and, when `failures` is set, writes PyTorch's reason.
std::optional<MatchedSchema> tryMatchSchema(const FunctionSchema& schema, const SourceRange& loc, Graph& graph,
                                            const std::vector<NamedValue>& args,
                                            const std::vector<NamedValue>& kwargs,
                                            std::optional<NamedValue> self, std::ostream* failures,
                                            Conversions conversions, const OperatorRegistry& registry);

/// Picks the first matching schema (index into `schemas`) or throws CompileError listing every variant.
std::pair<size_t, MatchedSchema> matchSchemas(const std::vector<const FunctionSchema*>& schemas,
                                              const SourceRange& loc, Graph& graph,
                                              const std::vector<NamedValue>& args,
                                              const std::vector<NamedValue>& kwargs,
                                              const std::optional<NamedValue>& self,
                                              const OperatorRegistry& registry);

/// Converts `value` towards `concrete` where TorchScript converts implicitly, as far as `conversions`
/// allows (see the header comment); returns `value` unchanged when no conversion applies. Does not check
/// the result's type. Assignments, returns and literals with a declared type use Conversions::Python.
Value* tryConvertToType(const SourceRange& loc, Graph& graph, const TypePtr& concrete, Value* value,
                        Conversions conversions, const OperatorRegistry& registry);

/// Emits a call of the builtin operator `name` ("aten::add"): matches the overloads, inserts the node
/// (kind = the schema's name, inputs = every schema argument, setOp = the chosen Operator, typed outputs)
/// and returns its outputs. Throws CompileError for an unknown operator or when no overload matches.
std::vector<Value*> emitBuiltinCall(const SourceRange& loc, Graph& graph, const std::string& name,
                                    const std::vector<NamedValue>& args, const std::vector<NamedValue>& kwargs,
                                    const std::optional<NamedValue>& self, const OperatorRegistry& registry);

/// True if `name` ("aten::foo") has at least one registered overload.
bool isBuiltinOperator(const std::string& name, const OperatorRegistry& registry);

/// Type variables bound during matching (name → type).
using TypeEnv = std::vector<std::pair<std::string, TypePtr>>;
/// Substitutes bound type variables in `t`; nullptr if some variable is unbound.
TypePtr evalTypeVariables(const TypePtr& t, const TypeEnv& env);

}  // namespace kindling
