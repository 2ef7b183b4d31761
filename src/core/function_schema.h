// FunctionSchema: the signature of an operator or TorchScript function, as PyTorch writes it:
//   "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"
// Parsed by ops/registry/schema_parser.h; printed by str() in exactly PyTorch's syntax (torch._C._jit_get_all_schemas()).
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/ivalue.h"
#include "core/type.h"

namespace kindling {

/// Alias annotation of an argument: "Tensor(a!)" → set {"a"}, isWrite; "Tensor(a)" → view of a.
struct AliasInfo {
  std::vector<std::string> beforeSets;
  std::vector<std::string> afterSets;   // for "(a -> *)"
  bool isWrite = false;
  std::vector<AliasInfo> containedTypes;  // "Tensor(a)[]"
};

struct Argument {
  std::string name;
  TypePtr type;
  /// The type as spelled in the schema when it differs from `type` (PyTorch's real_type): only
  /// "SymInt" ("SymInt[]", "SymInt?"), whose `type` is int. Used for printing; null otherwise.
  TypePtr realType;
  /// Fixed list length: "int[2] stride" → 2. An int broadcasts to the list ("stride=1" → [1, 1]).
  std::optional<int32_t> N;
  std::optional<IValue> defaultValue;
  bool kwargOnly = false;
  std::optional<AliasInfo> aliasInfo;
  /// The argument as PyTorch prints it in a schema: "int[2] stride=[1, 1]".
  std::string str() const;
};

struct FunctionSchema {
  std::string name;            // "aten::add"
  std::string overloadName;    // "Tensor" (may be empty)
  std::vector<Argument> arguments;
  std::vector<Argument> returns;
  bool isVarArg = false;       // "..." in arguments
  bool isVarRet = false;       // "..." in returns

  /// "aten::add.Tensor" or "aten::add" when the overload name is empty.
  std::string qualifiedName() const { return overloadName.empty() ? name : name + "." + overloadName; }
  /// Full schema in PyTorch's syntax.
  std::string str() const;
  /// Index of an argument by name, or -1.
  int argumentIndex(const std::string& n) const;
  /// True if any argument is written in place (alias annotation with '!').
  bool isMutable() const;
};

}  // namespace kindling
