// Internal helpers behind the public C++ API (include/kindling/, implemented in api/public_*.cpp) and the
// CLI: argument checking against a schema as TorchScript does before a call (positional and keyword
// arguments, defaults, int → float), and the process-wide thread setting.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "core/function_schema.h"
#include "core/ivalue.h"
#include "runtime/module.h"
#include "serialize/export_archive.h"  // ExtraFilesMap, for the API's users

namespace kindling {

/// Does v fit type t? May convert it (int → float, containers retagged to t's element types, as
/// TorchScript converts Python values at a call); returns false when it does not fit.
bool coerceToType(IValue& v, const TypePtr& t);

/// Checks call arguments (without self) against a method's schema as TorchScript does before running it:
/// count (defaults fill missing trailing arguments) and types. Throws RuntimeError
/// "forward() expected argument 'x' to be Tensor but got int" /
/// "forward() expected at most 1 argument(s) but received 2 argument(s)". Returns the completed list.
/// `skipSelf`: the schema's first argument is `self` and is not part of args.
std::vector<IValue> checkArguments(const FunctionSchema& schema, std::vector<IValue> args, bool skipSelf);

/// checkArguments with keyword arguments: each (name, value) fills the schema argument of that name
/// (keyword-only ones included) after the positional ones. RuntimeError for an unknown name, a name
/// given twice, or a keyword for an argument already passed positionally.
std::vector<IValue> bindArguments(const FunctionSchema& schema, std::vector<IValue> args,
                                  const std::vector<std::pair<std::string, IValue>>& kwargs, bool skipSelf);

/// Runs a module's method after bindArguments (the public Module::forward goes through this).
IValue runMethodChecked(const Module& m, const std::string& method, std::vector<IValue> args,
                        const std::vector<std::pair<std::string, IValue>>& kwargs = {});

/// Intra-op threads for kernels (OpenMP; oneDNN follows OpenMP). n >= 1; throws UsageError otherwise.
void set_num_threads(int n);
int get_num_threads();

}  // namespace kindling
