// Parameter defaults that are not literal constants — `x: Tensor = torch.ones(2)`, `n: int = 2 * 3`,
// `d: torch.dtype = torch.float32` — evaluated once when the function is defined, as Python evaluates
// them when the `def` runs (PyTorch 1.13 takes the value Python computed; the archive stores a Tensor
// default as a constant, CONSTANTS.c<N>). The expression is emitted into a scratch graph and that graph,
// which must be straight-line code of constants, list/tuple construction and operators, is run here node
// by node through the operators' kernels.
#include "frontend/ir_emitter.h"

#include <unordered_map>

#include "core/ivalue.h"
#include "frontend/emitter/environment.h"

namespace kindling {

using namespace emitter;

Value* FunctionEmitter::emitStandaloneExpr(const ExprPtr& e, const TypePtr& typeHint) {
  env_ = std::make_shared<Environment>(graph_.block(), nullptr);
  return emitExpr(e, typeHint);
}

IValue evalDefaultExpr(const ExprPtr& e, const TypePtr& type, const EmitContext& ctx) {
  try {
    return evalConstantExpr(e, type);
  } catch (const CompileError&) {
  }
  Graph scratch;
  FunctionEmitter em(scratch, ctx);
  Value* out = em.emitStandaloneExpr(e, type);
  std::unordered_map<const Value*, IValue> values;
  auto fail = [&](const std::string& what) -> IValue {
    throw CompileError("a default value must be a constant or an expression of constants and operators (" + what +
                           " cannot be evaluated when the function is defined)",
                       e->range);
  };
  for (Node* n : *scratch.block()) {
    if (n->kind() == prim::Constant) {
      values[n->output()] = *n->output()->constantValue();
      continue;
    }
    if (!n->blocks().empty()) return fail(n->kind().toQualString());
    std::vector<IValue> in;
    for (Value* v : n->inputs()) {
      auto it = values.find(v);
      if (it == values.end()) return fail(n->kind().toQualString());
      in.push_back(it->second);
    }
    if (n->kind() == prim::ListConstruct) {
      auto* lt = n->output()->type()->cast<ListType>();
      values[n->output()] = makeList(lt->elementType(), std::move(in));
      continue;
    }
    if (n->kind() == prim::TupleConstruct) {
      values[n->output()] = IValue(makeIntrusive<TupleValue>(std::move(in), nullptr));
      continue;
    }
    const Operator* op = n->op();
    if (!op) return fail(n->kind().toQualString());
    Stack st(in.begin(), in.end());
    if (op->schema.isVarArg) st.emplace_back(static_cast<int64_t>(n->inputs().size()));
    try {
      op->fn(st);
    } catch (const std::exception& ex) {
      throw CompileError(std::string("evaluating the default value raised: ") + ex.what(), e->range);
    }
    if (st.size() != n->outputs().size()) return fail(n->kind().toQualString());
    for (size_t i = 0; i < st.size(); ++i) values[n->output(i)] = st[i];
  }
  auto it = values.find(out);
  if (it == values.end()) return fail("the expression");
  return it->second;
}

}  // namespace kindling
