// `for` and `while` loops: prim::Loop carrying the variables the body assigns, break/return lowered to
// loop-carried flags, loops over tuples and module lists unrolled. A loop's `else` clause is emitted after
// it by the statement that holds the loop (statements.cpp), tested on the break flag.
#include "frontend/ir_emitter.h"

#include <set>

#include "frontend/emitter/environment.h"
#include "frontend/emitter/control_flow_analysis.h"
#include "frontend/emitter/iteration.h"

namespace kindling {

using namespace emitter;

void FunctionEmitter::emitLoop(const SourceRange& loc, Value* maxTrip, const ExprPtr& whileCond,
                               const std::function<void(Value* index)>& bindTargets, const StmtList& body,
                               const std::vector<std::string>& extraAssigned) {
  std::set<std::string> assigned;
  assignedNames(body, assigned);
  // the body runs again after its own assignments: refinements of the attributes it assigns do not hold
  // in it
  std::set<std::string> assignedAttributes;
  assignedAttributeNames(body, assignedAttributes);
  for (const std::string& a : assignedAttributes) forgetAttributeRefinements(*env_, a);
  for (auto& x : extraAssigned) assigned.insert(x);
  bool hasReturn = containsReturn(body);
  if (hasReturn) {
    if (!declaredReturn_ && !inferring_)
      throw CompileError("return statements inside loops need the function's return type to be annotated", loc);
    declareFlaggedReturn(loc);
    assigned.insert("$loop_return");
    assigned.insert("$did_return");
  }
  bool hasBreak = containsBreak(body) || hasReturn;
  const std::string breakFlag = loopBreakFlag(loopDepth_ + 1);
  if (hasBreak) {
    env_->table[breakFlag] = std::make_shared<SimpleValue>(insertConstant(IValue(false), loc));
    assigned.insert(breakFlag);
  }
  std::vector<std::string> carried;
  std::vector<Value*> initial;
  std::vector<TypePtr> carriedType;
  for (const std::string& name : assigned) {
    auto v = env_->findQuiet(name);
    auto* sv = dynamic_cast<SimpleValue*>(v.get());
    if (!sv) continue;
    carried.push_back(name);
    initial.push_back(sv->value);
    carriedType.push_back(sv->value->type());  // an annotated variable: its declared type (setVar)
  }
  // the body runs where the while condition holds: its refinements (`while x is not None`) hold at the
  // start of every iteration (PyTorch 1.13 does not refine in loop bodies)
  std::vector<Refinement> conditionRefs;
  Value* initCond = insertConstant(IValue(true), loc);
  if (whileCond) {
    CondValue c = emitCondExpr(whileCond);
    conditionRefs = std::move(c.trueRefs);
    initCond = emitToBool(whileCond->range, c.value);
  }
  std::vector<Value*> inputs{maxTrip, initCond};
  inputs.insert(inputs.end(), initial.begin(), initial.end());
  Node* n = graph_.insert(prim::Loop, inputs, 0);
  n->setSourceRange(loc);
  Block* b = n->addBlock();
  Value* idx = b->addInput();
  idx->setType(IntType());
  auto frame = std::make_shared<Environment>(b, env_);
  env_ = frame;
  for (size_t i = 0; i < carried.size(); ++i) {
    Value* in = b->addInput();
    in->setType(carriedType[i]);
    if (meaningfulName(carried[i])) in->setDebugName(carried[i]);
    frame->table[carried[i]] = std::make_shared<SimpleValue>(in);
    frame->carriedTypes[carried[i]] = carriedType[i];
  }
  ++loopDepth_;
  {
    WithInsertPoint guard(b);
    // set by a `continue` that does not end the body, so the code after the `if` holding it is skipped
    if (containsContinue(body))
      frame->table[loopContinueFlag(loopDepth_)] = std::make_shared<SimpleValue>(insertConstant(IValue(false), loc));
    bindTargets(idx);
    insertRefinements(whileCond ? whileCond->range : loc, conditionRefs);
    emitStatements(body);
    Value* cont;
    if (whileCond) {
      if (hasBreak) {
        Value* brk = env_->find(breakFlag, loc)->asValue(loc, *this);
        Node* i = graph_.insert(prim::If, {brk}, 1);
        i->output()->setType(BoolType());
        Block* t = i->addBlock();
        Block* f = i->addBlock();
        {
          WithInsertPoint g2(t);
          t->registerOutput(insertConstant(IValue(false), loc));
        }
        {
          WithInsertPoint g2(f);
          f->registerOutput(emitToBool(whileCond->range, emitCondExpr(whileCond).value));
        }
        cont = i->output();
      } else {
        cont = emitToBool(whileCond->range, emitCondExpr(whileCond).value);
      }
    } else if (hasBreak) {
      Value* brk = env_->find(breakFlag, loc)->asValue(loc, *this);
      cont = builtinCallValue(loc, "aten::__not__", {NamedValue(loc, brk)});
    } else {
      cont = insertConstant(IValue(true), loc);
    }
    b->registerOutput(cont);
    for (size_t i = 0; i < carried.size(); ++i) {
      auto v = env_->find(carried[i], loc);
      Value* out = v->asValue(loc, *this);
      if (!out->type()->isSubtypeOf(carriedType[i]))
        throw CompileError("Variable '" + carried[i] + "' previously had type " + typeNameForMsg(carriedType[i]) +
                               " but is now being assigned to a value of type " + typeNameForMsg(out->type()),
                           loc);
      b->registerOutput(out);
    }
  }
  --loopDepth_;
  env_ = frame->next;
  for (size_t i = 0; i < carried.size(); ++i) {
    Value* out = n->addOutput();
    out->setType(carriedType[i]);
    setVar(*this, *env_, carried[i], std::make_shared<SimpleValue>(out), loc);
  }
}

void FunctionEmitter::declareFlaggedReturn(const SourceRange& loc) {
  if (env_->findQuiet("$loop_return")) return;
  Node* u = graph_.insert(prim::Uninitialized, {}, 1);
  u->setSourceRange(loc);
  u->output()->setType(declaredReturn_ ? declaredReturn_ : AnyType());
  env_->table["$loop_return"] = std::make_shared<SimpleValue>(u->output());
  env_->table["$did_return"] = std::make_shared<SimpleValue>(insertConstant(IValue(false), loc));
}

SugaredValuePtr FunctionEmitter::iterableOf(const SourceRange& loc, const SugaredValuePtr& v) { return v; }

void FunctionEmitter::emitUnrolledFor(const ForStmt& s, const std::vector<SugaredValuePtr>& elems) {
  if (containsBreak(s.body) || containsContinue(s.body) || containsReturn(s.body))
    throw CompileError("Because we emit iteration over modulelists or tuples as unrolled loops, we do not support "
                       "break, continue or return inside the body of these loops (a loop over a tuple or module list)",
                       s.range);
  for (auto& e : elems) {
    emitAssignTarget(s.target, e, s.range, nullptr);
    emitStatements(s.body);
  }
}

void FunctionEmitter::emitFor(const ForStmt& s) {
  SugaredValuePtr it = emitSugaredExpr(s.iter);
  const SourceRange& loc = s.range;
  std::vector<std::string> targetNames;
  {
    std::set<std::string> t;
    collectTargetNames(s.target, t);
    targetNames.assign(t.begin(), t.end());
  }
  if (it->shouldUnroll() && !dynamic_cast<IterableTree*>(it.get())) {
    emitUnrolledFor(s, it->asTuple(loc, *this));
    return;
  }
  // range, enumerate/zip (nested in any combination), lists, strings, tensors, dicts (frontend/emitter/iteration.h)
  IterPlan plan = planIteration(*this, s.iter->range, it);
  Value* trip = iterationTripCount(*this, loc, plan);
  emitLoop(loc, trip, nullptr, [&](Value* idx) {
    if (plan.dict) emitDictSizeCheck(loc, plan.dict, plan.dictSize);
    emitAssignTarget(s.target, iterationElement(*this, loc, plan, idx), loc, nullptr);
  }, s.body, {});
  // a dict's iterator checks its size once more at the step that ends the loop, unless a break or return
  // left the loop before it
  if (!plan.dict) return;
  if (containsBreak(s.body) || containsReturn(s.body)) {
    CondValue done;
    done.value = builtinCallValue(
        loc, "aten::__not__", {NamedValue(loc, env_->find(loopBreakFlag(loopDepth_ + 1), loc)->asValue(loc, *this))});
    emitIfBranches(
        done,
        [&]() {
          emitDictSizeCheck(loc, plan.dict, plan.dictSize);
          return BlockExit{};
        },
        []() { return BlockExit{}; }, loc);
  } else {
    emitDictSizeCheck(loc, plan.dict, plan.dictSize);
  }
}

void FunctionEmitter::emitDictSizeCheck(const SourceRange& loc, Value* dict, Value* size) {
  Value* now = builtinCallValue(loc, "aten::len", {NamedValue(loc, dict)});
  CondValue changed;
  changed.value = builtinCallValue(loc, "aten::ne", {NamedValue(loc, now), NamedValue(loc, size)});
  emitIfBranches(
      changed,
      [&]() {
        emitRaiseOf(loc, insertConstant(IValue(std::string("builtins.RuntimeError")), loc),
                    insertConstant(IValue(std::string("dictionary changed size during iteration")), loc));
        return BlockExit{};
      },
      []() { return BlockExit{}; }, loc);
}

void FunctionEmitter::emitWhile(const WhileStmt& s) {
  Value* trip = insertConstant(IValue(int64_t(INT64_MAX)), s.range);
  emitLoop(s.range, trip, s.test, [](Value*) {}, s.body, {});
}

}  // namespace kindling
