// `if` statements and if-expressions: prim::If with the variables either branch assigns as outputs
// (types unified), conditions known statically emitting only the taken branch, refinements inserted as
// prim::unchecked_cast in the branch where they hold.
#include "frontend/ir_emitter.h"

#include <set>

#include "frontend/emitter/environment.h"

namespace kindling {

using namespace emitter;

FunctionEmitter::BlockExit FunctionEmitter::emitIf(const IfStmt& s) {
  CondValue cond = emitCondExpr(s.test);
  return emitIfBranches(cond, s.body, s.orelse, s.range);
}

void FunctionEmitter::insertRefinements(const SourceRange& loc, const std::vector<Refinement>& refs) {
  for (const Refinement& r : refs) {
    if (r.name.find('.') != std::string::npos) {
      env_->refinedAttributes[r.name] = r.type;  // an attribute path (reads unwrap it: emitSugaredExpr)
      continue;
    }
    auto v = env_->findQuiet(r.name);
    auto* sv = dynamic_cast<SimpleValue*>(v.get());
    if (!sv) continue;
    if (sv->value->type()->equals(*r.type)) continue;
    Node* n = graph_.insert(prim::unchecked_cast, {sv->value}, 1);
    n->setSourceRange(loc);
    n->output()->setType(r.type);
    setVar(*this, *env_, r.name, std::make_shared<SimpleValue>(n->output()), loc);
  }
}

FunctionEmitter::BlockExit FunctionEmitter::emitIfBranches(const CondValue& cond, const StmtList& trueBranch,
                                                           const StmtList& falseBranch, const SourceRange& loc) {
  return emitIfBranches(
      cond, [&]() { return emitStatements(trueBranch); }, [&]() { return emitStatements(falseBranch); }, loc);
}

FunctionEmitter::BlockExit FunctionEmitter::emitIfBranches(const CondValue& cond,
                                                           const std::function<BlockExit()>& trueBranch,
                                                           const std::function<BlockExit()>& falseBranch,
                                                           const SourceRange& loc) {
  if (cond.staticValue) {
    insertRefinements(loc, *cond.staticValue ? cond.trueRefs : cond.falseRefs);
    return *cond.staticValue ? trueBranch() : falseBranch();
  }
  Node* n = graph_.insert(prim::If, {cond.value}, 0);
  n->setSourceRange(loc);
  n->addBlock();
  n->addBlock();
  return emitTwoBlocks(n, trueBranch, falseBranch, cond.trueRefs, cond.falseRefs, loc, {"true", "false"});
}

FunctionEmitter::BlockExit FunctionEmitter::emitTwoBlocks(Node* n, const std::function<BlockExit()>& trueBranch,
                                                          const std::function<BlockExit()>& falseBranch,
                                                          const std::vector<Refinement>& trueRefs,
                                                          const std::vector<Refinement>& falseRefs,
                                                          const SourceRange& loc, const BlockNames& names_) {
  Block* tb = n->blocks()[0];
  Block* fb = n->blocks()[1];
  const std::string tn = names_.first, fnm = names_.second;
  auto emitBranch = [&](Block* b, const std::function<BlockExit()>& stmts, const std::vector<Refinement>& refs) {
    WithInsertPoint guard(b);
    auto frame = std::make_shared<Environment>(b, env_);
    env_ = frame;
    insertRefinements(loc, refs);
    BlockExit ex = stmts();
    env_ = frame->next;
    return std::make_pair(frame, ex);
  };
  auto [tf, tex] = emitBranch(tb, trueBranch, trueRefs);
  auto [ff, fex] = emitBranch(fb, falseBranch, falseRefs);

  std::set<std::string> names;
  for (auto& [k, v] : tf->table) names.insert(k);
  for (auto& [k, v] : ff->table) names.insert(k);
  // attribute refinements that hold at the end of every branch that falls through hold after the If
  // (`assert a.b is not None`, `if a.b is None: return`)
  if (!tex.exits || !fex.exits) {
    const Environment& first = tex.exits ? *ff : *tf;
    const Environment& second = tex.exits || fex.exits ? first : *ff;
    for (auto& [path, type] : first.refinedAttributes) {
      auto it = second.refinedAttributes.find(path);
      if (it != second.refinedAttributes.end() && it->second->equals(*type)) env_->refinedAttributes[path] = type;
    }
  }

  auto addOutput = [&](const std::string& name, Value* tv, Value* fv, const TypePtr& type) {
    tb->registerOutput(tv);
    fb->registerOutput(fv);
    Value* out = n->addOutput();
    out->setType(type);
    setVar(*this, *env_, name, std::make_shared<SimpleValue>(out), loc);
  };
  auto uninitializedIn = [&](Block* b, const TypePtr& t) {
    WithInsertPoint guard(b);
    Node* u = graph_.insert(prim::Uninitialized, {}, 1);
    u->setSourceRange(loc);
    u->output()->setType(t);
    return u->output();
  };
  auto noneIn = [&](Block* b) {
    WithInsertPoint guard(b);
    return insertConstant(IValue(), loc);
  };

  for (const std::string& name : names) {
    if (name == "$return") {
      auto tr = tf->table.count(name) ? tf->table[name] : nullptr;
      auto fr = ff->table.count(name) ? ff->table[name] : nullptr;
      Value* tv = tr ? tr->asValue(loc, *this) : nullptr;
      Value* fv = fr ? fr->asValue(loc, *this) : nullptr;
      if (!tv) tv = tex.exits ? uninitializedIn(tb, fv->type()) : noneIn(tb);
      if (!fv) fv = fex.exits ? uninitializedIn(fb, tv->type()) : noneIn(fb);
      TypePtr t;
      if (tv->node()->kind() == prim::Uninitialized) t = fv->type();
      else if (fv->node()->kind() == prim::Uninitialized) t = tv->type();
      else if (auto u = unifyTypes(tv->type(), fv->type())) t = *u;
      else if (declaredReturn_) t = declaredReturn_;
      else
        throw CompileError("Previous return statement returned a value of type " + typeNameForMsg(tv->type()) +
                               " but this return statement returns a value of type " + typeNameForMsg(fv->type()),
                           loc);
      addOutput(name, tv, fv, t);
      continue;
    }
    if (tex.exits && fex.exits) continue;
    SugaredValuePtr tsv = tf->findQuiet(name);
    SugaredValuePtr fsv = ff->findQuiet(name);
    if (tex.exits) {
      if (!ff->table.count(name) || !fsv) continue;
      auto* fs = dynamic_cast<SimpleValue*>(fsv.get());
      if (!fs) { env_->table[name] = fsv; continue; }
      addOutput(name, uninitializedIn(tb, fs->value->type()), fs->value, fs->value->type());
      continue;
    }
    if (fex.exits) {
      if (!tf->table.count(name) || !tsv) continue;
      auto* ts = dynamic_cast<SimpleValue*>(tsv.get());
      if (!ts) { env_->table[name] = tsv; continue; }
      addOutput(name, ts->value, uninitializedIn(fb, ts->value->type()), ts->value->type());
      continue;
    }
    if (!tsv || !fsv) {
      env_->table.erase(name);
      // as PyTorch: the message shows the if statement, then (at the use) "and was used here"
      env_->errors[name] = name + " is not defined in the " + (tsv ? fnm : tn) + " branch:\n" +
                           loc.highlight() + "and was used here";
      continue;
    }
    if (tsv == fsv) continue;
    auto* ts = dynamic_cast<SimpleValue*>(tsv.get());
    auto* fs = dynamic_cast<SimpleValue*>(fsv.get());
    if (!ts || !fs) {
      env_->table.erase(name);
      env_->errors[name] = name + " is defined differently in the " + tn + " and " + fnm + " branches (" + tsv->kind() +
                           " and " + fsv->kind() + ")";
      continue;
    }
    auto unified = unifyTypes(ts->value->type(), fs->value->type());
    if (!unified) {
      // as PyTorch: branches of different types join to a Union when the variable already has a Union,
      // Optional or Number type (`y : Union[int, str] = 0`, then an int in one branch and a str in the other)
      TypePtr full;
      if (auto* outer = dynamic_cast<SimpleValue*>(env_->findQuiet(name).get())) full = outer->value->type();
      if (full && (full->kind() == TypeKind::Union || full->kind() == TypeKind::Optional ||
                   full->kind() == TypeKind::Number))
        unified = UnionType::create({ts->value->type(), fs->value->type()});
    }
    if (!unified) {
      env_->table.erase(name);
      env_->errors[name] = "Type mismatch: " + name + " is set to type " + typeNameForMsg(ts->value->type()) +
                           " in the " + tn + " branch and type " + typeNameForMsg(fs->value->type()) +
                           " in the " + fnm + " branch:\n" + loc.highlight() + "and was used here";
      continue;
    }
    addOutput(name, ts->value, fs->value, *unified);
  }
  BlockExit ex;
  ex.exits = tex.exits && fex.exits;
  ex.returns = tex.returns || fex.returns;
  return ex;
}

Value* FunctionEmitter::emitIfExp(const IfExpExpr& e, const TypePtr& typeHint) {
  CondValue c = emitCondExpr(e.test);
  if (c.staticValue) {
    insertRefinements(e.range, *c.staticValue ? c.trueRefs : c.falseRefs);
    return emitExpr(*c.staticValue ? e.body : e.orelse, typeHint);
  }
  Node* n = graph_.insert(prim::If, {c.value}, 1);
  n->setSourceRange(e.range);
  Block* tb = n->addBlock();
  Block* fb = n->addBlock();
  auto emitIn = [&](Block* b, const ExprPtr& x, const std::vector<Refinement>& refs) {
    WithInsertPoint g(b);
    auto frame = std::make_shared<Environment>(b, env_);
    env_ = frame;
    insertRefinements(e.range, refs);
    Value* v = emitExpr(x, typeHint);
    env_ = frame->next;
    b->registerOutput(v);
    return v;
  };
  Value* tv = emitIn(tb, e.body, c.trueRefs);
  Value* fv = emitIn(fb, e.orelse, c.falseRefs);
  auto u = unifyTypes(tv->type(), fv->type());
  if (!u)
    throw CompileError("if-expression's true branch has type " + typeNameForMsg(tv->type()) +
                           " but false branch has type " + typeNameForMsg(fv->type()),
                       e.range);
  n->output()->setType(*u);
  return n->output();
}

}  // namespace kindling
