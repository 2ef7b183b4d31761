// The torch.nn.functional library: how `F.<name>` resolves, as PyTorch 1.13 resolves it.
//
// PyTorch has three kinds of F functions, and so do we:
//   - aliases of aten builtins (F.conv2d is torch.conv2d, F.linear is torch._C._nn.linear, F.logsigmoid is
//     aten::log_sigmoid, ...): the call binds to the aten operator directly (functionalBuiltinName);
//   - Python functions that TorchScript compiles from torch/nn/functional.py (F.relu, F.softmax,
//     F.layer_norm, F.interpolate, F.dropout, F.normalize, ...): Kindling compiles TorchScript bodies of
//     its own with the same signatures and values (the embedded source in functional_library.cpp), as
//     functions "__torch__.torch.nn.functional.<name>" of the program's compilation target, compiled on
//     first use; the call is a prim::CallFunction as in PyTorch's graph;
//   - boolean_dispatch functions (F.max_pool2d, F.adaptive_max_pool2d, ...): a constant `return_indices`
//     picks the `<name>_with_indices` function or the `_<name>` one at compile time.
#pragma once
#include <optional>
#include <string>

#include "frontend/compilation_target.h"

namespace kindling {

class OperatorRegistry;

/// Qualified-name prefix of the library's functions (as PyTorch names them in graphs and archives).
extern const char* const kFunctionalPrefix;  // "__torch__.torch.nn.functional"

/// True when `name` (unqualified) is a function the embedded library defines.
bool isFunctionalLibraryFunction(const std::string& name);

/// The library function `qualName` ("__torch__.torch.nn.functional.relu") in `target`, compiling the
/// library into the target on first use. nullptr when the library does not define it.
Function* functionalLibraryFunction(CompilationTarget& target, const std::string& qualName,
                                    const OperatorRegistry* registry);

/// For boolean_dispatch functions: {index of `return_indices` in the signature, function when true,
/// function when false}. nullopt for other names.
struct BooleanDispatch {
  size_t argIndex;
  std::string ifTrue, ifFalse;
};
std::optional<BooleanDispatch> functionalBooleanDispatch(const std::string& name);

/// The aten operator F.<name> is an alias of ("aten::log_sigmoid" for "logsigmoid"), or "" when F.<name>
/// is not a builtin alias.
std::string functionalBuiltinName(const std::string& name);

/// The embedded TorchScript source of the library (for tests and `kindling code`-style inspection).
const std::string& functionalLibrarySource();

}  // namespace kindling
