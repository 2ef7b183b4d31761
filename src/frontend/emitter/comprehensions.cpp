// List and dict comprehensions: a loop appending to (setting items of) a container built before it.
#include "frontend/ir_emitter.h"

#include "frontend/emitter/environment.h"
#include "frontend/emitter/iteration.h"

namespace kindling {

using namespace emitter;

Value* FunctionEmitter::emitListComprehension(const ComprehensionExpr& e, const TypePtr& typeHint) {
  if (e.generators.size() != 1) throw CompileError("List comprehensions with multiple for clauses are not supported", e.range);
  const Comprehension& g = e.generators[0];
  if (!g.ifs.empty()) throw CompileError("Comprehension ifs are not supported yet", e.range);
  Node* ln = graph_.insert(prim::ListConstruct, {}, 1);  // no source range, as PyTorch's createList
  Value* list = ln->output();
  bool typeSet = false;
  if (typeHint && typeHint->kind() == TypeKind::List) {
    list->setType(typeHint);
    typeSet = true;
  } else {
    list->setType(ListType::ofTensors());
  }
  auto frame = std::make_shared<Environment>(env_->block, env_);
  env_ = frame;
  auto body = std::make_shared<ExprStmt>(e.range, nullptr);  // placeholder, body emitted via callback below
  (void)body;
  SugaredValuePtr it = emitSugaredExpr(g.iter);
  auto emitElem = [&]() {
    Value* out = emitExpr(e.elt);
    if (!typeSet) {
      list->setType(ListType::create(out->type()));
      typeSet = true;
    }
    builtinCall(e.range, "aten::append", {NamedValue(e.range, out)}, {}, NamedValue(e.range, "self", list));
  };
  // Reuse the for-loop machinery with a synthetic body.
  auto bindAndEmit = [&](const SugaredValuePtr& elem) {
    emitAssignTarget(g.target, elem, e.range, nullptr);
    emitElem();
  };
  if (it->shouldUnroll()) {
    for (auto& el : it->asTuple(e.range, *this)) bindAndEmit(el);
  } else {
    IterPlan plan = planIteration(*this, g.iter->range, it);
    Value* trip = iterationTripCount(*this, e.range, plan);
    Node* n = graph_.insert(prim::Loop, {trip, insertConstant(IValue(true), e.range)}, 0);
    n->setSourceRange(e.range);
    Block* b = n->addBlock();
    Value* idx = b->addInput();
    idx->setType(IntType());
    auto lf = std::make_shared<Environment>(b, env_);
    env_ = lf;
    {
      WithInsertPoint guard(b);
      bindAndEmit(iterationElement(*this, e.range, plan, idx));
      b->registerOutput(insertConstant(IValue(true), e.range));
    }
    env_ = lf->next;
  }
  env_ = frame->next;
  return list;
}

Value* FunctionEmitter::emitDictComprehension(const ComprehensionExpr& e, const TypePtr& typeHint) {
  if (e.generators.size() != 1) throw CompileError("Dict comprehensions with multiple for clauses are not supported", e.range);
  const Comprehension& g = e.generators[0];
  if (!g.ifs.empty()) throw CompileError("Comprehension ifs are not supported yet", e.range);
  Node* dn = graph_.insert(prim::DictConstruct, {}, 1);  // no source range, as PyTorch's createDict
  Value* dict = dn->output();
  bool typeSet = typeHint && typeHint->kind() == TypeKind::Dict;
  dict->setType(typeSet ? typeHint : DictType::create(StringType(), TensorType()));
  auto frame = std::make_shared<Environment>(env_->block, env_);
  env_ = frame;
  SugaredValuePtr it = emitSugaredExpr(g.iter);
  auto bindAndEmit = [&](const SugaredValuePtr& elem) {
    emitAssignTarget(g.target, elem, e.range, nullptr);
    Value* k = emitExpr(e.elt);
    Value* v = emitExpr(e.value);
    if (!typeSet) {
      dict->setType(DictType::create(k->type(), v->type()));
      typeSet = true;
    }
    builtinCall(e.range, "aten::_set_item", {NamedValue(e.range, dict), NamedValue(e.range, k), NamedValue(e.range, v)});
  };
  if (it->shouldUnroll()) {
    for (auto& el : it->asTuple(e.range, *this)) bindAndEmit(el);
  } else {
    IterPlan plan = planIteration(*this, g.iter->range, it);
    Value* trip = iterationTripCount(*this, e.range, plan);
    Node* n = graph_.insert(prim::Loop, {trip, insertConstant(IValue(true), e.range)}, 0);
    n->setSourceRange(e.range);
    Block* b = n->addBlock();
    Value* idx = b->addInput();
    idx->setType(IntType());
    auto lf = std::make_shared<Environment>(b, env_);
    env_ = lf;
    {
      WithInsertPoint guard(b);
      bindAndEmit(iterationElement(*this, e.range, plan, idx));
      b->registerOutput(insertConstant(IValue(true), e.range));
    }
    env_ = lf->next;
  }
  env_ = frame->next;
  return dict;
}

}  // namespace kindling
