// GraphFunction (see runtime/graph_function.h).
#include "runtime/graph_function.h"

#include "ir/subgraph.h"
#include "passes/pipeline.h"
#include "runtime/interpreter.h"

namespace kindling {

GraphFunction::GraphFunction(std::string qualname, std::shared_ptr<Graph> graph,
                             std::function<void(GraphFunction&)> creator)
    : qualname_(std::move(qualname)), graph_(std::move(graph)), creator_(std::move(creator)) {
  auto dot = qualname_.find_last_of('.');
  name_ = dot == std::string::npos ? qualname_ : qualname_.substr(dot + 1);
  if (!graph_) graph_ = std::make_shared<Graph>();
  defined_ = creator_ == nullptr;
}

GraphFunction::~GraphFunction() = default;

static std::string stripSuffix(const std::string& n) {
  auto dot = n.find_last_of('.');
  if (dot == std::string::npos || dot + 1 == n.size()) return n;
  for (size_t i = dot + 1; i < n.size(); ++i)
    if (n[i] < '0' || n[i] > '9') return n;
  return n.substr(0, dot);
}

const FunctionSchema& GraphFunction::getSchema() const {
  if (schema_) return *schema_;  // set at definition (CompilationUnit::defineFunction): no lock needed
  std::lock_guard<std::recursive_mutex> g(mu_);
  if (!schema_) {
    auto s = std::make_unique<FunctionSchema>();
    s->name = qualname_;
    for (Value* v : graph_->inputs()) {
      Argument a;
      a.name = v->hasDebugName() ? stripSuffix(v->debugName()) : "";
      a.type = v->type() ? v->type() : TensorType();
      s->arguments.push_back(std::move(a));
    }
    for (Value* v : graph_->outputs()) {
      Argument a;
      a.type = v->type() ? v->type() : TensorType();
      s->returns.push_back(std::move(a));
    }
    schema_ = std::move(s);
  }
  return *schema_;
}

void GraphFunction::ensureDefined() {
  if (defined_.load(std::memory_order_acquire)) return;
  std::lock_guard<std::recursive_mutex> g(mu_);
  if (defined_.load(std::memory_order_relaxed)) return;
  if (defining_) throw CompileError("recursive calls are not supported (in " + qualname_ + ")", SourceRange());
  defining_ = true;
  try {
    creator_(*this);
    runCleanupPasses(*graph_);  // as PyTorch after emission: print(fn.graph) shows the cleaned graph
  } catch (...) {
    defining_ = false;
    // Start again from an empty graph if the body is requested again.
    graph_ = std::make_shared<Graph>();
    throw;
  }
  defining_ = false;
  defined_.store(true, std::memory_order_release);
}

std::shared_ptr<Graph> GraphFunction::graph() {
  ensureDefined();
  return graph_;
}

namespace {
// The bodies of fork()ed calls (ir/subgraph.h) get the same passes as the graph holding them; each node
// gets an optimized copy (the emitted graph keeps the original).
void optimizeForkSubgraphs(Block& b, const PassContext& ctx) {
  for (Node* n : b) {
    for (Block* sb : n->blocks()) optimizeForkSubgraphs(*sb, ctx);
    if (std::shared_ptr<Graph> sub = subgraphOf(n)) {
      std::shared_ptr<Graph> opt = sub->copy();
      runInferencePasses(*opt, ctx);
      optimizeForkSubgraphs(*opt->block(), ctx);
      setSubgraph(n, std::move(opt));
    }
  }
}
}  // namespace

std::shared_ptr<Graph> GraphFunction::optimizedGraph() {
  std::lock_guard<std::recursive_mutex> g(mu_);
  if (optimizedGraph_) return optimizedGraph_;
  ensureDefined();
  if (optimizing_) throw CompileError("recursive calls are not supported (in " + qualname_ + ")", SourceRange());
  optimizing_ = true;
  try {
    std::shared_ptr<Graph> copy = graph_->copy();
    PassContext ctx;
    // Callees are inlined from their emitted graphs (calls inside them are inlined in turn), so optimizing
    // one function builds no other function's optimized graph: a chain of N calls costs O(N), not the
    // N optimized graphs of sizes N, N-1, ... that inlining optimized callees built, and no recursion.
    ctx.calleeGraph = [this](Function* f) -> std::shared_ptr<Graph> {
      auto* gf = dynamic_cast<GraphFunction*>(f);
      if (!gf) return nullptr;
      if (gf == this) throw CompileError("recursive calls are not supported (in " + qualname_ + ")", SourceRange());
      return gf->graph();
    };
    runInferencePasses(*copy, ctx);
    optimizeForkSubgraphs(*copy->block(), ctx);
    optimizedGraph_ = std::move(copy);
  } catch (...) {
    optimizing_ = false;
    throw;
  }
  optimizing_ = false;
  return optimizedGraph_;
}

void GraphFunction::setOptimizedGraph(std::shared_ptr<Graph> g) {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  optimizedGraph_ = std::move(g);
  code_.reset();
  codePtr_.store(nullptr, std::memory_order_release);
}

Code& GraphFunction::code() {
  if (Code* c = codePtr_.load(std::memory_order_acquire)) return *c;
  std::lock_guard<std::recursive_mutex> g(mu_);
  if (!code_) {
    std::shared_ptr<Graph> og = optimizedGraph();
    code_ = std::make_unique<Code>(og, qualname_);
    codePtr_.store(code_.get(), std::memory_order_release);
  }
  return *code_;
}

void GraphFunction::invalidate() {
  std::lock_guard<std::recursive_mutex> g(mu_);
  codePtr_.store(nullptr, std::memory_order_release);
  code_.reset();
  optimizedGraph_.reset();
}

void GraphFunction::run(Stack& stack) { code().run(stack); }

}  // namespace kindling
