// Dead code elimination (see passes/canonicalize/dead_code_elimination.h).
#include "passes/canonicalize/dead_code_elimination.h"

namespace kindling {

namespace {

// True when the value's only uses are by `ret` (a block's Return node) at position `offset`.
bool onlyUsedAsOutput(const Value* v, const Node* ret, size_t offset) {
  for (const Use& u : v->uses())
    if (u.user != ret || u.offset != offset) return false;
  return true;
}

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

bool pruneLoopCarried(Node* n) {
  bool changed = false;
  Block* body = n->blocks()[0];
  for (size_t i = n->outputs().size(); i-- > 0;) {
    Value* out = n->outputs()[i];
    Value* bin = body->inputs()[i + 1];
    if (out->hasUses()) continue;
    if (!onlyUsedAsOutput(bin, body->returnNode(), i + 1)) continue;
    // Drop output i, loop input i+2, body input i+1 and body output i+1.
    body->eraseOutput(i + 1);
    body->eraseInput(i + 1);
    n->removeInput(i + 2);
    n->eraseOutput(i);
    changed = true;
  }
  return changed;
}

bool runOnce(Block* block) {
  bool changed = false;
  for (Node* n = block->lastNode(); n != block->paramNode();) {
    Node* prev = n->prev();
    if (n->kind() == prim::If) changed |= pruneIfOutputs(n);
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
