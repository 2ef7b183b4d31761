// Helpers for runtime tests that write graphs in the IR text format.
#pragma once
#include <string>
#include <unordered_map>

#include "ir/irparser.h"

namespace kindling::testing {

/// The classes and functions an IR text may name (`%x : __torch__.M`, `prim::Constant[name="f"]`), by
/// name; parseIR finds them through options().
struct IRNames {
  std::unordered_map<std::string, TypePtr> types;
  std::unordered_map<std::string, Function*> functions;
  IRParserOptions options() {
    IRParserOptions o;
    o.resolveType = [this](const std::string& n) -> TypePtr {
      auto it = types.find(n);
      return it == types.end() ? nullptr : it->second;
    };
    o.resolveFunction = [this](const std::string& n) -> Function* {
      auto it = functions.find(n);
      return it == functions.end() ? nullptr : it->second;
    };
    return o;
  }
};

}  // namespace kindling::testing
