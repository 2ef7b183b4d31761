// torch.jit.fork in the emitter (see frontend/emitter/fork.h).
#include "frontend/emitter/fork.h"

#include <unordered_map>
#include <unordered_set>

#include "frontend/ir_emitter.h"
#include "ir/subgraph.h"

namespace kindling {

const ExprPtr& ClosureValue::returnedExpr(const SourceRange& use) const {
  if (!def->params.empty() || def->body.size() != 1 || def->body[0]->kind != StmtKind::Return ||
      !def->body[0]->as<ReturnStmt>().value)
    throw CompileError("nested functions are only supported as fork() closures without parameters whose body is "
                       "one `return <expression>`",
                       def->range.valid() ? def->range : use);
  return def->body[0]->as<ReturnStmt>().value;
}

namespace {

bool isInside(const Node* n, const Node* owner) {
  for (const Block* b = n->owningBlock(); b; b = b->owningNode() ? b->owningNode()->owningBlock() : nullptr)
    if (b->owningNode() == owner) return true;
  return false;
}

// Values used in `b` (recursively) but defined outside `owner`, in order of first use.
void collectCaptures(const Block* b, const Node* owner, std::vector<Value*>& out, std::unordered_set<Value*>& seen) {
  auto consider = [&](Value* v) {
    const Node* def = v->node();
    bool inside = def == owner || isInside(def, owner);
    if (!inside && seen.insert(v).second) out.push_back(v);
  };
  for (Node* n : *b) {
    for (Value* v : n->inputs()) consider(v);
    for (const Block* sb : n->blocks()) collectCaptures(sb, owner, out, seen);
  }
  for (Value* v : b->outputs()) consider(v);
}

}  // namespace

SugaredValuePtr emitFork(FunctionEmitter& m, const SourceRange& loc, const std::function<Value*()>& emitCall) {
  Graph& g = m.graph();
  Node* fork = g.insert(prim::fork, {}, 1);
  fork->setSourceRange(loc);
  Block* body = fork->addBlock();
  Value* result = nullptr;
  {
    WithInsertPoint guard(body);
    result = emitCall();
    body->registerOutput(result);
  }
  TypePtr resultType = result->type();

  // Lift the block into its own graph: captured values become the graph's inputs and the node's inputs.
  std::vector<Value*> captures;
  std::unordered_set<Value*> seen;
  collectCaptures(body, fork, captures, seen);
  auto sub = std::make_shared<Graph>();
  std::unordered_map<Value*, Value*> toSub;
  for (Value* v : captures) {
    Value* in = sub->addInput();
    in->setType(v->type());
    if (v->hasDebugName()) in->setDebugName(v->debugName());
    toSub[v] = in;
  }
  std::unordered_map<Value*, Value*> env(toSub);
  auto mapValue = [&](Value* v) -> Value* {
    auto it = env.find(v);
    if (it == env.end()) throw InternalError("fork: value %" + v->debugName() + " is not captured by the forked body at " + loc.location());
    return it->second;
  };
  {
    WithInsertPoint guard(sub->block());
    for (Node* n : *body) {
      Node* c = sub->createClone(n, mapValue, true);
      sub->insertNode(c);
      for (size_t i = 0; i < n->outputs().size(); ++i) env[n->output(i)] = c->output(i);
    }
  }
  for (Value* o : body->outputs()) sub->registerOutput(mapValue(o));
  fork->eraseBlock(0);
  for (Value* v : captures) fork->addInput(v);
  setSubgraph(fork, std::move(sub));
  fork->output()->setType(FutureType::create(resultType));
  return std::make_shared<SimpleValue>(fork->output());
}

}  // namespace kindling
