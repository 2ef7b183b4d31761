// Registry-wide queries used by tools (the `kindling ops` command). The registry itself is declared in
// ops/operator.h.
#pragma once
#include <string>
#include <vector>

namespace kindling {

/// Every registered operator's schema in PyTorch's syntax (FunctionSchema::str(), as
/// torch._C._jit_get_all_schemas() prints them), in registration order. Fills the global registry.
std::vector<std::string> allSchemaStrings();

}  // namespace kindling
