// Inliner (see passes/canonicalize/inliner.h).
#include "passes/canonicalize/inliner.h"

#include <unordered_map>

namespace kindling {

namespace {
// Gives cloned callee nodes their inlined call stacks: the callee's own stack of the node (calls inlined
// inside the callee, innermost first) continued by the new frame and then by the call node's stack.
// A node without a stack of its own gets one shared new head; stacks of their own are rebuilt once each
// on top of it (and share the rebuilt parts).
class FramePusher {
 public:
  FramePusher(InlinedFrame frame, const std::shared_ptr<const InlinedCallStack>& callerStack)
      : base_(std::make_shared<InlinedCallStack>(std::move(frame), callerStack)) {}
  // n and every node in its blocks (iteratively: block nesting is the callee's).
  void push(Node* n) {
    std::vector<Node*> work{n};
    while (!work.empty()) {
      Node* m = work.back();
      work.pop_back();
      m->setInlinedCallStack(stackFor(m->inlinedCallStack()));
      for (Block* b : m->blocks())
        for (Node* c : *b) work.push_back(c);
    }
  }

 private:
  std::shared_ptr<const InlinedCallStack> stackFor(const std::shared_ptr<const InlinedCallStack>& own) {
    // The frames of `own` from the innermost out to the first one already rebuilt (or the end).
    std::vector<const InlinedCallStack*> chain;
    std::shared_ptr<const InlinedCallStack> tail = base_;
    for (const InlinedCallStack* s = own.get(); s; s = s->caller.get()) {
      auto it = rebuilt_.find(s);
      if (it != rebuilt_.end()) { tail = it->second; break; }
      chain.push_back(s);
    }
    for (size_t i = chain.size(); i-- > 0;) {
      tail = std::make_shared<InlinedCallStack>(chain[i]->frame, tail);
      rebuilt_.emplace(chain[i], tail);
    }
    return tail;
  }
  std::shared_ptr<const InlinedCallStack> base_;
  // Keys stay alive: the callee graph keeps its nodes' stacks while it is being inlined.
  std::unordered_map<const InlinedCallStack*, std::shared_ptr<const InlinedCallStack>> rebuilt_;
};
}  // namespace

std::vector<Value*> inlineCallTo(Node* call, const Graph& callee, const std::string& calleeName,
                                 const Function* calleeFunction) {
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
  FramePusher frames(InlinedFrame{calleeName, call->sourceRange(), calleeFunction}, call->inlinedCallStack());
  for (Node* n : *callee.block()) {
    Node* c = g->createClone(n, map, true);
    c->insertBefore(call);
    frames.push(c);
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

Function* inlinedCallee(const Node* n) {
  if (n->kind() == prim::CallFunction) return n->callee();
  if (n->kind() == prim::CallMethod) {
    if (n->inputs().empty() || !n->input(0)->type()) return nullptr;
    const ClassType* ct = n->input(0)->type()->cast<ClassType>();
    if (!ct || !n->hasAttribute("name")) return nullptr;
    return ct->findMethod(n->s("name"));
  }
  return nullptr;
}

// A call of a function that the call is already inside (through inlining) would inline forever.
static void checkNotRecursive(const Node* call, const Function* fn) {
  for (const InlinedCallStack* s = call->inlinedCallStack().get(); s; s = s->caller.get())
    if (s->frame.function == fn)
      throw CompileError("recursive calls are not supported (in " + fn->qualname() + ")", call->sourceRange());
}

// Iterative over blocks, and the nodes a call is replaced by are visited in turn, so calls inside an
// inlined body are inlined too (a callee graph may still hold calls).
static void inlineBlock(Block* top, const CalleeGraphFn& calleeGraph) {
  std::vector<Block*> blocks{top};
  while (!blocks.empty()) {
    Block* b = blocks.back();
    blocks.pop_back();
    for (auto it = b->begin(); it != b->end();) {
      Node* n = *it++;
      if (n->kind() == prim::CallFunction || n->kind() == prim::CallMethod) {
        Function* fn = inlinedCallee(n);
        std::shared_ptr<Graph> cg = fn ? calleeGraph(fn) : nullptr;
        if (cg) {
          checkNotRecursive(n, fn);
          Node* before = n->prev();
          inlineCallTo(n, *cg, fn->qualname(), fn);
          it = Block::iterator(before->next());
          continue;
        }
      }
      for (Block* sb : n->blocks()) blocks.push_back(sb);
    }
  }
}

void inlineCalls(Graph& graph, const CalleeGraphFn& calleeGraph) { inlineBlock(graph.block(), calleeGraph); }

}  // namespace kindling
