// try / except / else / finally, a Kindling extension (TorchScript has no try statement), with Python's
// meaning. Lowered to prim::Try (block0: the body; block1(cls, msg, text): the handler, entered with the class
// and message of the exception that stopped block0, and its str(), which `except E as e` binds) and
// ordinary control flow:
//
//   [outer prim::Try, when there is a finally clause]
//     prim::Try { body; $try_ok = True } except(cls, msg) { if cls in <classes of handler 1>: ...
//                                                            elif ...: ... else: raise cls(msg) }
//     if $try_ok: <else clause>
//   except(cls, msg) { $exc_pending = True; $exc_cls, $exc_msg = cls, msg }
//   <finally clause>
//   if $exc_pending: raise $exc_cls($exc_msg)
//   if <a return, break or continue left the statement>: (leave) else: <the statements after it>
//
// `except E` catches E and its subclasses in Python's builtin hierarchy; `Exception`, `BaseException` and a
// bare `except:` catch everything a program raises. `return` inside any clause sets flags (as a return
// inside a loop does) that are tested once the finally clause ran; `break` and `continue` likewise. A
// return, break or continue in the finally clause discards a pending exception, as in Python. A variable
// the body assigns lives in a one-element list while the body runs, so the except clause sees the value
// it had when the exception was raised (`n += 1` in a loop that then fails keeps the count).
#include "frontend/ir_emitter.h"

#include <map>

#include "frontend/emitter/control_flow_analysis.h"
#include "frontend/emitter/environment.h"
#include "frontend/type_parser.h"

namespace kindling {

using namespace emitter;

namespace {

// Python's builtin exception classes that TorchScript names, each with its direct base.
const std::map<std::string, std::string>& exceptionBases() {
  static const std::map<std::string, std::string> bases = {
      {"Exception", "BaseException"},
      {"ArithmeticError", "Exception"}, {"FloatingPointError", "ArithmeticError"},
      {"OverflowError", "ArithmeticError"}, {"ZeroDivisionError", "ArithmeticError"},
      {"AssertionError", "Exception"}, {"AttributeError", "Exception"}, {"BufferError", "Exception"},
      {"EOFError", "Exception"}, {"ImportError", "Exception"}, {"ModuleNotFoundError", "ImportError"},
      {"LookupError", "Exception"}, {"IndexError", "LookupError"}, {"KeyError", "LookupError"},
      {"MemoryError", "Exception"}, {"NameError", "Exception"}, {"UnboundLocalError", "NameError"},
      {"OSError", "Exception"}, {"ReferenceError", "Exception"},
      {"RuntimeError", "Exception"}, {"NotImplementedError", "RuntimeError"}, {"RecursionError", "RuntimeError"},
      {"StopIteration", "Exception"}, {"SystemError", "Exception"}, {"TypeError", "Exception"},
      {"ValueError", "Exception"}, {"UnicodeError", "ValueError"},
      {"Warning", "Exception"}, {"UserWarning", "Warning"}, {"DeprecationWarning", "Warning"},
  };
  return bases;
}

bool isSubclass(std::string c, const std::string& base) {
  const auto& bases = exceptionBases();
  while (true) {
    if (c == base) return true;
    auto it = bases.find(c);
    if (it == bases.end()) return false;
    c = it->second;
  }
}

/// The qualified class names an except clause catches ("builtins.ValueError", ...); false when it
/// catches everything.
bool handledClasses(const ExceptHandler& h, std::vector<std::string>& out) {
  if (!h.type) return false;
  std::vector<ExprPtr> types;
  if (h.type->kind == ExprKind::Tuple) types = h.type->as<SequenceExpr>().elts;
  else types.push_back(h.type);
  for (const ExprPtr& t : types) {
    std::string name = t->kind == ExprKind::Name ? t->as<NameExpr>().id : dottedName(t);
    if (name.rfind("builtins.", 0) == 0) name = name.substr(9);
    if (name == "Exception" || name == "BaseException") return false;
    if (!exceptionBases().count(name))
      throw CompileError("except clauses can name Python's builtin exception classes (ValueError, "
                         "RuntimeError, ...), not '" + t->range.text() + "'",
                         t->range);
    for (const auto& [cls, base] : exceptionBases())
      if (isSubclass(cls, name)) out.push_back("builtins." + cls);
  }
  return true;
}

}  // namespace

void FunctionEmitter::noteAssignment(const std::string& name, Value* v, const SourceRange& loc) {
  for (auto& cells : cells_) {
    auto it = cells.find(name);
    if (it == cells.end()) continue;
    const TypePtr& elem = it->second->type()->cast<ListType>()->elementType();
    if (!v->type()->isSubtypeOf(elem)) continue;  // a type the variable cannot keep: an error at the merge
    builtinCall(loc, "aten::_set_item",
                {NamedValue(loc, it->second), NamedValue(loc, insertConstant(IValue(int64_t(0)), loc)), NamedValue(loc, v)});
  }
}

FunctionEmitter::BlockExit FunctionEmitter::emitTryNode(const SourceRange& loc, const std::function<BlockExit()>& body,
                                                        const std::function<BlockExit(Value*, Value*, Value*)>& handler,
                                                        const std::set<std::string>& tracked) {
  std::unordered_map<std::string, Value*> cells;
  for (const std::string& name : tracked) {
    auto sv = std::dynamic_pointer_cast<SimpleValue>(env_->findQuiet(name));
    if (!sv || std::dynamic_pointer_cast<CaughtExceptionValue>(sv)) continue;
    cells[name] = createList(sv->value->type(), {sv->value}, loc);
  }
  Node* n = graph_.insert(prim::Try, {}, 0);
  n->setSourceRange(loc);
  n->addBlock();
  Block* hb = n->addBlock();
  Value* cls = hb->addInput();
  cls->setType(StringType());
  Value* msg = hb->addInput();
  msg->setType(StringType());
  Value* text = hb->addInput();
  text->setType(StringType());
  auto inBody = [&]() {
    cells_.push_back(cells);
    BlockExit ex = body();
    cells_.pop_back();
    return ex;
  };
  auto inHandler = [&]() {
    for (const auto& [name, cell] : cells) {
      Value* now = builtinCallValue(loc, "aten::__getitem__",
                                    {NamedValue(loc, cell), NamedValue(loc, insertConstant(IValue(int64_t(0)), loc))});
      setVar(*this, *env_, name, std::make_shared<SimpleValue>(now), loc);
    }
    return handler(cls, msg, text);
  };
  return emitTwoBlocks(n, inBody, inHandler, {}, {}, loc, {"try", "except"});
}

FunctionEmitter::BlockExit FunctionEmitter::emitTry(const TryStmt& s, const StmtList& rest) {
  const SourceRange& loc = s.range;
  const SourceRange kw(loc.source, loc.start, loc.start + 3);  // the `try` keyword
  const std::string id = std::to_string(++tryCounter_);
  const std::string tryOk = "$try_ok" + id, pending = "$exc_pending" + id, pendingCls = "$exc_cls" + id,
                    pendingMsg = "$exc_msg" + id, finDone = "$fin_done" + id, didContinue = "$did_continue" + id;
  auto flagTrue = [&](const std::string& n) -> StmtPtr {
    return std::make_shared<AssignStmt>(loc, std::vector<ExprPtr>{std::make_shared<NameExpr>(loc, n)},
                                        std::make_shared<BoolExpr>(loc, true), nullptr);
  };
  auto bind = [&](const std::string& n, Value* v) { env_->table[n] = std::make_shared<SimpleValue>(v); };
  auto var = [&](const std::string& n) { return env_->find(n, loc)->asValue(loc, *this); };

  std::set<std::string> bodyAssigns, protectedAssigns;  // by the body; by the body, the clauses and else
  assignedNames(s.body, bodyAssigns);
  protectedAssigns = bodyAssigns;
  assignedNames(s.orelse, protectedAssigns);
  for (auto& h : s.handlers) assignedNames(h.body, protectedAssigns);
  std::vector<const StmtList*> clauses{&s.body, &s.orelse, &s.finalbody};
  for (auto& h : s.handlers) clauses.push_back(&h.body);
  bool hasReturn = false, hasBreak = false, hasContinue = false;
  for (const StmtList* c : clauses) {
    hasReturn |= containsReturn(*c);
    hasBreak |= loopDepth_ > 0 && containsBreak(*c);
    hasContinue |= loopDepth_ > 0 && containsContinue(*c);
  }
  const bool hasFinally = !s.finalbody.empty();
  const bool finallyLeaves = hasFinally && (containsReturn(s.finalbody) ||
                                            (loopDepth_ > 0 && (containsBreak(s.finalbody) || containsContinue(s.finalbody))));
  if (hasReturn) {
    if (!declaredReturn_ && !inferring_)
      throw CompileError("return statements inside try statements need the function's return type to be annotated", kw);
    declareFlaggedReturn(loc);
  }
  if (hasContinue) bind(didContinue, insertConstant(IValue(false), loc));
  if (!s.orelse.empty()) bind(tryOk, insertConstant(IValue(false), loc));
  if (hasFinally) {
    bind(pending, insertConstant(IValue(false), loc));
    bind(pendingCls, insertConstant(IValue(std::string()), loc));
    bind(pendingMsg, insertConstant(IValue(std::string()), loc));
  }
  if (finallyLeaves) bind(finDone, insertConstant(IValue(false), loc));

  std::function<BlockExit(size_t, Value*, Value*, Value*)> handlers = [&](size_t i, Value* cls, Value* msg,
                                                                           Value* text) -> BlockExit {
    if (i == s.handlers.size()) {  // no clause matched: the exception goes on
      emitRaiseOf(loc, cls, msg);
      BlockExit b;
      b.exits = true;
      return b;
    }
    const ExceptHandler& h = s.handlers[i];
    auto run = [&]() {
      if (!h.name.empty()) env_->table[h.name] = std::make_shared<CaughtExceptionValue>(cls, msg, text);
      return emitStatements(h.body);
    };
    std::vector<std::string> classes;
    if (!handledClasses(h, classes)) return run();  // catches everything: later clauses never run
    std::vector<Value*> names;
    for (const std::string& c : classes) names.push_back(insertConstant(IValue(c), h.range));
    Value* list = createList(StringType(), names, h.range);
    CondValue c;
    c.value = builtinCallValue(h.range, "aten::__contains__", {NamedValue(h.range, list), NamedValue(h.range, cls)});
    return emitIfBranches(c, run, [&]() { return handlers(i + 1, cls, msg, text); }, h.range);
  };

  tries_.push_back({tryCounter_, loopDepth_});
  auto protectedPart = [&]() -> BlockExit {
    BlockExit ex;
    if (s.handlers.empty()) {
      ex = emitStatements(s.body);
    } else {
      StmtList body = s.body;
      if (!s.orelse.empty()) body.push_back(flagTrue(tryOk));
      ex = emitTryNode(
          kw, [&]() { return emitStatements(body); },
          [&](Value* cls, Value* msg, Value* text) {
            handling_.push_back({cls, msg});
            BlockExit b = handlers(0, cls, msg, text);
            handling_.pop_back();
            return b;
          },
          bodyAssigns);
    }
    if (!s.orelse.empty() && !ex.exits) {
      CondValue c;
      c.value = var(tryOk);
      BlockExit e = emitIfBranches(c, s.orelse, StmtList{}, loc);
      ex.returns |= e.returns;
    }
    return ex;
  };

  BlockExit ex;
  if (!hasFinally) {
    ex = protectedPart();
  } else {
    ex = emitTryNode(kw, protectedPart, [&](Value* cls, Value* msg, Value*) {
      bind(pending, insertConstant(IValue(true), loc));
      bind(pendingCls, cls);
      bind(pendingMsg, msg);
      return BlockExit();
    }, protectedAssigns);
    StmtList fin = s.finalbody;
    if (finallyLeaves) fin.push_back(flagTrue(finDone));
    BlockExit fe = emitStatements(fin);
    ex.returns |= fe.returns;
    if (fe.exits) {
      tries_.pop_back();
      return fe;
    }
    CondValue c;
    c.value = var(pending);
    if (finallyLeaves)
      c.value = builtinCallValue(loc, "aten::__and__", {NamedValue(loc, c.value), NamedValue(loc, var(finDone))});
    emitIfBranches(
        c,
        [&]() {
          emitRaiseOf(loc, var(pendingCls), var(pendingMsg));
          BlockExit b;
          b.exits = true;
          return b;
        },
        []() { return BlockExit(); }, loc);
  }
  tries_.pop_back();
  if (ex.exits) return ex;  // every path raises: what follows never runs

  // A return, break or continue inside the statement skips what follows it.
  std::vector<Value*> flags;
  if (hasReturn) flags.push_back(var("$did_return"));
  if (loopDepth_ > 0 && (hasBreak || hasReturn)) flags.push_back(var(loopBreakFlag(loopDepth_)));
  if (hasContinue) flags.push_back(var(didContinue));
  if (flags.empty()) {
    BlockExit r = emitStatements(rest);
    r.returns |= ex.returns;
    return r;
  }
  if (loopDepth_ == 0 && tries_.empty()) {  // only a return can leave: return its value here
    auto ret = std::make_shared<ReturnStmt>(loc, std::make_shared<NameExpr>(loc, "$loop_return"));
    StmtList self{std::make_shared<TryStmt>(s)};
    if (rest.empty() && terminates(self)) {
      emitReturn(*ret);
      BlockExit r;
      r.exits = r.returns = true;
      return r;
    }
    return emitIf(IfStmt(loc, std::make_shared<NameExpr>(loc, "$did_return"), StmtList{ret}, rest));
  }
  Value* any = flags[0];
  for (size_t i = 1; i < flags.size(); ++i)
    any = builtinCallValue(loc, "aten::__or__", {NamedValue(loc, any), NamedValue(loc, flags[i])});
  CondValue c;
  c.value = any;
  return emitIfBranches(c, []() { return BlockExit(); }, [&]() { return emitStatements(rest); }, loc);
}

}  // namespace kindling
