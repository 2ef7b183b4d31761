// Test helpers for the frontend: a CompilationTarget that keeps compiled graphs (bodies emitted on first
// graph() call, as the runtime's CompilationUnit does), and an operator registry holding every PyTorch
// 1.13 schema (tests/unit/data/ops/jit_schemas_1_13.txt) so that emission can be tested independently of
// which kernels exist. The kernels of this registry are never run: they throw if called.
#pragma once
#include <fstream>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "frontend/compilation_target.h"
#include "ops/registry/operator.h"

namespace kindling {
namespace testing {

class TestFunction : public Function {
 public:
  TestFunction(std::string qualname, FunctionSchema schema, std::function<void(Graph&)> body)
      : qualname_(std::move(qualname)), schema_(std::move(schema)), body_(std::move(body)) {
    size_t dot = qualname_.rfind('.');
    name_ = dot == std::string::npos ? qualname_ : qualname_.substr(dot + 1);
  }
  const std::string& qualname() const override { return qualname_; }
  const std::string& name() const override { return name_; }
  const FunctionSchema& getSchema() const override { return schema_; }
  void run(Stack&) override { throw RuntimeError("TestFunction cannot run"); }
  std::shared_ptr<Graph> graph() {
    if (!graph_) {
      if (defining_) throw CompileError("recursive call of " + qualname_, SourceRange());
      defining_ = true;
      auto g = std::make_shared<Graph>();
      body_(*g);
      graph_ = g;
      defining_ = false;
    }
    return graph_;
  }
 private:
  std::string qualname_, name_;
  FunctionSchema schema_;
  std::function<void(Graph&)> body_;
  std::shared_ptr<Graph> graph_;
  bool defining_ = false;
};

class TestTarget : public CompilationTarget {
 public:
  Function* defineFunction(const std::string& qualname, FunctionSchema schema,
                           std::function<void(Graph& graph)> emitBody) override {
    if (fns_.count(qualname)) throw Error("duplicate function " + qualname);
    auto f = std::make_unique<TestFunction>(qualname, std::move(schema), std::move(emitBody));
    TestFunction* p = f.get();
    fns_[qualname] = std::move(f);
    order_.push_back(p);
    return p;
  }
  Function* findFunction(const std::string& qualname) const override {
    auto it = fns_.find(qualname);
    return it == fns_.end() ? nullptr : it->second.get();
  }
  void addType(TypePtr type) override {
    std::string n = type->annotationStr();  // the qualified name of classes and enums
    if (auto* t = type->cast<TupleType>()) n = t->qualName().value_or(n);
    types_[n] = type;
  }
  TypePtr findType(const std::string& qualname) const override {
    auto it = types_.find(qualname);
    return it == types_.end() ? nullptr : it->second;
  }
  TestFunction* get(const std::string& qualname) const {
    auto it = fns_.find(qualname);
    return it == fns_.end() ? nullptr : it->second.get();
  }
  const std::vector<TestFunction*>& functions() const { return order_; }
  size_t numTypes() const { return types_.size(); }
 private:
  std::unordered_map<std::string, std::unique_ptr<TestFunction>> fns_;
  std::vector<TestFunction*> order_;
  std::unordered_map<std::string, TypePtr> types_;
};

inline void notRunnable(Stack&) { throw RuntimeError("schema-only test operator"); }

/// A registry with every 1.13 schema (loaded once).
inline const OperatorRegistry& allSchemasRegistry() {
  static OperatorRegistry* reg = [] {
    auto* r = new OperatorRegistry();
    std::ifstream in(std::string(KINDLING_TEST_DATA_DIR) + "/ops/jit_schemas_1_13.txt");
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      try {
        r->add(line, &notRunnable);
      } catch (const Error&) {
        // duplicate names in the dump are skipped
      }
    }
    return r;
  }();
  return *reg;
}

}  // namespace testing
}  // namespace kindling
