// GraphFunction (see runtime/graph_function.h).
#include "runtime/graph_function.h"

#include "core/internal_error.h"
#include "ir/lint.h"
#include "ir/subgraph.h"
#include "passes/canonicalize/inliner.h"
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

std::shared_ptr<Graph> GraphFunction::buildOptimizedGraph() {
  ensureDefined();
  if (optimizing_) throw CompileError("recursive calls are not supported (in " + qualname_ + ")", SourceRange());
  optimizing_ = true;
  std::shared_ptr<Graph> copy;
  try {
    copy = graph_->copy();
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
  } catch (...) {
    optimizing_ = false;
    throw;
  }
  optimizing_ = false;
  return copy;
}

std::shared_ptr<Graph> GraphFunction::optimizedGraph() {
  std::lock_guard<std::recursive_mutex> g(mu_);
  if (!optimizedGraph_) optimizedGraph_ = buildOptimizedGraph();
  return optimizedGraph_;
}

std::shared_ptr<Graph> GraphFunction::optimizedGraphCopy() {
  std::lock_guard<std::recursive_mutex> g(mu_);
  return optimizedGraph_ ? optimizedGraph_->copy() : buildOptimizedGraph();
}

bool GraphFunction::hasOptimizedGraph() const {
  std::lock_guard<std::recursive_mutex> g(mu_);
  return optimizedGraph_ != nullptr;
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

// ---------------------------------------------------------------- CompileCheck

namespace {
constexpr size_t kCheckFailed = SIZE_MAX;
}

// One graph the check walks: a function's emitted graph or a fork body. Its edges are the calls inlining
// replaces (at the block level of the call) and its fork bodies (optimized as graphs of their own).
struct CompileCheck::Unit {
  struct Edge {
    const Graph* graph;
    size_t level;
    bool fork;
  };
  std::vector<Edge> edges;
  size_t localDepth = 0;
  enum class State { New, Open, Done } state = State::New;
  size_t depth = 0;  // inlined depth once Done (kCheckFailed: a cycle or a fork body too deep)
};

CompileCheck::CompileCheck() = default;
CompileCheck::~CompileCheck() = default;

CompileCheck::Unit& CompileCheck::unit(const Graph& g) {
  std::unique_ptr<Unit>& slot = units_[&g];
  if (slot) return *slot;
  auto u = std::make_unique<Unit>();
  u->localDepth = blockNestingDepth(g.block());
  std::vector<std::pair<const Block*, size_t>> work{{g.block(), 0}};
  while (!work.empty()) {
    auto [b, level] = work.back();
    work.pop_back();
    for (Node* n : *b) {
      if (n->kind() == prim::CallFunction || n->kind() == prim::CallMethod) {
        if (auto* gf = dynamic_cast<GraphFunction*>(inlinedCallee(n)))
          u->edges.push_back({gf->graph().get(), level, false});  // emits the callee, as inlining does
      }
      if (std::shared_ptr<Graph> sub = subgraphOf(n)) u->edges.push_back({sub.get(), 0, true});  // kept by n
      for (const Block* sb : n->blocks()) work.emplace_back(sb, level + 1);
    }
  }
  Unit& r = *u;
  units_[&g] = std::move(u);
  return r;
}

size_t CompileCheck::inlinedDepth(const Graph& root) {
  Unit& r = unit(root);
  if (r.state == Unit::State::Done) return r.depth;
  struct Frame {
    Unit* u;
    size_t next;
  };
  std::vector<Frame> stack{{&r, 0}};
  r.state = Unit::State::Open;
  r.depth = r.localDepth;
  auto combine = [](Unit& u, const Unit::Edge& e, size_t childDepth) {
    if (u.depth == kCheckFailed) return;
    if (childDepth == kCheckFailed || (e.fork && childDepth >= kMaxBlockNesting)) u.depth = kCheckFailed;
    else if (!e.fork) u.depth = std::max(u.depth, e.level + childDepth);
  };
  while (!stack.empty()) {
    Unit* u = stack.back().u;
    size_t i = stack.back().next;
    if (i == u->edges.size()) {
      u->state = Unit::State::Done;
      stack.pop_back();
      if (!stack.empty()) {
        Frame& parent = stack.back();
        combine(*parent.u, parent.u->edges[parent.next], u->depth);
        ++parent.next;
      }
      continue;
    }
    const Unit::Edge& e = u->edges[i];
    Unit& child = unit(*e.graph);
    if (child.state == Unit::State::New) {
      child.state = Unit::State::Open;
      child.depth = child.localDepth;
      stack.push_back({&child, 0});
      continue;
    }
    // Open: a cycle, which every function on the stack inlines.
    combine(*u, e, child.state == Unit::State::Done ? child.depth : kCheckFailed);
    ++stack.back().next;
  }
  return r.depth;
}

void CompileCheck::check(GraphFunction& f) {
  std::shared_ptr<Graph> g = f.graph();
  const size_t depth = inlinedDepth(*g);
  // Nesting is checked after inlining as depth > kMaxBlockNesting; a margin of one level costs nothing.
  if (depth == kCheckFailed || depth >= kMaxBlockNesting) {
    (void)f.optimizedGraphCopy();
    return;
  }
  // Verifying (ir/lint.h), the passes run and the code is built anyway: every pass stays verified at
  // load, and a compile error the walk missed is a Kindling bug.
  if (graphVerificationEnabled()) {
    try {
      Code code(f.optimizedGraphCopy(), f.qualname());
    } catch (const CompileError& e) {
      throw InternalError("CompileCheck passed " + f.qualname() + ", but compiling it raises: " + e.what());
    }
  }
}

}  // namespace kindling
