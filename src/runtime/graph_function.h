// GraphFunction: a TorchScript function or method compiled to a Graph. On first run (or eagerly via
// code(), which load() calls for the methods it expects to run) the graph goes through the inference
// passes (passes/pipeline.h: calls to other GraphFunctions are inlined) and is compiled to interpreter
// Code; later calls run the Code directly (one atomic load on the fast path). CompileCheck raises what
// compiling would raise without building the optimized graph or the Code, for the functions a load
// checks but does not compile (their optimized graphs would hold every callee inlined once more).
//
// Bodies are emitted lazily by the creator callback (functions are declared before their bodies so
// methods can call each other in any order). A body that needs itself while being emitted, or a call
// cycle found while inlining, is reported as CompileError "recursive calls are not supported"
// (TorchScript has no recursion). All lazy steps are thread-safe.
#pragma once
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "core/function.h"
#include "ir/ir.h"

namespace kindling {

class Code;  // runtime/interpreter.h

class GraphFunction : public Function {
 public:
  /// `graph` may be filled later (functions are created before their bodies are emitted, so that
  /// recursive references between methods resolve); `creator` emits the body on demand. When `graph` is
  /// null an empty Graph is created for the creator to fill.
  GraphFunction(std::string qualname, std::shared_ptr<Graph> graph, std::function<void(GraphFunction&)> creator = nullptr);
  ~GraphFunction() override;
  const std::string& qualname() const override { return qualname_; }
  const std::string& name() const override { return name_; }
  /// The schema set with setSchema, or one derived from the graph's inputs/outputs (argument names from
  /// the inputs' debug names without ".N" suffixes).
  const FunctionSchema& getSchema() const override;
  void setSchema(FunctionSchema s) { schema_ = std::make_unique<FunctionSchema>(std::move(s)); }
  /// Runs the compiled code (compiling it first if needed). Arguments (self first for methods) are on
  /// the stack; the single return value is pushed.
  void run(Stack& stack) override;

  /// The graph as emitted (before optimization); emits the body first if needed.
  std::shared_ptr<Graph> graph();
  /// The graph without triggering emission (for creators filling it in).
  const std::shared_ptr<Graph>& graphUnchecked() const { return graph_; }
  /// Emits the body if it has not been emitted yet (compile errors surface here).
  void ensureDefined();
  bool isDefined() const { return defined_.load(std::memory_order_acquire); }
  /// Runs the inference passes and compiles the interpreter Code (idempotent, thread-safe).
  Code& code();
  /// The graph the interpreter runs (after passes; calls to GraphFunctions inlined).
  std::shared_ptr<Graph> optimizedGraph();
  /// A graph after the inference passes for the caller to modify (Module::freezeMethod specializes it):
  /// a copy of the optimized graph when that is built, else one built for the caller alone and not kept,
  /// so a method only ever run frozen never holds its unfrozen optimized graph.
  std::shared_ptr<Graph> optimizedGraphCopy();
  /// True once the optimized graph is built (and kept).
  bool hasOptimizedGraph() const;
  /// Uses `g` as the optimized graph as it is, without the inference passes: for graphs that already went
  /// through them and through further specialization (Module::freezeMethod). Running the passes again
  /// would treat frozen attributes as constants of the source (see passes/canonicalize/canonicalize_ops.h).
  void setOptimizedGraph(std::shared_ptr<Graph> g);
  /// Drops the optimized graph and code (e.g. after the module's methods changed); next run recompiles.
  void invalidate();

 private:
  std::shared_ptr<Graph> buildOptimizedGraph();  // with mu_ held
  std::string qualname_;
  std::string name_;
  std::shared_ptr<Graph> graph_;
  std::shared_ptr<Graph> optimizedGraph_;
  std::function<void(GraphFunction&)> creator_;
  mutable std::unique_ptr<FunctionSchema> schema_;
  std::unique_ptr<Code> code_;
  std::atomic<Code*> codePtr_{nullptr};
  mutable std::recursive_mutex mu_;
  std::atomic<bool> defined_{false};
  bool defining_ = false;    // recursion detection while emitting
  bool optimizing_ = false;  // recursion detection while inlining
};

/// Raises what GraphFunction::code() would raise for a function whose body is emitted — a call cycle
/// met while inlining ("recursive calls are not supported"), blocks nesting too deep once calls are
/// inlined — without building its optimized graph: a walk over the emitted graphs of the calls it
/// reaches (callees are emitted on the way, as inlining emits them), each function's once per check.
/// Where the walk finds a cycle or a nesting near the bound, the optimized graph is built (and dropped)
/// so the error is exactly the one compiling raises. The rest of compiling (passes over well-formed
/// emitted graphs, the interpreter's code) raises nothing for graphs the frontend emitted.
class CompileCheck {
 public:
  CompileCheck();
  ~CompileCheck();
  /// Emits `f`'s body if needed (its CompileError propagates), then checks it as above.
  void check(GraphFunction& f);

 private:
  struct Unit;
  Unit& unit(const Graph& g);
  // Inlined nesting depth of `g` (its calls inlined), or SIZE_MAX where the walk met a cycle or a fork
  // body nesting too deep.
  size_t inlinedDepth(const Graph& g);
  std::unordered_map<const Graph*, std::unique_ptr<Unit>> units_;
};

}  // namespace kindling
