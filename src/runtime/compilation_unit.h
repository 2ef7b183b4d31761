// CompilationUnit: owns the compiled Functions and the class types of one program or archive
// (torch::jit::CompilationUnit). Qualified names are unique within it.
#pragma once
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/function.h"
#include "core/type.h"
#include "frontend/compilation_target.h"
#include "runtime/graph_function.h"

namespace kindling {

class CompilationUnit : public CompilationTarget {
 public:
  // CompilationTarget
  Function* defineFunction(const std::string& qualname, FunctionSchema schema,
                           std::function<void(Graph& graph)> emitBody) override;
  Function* findFunction(const std::string& qualname) const override { return findGraphFunction(qualname); }
  void addType(TypePtr type) override;  // ClassType, EnumType, named TupleType
  TypePtr findType(const std::string& qualname) const override;

  /// Takes ownership; throws Error on a duplicate qualified name.
  GraphFunction* addFunction(std::unique_ptr<GraphFunction> fn);
  GraphFunction* findGraphFunction(const std::string& qualname) const;
  const std::vector<std::unique_ptr<GraphFunction>>& functions() const { return functions_; }

  ClassTypePtr findClass(const std::string& qualname) const;
  const std::vector<TypePtr>& types() const { return typeOrder_; }

 private:
  std::vector<std::unique_ptr<GraphFunction>> functions_;
  std::unordered_map<std::string, GraphFunction*> functionIndex_;
  std::unordered_map<std::string, TypePtr> types_;
  std::vector<TypePtr> typeOrder_;
};

}  // namespace kindling
