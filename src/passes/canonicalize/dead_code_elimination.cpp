// Dead code elimination (see passes/canonicalize/dead_code_elimination.h).
#include "passes/canonicalize/dead_code_elimination.h"

#include <algorithm>
#include <vector>

namespace kindling {

namespace {

bool pruneIfOutputs(Node* n) {
  bool changed = false;
  for (size_t i = n->outputs().size(); i-- > 0;) {
    if (n->outputs()[i]->hasUses()) continue;
    for (Block* b : n->blocks()) b->eraseOutput(i);
    n->eraseOutput(i);
    changed = true;
  }
  return changed;
}

bool runOnce(Block* block);

// True when everything computed from `v` inside the loop body only flows back into the body's output
// `offset` (so the carried value is dead if the loop's matching output is unused): the transitive users
// are side-effect-free nodes without blocks, and the only Return reached is the body's, at `offset`.
bool onlyFeedsItself(Value* v, const Node* ret, size_t offset) {
  std::vector<Value*> work{v};
  std::vector<const Node*> seen;
  while (!work.empty()) {
    Value* x = work.back();
    work.pop_back();
    for (const Use& u : x->uses()) {
      if (u.user == ret) {
        if (u.offset != offset) return false;
        continue;
      }
      if (u.user->kind() == prim::Return || !u.user->blocks().empty() || u.user->hasSideEffects()) return false;
      if (u.user->owningBlock() != ret->owningBlock()) return false;
      if (std::find(seen.begin(), seen.end(), u.user) != seen.end()) continue;
      seen.push_back(u.user);
      for (Value* o : u.user->outputs()) work.push_back(o);
    }
  }
  return true;
}

bool pruneLoopCarried(Node* n) {
  bool changed = false;
  Block* body = n->blocks()[0];
  for (size_t i = n->outputs().size(); i-- > 0;) {
    Value* out = n->outputs()[i];
    Value* bin = body->inputs()[i + 1];
    if (out->hasUses()) continue;
    if (!onlyFeedsItself(bin, body->returnNode(), i + 1)) continue;
    // Drop body output i+1, output i, loop input i+2; then the computation feeding it; then body input i+1.
    body->eraseOutput(i + 1);
    n->eraseOutput(i);
    n->removeInput(i + 2);
    while (runOnce(body)) {
    }
    if (bin->hasUses()) throw Error("dead code elimination: carried loop value still used after pruning");
    body->eraseInput(i + 1);
    changed = true;
  }
  return changed;
}

bool runOnce(Block* block) {
  bool changed = false;
  for (Node* n = block->lastNode(); n != block->paramNode();) {
    Node* prev = n->prev();
    if (n->kind() == prim::If || n->kind() == prim::Try) changed |= pruneIfOutputs(n);
    if (n->kind() == prim::Loop && n->blocks().size() == 1 && n->inputs().size() >= 2) changed |= pruneLoopCarried(n);
    for (Block* b : n->blocks()) changed |= runOnce(b);
    bool used = false;
    for (Value* v : n->outputs())
      if (v->hasUses()) { used = true; break; }
    if (!used && !n->hasSideEffects()) {
      n->destroy();
      changed = true;
    }
    n = prev;
  }
  return changed;
}

}  // namespace

void eliminateDeadCode(Block* block) {
  while (runOnce(block)) {
  }
}

void eliminateDeadCode(Graph& graph) { eliminateDeadCode(graph.block()); }

}  // namespace kindling
