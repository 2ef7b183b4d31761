// Peephole rewrites (see passes/canonicalize/peephole.h).
#include "passes/canonicalize/peephole.h"

#include <vector>

namespace kindling {

namespace {

// True for aten::eq / aten::ne with both inputs the same Value of type int, float or bool (the overloads
// eq.int / eq.float / eq.bool and their ne twins).
bool isSelfComparison(const Node* n, bool* isEq) {
  if (n->kind() == aten::eq) *isEq = true;
  else if (n->kind() == aten::ne) *isEq = false;
  else return false;
  if (!n->hasNamedInput("a") || !n->hasNamedInput("b") || n->namedInput("a") != n->namedInput("b")) return false;
  const TypePtr& t = n->namedInput("a")->type();
  if (!t) return false;
  return t->kind() == TypeKind::Int || t->kind() == TypeKind::Float || t->kind() == TypeKind::Bool;
}

void collect(Block* b, std::vector<std::pair<Node*, bool>>& out) {
  for (Node* n : *b) {
    for (Block* sub : n->blocks()) collect(sub, out);
    bool isEq = false;
    if (isSelfComparison(n, &isEq)) out.emplace_back(n, isEq);
  }
}

}  // namespace

size_t runPeephole(Graph& graph) {
  std::vector<std::pair<Node*, bool>> found;
  collect(graph.block(), found);
  for (auto& [n, isEq] : found) {
    WithInsertPoint guard(n);
    Value* c = graph.insertConstant(IValue(isEq), n->sourceRange());
    n->output()->replaceAllUsesWith(c);
    n->destroy();
  }
  return found.size();
}

}  // namespace kindling
