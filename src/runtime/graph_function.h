// GraphFunction: a TorchScript function or method compiled to a Graph. On first run (or eagerly via
// ensureOptimized(), which load() calls) the graph goes through the inference passes and is compiled
// to interpreter Code; later calls run the Code directly.
#pragma once
#include <memory>
#include <mutex>
#include <string>

#include "core/function.h"
#include "ir/ir.h"

namespace kindling {

class Code;  // runtime/interpreter.h

class GraphFunction : public Function {
 public:
  /// `graph` may be filled later (functions are created before their bodies are emitted, so that
  /// recursive references between methods resolve); `creator` emits the body on demand.
  GraphFunction(std::string qualname, std::shared_ptr<Graph> graph, std::function<void(GraphFunction&)> creator = nullptr);
  ~GraphFunction() override;
  const std::string& qualname() const override { return qualname_; }
  const std::string& name() const override { return name_; }
  const FunctionSchema& getSchema() const override;
  void setSchema(FunctionSchema s) { schema_ = std::make_unique<FunctionSchema>(std::move(s)); }
  void run(Stack& stack) override;

  /// The graph as emitted (before optimization); emits the body first if needed.
  std::shared_ptr<Graph> graph();
  /// Emits the body if it has not been emitted yet (compile errors surface here).
  void ensureDefined();
  /// Runs the inference passes and compiles the interpreter Code (idempotent, thread-safe).
  Code& code();
  /// The graph the interpreter runs (after passes).
  std::shared_ptr<Graph> optimizedGraph();

 private:
  std::string qualname_;
  std::string name_;
  std::shared_ptr<Graph> graph_;
  std::shared_ptr<Graph> optimizedGraph_;
  std::function<void(GraphFunction&)> creator_;
  std::unique_ptr<FunctionSchema> schema_;
  std::unique_ptr<Code> code_;
  std::once_flag codeOnce_;
  bool defining_ = false;  // recursion detection
};

}  // namespace kindling
