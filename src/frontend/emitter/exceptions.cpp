// `raise` and `assert`: prim::RaiseException with the message and the exception's qualified class name.
// Inside an `except` clause a bare `raise` (or `raise e` of the name the clause binds) raises the handled
// exception again, with its class and message.
#include "frontend/ir_emitter.h"

#include "frontend/emitter/environment.h"

namespace kindling {

using namespace emitter;

void FunctionEmitter::emitRaise(const RaiseStmt& s) {
  const SourceRange& loc = s.range;
  Value* msg;
  std::string cls = "builtins.RuntimeError";
  if (!s.exc && !handling_.empty()) {
    emitRaiseOf(loc, handling_.back().cls, handling_.back().msg);
    return;
  }
  if (!s.exc) {
    msg = insertConstant(IValue(std::string("Exception")), loc);
  } else {
    auto v = emitSugaredExpr(s.exc);
    if (auto* ce = dynamic_cast<CaughtExceptionValue*>(v.get())) {
      emitRaiseOf(loc, ce->cls, ce->msg);
      return;
    }
    if (auto* ev = dynamic_cast<ExceptionValue*>(v.get())) {
      msg = insertConstant(IValue(std::string("")), loc);
      cls = "builtins." + ev->name;
    } else if (auto* em = dynamic_cast<ExceptionMessageValue*>(v.get())) {
      msg = em->message;
      cls = em->qualifiedClass;
    } else {
      Value* x = v->asValue(s.exc->range, *this);
      if (x->type()->kind() != TypeKind::Str)
        throw CompileError("exceptions must derive from BaseException", s.exc->range);
      msg = x;
      cls = "builtins.Exception";
    }
  }
  emitRaiseOf(loc, insertConstant(IValue(cls), loc), msg);
}

void FunctionEmitter::emitRaiseOf(const SourceRange& loc, Value* clsv, Value* msg) {
  if (isBuiltinOperator("prim::RaiseException", *registry_)) {
    builtinCall(loc, "prim::RaiseException", {NamedValue(loc, msg), NamedValue(loc, clsv)});
  } else {
    Node* n = graph_.insert(prim::RaiseException, {msg, clsv}, 0);
    n->setSourceRange(loc);
  }
}

void FunctionEmitter::emitAssert(const AssertStmt& s) {
  CondValue c = emitCondExpr(s.test);
  const SourceRange& loc = s.range;
  auto raiseWith = [&]() {
    Value* msg;
    if (s.msg) {
      if (s.msg->kind == ExprKind::Str) {
        msg = insertConstant(IValue("AssertionError: " + s.msg->as<StrExpr>().value), loc);
      } else {
        Value* m = emitExpr(s.msg);
        if (m->type()->kind() != TypeKind::Str) m = builtinCallValue(loc, "aten::str", {NamedValue(loc, m)});
        Value* prefix = insertConstant(IValue(std::string("AssertionError: ")), loc);
        msg = builtinCallValue(loc, "aten::add", {NamedValue(loc, prefix), NamedValue(loc, m)});
      }
    } else {
      msg = insertConstant(IValue(std::string("AssertionError: ")), loc);
    }
    if (isBuiltinOperator("prim::RaiseException", *registry_)) {
      builtinCall(loc, "prim::RaiseException", {NamedValue(loc, msg)});
    } else {
      Node* n = graph_.insert(prim::RaiseException, {msg}, 0);
      n->setSourceRange(loc);
    }
  };
  if (c.staticValue) {
    if (*c.staticValue) { insertRefinements(loc, c.trueRefs); return; }
    raiseWith();
    return;
  }
  // As PyTorch (emitAssert): `if cond: pass else: raise AssertionError(msg)`. The refinements of the
  // condition are made in the true branch and leave the If as outputs (uninitialized on the raising
  // side), so no unchecked_cast runs where the condition may not hold.
  emitIfBranches(
      c, []() { return BlockExit(); },
      [&]() {
        raiseWith();
        BlockExit ex;
        ex.exits = true;
        return ex;
      },
      loc);
}

void FunctionEmitter::emitAssertCall(const SourceRange& loc, Value* condition, Value* message) {
  // torch's overload-mismatch report for its two _assert schemas
  auto mismatch = [&](const char* arg, Value* v, bool both) {
    std::string found = v->type()->annotationStr();
    std::string msg = "Arguments for call are not valid.\nThe following variants are available:\n";
    for (const char* t : {"bool", "Tensor"}) {
      std::string expected = both ? t : "str";
      msg += std::string("  \n  _assert(") + t + " condition, str message) -> NoneType:\n  Expected a value of type '" +
             expected + "' for argument '" + arg + "' but instead found type '" + found + "'.\n";
    }
    return CompileError(msg + "\nThe original call is", loc);
  };
  TypeKind ck = condition->type()->kind();
  if (ck == TypeKind::Tensor) {
    condition = builtinCallValue(loc, "aten::Bool", {NamedValue(loc, condition)});
  } else if (ck != TypeKind::Bool) {
    throw mismatch("condition", condition, true);
  }
  if (message->type()->kind() != TypeKind::Str) throw mismatch("message", message, false);
  auto raiseWith = [&]() {
    Value* msg;
    if (auto c = message->constantValue(); c && c->isString()) {
      msg = insertConstant(IValue("AssertionError: " + c->toStringRef()), loc);
    } else {
      Value* prefix = insertConstant(IValue(std::string("AssertionError: ")), loc);
      msg = builtinCallValue(loc, "aten::add", {NamedValue(loc, prefix), NamedValue(loc, message)});
    }
    if (isBuiltinOperator("prim::RaiseException", *registry_)) {
      builtinCall(loc, "prim::RaiseException", {NamedValue(loc, msg)});
    } else {
      Node* n = graph_.insert(prim::RaiseException, {msg}, 0);
      n->setSourceRange(loc);
    }
  };
  CondValue c;
  c.value = condition;
  if (auto k = condition->constantValue(); k && k->isBool()) c.staticValue = k->toBool();
  if (c.staticValue) {
    if (!*c.staticValue) raiseWith();
    return;
  }
  emitIfBranches(
      c, []() { return BlockExit(); },
      [&]() {
        raiseWith();
        BlockExit ex;
        ex.exits = true;
        return ex;
      },
      loc);
}

}  // namespace kindling
