// CompilationTarget: where the frontend puts what it compiles — functions and types by qualified name.
// The runtime's CompilationUnit implements it; the frontend sees only this interface, so the frontend
// layer stays below the runtime (DESIGN.md layers).
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "core/function.h"
#include "core/type.h"
#include "ir/ir.h"

namespace kindling {

class CompilationTarget {
 public:
  virtual ~CompilationTarget() = default;
  /// Declares a function whose schema is known now and whose body `emitBody` fills into a graph on
  /// first use (so methods can call each other in any order). Throws Error on a duplicate name.
  /// Recursion (a body that needs itself while being emitted) is reported as a CompileError.
  virtual Function* defineFunction(const std::string& qualname, FunctionSchema schema,
                                   std::function<void(Graph& graph)> emitBody) = 0;
  virtual Function* findFunction(const std::string& qualname) const = 0;
  virtual void addType(TypePtr type) = 0;
  virtual TypePtr findType(const std::string& qualname) const = 0;
};

}  // namespace kindling
