// Statement lists and the dispatch of one statement; the lowering of early `return`, `break` and
// `continue` by moving the statements that follow into the branch that falls through; `return`.
#include "frontend/ir_emitter.h"

#include "frontend/emitter/environment.h"
#include "frontend/emitter/fork.h"
#include "frontend/emitter/control_flow_analysis.h"

namespace kindling {

using namespace emitter;

namespace {
// As PyTorch's emitReturn for functions without a return annotation: each return must unify with the
// ones before it; the error marks the return that breaks it.
void checkReturnUnifies(const std::vector<TypePtr>& previous, const TypePtr& t, const SourceRange& loc) {
  if (previous.empty()) return;
  TypePtr acc = previous[0];
  for (size_t i = 1; i < previous.size(); ++i)
    if (auto u = unifyTypes(acc, previous[i])) acc = *u;
  if (!unifyTypes(acc, t))
    throw CompileError("Previous return statement returned a value of type " + typeNameForMsg(acc) +
                           " but this return statement returns a value of type " + typeNameForMsg(t),
                       loc);
}
}  // namespace

namespace {
/// A break, continue or return of the current loop level somewhere in the list.
bool leavesIteration(const StmtList& stmts) {
  return containsBreak(stmts) || containsContinue(stmts) || containsReturn(stmts);
}
}  // namespace

std::string FunctionEmitter::loopBreakFlag(int depth) { return "$did_break" + std::to_string(depth); }
std::string FunctionEmitter::loopContinueFlag(int depth) { return "$loop_continue" + std::to_string(depth); }

FunctionEmitter::BlockExit FunctionEmitter::emitUnlessIterationLeft(const SourceRange& loc, const StmtList& rest) {
  // the flags of this loop level that a break / return ($did_break<L>) or a continue ($loop_continue<L>)
  // set; the rest runs when none is set
  Value* left = nullptr;
  for (const std::string& name : {loopBreakFlag(loopDepth_), loopContinueFlag(loopDepth_)}) {
    auto v = env_->findQuiet(name);
    auto* sv = dynamic_cast<SimpleValue*>(v.get());
    if (!sv) continue;
    left = left ? builtinCallValue(loc, "aten::__or__", {NamedValue(loc, left), NamedValue(loc, sv->value)}) : sv->value;
  }
  if (!left) throw InternalError("loop exit flags missing for a branch that leaves the iteration at " + loc.location());
  env_->table["$keep_iterating"] = std::make_shared<SimpleValue>(
      builtinCallValue(loc, "aten::__not__", {NamedValue(loc, left)}));
  return emitIf(IfStmt(loc, std::make_shared<NameExpr>(loc, "$keep_iterating"), rest, {}));
}

FunctionEmitter::BlockExit FunctionEmitter::emitStatements(const StmtList& stmts) {
  BlockExit ex;
  for (size_t i = 0; i < stmts.size(); ++i) {
    bool consumedRest = false;
    BlockExit e = emitStatement(stmts[i], stmts, i, consumedRest);
    if (e.returns) ex.returns = true;
    if (e.exits) {
      ex.exits = true;
      return ex;
    }
    if (consumedRest) return ex;
    StmtKind k = stmts[i]->kind;
    if (k == StmtKind::Continue || k == StmtKind::Break || k == StmtKind::Return) return ex;
  }
  return ex;
}

FunctionEmitter::BlockExit FunctionEmitter::emitStatement(const StmtPtr& s, const StmtList& stmts, size_t index,
                                                          bool& consumedRest) {
  BlockExit ex;
  switch (s->kind) {
    case StmtKind::Expr: {
      const ExprPtr& e = s->as<ExprStmt>().value;
      if (e->kind == ExprKind::Str) return ex;  // docstring
      emitSugaredExpr(e, 0);
      if (isRaiseCall(s)) ex.exits = true;
      return ex;
    }
    case StmtKind::Assign: emitAssign(s->as<AssignStmt>()); return ex;
    case StmtKind::AugAssign: emitAugAssign(s->as<AugAssignStmt>()); return ex;
    case StmtKind::If: {
      auto& is = s->as<IfStmt>();
      if (index + 1 < stmts.size()) {
        unsigned tb = terminates(is.body), fb = terminates(is.orelse);
        auto nonRaising = [](unsigned t) { return (t & (TermReturn | TermContinue | TermBreak)) != 0; };
        StmtList rest(stmts.begin() + static_cast<long>(index) + 1, stmts.end());
        if (tb && fb) {
          consumedRest = true;  // code after is unreachable
        } else if (nonRaising(tb) && !fb) {
          StmtList orelse = is.orelse;
          orelse.insert(orelse.end(), rest.begin(), rest.end());
          consumedRest = true;
          return emitIf(IfStmt(is.range, is.test, is.body, orelse));
        } else if (nonRaising(fb) && !tb) {
          StmtList body = is.body;
          body.insert(body.end(), rest.begin(), rest.end());
          consumedRest = true;
          return emitIf(IfStmt(is.range, is.test, body, is.orelse));
        } else if (loopDepth_ == 0 && tries_.empty() && (containsReturn(is.body) || containsReturn(is.orelse))) {
          // a return on some path of a branch that may also fall through (`if a: if b: return x` then more
          // code): the rest of the block continues each branch, where the nested ifs fold it in turn
          StmtList body = is.body, orelse = is.orelse;
          body.insert(body.end(), rest.begin(), rest.end());
          orelse.insert(orelse.end(), rest.begin(), rest.end());
          consumedRest = true;
          return emitIf(IfStmt(is.range, is.test, body, orelse));
        } else if (loopDepth_ > 0 && (leavesIteration(is.body) || leavesIteration(is.orelse))) {
          // inside a loop, a break / continue / return on some path of a branch that may also fall through
          // (`if a: if b: break` then more code): the branches set the loop's flags, and the rest of the
          // block runs only when neither left this iteration
          BlockExit first = emitIf(is);
          consumedRest = true;
          BlockExit after = emitUnlessIterationLeft(is.range, rest);
          first.returns = first.returns || after.returns;
          return first;
        }
      }
      return emitIf(is);
    }
    case StmtKind::For:
    case StmtKind::While: {
      bool isFor = s->kind == StmtKind::For;
      const StmtList& body = isFor ? s->as<ForStmt>().body : s->as<WhileStmt>().body;
      const StmtList& orelse = isFor ? s->as<ForStmt>().orelse : s->as<WhileStmt>().orelse;
      // a return in the body is tested below before the rest runs: only a break needs the flag
      bool breaks = containsBreak(body);
      if (isFor) emitFor(s->as<ForStmt>());
      else emitWhile(s->as<WhileStmt>());
      if (orelse.empty() && !containsReturn(body)) return ex;
      StmtList rest(stmts.begin() + static_cast<long>(index) + 1, stmts.end());
      consumedRest = true;
      if (!orelse.empty()) {
        // the loop's else clause (PyTorch 1.13: "else branches of for loops aren't supported") runs when the
        // loop ends without break or return: `if not <the loop's break flag>: else-clause`, then the rest
        StmtList after;
        if (breaks) {
          std::string name = "$loop_else" + std::to_string(tmpCounter_++);
          Value* broke = env_->find(loopBreakFlag(loopDepth_ + 1), s->range)->asValue(s->range, *this);
          env_->table[name] = std::make_shared<SimpleValue>(
              builtinCallValue(s->range, "aten::__not__", {NamedValue(s->range, broke)}));
          after.push_back(std::make_shared<IfStmt>(s->range, std::make_shared<NameExpr>(s->range, name), orelse,
                                                   StmtList{}));
        } else {
          after = orelse;
        }
        after.insert(after.end(), rest.begin(), rest.end());
        rest = std::move(after);
      }
      if (!containsReturn(body)) return emitStatements(rest);
      // a return inside the loop: `if $did_return: return $loop_return` else the rest of the block
      auto test = std::make_shared<NameExpr>(s->range, "$did_return");
      StmtList ret{std::make_shared<ReturnStmt>(s->range, std::make_shared<NameExpr>(s->range, "$loop_return"))};
      return emitIf(IfStmt(s->range, test, ret, rest));
    }
    case StmtKind::Return:
      if (loopDepth_ > 0 || !tries_.empty()) {
        // inside a loop: record the value, set the flags and leave the loop (like break); inside a try
        // statement: the same flags, tested after its finally clause
        auto& r = s->as<ReturnStmt>();
        Value* v = r.value ? emitExpr(r.value, declaredReturn_) : insertConstant(IValue(), s->range);
        if (declaredReturn_) {
          v = tryConvertToType(s->range, graph_, declaredReturn_, v, Conversions::Python, *registry_);
          if (!v->type()->isSubtypeOf(declaredReturn_))
            throw CompileError("Return value was annotated as having type " + typeNameForMsg(declaredReturn_) +
                                   " but is actually of type " + typeNameForMsg(v->type()),
                               s->range);
        } else {
          checkReturnUnifies(returnTypes_, v->type(), s->range);
          returnTypes_.push_back(v->type());
        }
        env_->table["$loop_return"] = std::make_shared<SimpleValue>(v);
        env_->table["$did_return"] = std::make_shared<SimpleValue>(insertConstant(IValue(true), s->range));
        if (loopDepth_ > 0)
          env_->table[loopBreakFlag(loopDepth_)] =
              std::make_shared<SimpleValue>(insertConstant(IValue(true), s->range));
        return ex;
      }
      emitReturn(s->as<ReturnStmt>());
      ex.exits = true;
      ex.returns = true;
      return ex;
    case StmtKind::Raise:
      emitRaise(s->as<RaiseStmt>());
      ex.exits = true;
      return ex;
    case StmtKind::Assert: emitAssert(s->as<AssertStmt>()); return ex;
    case StmtKind::Pass: return ex;
    case StmtKind::Continue:
      if (loopDepth_ == 0) throw CompileError("'continue' outside loop", s->range);
      if (env_->findQuiet(loopContinueFlag(loopDepth_)))
        env_->table[loopContinueFlag(loopDepth_)] = std::make_shared<SimpleValue>(insertConstant(IValue(true), s->range));
      for (const TryContext& t : tries_)  // try statements of this loop skip what follows them
        if (t.loopDepth == loopDepth_)
          env_->table["$did_continue" + std::to_string(t.id)] =
              std::make_shared<SimpleValue>(insertConstant(IValue(true), s->range));
      return ex;
    case StmtKind::Break: {
      if (loopDepth_ == 0) throw CompileError("'break' outside loop", s->range);
      Value* t = insertConstant(IValue(true), s->range);
      env_->table[loopBreakFlag(loopDepth_)] = std::make_shared<SimpleValue>(t);
      return ex;
    }
    case StmtKind::Delete: emitDelete(s->as<DeleteStmt>()); return ex;
    case StmtKind::With: emitWith(s->as<WithStmt>()); return ex;
    case StmtKind::Def:
      if (ctx_.archiveMode) {  // a closure of archive code: `def __forked_function(): ...` (frontend/emitter/fork.h)
        auto def = std::static_pointer_cast<const DefStmt>(s);
        env_->table[def->name] = std::make_shared<ClosureValue>(def);
        return ex;
      }
      // as PyTorch, marking the `def` keyword
      throw CompileError("function definitions aren't supported", SourceRange(s->range.source, s->range.start, s->range.start + 3));
    case StmtKind::Class: throw CompileError("class definitions are only supported at the top level", s->range);
    case StmtKind::Global: throw CompileError("'global' statements are not supported in TorchScript", s->range);
    case StmtKind::Nonlocal: throw CompileError("'nonlocal' statements are not supported in TorchScript", s->range);
    case StmtKind::Import: throw CompileError("import statements are only supported at the top level", s->range);
    case StmtKind::Try: {
      StmtList rest(stmts.begin() + static_cast<long>(index) + 1, stmts.end());
      consumedRest = true;
      return emitTry(s->as<TryStmt>(), rest);
    }
  }
  return ex;
}

void FunctionEmitter::emitReturn(const ReturnStmt& s) {
  Value* v = s.value ? emitExpr(s.value, declaredReturn_) : insertConstant(IValue(), s.range);
  bool synthesized = s.value && s.value->kind == ExprKind::Name && s.value->as<NameExpr>().id == "$loop_return";
  if (inferring_ && !synthesized) {
    checkReturnUnifies(returnTypes_, v->type(), s.range);
    returnTypes_.push_back(v->type());
  }
  if (declaredReturn_) {
    v = tryConvertToType(s.range, graph_, declaredReturn_, v, Conversions::Python, *registry_);
    if (!v->type()->isSubtypeOf(declaredReturn_))
      throw CompileError("Return value was annotated as having type " + typeNameForMsg(declaredReturn_) +
                             " but is actually of type " + typeNameForMsg(v->type()),
                         s.range);
    if (declaredReturn_->kind() == TypeKind::Any && v->type()->kind() != TypeKind::Any) {
      Node* n = graph_.insert(prim::unchecked_cast, {v}, 1);
      n->output()->setType(declaredReturn_);
      v = n->output();
    }
  }
  env_->table["$return"] = std::make_shared<SimpleValue>(v);
}

}  // namespace kindling
