// The torch.nn.functional library: how `F.<name>` resolves, as PyTorch 1.13 resolves it.
//
// PyTorch has three kinds of F functions, and so do we:
//   - aliases of aten builtins (F.conv2d is torch.conv2d, F.linear is torch._C._nn.linear, F.logsigmoid is
//     aten::log_sigmoid, ...): the call binds to the aten operator directly (functionalBuiltinName);
//   - Python functions that TorchScript compiles from torch/nn/functional.py (F.relu, F.softmax,
//     F.layer_norm, F.interpolate, F.dropout, F.normalize, ...): Kindling compiles TorchScript bodies of
//     its own with the same signatures and values (src/frontend/library/torch/nn/functional.py, embedded at
//     build time: frontend/library_sources.h), as
//     functions "__torch__.torch.nn.functional.<name>" of the program's compilation target, compiled on
//     first use; the call is a prim::CallFunction as in PyTorch's graph;
//   - boolean_dispatch functions (F.max_pool2d, F.adaptive_max_pool2d, ...): a constant `return_indices`
//     picks the `<name>_with_indices` function or the `_<name>` one at compile time.
// torch/functional.py's compiled functions (torch.unique, unique_consecutive, norm, tensordot, cdist) are a
// second library, "__torch__.torch.functional.<name>", resolved by torchFunctionalCall (boolean dispatch on
// return_inverse/return_counts for unique; the overload of norm/tensordot picked by argument types, the later
// overloads in mangled namespaces as PyTorch compiles them).
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "frontend/compilation_target.h"

namespace kindling {

class OperatorRegistry;

/// Qualified-name prefix of the library's functions (as PyTorch names them in graphs and archives).
extern const char* const kFunctionalPrefix;  // "__torch__.torch.nn.functional"

extern const char* const kTorchFunctionalPrefix;  // "__torch__.torch.functional"

/// True when `qualName` is a function of one of the embedded libraries (compiled on demand, so a program's
/// eager compilation skips them).
bool isLibraryQualifiedName(const std::string& qualName);

/// True when `name` (unqualified) is a function the embedded torch.nn.functional library defines.
bool isFunctionalLibraryFunction(const std::string& name);

/// The library function `qualName` ("__torch__.torch.nn.functional.relu", "__torch__.torch.functional.norm")
/// in `target`, compiling its library unit into the target on first use. nullptr when no library defines it.
Function* functionalLibraryFunction(CompilationTarget& target, const std::string& qualName,
                                    const OperatorRegistry* registry);

/// For boolean_dispatch functions: {index of `return_indices` in the signature, function when true,
/// function when false}. nullopt for other names.
struct BooleanDispatch {
  size_t argIndex;
  std::string ifTrue, ifFalse;
};
std::optional<BooleanDispatch> functionalBooleanDispatch(const std::string& name);

/// torch.<name> functions that PyTorch compiles from torch/functional.py (unique, unique_consecutive, norm,
/// tensordot, cdist).
bool isTorchFunctionalName(const std::string& name);

/// The torch/functional.py function a call of torch.<name> binds to, from the call's arguments:
/// unique/unique_consecutive by the constant return_inverse/return_counts flags (a non-constant flag is a
/// CompileError, as in PyTorch), norm by the types of p (str or number) and dim (int or list), tensordot by
/// the type of dims. Returns the qualified name ("__torch__.torch.functional._return_counts").
/// `argTypes`/`kwargs` describe the call: positional argument types, and keyword names with their types;
/// `flag(name, index)` reads a bool argument given by keyword `name` or at position `index`: -1 when the call
/// does not pass it, 0/1 for a constant, 2 when it is not a constant.
struct CallShape {
  std::vector<TypePtr> positional;
  std::vector<std::pair<std::string, TypePtr>> keywords;
  std::function<int(const std::string& name, size_t index)> flag;
};
std::string torchFunctionalTarget(const std::string& name, const CallShape& call);

/// The aten operator F.<name> is an alias of ("aten::log_sigmoid" for "logsigmoid"), or "" when F.<name>
/// is not a builtin alias.
std::string functionalBuiltinName(const std::string& name);

}  // namespace kindling
