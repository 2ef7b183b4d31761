// List and dict comprehensions (and generator expressions, which the parser reads as list
// comprehensions): a loop appending to (setting items of) a container built before it. Every `for` clause
// is one loop nested in the previous one (unrolled over tuples), every `if` clause a prim::If around the
// rest, refining as an if statement does (`[x for x in xs if x is not None]` appends ints). The clause
// targets are local to the comprehension, as in Python 3: they shadow variables of the same name and type
// and are gone after it. PyTorch 1.13 rejects `if` clauses and several `for` clauses; the loops and ifs
// emitted here are plain TorchScript, so `kindling save` writes them as PyTorch compiles them.
#include "frontend/ir_emitter.h"

#include "frontend/emitter/control_flow_analysis.h"
#include "frontend/emitter/environment.h"
#include "frontend/emitter/iteration.h"

namespace kindling {

using namespace emitter;


void FunctionEmitter::emitComprehensionClauses(const ComprehensionExpr& e, size_t index,
                                               const std::function<void()>& onElement,
                                               const std::function<Value*()>& proceed) {
  if (index == e.generators.size()) {
    onElement();
    return;
  }
  const Comprehension& g = e.generators[index];
  // The first iterable is evaluated in the enclosing scope (Python evaluates it before the comprehension's
  // scope exists); the later ones see the targets of the clauses before them.
  SugaredValuePtr it = emitSugaredExpr(g.iter);
  std::function<void(size_t)> emitIfs = [&](size_t k) {
    if (k == g.ifs.size()) {
      emitComprehensionClauses(e, index + 1, onElement, proceed);
      return;
    }
    CondValue c = emitCondExpr(g.ifs[k]);
    emitIfBranches(
        c,
        [&]() {
          emitIfs(k + 1);
          return BlockExit{};
        },
        []() { return BlockExit{}; }, g.ifs[k]->range);
  };
  auto bindAndEmit = [&](const SugaredValuePtr& elem) {
    emitAssignTarget(g.target, elem, g.target->range, nullptr);
    emitIfs(0);
  };
  auto scope = std::make_shared<Environment>(env_->block, env_);
  collectTargetNames(g.target, scope->locals);
  env_ = scope;
  if (it->shouldUnroll()) {
    for (auto& el : it->asTuple(g.iter->range, *this)) {
      auto frame = std::make_shared<Environment>(env_->block, env_);
      env_ = frame;
      if (proceed) {
        CondValue go;
        go.value = proceed();
        emitIfBranches(
            go,
            [&]() {
              bindAndEmit(el);
              return BlockExit{};
            },
            []() { return BlockExit{}; }, e.range);
      } else {
        bindAndEmit(el);
      }
      env_ = frame->next;
    }
  } else {
    IterPlan plan = planIteration(*this, g.iter->range, it);
    Value* trip = iterationTripCount(*this, e.range, plan);
    Value* start = proceed ? proceed() : insertConstant(IValue(true), e.range);
    Node* n = graph_.insert(prim::Loop, {trip, start}, 0);
    n->setSourceRange(e.range);
    Block* b = n->addBlock();
    Value* idx = b->addInput();
    idx->setType(IntType());
    auto lf = std::make_shared<Environment>(b, env_);
    env_ = lf;
    {
      WithInsertPoint guard(b);
      bindAndEmit(iterationElement(*this, e.range, plan, idx));
      b->registerOutput(proceed ? proceed() : insertConstant(IValue(true), e.range));
    }
    env_ = lf->next;
  }
  env_ = scope->next;
}

Value* FunctionEmitter::emitListComprehension(const ComprehensionExpr& e, const TypePtr& typeHint) {
  Node* ln = graph_.insert(prim::ListConstruct, {}, 1);  // no source range, as PyTorch's createList
  Value* list = ln->output();
  bool typeSet = false;
  if (typeHint && typeHint->kind() == TypeKind::List) {
    list->setType(typeHint);
    typeSet = true;
  } else {
    list->setType(ListType::ofTensors());
  }
  emitComprehensionClauses(e, 0, [&]() {
    Value* out = emitExpr(e.elt, typeSet ? list->type()->cast<ListType>()->elementType() : nullptr);
    if (!typeSet) {
      list->setType(ListType::create(out->type()));
      typeSet = true;
    }
    builtinCall(e.range, "aten::append", {NamedValue(e.range, out)}, {}, NamedValue(e.range, "self", list));
  });
  return list;
}

Value* FunctionEmitter::emitShortCircuitAnyAll(const ComprehensionExpr& e, bool isAny, const SourceRange& loc) {
  // The deciding element is recorded in a list (mutable across the loops, which carry no values): the
  // loops run while it is empty.
  Node* ln = graph_.insert(prim::ListConstruct, {}, 1);
  Value* decided = ln->output();
  decided->setType(ListType::create(BoolType()));
  auto undecided = [&]() -> Value* {
    Value* n = builtinCall(loc, "aten::len", {NamedValue(loc, decided)})->asValue(loc, *this);
    return builtinCall(loc, "aten::eq", {NamedValue(loc, n), NamedValue(loc, insertConstant(IValue(int64_t{0}), loc))})
        ->asValue(loc, *this);
  };
  emitComprehensionClauses(
      e, 0,
      [&]() {
        CondValue c = emitCondExpr(e.elt);
        auto record = [&]() {
          builtinCall(loc, "aten::append", {NamedValue(loc, insertConstant(IValue(isAny), loc))}, {},
                      NamedValue(loc, "self", decided));
          return BlockExit{};
        };
        auto nothing = []() { return BlockExit{}; };
        if (isAny) emitIfBranches(c, record, nothing, e.elt->range);
        else emitIfBranches(c, nothing, record, e.elt->range);
      },
      undecided);
  Value* u = undecided();
  if (isAny) return builtinCall(loc, "aten::__not__", {NamedValue(loc, u)})->asValue(loc, *this);
  return u;
}

Value* FunctionEmitter::emitDictComprehension(const ComprehensionExpr& e, const TypePtr& typeHint) {
  Node* dn = graph_.insert(prim::DictConstruct, {}, 1);  // no source range, as PyTorch's createDict
  Value* dict = dn->output();
  bool typeSet = typeHint && typeHint->kind() == TypeKind::Dict;
  dict->setType(typeSet ? typeHint : DictType::create(StringType(), TensorType()));
  emitComprehensionClauses(e, 0, [&]() {
    Value* k = emitExpr(e.elt);
    Value* v = emitExpr(e.value, typeSet ? dict->type()->cast<DictType>()->valueType() : nullptr);
    if (!typeSet) {
      dict->setType(DictType::create(k->type(), v->type()));
      typeSet = true;
    }
    builtinCall(e.range, "aten::_set_item", {NamedValue(e.range, dict), NamedValue(e.range, k), NamedValue(e.range, v)});
  });
  return dict;
}

std::vector<SugaredValuePtr> FunctionEmitter::emitUnrolledComprehension(const ComprehensionExpr& e) {
  // tuple(<generator>): the length must be known statically, so every iterable is a tuple (unrolled) and
  // every condition known while compiling.
  std::vector<SugaredValuePtr> out;
  std::function<void(size_t)> clause = [&](size_t index) {
    if (index == e.generators.size()) {
      out.push_back(std::make_shared<SimpleValue>(emitExpr(e.elt)));
      return;
    }
    const Comprehension& g = e.generators[index];
    SugaredValuePtr it = emitSugaredExpr(g.iter);
    if (!it->shouldUnroll())
      throw CompileError("tuple() of a generator expression needs a tuple to iterate (its length must be known "
                         "statically); this one iterates a value of type " +
                             it->kind(),
                         g.iter->range);
    auto scope = std::make_shared<Environment>(env_->block, env_);
    collectTargetNames(g.target, scope->locals);
    env_ = scope;
    for (auto& el : it->asTuple(g.iter->range, *this)) {
      auto frame = std::make_shared<Environment>(env_->block, env_);
      env_ = frame;
      emitAssignTarget(g.target, el, g.target->range, nullptr);
      bool taken = true;
      for (const ExprPtr& cond : g.ifs) {
        CondValue c = emitCondExpr(cond);
        if (!c.staticValue)
          throw CompileError("tuple() of a generator expression with an 'if' clause needs a condition known "
                             "statically (the tuple's length must be known)",
                             cond->range);
        insertRefinements(cond->range, *c.staticValue ? c.trueRefs : c.falseRefs);
        if (!*c.staticValue) {
          taken = false;
          break;
        }
      }
      if (taken) clause(index + 1);
      env_ = frame->next;
    }
    env_ = scope->next;
  };
  clause(0);
  return out;
}

}  // namespace kindling
