// The public C++ API behind include/kindling/kindling.h (libtorch's torch::jit look-alike): load an archive,
// call its methods with argument checking, set the thread count. Thin on purpose: it forwards to
// serialize/import_archive.h and runtime/module.h.
#pragma once
#include <string>
#include <vector>

#include "core/function_schema.h"
#include "core/ivalue.h"
#include "runtime/module.h"

namespace kindling {

namespace jit {
/// Loads a TorchScript archive written by torch.jit.save (or by Kindling): classes compiled from code/,
/// the module tree from data.pkl, every method reachable from the root compiled and optimized now (no
/// first-call cliff). Throws LoadError (bad file/archive/pickle) or CompileError (bad code/).
Module load(const std::string& path);
}  // namespace jit

/// Checks call arguments (without self) against a method's schema as TorchScript does before running it:
/// count (defaults fill missing trailing arguments) and types. Throws RuntimeError
/// "forward() expected argument 'x' to be Tensor but got int" /
/// "forward() expected at most 1 argument(s) but received 2 argument(s)". Returns the completed list.
/// `skipSelf`: the schema's first argument is `self` and is not part of args.
std::vector<IValue> checkArguments(const FunctionSchema& schema, std::vector<IValue> args, bool skipSelf);

/// Runs a module's method after checkArguments (the API's Module::forward goes through this).
IValue runMethodChecked(const Module& m, const std::string& method, std::vector<IValue> args);

/// Intra-op threads for kernels (OpenMP; oneDNN follows OpenMP). n >= 1; throws UsageError otherwise.
void set_num_threads(int n);
int get_num_threads();

}  // namespace kindling
