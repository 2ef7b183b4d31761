// Inliner (see passes/canonicalize/inliner.h).
#include "passes/canonicalize/inliner.h"

#include <unordered_map>

namespace kindling {

// Prepends `frame` to the inlined call stack of n and of every node in its blocks.
static void pushFrame(Node* n, const InlinedFrame& frame) {
  auto cs = std::make_shared<InlinedCallStack>();
  cs->push_back(frame);
  if (n->inlinedCallStack()) cs->insert(cs->end(), n->inlinedCallStack()->begin(), n->inlinedCallStack()->end());
  n->setInlinedCallStack(std::move(cs));
  for (Block* b : n->blocks())
    for (Node* m : *b) pushFrame(m, frame);
}

std::vector<Value*> inlineCallTo(Node* call, const Graph& callee, const std::string& calleeName) {
  Graph* g = call->owningGraph();
  size_t first = 0;
  if (call->kind() == prim::CallFunction && !call->inputs().empty() && call->input(0)->type() &&
      call->input(0)->type()->kind() == TypeKind::Function)
    first = 1;
  const auto& params = callee.inputs();
  if (call->inputs().size() - first != params.size())
    throw CompileError("cannot inline call: expected " + std::to_string(params.size()) + " arguments but got " +
                           std::to_string(call->inputs().size() - first),
                       call->sourceRange());
  std::unordered_map<const Value*, Value*> env;
  for (size_t i = 0; i < params.size(); ++i) env[params[i]] = call->input(first + i);
  auto map = [&](Value* v) -> Value* {
    auto it = env.find(v);
    if (it == env.end()) throw Error("inliner: value %" + v->debugName() + " used before definition");
    return it->second;
  };
  for (Node* n : *callee.block()) {
    Node* c = g->createClone(n, map, true);
    c->insertBefore(call);
    pushFrame(c, InlinedFrame{calleeName, call->sourceRange()});
    for (size_t i = 0; i < n->outputs().size(); ++i) env[n->outputs()[i]] = c->outputs()[i];
  }
  std::vector<Value*> results;
  for (Value* o : callee.outputs()) results.push_back(map(o));
  if (results.size() != call->outputs().size())
    throw CompileError("cannot inline call: output count mismatch", call->sourceRange());
  for (size_t i = 0; i < results.size(); ++i) {
    Value* out = call->outputs()[i];
    // As PyTorch's inlineCallTo: the inlined value takes the call output's type and name (values that are
    // arguments of the call keep theirs).
    if (results[i]->node()->kind() != prim::Param) results[i]->copyMetadata(out);
    out->replaceAllUsesWith(results[i]);
  }
  call->destroy();
  return results;
}

static Function* calledFunction(Node* n) {
  if (n->kind() == prim::CallFunction) return n->callee();
  if (n->kind() == prim::CallMethod) {
    if (n->inputs().empty() || !n->input(0)->type()) return nullptr;
    const ClassType* ct = n->input(0)->type()->cast<ClassType>();
    if (!ct || !n->hasAttribute("name")) return nullptr;
    return ct->findMethod(n->s("name"));
  }
  return nullptr;
}

static void inlineBlock(Block* b, const CalleeGraphFn& calleeGraph) {
  for (auto it = b->begin(); it != b->end();) {
    Node* n = *it++;
    if (n->kind() == prim::CallFunction || n->kind() == prim::CallMethod) {
      Function* fn = calledFunction(n);
      std::shared_ptr<Graph> cg = fn ? calleeGraph(fn) : nullptr;
      if (cg) {
        inlineCallTo(n, *cg, fn->qualname());
        continue;
      }
    }
    for (Block* sb : n->blocks()) inlineBlock(sb, calleeGraph);
  }
}

void inlineCalls(Graph& graph, const CalleeGraphFn& calleeGraph) { inlineBlock(graph.block(), calleeGraph); }

}  // namespace kindling
