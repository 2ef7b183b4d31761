// Scalar canonicalization of binary arithmetic (see passes/canonicalize/canonicalize_ops.h).
#include "passes/canonicalize/canonicalize_ops.h"

#include <vector>

#include "ir/operator_matching.h"
#include "tensor/tensor.h"

namespace kindling {

namespace {

// The overloads PyTorch rewrites, by qualified name, with the input count of each.
bool isCandidate(const Node* n) {
  const FunctionSchema* s = n->schema();
  if (!s) return false;
  const std::string q = s->qualifiedName();
  if (q == "aten::add.Tensor" || q == "aten::sub.Tensor") return n->inputs().size() == 3;
  if (q == "aten::mul.Tensor" || q == "aten::div.Tensor") return n->inputs().size() == 2;
  return false;
}

// The constant scalar a 0-dim tensor constant stands for, or nothing when `v` is not one.
std::optional<IValue> zeroDimScalar(const Value* v) {
  if (v->node()->kind() != prim::Constant) return std::nullopt;
  std::optional<IValue> c = v->constantValue();
  if (!c || !c->isTensor()) return std::nullopt;
  const Tensor& t = c->toTensor();
  if (!t.defined() || t.dim() != 0) return std::nullopt;
  if (t.scalar_type() == ScalarType::Bool) return std::nullopt;
  Scalar s = t.item();
  if (s.isIntegral()) return IValue(s.toLong());
  if (s.isFloatingPoint()) return IValue(s.toDouble());
  return std::nullopt;
}

void collect(Block* b, std::vector<Node*>& out) {
  for (Node* n : *b) {
    for (Block* sub : n->blocks()) collect(sub, out);
    if (isCandidate(n)) out.push_back(n);
  }
}

}  // namespace

size_t canonicalizeScalarOperands(Graph& graph) {
  std::vector<Node*> candidates;
  collect(graph.block(), candidates);
  size_t rewritten = 0;
  for (Node* n : candidates) {
    std::optional<IValue> scalar = zeroDimScalar(n->input(1));
    if (!scalar) continue;
    WithInsertPoint guard(n);
    Value* c = graph.insertConstant(*scalar, n->input(1)->node()->sourceRange());
    std::vector<Value*> inputs = n->inputs();
    inputs[1] = c;
    Node* repl = graph.create(n->kind(), inputs, 1);
    repl->setSourceRange(n->sourceRange());
    repl->setInlinedCallStack(n->inlinedCallStack());
    graph.insertNode(repl);
    repl->output()->setType(n->output()->type());
    const Operator* op = matchOperator(repl);
    if (!op) {  // no `.Scalar` overload registered: keep the Tensor form (DCE drops the constant)
      repl->destroy();
      continue;
    }
    repl->setOp(op);
    repl->output()->copyMetadata(n->output());
    n->output()->replaceAllUsesWith(repl->output());
    n->destroy();
    ++rewritten;
  }
  return rewritten;
}

}  // namespace kindling
