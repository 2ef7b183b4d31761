// Conditions: truth values (emitToBool: __bool__, __len__, containers), `not`/`and`/`or` with
// short-circuit blocks, comparisons (chained, `is None` refinement, `in`, magic methods), isinstance with
// its refinements. A CondValue carries the refinements its truth implies and a statically known value.
#include "frontend/ir_emitter.h"

#include <functional>

#include "frontend/emitter/environment.h"
#include "frontend/emitter/keyword_arguments.h"

namespace kindling {

using namespace emitter;

namespace {

const char* cmpAten(CmpOpKind k) {
  switch (k) {
    case CmpOpKind::Eq: return "aten::eq";
    case CmpOpKind::Ne: return "aten::ne";
    case CmpOpKind::Lt: return "aten::lt";
    case CmpOpKind::Le: return "aten::le";
    case CmpOpKind::Gt: return "aten::gt";
    case CmpOpKind::Ge: return "aten::ge";
    case CmpOpKind::Is: return "aten::__is__";
    case CmpOpKind::IsNot: return "aten::__isnot__";
    case CmpOpKind::In: case CmpOpKind::NotIn: return "aten::__contains__";
  }
  return "";
}

}  // namespace

SugaredValuePtr FunctionEmitter::emitIsInstance(const CallExpr& c, CondValue* cond) {
  const SourceRange& loc = c.range;
  if (c.args.size() != 2) throw CompileError("isinstance() expects 2 arguments", loc);
  Value* v = emitExpr(c.args[0]);
  std::vector<TypePtr> candidates;
  std::function<void(const ExprPtr&)> gather = [&](const ExprPtr& t) {
    if (t->kind == ExprKind::Tuple) {
      for (auto& x : t->as<SequenceExpr>().elts) gather(x);
      return;
    }
    std::string n = dottedName(t);
    if (n == "list" || n == "List") candidates.push_back(AnyListType());
    else if (n == "tuple" || n == "Tuple") candidates.push_back(AnyTupleType());
    else if (n == "dict" || n == "Dict") candidates.push_back(DictType::create(StringType(), AnyType()));
    else candidates.push_back(typeParser_.parse(t));
  };
  gather(c.args[1]);
  const TypePtr& vt = v->type();
  auto matches = [&](const TypePtr& actual, const TypePtr& cand) -> bool {
    if (cand->kind() == TypeKind::AnyList) return actual->kind() == TypeKind::List;
    if (cand->kind() == TypeKind::AnyTuple) return actual->kind() == TypeKind::Tuple;
    if (cand->kind() == TypeKind::Dict && c.args[1]->kind != ExprKind::Subscript) return actual->kind() == TypeKind::Dict;
    if (auto* ac = actual->cast<ClassType>())
      if (auto* cc = cand->cast<ClassType>(); cc && ac->inheritsFrom(cc->qualName())) return true;
    return actual->isSubtypeOf(cand);
  };
  bool always = false;
  for (auto& t : candidates) always |= matches(vt, t);
  // Could the value at runtime be one of the candidates?
  std::vector<TypePtr> possible;
  if (vt->kind() == TypeKind::Optional) possible = {vt->cast<OptionalType>()->elementType(), NoneType()};
  else if (vt->kind() == TypeKind::Union) possible = vt->cast<UnionType>()->types();
  else if (vt->kind() == TypeKind::Any) possible = candidates;
  else possible = {vt};
  bool maybe = false;
  std::vector<TypePtr> refinedParts, otherParts;
  for (auto& p : possible) {
    bool hit = false;
    for (auto& t : candidates)
      if (matches(p, t) || (vt->kind() == TypeKind::Any)) {
        maybe = hit = true;
        refinedParts.push_back(vt->kind() == TypeKind::Any ? t : p);
        break;
      }
    if (!hit) otherParts.push_back(p);
  }
  std::string varName = c.args[0]->kind == ExprKind::Name ? c.args[0]->as<NameExpr>().id : "";
  if (always) {
    cond->staticValue = true;
    cond->value = insertConstant(IValue(true), loc);
  } else if (!maybe) {
    cond->staticValue = false;
    cond->value = insertConstant(IValue(false), loc);
  } else {
    Node* n = graph_.insert(prim::isinstance, {v}, 1);
    n->tys_("types", candidates);
    n->setSourceRange(loc);
    n->output()->setType(BoolType());
    cond->value = n->output();
    auto join = [](const std::vector<TypePtr>& parts) -> TypePtr {
      if (parts.size() == 1) return parts[0];
      if (parts.size() == 2 && (parts[0]->kind() == TypeKind::None || parts[1]->kind() == TypeKind::None))
        return OptionalType::create(parts[0]->kind() == TypeKind::None ? parts[1] : parts[0]);
      return UnionType::create(parts);
    };
    if (!varName.empty() && !refinedParts.empty()) cond->trueRefs.push_back({varName, join(refinedParts)});
    if (!varName.empty() && !otherParts.empty() && vt->kind() != TypeKind::Any)
      cond->falseRefs.push_back({varName, join(otherParts)});
  }
  return std::make_shared<SimpleValue>(cond->value);
}

Value* FunctionEmitter::emitToBool(const SourceRange& loc, Value* v) {
  const TypePtr& t = v->type();
  if (t->kind() == TypeKind::Bool) return v;
  if (t->kind() == TypeKind::Int || t->kind() == TypeKind::Float || t->kind() == TypeKind::Tensor ||
      t->kind() == TypeKind::Number)
    return builtinCallValue(loc, "aten::Bool", {NamedValue(loc, v)});
  if (t->cast<ClassType>()) {
    auto* ct = t->cast<ClassType>();
    if (ct->findMethod("__bool__")) return callMethod(loc, v, "__bool__", {}, {})->asValue(loc, *this);
    if (ct->findMethod("__len__")) {
      Value* n = callMethod(loc, v, "__len__", {}, {})->asValue(loc, *this);
      return builtinCallValue(loc, "aten::Bool", {NamedValue(loc, n)});
    }
  }
  if (t->kind() == TypeKind::List || t->kind() == TypeKind::Str || t->kind() == TypeKind::Dict) {
    Value* n = builtinCallValue(loc, "aten::len", {NamedValue(loc, v)});
    Value* zero = insertConstant(IValue(int64_t(0)), loc);
    return builtinCallValue(loc, "aten::gt", {NamedValue(loc, n), NamedValue(loc, zero)});
  }
  throw CompileError("Could not cast value of type " + typeNameForMsg(t) + " to bool", loc);
}

CondValue FunctionEmitter::emitCondExpr(const ExprPtr& e) {
  switch (e->kind) {
    case ExprKind::UnaryOp: {
      auto& u = e->as<UnaryOpExpr>();
      if (u.op != UnaryOpKind::Not) break;
      CondValue inner = emitCondExpr(u.operand);
      CondValue out;
      out.trueRefs = inner.falseRefs;
      out.falseRefs = inner.trueRefs;
      if (inner.staticValue) {
        out.staticValue = !*inner.staticValue;
        out.value = insertConstant(IValue(*out.staticValue), e->range);
      } else {
        out.value = builtinCallValue(e->range, "aten::__not__", {NamedValue(e->range, emitToBool(u.operand->range, inner.value))});
      }
      return out;
    }
    case ExprKind::BoolOp: return emitBoolOp(e->as<BoolOpExpr>());
    case ExprKind::Compare: {
      CondValue cv = emitCompare(e->as<CompareExpr>());
      if (cv.value) cv.value = emitToBool(e->range, cv.value);  // `if x[0] > 0:` on tensors → aten::Bool
      return cv;
    }
    case ExprKind::Call: {
      auto& c = e->as<CallExpr>();
      std::string fn = dottedName(c.func);
      if (fn == "isinstance" || fn == "torch.jit.isinstance") {
        if (!env_->findQuiet(fn.substr(0, fn.find('.')))) {
          CondValue cv;
          emitIsInstance(c, &cv);
          return cv;
        }
      }
      break;
    }
    default: break;
  }
  CondValue out;
  auto sv = emitSugaredExpr(e);
  if (auto* kw = dynamic_cast<KeywordArgumentsValue*>(sv.get())) {  // `if kwargs:`: known statically
    out.staticValue = !kw->entries.empty();
    out.value = insertConstant(IValue(*out.staticValue), e->range);
    return out;
  }
  Value* v = sv->asValue(e->range, *this);
  if (auto cst = v->constantValue()) {
    if (cst->isBool()) out.staticValue = cst->toBool();
  }
  out.value = emitToBool(e->range, v);
  // As PyTorch's emitCondExpr ("MetaCompile on boolean literals and constants"): a condition that is a
  // bool prim::Constant (a literal, a variable bound to one, torch.jit.is_scripting()) is static: only
  // the taken branch is emitted and type-checked.
  return out;
}

CondValue FunctionEmitter::emitBoolOp(const BoolOpExpr& b) {
  // a and b → if a: b else False ; a or b → if a: True else b (left-associative over values)
  bool isAnd = b.op == BoolOpKind::And;
  CondValue acc = emitCondExpr(b.values[0]);
  acc.value = emitToBool(b.values[0]->range, acc.value);
  for (size_t i = 1; i < b.values.size(); ++i) {
    const ExprPtr& rhsE = b.values[i];
    if (acc.staticValue && *acc.staticValue == !isAnd) {
      // short-circuit statically (True or ..., False and ...)
      continue;
    }
    Node* n = graph_.insert(prim::If, {acc.value}, 1);
    n->setSourceRange(b.range);
    n->output()->setType(BoolType());
    Block* tb = n->addBlock();
    Block* fb = n->addBlock();
    CondValue rhs;
    auto emitRhs = [&](Block* blk, const std::vector<Refinement>& refs) {
      WithInsertPoint g(blk);
      auto frame = std::make_shared<Environment>(blk, env_);
      env_ = frame;
      insertRefinements(b.range, refs);
      rhs = emitCondExpr(rhsE);
      blk->registerOutput(emitToBool(rhsE->range, rhs.value));
      env_ = frame->next;
    };
    auto constIn = [&](Block* blk, bool v) {
      WithInsertPoint g(blk);
      blk->registerOutput(insertConstant(IValue(v), b.range));
    };
    if (isAnd) {
      emitRhs(tb, acc.trueRefs);
      constIn(fb, false);
    } else {
      constIn(tb, true);
      emitRhs(fb, acc.falseRefs);
    }
    CondValue next;
    next.value = n->output();
    if (isAnd) {
      next.trueRefs = acc.trueRefs;
      next.trueRefs.insert(next.trueRefs.end(), rhs.trueRefs.begin(), rhs.trueRefs.end());
    } else {
      next.falseRefs = acc.falseRefs;
      next.falseRefs.insert(next.falseRefs.end(), rhs.falseRefs.begin(), rhs.falseRefs.end());
    }
    // As PyTorch's emitShortCircuitLogical: `a and <static False>` is static False, `a or <static True>` static
    // True (a is still evaluated), and two static operands give a static result, so `if t is not None and
    // self.proj is not None:` with proj None emits no branch that calls None.
    std::optional<bool> known;
    if (rhs.staticValue && *rhs.staticValue == !isAnd) known = !isAnd;
    else if (rhs.staticValue && acc.staticValue) known = *rhs.staticValue;
    if (known) {
      next.staticValue = known;
      next.value = insertConstant(IValue(*known), b.range);
    }
    acc = next;
  }
  return acc;
}

CondValue FunctionEmitter::emitCompare(const CompareExpr& c) {
  Value* lhs = nullptr;
  ExprPtr lhsE = c.left;
  bool lhsIsNone = c.left->kind == ExprKind::None;
  if (!lhsIsNone) lhs = emitExpr(c.left);
  if (c.ops.size() == 1) {
    if (c.ops[0] == CmpOpKind::In || c.ops[0] == CmpOpKind::NotIn) {
      SugaredValuePtr container = emitSugaredExpr(c.comparators[0]);
      if (auto* kw = dynamic_cast<KeywordArgumentsValue*>(container.get())) {
        // "k" in kwargs: the keys are known statically
        auto key = lhs ? lhs->constantValue() : std::nullopt;
        if (!key || !key->isString())
          throw CompileError("only a string constant can be tested for being a key of **kwargs", c.left->range);
        CondValue out;
        out.staticValue = (kw->find(key->toStringRef()) != nullptr) == (c.ops[0] == CmpOpKind::In);
        out.value = insertConstant(IValue(*out.staticValue), c.range);
        return out;
      }
      return emitCompareOne(c.range, c.ops[0], lhsE, lhs, c.comparators[0],
                            container->asValue(c.comparators[0]->range, *this));
    }
    Value* rhs = c.comparators[0]->kind == ExprKind::None ? nullptr : emitExpr(c.comparators[0]);
    return emitCompareOne(c.range, c.ops[0], lhsE, lhs, c.comparators[0], rhs);
  }
  // chained: a < b < c → (a < b) and (b < c), each operand evaluated once, later ones only if needed.
  // Emitted flat, as an `and` chain is: step i is a prim::If on the result so far whose true branch
  // evaluates operand i + 1 and compares; it also outputs that operand for the next step (the false
  // branch gives prim::Uninitialized, never read: later steps run only on the true path). Nesting each
  // step in the one before would make the graph as deep as the chain is long.
  if (!lhs) lhs = insertConstant(IValue(), c.left->range);
  Value* cur = emitExpr(c.comparators[0]);
  Value* ok = emitToBool(c.range, emitCompareOne(c.range, c.ops[0], lhsE, lhs, c.comparators[0], cur).value);
  for (size_t i = 1; i < c.ops.size(); ++i) {
    bool last = i + 1 == c.ops.size();
    Node* n = graph_.insert(prim::If, {ok}, last ? 1 : 2);
    n->setSourceRange(c.range);
    n->output(0)->setType(BoolType());
    Block* tb = n->addBlock();
    Block* fb = n->addBlock();
    Value* rhs = nullptr;
    {
      WithInsertPoint g(tb);
      rhs = emitExpr(c.comparators[i]);
      tb->registerOutput(
          emitToBool(c.range, emitCompareOne(c.range, c.ops[i], c.comparators[i - 1], cur, c.comparators[i], rhs).value));
      if (!last) tb->registerOutput(rhs);
    }
    {
      WithInsertPoint g(fb);
      fb->registerOutput(insertConstant(IValue(false), c.range));
      if (!last) {
        Node* u = graph_.insert(prim::Uninitialized, {}, 1);
        u->output()->setType(rhs->type());
        fb->registerOutput(u->output());
      }
    }
    if (!last) n->output(1)->setType(rhs->type());
    ok = n->output(0);
    cur = last ? nullptr : n->output(1);
  }
  CondValue result;
  result.value = ok;
  return result;
}

CondValue FunctionEmitter::emitCompareOne(const SourceRange& loc, CmpOpKind op, const ExprPtr& lhsE, Value* lhs,
                                          const ExprPtr& rhsE, Value* rhs) {
  CondValue out;
  if (op == CmpOpKind::Eq || op == CmpOpKind::Ne) {
    // `x == None` / `x != None` mean `x is None` / `x is not None` for every type without its own
    // __eq__/__ne__ (Python compares by identity then), refining Optional[T] alike. PyTorch 1.13 has no
    // overload for them and rejects the comparison; the saved code is the `is` form.
    bool lNone = !lhs || lhs->type()->kind() == TypeKind::None;
    bool rNone = !rhs || rhs->type()->kind() == TypeKind::None;
    Value* other = lNone ? rhs : lhs;
    auto* oc = other ? other->type()->cast<ClassType>() : nullptr;
    if ((lNone || rNone) && !(oc && oc->findMethod(op == CmpOpKind::Eq ? "__eq__" : "__ne__")))
      return emitCompareOne(loc, op == CmpOpKind::Eq ? CmpOpKind::Is : CmpOpKind::IsNot, lhsE, lhs, rhsE, rhs);
  }
  if (op == CmpOpKind::Is || op == CmpOpKind::IsNot) {
    // refinement / static evaluation for `x is None`
    bool lNone = !lhs || lhs->type()->kind() == TypeKind::None;
    bool rNone = !rhs || rhs->type()->kind() == TypeKind::None;
    if (!lhs) lhs = insertConstant(IValue(), lhsE->range);
    if (!rhs) rhs = insertConstant(IValue(), rhsE->range);
    if (lNone || rNone) {
      Value* other = lNone ? rhs : lhs;
      const ExprPtr& otherE = lNone ? rhsE : lhsE;
      const TypePtr& ot = other->type();
      bool isIs = op == CmpOpKind::Is;
      if (ot->kind() == TypeKind::None) {
        out.staticValue = isIs;
      } else if (ot->kind() != TypeKind::Optional && ot->kind() != TypeKind::Union && ot->kind() != TypeKind::Any) {
        out.staticValue = !isIs;
      } else if (otherE->kind == ExprKind::Attribute && ot->kind() == TypeKind::Optional &&
                 !attributePath(otherE).empty()) {
        // an attribute path (`self.size`, `s.end`): refined where it is not None (PyTorch 1.13 never
        // refines attributes; Python has no types to refine)
        Refinement r{attributePath(otherE), ot->cast<OptionalType>()->elementType()};
        (isIs ? out.falseRefs : out.trueRefs).push_back(r);
      } else if (otherE->kind == ExprKind::Name && ot->kind() == TypeKind::Optional) {
        Refinement r{otherE->as<NameExpr>().id, ot->cast<OptionalType>()->elementType()};
        Refinement rn{otherE->as<NameExpr>().id, NoneType()};
        if (isIs) {
          out.falseRefs.push_back(r);
          out.trueRefs.push_back(rn);
        } else {
          out.trueRefs.push_back(r);
          out.falseRefs.push_back(rn);
        }
      }
    }
    out.value = builtinCallValue(loc, cmpAten(op), {NamedValue(lhsE->range, lhs), NamedValue(rhsE->range, rhs)});
    if (out.staticValue) {
      // keep the node (PyTorch emits it) but use the known value for branch selection
    }
    return out;
  }
  if (!lhs) lhs = insertConstant(IValue(), lhsE->range);
  if (!rhs) rhs = insertConstant(IValue(), rhsE->range);
  if (op == CmpOpKind::In || op == CmpOpKind::NotIn) {
    Value* v;
    if (rhs->type()->cast<ClassType>())
      v = callMethod(loc, rhs, "__contains__", {NamedValue(lhsE->range, lhs)}, {})->asValue(loc, *this);
    else if (rhs->type()->kind() == TypeKind::Str && lhs->type()->kind() == TypeKind::Str) {
      // PyTorch's builtin str.__contains__: self.find(key, 0, len(self)) != -1
      Value* n = builtinCallValue(loc, "aten::len", {NamedValue(loc, rhs)});
      Value* f = builtinCallValue(loc, "aten::find", {NamedValue(loc, rhs), NamedValue(loc, lhs),
                                                      NamedValue(loc, insertConstant(IValue(int64_t(0)), loc)), NamedValue(loc, n)});
      v = builtinCallValue(loc, "aten::ne", {NamedValue(loc, f), NamedValue(loc, insertConstant(IValue(int64_t(-1)), loc))});
    } else
      v = builtinCallValue(loc, "aten::__contains__", {NamedValue(rhsE->range, rhs), NamedValue(lhsE->range, lhs)});
    if (op == CmpOpKind::NotIn) v = builtinCallValue(loc, "aten::__not__", {NamedValue(loc, v)});
    out.value = v;
    return out;
  }
  if (auto* ct = lhs->type()->cast<ClassType>()) {
    static const std::pair<CmpOpKind, const char*> magic[] = {{CmpOpKind::Eq, "__eq__"}, {CmpOpKind::Ne, "__ne__"},
                                                              {CmpOpKind::Lt, "__lt__"}, {CmpOpKind::Le, "__le__"},
                                                              {CmpOpKind::Gt, "__gt__"}, {CmpOpKind::Ge, "__ge__"}};
    for (auto& [k, m] : magic)
      if (k == op && ct->findMethod(m)) {
        out.value = callMethod(loc, lhs, m, {NamedValue(rhsE->range, rhs)}, {})->asValue(loc, *this);
        return out;
      }
  }
  // number (cmp) Tensor → Tensor (reversed cmp) number, as PyTorch's builtin functions
  TypeKind lk = lhs->type()->kind();
  if ((lk == TypeKind::Int || lk == TypeKind::Float || lk == TypeKind::Bool || lk == TypeKind::Number) &&
      rhs->type()->kind() == TypeKind::Tensor) {
    CmpOpKind rev = op;
    if (op == CmpOpKind::Lt) rev = CmpOpKind::Gt;
    else if (op == CmpOpKind::Gt) rev = CmpOpKind::Lt;
    else if (op == CmpOpKind::Le) rev = CmpOpKind::Ge;
    else if (op == CmpOpKind::Ge) rev = CmpOpKind::Le;
    out.value = builtinCallValue(loc, cmpAten(rev), {NamedValue(rhsE->range, rhs), NamedValue(lhsE->range, lhs)});
    return out;
  }
  out.value = builtinCallValue(loc, cmpAten(op), {NamedValue(lhsE->range, lhs), NamedValue(rhsE->range, rhs)});
  return out;
}

}  // namespace kindling
