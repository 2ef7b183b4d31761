// The graph verifier (see ir/lint.h for the rules).
#include "ir/lint.h"

#include <cstdint>

#include <atomic>
#include <cstdlib>
#include <unordered_map>
#include <unordered_set>

#include "core/internal_error.h"
#include "ir/ir.h"
#include "ir/operator_matching.h"
#include "ir/printer.h"
#include "ir/subgraph.h"

namespace kindling {

namespace {

std::atomic<bool>& verificationFlag() {
  static std::atomic<bool> flag{[] {
    const char* v = std::getenv("KINDLING_VERIFY");
    return v != nullptr && *v != '\0' && std::string(v) != "0";
  }()};
  return flag;
}

std::string typeStr(const Value* v) { return v->type() ? v->type()->str() : std::string("<no type>"); }

// The node's own line (without nested blocks) as the graph printer shows it.
std::string nodeLine(const Node* n) {
  std::string s = nodeToString(n, 0, /*printSourceLocations=*/false);
  size_t nl = s.find('\n');
  if (nl != std::string::npos) s.resize(nl);
  return s;
}

class Linter {
 public:
  Linter(const Graph& g, size_t numBlocks, bool checkOperators = true)
      : g_(g), numBlocks_(numBlocks), checkOperators_(checkOperators) {}

  void run() {
    checkBlock(g_.block(), nullptr);
    if (nodesSeen_ != g_.numNodes())
      fail(nullptr, "dangling", fmt::format("the graph owns {} nodes but {} are reachable from its top block (a node "
                                            "was created and never inserted, or removed without being destroyed)",
                                            g_.numNodes(), nodesSeen_));
    if (numBlocks_ != SIZE_MAX && blocksSeen_ != numBlocks_)
      fail(nullptr, "dangling", fmt::format("the graph owns {} blocks but {} are reachable from its top block",
                                            numBlocks_, blocksSeen_));
    // Use lists, checked once every node is known: each use must point at a live node whose input it is.
    for (const Value* v : allValues_) {
      for (const Use& u : v->uses()) {
        if (!liveNodes_.count(u.user))
          fail(v->node(), "uses", fmt::format("output %{} has a use by a node that is not in the graph", v->debugName()));
        if (u.offset >= u.user->inputs().size() || u.user->inputs()[u.offset] != v)
          fail(u.user, "uses", fmt::format("%{} lists a use as input {} of this node, which does not read it there",
                                           v->debugName(), u.offset));
      }
    }
  }

 private:
  [[noreturn]] void fail(const Node* n, const char* rule, const std::string& what) const {
    std::string msg = fmt::format("graph lint [{}]: {}", rule, what);
    if (n) msg += "\n  node: " + nodeLine(n);
    throw InternalError(msg);
  }

  void define(const Value* v) {
    inScope_.insert(v);
    allValues_.push_back(v);
  }

  void checkUse(const Node* user, const Value* v, const std::string& where) {
    if (v == nullptr) fail(user, "uses", where + " is null");
    if (!inScope_.count(v)) {
      if (!definedAnywhere_.count(v))
        fail(user, "ssa", fmt::format("{} (%{}) is used before it is defined (or is not defined in this graph)", where,
                                      v->debugName()));
      fail(user, "ssa", fmt::format("{} (%{}) is defined in a block that does not enclose this use", where,
                                    v->debugName()));
    }
  }

  void checkUseListEntry(const Node* n, size_t i) {
    const Value* v = n->inputs()[i];
    size_t count = 0;
    for (const Use& u : v->uses())
      if (u.user == n && u.offset == i) ++count;
    if (count != 1)
      fail(n, "uses", fmt::format("input {} (%{}) appears {} times in that value's use list (expected once)", i,
                                  v->debugName(), count));
  }

  void checkOutputs(const Node* n) {
    for (size_t i = 0; i < n->outputs().size(); ++i) {
      const Value* v = n->outputs()[i];
      if (v->node() != n || v->offset() != i)
        fail(n, "value", fmt::format("output {} (%{}) records node {} offset {}", i, v->debugName(),
                                     v->node() ? v->node()->kind().toQualString() : std::string("null"), v->offset()));
      if (!v->type()) fail(n, "value", fmt::format("output {} (%{}) has no type", i, v->debugName()));
    }
  }

  void checkBlock(const Block* b, const Node* owner) {
    if (b->owningGraph() != &g_) fail(owner, "structure", "a block of this node belongs to another graph");
    if (b->owningNode() != owner) fail(owner, "structure", "a block of this node records another owning node");
    const Node* param = b->paramNode();
    const Node* ret = b->returnNode();
    if (param->kind() != prim::Param || !param->inputs().empty() || param->prev() != nullptr ||
        param->owningBlock() != b)
      fail(owner, "structure", "a block does not start with its prim::Param node (no inputs)");
    if (ret->kind() != prim::Return || !ret->outputs().empty() || ret->next() != nullptr || ret->owningBlock() != b)
      fail(owner, "structure", "a block does not end with its prim::Return node (no outputs)");
    ++blocksSeen_;
    markLive(param);
    checkOutputs(param);
    std::vector<const Value*> scoped;  // defined in this block: leave scope at its end
    for (const Value* v : b->inputs()) {
      define(v);
      definedAnywhere_.insert(v);
      scoped.push_back(v);
    }
    const Node* prev = param;
    for (const Node* n = param->next(); n != ret; n = n->next()) {
      if (n == nullptr) fail(owner, "structure", "a block's node list ends before its prim::Return node");
      if (n->prev() != prev) fail(n, "structure", "the node's prev link does not point at the node before it");
      if (n->owningBlock() != b) fail(n, "structure", "the node records another owning block");
      if (n->owningGraph() != &g_) fail(n, "structure", "the node belongs to another graph");
      if (n->kind() == prim::Param || n->kind() == prim::Return)
        fail(n, "structure", "a prim::Param or prim::Return node in the middle of a block");
      if (!prev->isBefore(n)) fail(n, "structure", "topological positions are not increasing here");
      markLive(n);
      for (size_t i = 0; i < n->inputs().size(); ++i) {
        checkUse(n, n->inputs()[i], fmt::format("input {}", i));
        checkUseListEntry(n, i);
      }
      checkOutputs(n);
      checkBlocksShape(n);
      for (const Block* sb : n->blocks()) checkBlock(sb, n);
      if (checkOperators_) checkOperator(n);
      if (std::shared_ptr<Graph> sub = subgraphOf(n)) {
        try {
          sub->lint();
        } catch (const InternalError& e) {
          fail(n, "subgraph", e.detail());
        }
      }
      for (const Value* v : n->outputs()) {
        define(v);
        definedAnywhere_.insert(v);
        scoped.push_back(v);
      }
      prev = n;
    }
    if (ret->prev() != prev) fail(owner, "structure", "a block's prim::Return node's prev link is wrong");
    markLive(ret);
    for (size_t i = 0; i < ret->inputs().size(); ++i) {
      checkUse(owner ? owner : ret, ret->inputs()[i], fmt::format("block output {}", i));
      checkUseListEntry(ret, i);
    }
    for (const Value* v : scoped) inScope_.erase(v);
  }

  void markLive(const Node* n) {
    if (!liveNodes_.insert(n).second) fail(n, "structure", "the node is reached twice");
    ++nodesSeen_;
  }

  void expectSubtype(const Node* n, const Value* v, const Value* of, const std::string& what) {
    if (!v->type() || !of->type() || !v->type()->isSubtypeOf(of->type()))
      fail(n, "block", fmt::format("{} (%{} : {}) is not a subtype of %{} : {}", what, v->debugName(), typeStr(v),
                                   of->debugName(), typeStr(of)));
  }

  void checkBlocksShape(const Node* n) {
    const Symbol k = n->kind();
    const auto& blocks = n->blocks();
    if (k == prim::If) {
      if (blocks.size() != 2) fail(n, "block", fmt::format("prim::If has {} blocks (expected 2)", blocks.size()));
      if (n->inputs().size() != 1) fail(n, "block", fmt::format("prim::If has {} inputs (expected the condition)", n->inputs().size()));
      if (!n->input(0)->type() || n->input(0)->type()->kind() != TypeKind::Bool)
        fail(n, "block", "prim::If's condition is a " + typeStr(n->input(0)) + ", not a bool");
      for (size_t bi = 0; bi < 2; ++bi) {
        const Block* b = blocks[bi];
        if (!b->inputs().empty()) fail(n, "block", fmt::format("prim::If's block{} has inputs", bi));
        if (b->outputs().size() != n->outputs().size())
          fail(n, "block", fmt::format("prim::If's block{} has {} outputs, the node {}", bi, b->outputs().size(),
                                       n->outputs().size()));
        for (size_t i = 0; i < b->outputs().size(); ++i)
          expectSubtype(n, b->outputs()[i], n->outputs()[i], fmt::format("block{} output {}", bi, i));
      }
      return;
    }
    if (k == prim::Loop) {
      if (blocks.size() != 1) fail(n, "block", fmt::format("prim::Loop has {} blocks (expected 1)", blocks.size()));
      if (n->inputs().size() < 2)
        fail(n, "block", "prim::Loop needs inputs (max trip count, condition, carried...)");
      const Block* b = blocks[0];
      const size_t carried = n->inputs().size() - 2;
      if (n->outputs().size() != carried)
        fail(n, "block", fmt::format("prim::Loop carries {} values but has {} outputs", carried, n->outputs().size()));
      if (b->inputs().size() != carried + 1)
        fail(n, "block", fmt::format("prim::Loop's block has {} inputs (expected the iteration and {} carried)",
                                     b->inputs().size(), carried));
      if (b->outputs().size() != carried + 1)
        fail(n, "block", fmt::format("prim::Loop's block has {} outputs (expected the condition and {} carried)",
                                     b->outputs().size(), carried));
      auto isKind = [](const Value* v, TypeKind kind) { return v->type() && v->type()->kind() == kind; };
      if (!isKind(n->input(0), TypeKind::Int)) fail(n, "block", "prim::Loop's max trip count is a " + typeStr(n->input(0)));
      if (!isKind(n->input(1), TypeKind::Bool)) fail(n, "block", "prim::Loop's condition is a " + typeStr(n->input(1)));
      if (!isKind(b->inputs()[0], TypeKind::Int)) fail(n, "block", "prim::Loop's iteration input is a " + typeStr(b->inputs()[0]));
      if (!isKind(b->outputs()[0], TypeKind::Bool))
        fail(n, "block", "prim::Loop's block condition output is a " + typeStr(b->outputs()[0]));
      for (size_t i = 0; i < carried; ++i) {
        const Value* out = n->outputs()[i];
        expectSubtype(n, n->inputs()[i + 2], out, fmt::format("carried input {}", i));
        expectSubtype(n, b->inputs()[i + 1], out, fmt::format("carried block input {}", i));
        expectSubtype(n, b->outputs()[i + 1], out, fmt::format("carried block output {}", i));
      }
      return;
    }
    if (k == prim::Try) {
      if (blocks.size() != 2) fail(n, "block", fmt::format("prim::Try has {} blocks (expected 2)", blocks.size()));
      if (!blocks[0]->inputs().empty()) fail(n, "block", "prim::Try's body block has inputs");
      if (blocks[1]->inputs().size() != 3)
        fail(n, "block", "prim::Try's handler block needs 3 inputs (class, message, text)");
      for (size_t bi = 0; bi < 2; ++bi)
        if (blocks[bi]->outputs().size() != n->outputs().size())
          fail(n, "block", fmt::format("prim::Try's block{} has {} outputs, the node {}", bi,
                                       blocks[bi]->outputs().size(), n->outputs().size()));
      return;
    }
    if (!blocks.empty())
      fail(n, "block", fmt::format("{} nodes have no blocks (this one has {})", k.toQualString(), blocks.size()));
  }

  void checkOperator(const Node* n) {
    const Operator* op = n->op();
    if (!op) {
      if (n->kind().isAten())
        fail(n, "unbound", fmt::format("{} is not bound to a registered operator", n->kind().toQualString()));
      return;
    }
    const FunctionSchema& s = op->schema;
    if (s.name != n->kind().toQualString())
      fail(n, "unbound", fmt::format("the node is bound to {}, an operator of another kind", s.qualifiedName()));
    const size_t nIn = n->inputs().size();
    if (s.isVarArg ? nIn < s.arguments.size() : nIn != s.arguments.size())
      fail(n, "schema", fmt::format("{} inputs for {} ({} arguments{}): {}", nIn, s.qualifiedName(), s.arguments.size(),
                                    s.isVarArg ? " and more" : "", s.str()));
    for (size_t i = 0; i < s.arguments.size(); ++i) {
      const Value* v = n->input(i);
      if (!argumentTypeMatches(v->type(), s.arguments[i].type))
        fail(n, "schema", fmt::format("input {} (%{} : {}) does not match argument '{}' of type {} of {}", i,
                                      v->debugName(), typeStr(v), s.arguments[i].name,
                                      s.arguments[i].type ? s.arguments[i].type->str() : std::string("?"), s.str()));
    }
    if (!s.isVarRet && n->outputs().size() != s.returns.size())
      fail(n, "schema", fmt::format("{} outputs for {}, whose schema returns {}: {}", n->outputs().size(),
                                    s.qualifiedName(), s.returns.size(), s.str()));
  }

  const Graph& g_;
  std::unordered_set<const Value*> inScope_;
  std::unordered_set<const Value*> definedAnywhere_;
  std::unordered_set<const Node*> liveNodes_;
  std::vector<const Value*> allValues_;
  size_t numBlocks_;
  size_t nodesSeen_ = 0;
  size_t blocksSeen_ = 0;
  bool checkOperators_ = true;
};

}  // namespace

void Graph::lint() const { Linter(*this, allBlocks_.size()).run(); }

void lintWithoutOperators(const Graph& graph) { Linter(graph, SIZE_MAX, false).run(); }

bool graphVerificationEnabled() { return verificationFlag().load(std::memory_order_relaxed); }

void setGraphVerification(bool on) { verificationFlag().store(on, std::memory_order_relaxed); }

void verifyGraph(const Graph& graph, const char* what) {
  if (!graphVerificationEnabled()) return;
  try {
    graph.lint();
  } catch (const InternalError& e) {
    throw InternalError(fmt::format("after {}: {}\n  in graph:\n{}", what, e.detail(), graph.toString(false)));
  }
}

}  // namespace kindling
