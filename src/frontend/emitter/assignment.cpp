// Assignments and their targets: names (annotated or not), tuple/list unpacking with a starred target,
// attributes, subscripts of tensors, lists, dicts and classes; augmented assignment (PyTorch's getAugOp);
// `del` of names and subscripts.
#include "core/echo_excerpt.h"
#include "frontend/ir_emitter.h"

#include "frontend/emitter/environment.h"
#include "frontend/emitter/keyword_arguments.h"

namespace kindling {

using namespace emitter;

void FunctionEmitter::emitAssign(const AssignStmt& s) {
  if (!s.value) {
    // `x : T` without a value: the wording of torch.jit.script (frontend.py build_AnnAssign)
    throw CompileError("annotated assignments without assigned value aren't supported", s.range);
  }
  TypePtr declared;
  if (s.annotation) declared = typeParser_.parse(s.annotation);
  if (declared && s.targets.size() == 1 && s.targets[0]->kind == ExprKind::Attribute) {
    // `self.x : T = v`: as PyTorch 1.13, T is only the type hint of v (`[]`, `{}`, None literals); the
    // attribute gets v's type (`self.x : Optional[int] = None` makes a NoneType attribute).
    emitAssignTarget(s.targets[0], emitSugaredExpr(s.value, 1, declared), s.range, nullptr);
    return;
  }
  SugaredValuePtr rhs;
  if (s.targets.size() == 1 && s.targets[0]->kind != ExprKind::Tuple && s.targets[0]->kind != ExprKind::List) {
    rhs = emitSugaredExpr(s.value, 1, declared);
  } else {
    size_t n = 1;
    if (s.targets[0]->kind == ExprKind::Tuple || s.targets[0]->kind == ExprKind::List)
      n = s.targets[0]->as<SequenceExpr>().elts.size();
    rhs = emitSugaredExpr(s.value, n, declared);
  }
  if (declared) {
    Value* v = rhs->asValue(s.value->range, *this);
    v = tryConvertToType(s.value->range, graph_, declared, v, Conversions::Python, *registry_);
    if (!v->type()->isSubtypeOf(declared))
      throw CompileError("Variable '" + dottedName(s.targets[0]) + "' is annotated with type " +
                             typeNameForMsg(declared) + " but is being assigned to a value of type " +
                             typeNameForMsg(v->type()),
                         s.range);
    if (s.targets.size() == 1 && s.targets[0]->kind == ExprKind::Name) {
      const std::string& name = s.targets[0]->as<NameExpr>().id;
      if (env_->next && env_->next->findQuiet(name))
        throw CompileError("Attempting to declare and annotate the type of variable '" + name +
                               "' but it is already defined in an outer block",
                           s.targets[0]->range);
      if (!v->type()->equals(*declared)) {
        Node* load = graph_.insert(prim::Load, {v}, 1);
        load->output()->setType(declared);
        v = load->output();
      }
    }
    rhs = std::make_shared<SimpleValue>(v);
  }
  // a = b = value assigns right to left in Python; order does not matter for SSA
  for (auto& t : s.targets) emitAssignTarget(t, rhs, s.range, declared);
}

void FunctionEmitter::emitAssignTarget(const ExprPtr& target, const SugaredValuePtr& value, const SourceRange& loc,
                                       const TypePtr& declared) {
  switch (target->kind) {
    case ExprKind::Name: {
      const std::string& name = target->as<NameExpr>().id;
      if (TypePtr widened = widenedType(name)) {
        // `x = None` of a variable assigned a T later (none_widening.h): x is Optional[T]
        auto* sv = dynamic_cast<SimpleValue*>(value.get());
        if (sv && sv->value->type()->kind() == TypeKind::None) {
          Node* load = graph_.insert(prim::Load, {sv->value}, 1);
          load->output()->setType(widened);
          setVar(*this, *env_, name, std::make_shared<SimpleValue>(load->output()), target->range);
          return;
        }
      }
      setVar(*this, *env_, name, value, target->range);
      return;
    }
    case ExprKind::Tuple:
    case ExprKind::List: {
      const auto& elts = target->as<SequenceExpr>().elts;
      size_t starIdx = elts.size();
      for (size_t i = 0; i < elts.size(); ++i)
        if (elts[i]->kind == ExprKind::Starred) {
          if (starIdx != elts.size()) throw CompileError("multiple starred expressions in assignment", elts[i]->range);
          starIdx = i;
        }
      auto outputs = value->asTuple(loc, *this, starIdx == elts.size() ? std::optional<size_t>(elts.size()) : std::nullopt);
      if (starIdx == elts.size()) {
        if (outputs.size() != elts.size())
          // PyTorch's wording (ir_emitter.cpp emitTupleAssign)
          throw CompileError(outputs.size() < elts.size()
                                 ? "need " + std::to_string(elts.size()) + " values to unpack but found only " +
                                       std::to_string(outputs.size())
                                 : "too many values to unpack: need " + std::to_string(elts.size()) + " but found " +
                                       std::to_string(outputs.size()),
                             loc);
        for (size_t i = 0; i < elts.size(); ++i) emitAssignTarget(elts[i], outputs[i], loc, nullptr);
      } else {
        size_t after = elts.size() - starIdx - 1;
        if (outputs.size() < elts.size() - 1)
          throw CompileError("not enough values to unpack (expected at least " + std::to_string(elts.size() - 1) +
                                 ", got " + std::to_string(outputs.size()) + ")",
                             loc);
        for (size_t i = 0; i < starIdx; ++i) emitAssignTarget(elts[i], outputs[i], loc, nullptr);
        std::vector<Value*> starred;
        for (size_t i = starIdx; i < outputs.size() - after; ++i) starred.push_back(outputs[i]->asValue(loc, *this));
        emitAssignTarget(elts[starIdx]->as<StarredExpr>().value,
                         std::make_shared<SimpleValue>(createTuple(starred, loc)), loc, nullptr);
        for (size_t i = 0; i < after; ++i)
          emitAssignTarget(elts[starIdx + 1 + i], outputs[outputs.size() - after + i], loc, nullptr);
      }
      return;
    }
    case ExprKind::Attribute: {
      auto& a = target->as<AttributeExpr>();
      auto obj = emitSugaredExpr(a.value);
      obj->setAttr(target->range, *this, a.attr, value->asValue(loc, *this));
      forgetAttributeRefinements(*env_, a.attr);
      return;
    }
    case ExprKind::Subscript:
      emitSubscriptAssign(target->as<SubscriptExpr>(), value->asValue(loc, *this), loc);
      return;
    case ExprKind::Starred:
      throw CompileError("starred assignment target must be in a list or tuple", target->range);
    default: throw CompileError("unexpected expression on the left-hand side of an assignment", target->range);
  }
  (void)declared;
}

void FunctionEmitter::emitSubscriptAssign(const SubscriptExpr& target, Value* rhs, const SourceRange& loc) {
  SugaredValuePtr container = emitSugaredExpr(target.value);
  if (dynamic_cast<KeywordArgumentsValue*>(container.get())) throw kwargsChangeError(target.range, "an item assigned");
  Value* obj = container->asValue(target.value->range, *this);
  const TypePtr& t = obj->type();
  if (t->kind() == TypeKind::Tensor) {
    // x[idx] = v: index into a view, then copy_ (tensor) or fill_ (scalar)
    Value* view = emitTensorIndexing(target.range, obj, target.subscripts);
    if (view->node()->kind() == Symbol::fromQualString("aten::index")) {
      // advanced indexing: index_put_
      Node* idx = view->node();
      Value* self = idx->input(0);
      Value* indices = idx->input(1);
      view->node()->destroy();
      Value* v = rhs;
      if (v->type()->kind() != TypeKind::Tensor)
        v = builtinCallValue(loc, "aten::tensor", {NamedValue(loc, rhs)});
      builtinCall(loc, "aten::index_put_", {NamedValue(loc, self), NamedValue(loc, indices), NamedValue(loc, v)});
      return;
    }
    if (rhs->type()->kind() == TypeKind::Tensor)
      builtinCall(loc, "aten::copy_", {NamedValue(loc, view), NamedValue(loc, rhs)});
    else
      builtinCall(loc, "aten::fill_", {NamedValue(loc, view), NamedValue(loc, rhs)});
    return;
  }
  if (t->kind() == TypeKind::List || t->kind() == TypeKind::Dict) {
    if (target.subscripts.size() != 1 || target.subscripts[0]->kind == ExprKind::Slice)
      throw CompileError("Sliced assignment to lists is not supported", target.range);
    Value* idx = emitExpr(target.subscripts[0]);
    builtinCall(loc, "aten::_set_item", {NamedValue(loc, obj), NamedValue(loc, idx), NamedValue(loc, rhs)});
    return;
  }
  if (auto* ct = t->cast<ClassType>()) {
    if (ct->findMethod("__setitem__")) {
      Value* idx = emitExpr(target.subscripts[0]);
      callMethod(loc, obj, "__setitem__", {NamedValue(loc, idx), NamedValue(loc, rhs)}, {});
      return;
    }
  }
  throw CompileError("'" + t->annotationStr() + "' object does not support item assignment", target.range);
}

void FunctionEmitter::emitAugAssign(const AugAssignStmt& s) {
  const ExprPtr& target = s.target;
  // PyTorch's getAugOp: tensors and lists use the in-place variant where one exists (`|=` on a tensor
  // is the out-of-place bitwise_or, `**=` is pow); `%=` is fmod (not Python's %), so `x %= 2` on an int
  // gives a float; `//=` and `@=` are rejected by the Python frontend.
  if (s.op == BinOpKind::FloorDiv || s.op == BinOpKind::MatMul)
    throw CompileError(std::string("unsupported kind of augumented assignment: ") +
                           (s.op == BinOpKind::FloorDiv ? "FloorDiv" : "MatMult"),
                       s.range);
  auto augOp = [&](const TypePtr& lt) -> const char* {
    bool inplace = lt->kind() == TypeKind::Tensor || lt->kind() == TypeKind::List;
    switch (s.op) {
      case BinOpKind::Add: return inplace ? "aten::add_" : "aten::add";
      case BinOpKind::Sub: return inplace ? "aten::sub_" : "aten::sub";
      case BinOpKind::Div: return inplace ? "aten::div_" : "aten::div";
      case BinOpKind::Mul: return inplace ? "aten::mul_" : "aten::mul";
      case BinOpKind::Mod: return inplace ? "aten::fmod_" : "aten::fmod";
      case BinOpKind::BitOr: return inplace ? "aten::bitwise_or" : "aten::__or__";
      case BinOpKind::BitAnd: return inplace ? "aten::bitwise_and" : "aten::__and__";
      case BinOpKind::BitXor: return inplace ? "aten::bitwise_xor" : "aten::__xor__";
      case BinOpKind::LShift: return "aten::__lshift__";
      case BinOpKind::RShift: return inplace ? "aten::__irshift__" : "aten::__rshift__";
      case BinOpKind::Pow: return "aten::pow";
      default: return nullptr;
    }
  };
  auto combine = [&](Value* lhs, bool allowInplace) -> Value* {
    Value* rhs = emitExpr(s.value);
    const TypePtr& lt = lhs->type();
    if (allowInplace && (lt->kind() == TypeKind::Tensor || lt->kind() == TypeKind::List)) {
      return builtinCallValue(s.range, augOp(lt), {NamedValue(target->range, lhs), NamedValue(s.value->range, rhs)});
    }
    if (s.op == BinOpKind::Mod || s.op == BinOpKind::Pow)
      return builtinCallValue(s.range, augOp(lt), {NamedValue(target->range, lhs), NamedValue(s.value->range, rhs)});
    return emitBinOp(s.range, s.op, lhs, rhs, target->range, s.value->range);
  };
  switch (target->kind) {
    case ExprKind::Name: {
      Value* lhs = emitExpr(target);
      Value* out = combine(lhs, true);
      setVar(*this, *env_, target->as<NameExpr>().id, std::make_shared<SimpleValue>(out), s.range);
      return;
    }
    case ExprKind::Attribute: {
      auto& a = target->as<AttributeExpr>();
      auto obj = emitSugaredExpr(a.value);
      Value* lhs = obj->attr(target->range, *this, a.attr)->asValue(target->range, *this);
      bool inplace = lhs->type()->kind() == TypeKind::Tensor || lhs->type()->kind() == TypeKind::List;
      Value* out = combine(lhs, true);
      if (!inplace) obj->setAttr(target->range, *this, a.attr, out);
      forgetAttributeRefinements(*env_, a.attr);
      return;
    }
    case ExprKind::Subscript: {
      auto& sub = target->as<SubscriptExpr>();
      SugaredValuePtr base = emitSugaredExpr(sub.value);
      if (dynamic_cast<KeywordArgumentsValue*>(base.get())) throw kwargsChangeError(target->range, "an item assigned");
      Value* container = base->asValue(sub.value->range, *this);
      if (container->type()->kind() == TypeKind::Tensor) {
        Value* view = emitTensorIndexing(sub.range, container, sub.subscripts);
        Value* out = combine(view, true);
        if (view->node()->kind() == Symbol::fromQualString("aten::index")) {
          // advanced indexing (PyTorch's emitAugAssignmentToSubscript): the op updates the gathered copy,
          // which index_put_ writes back
          Node* idx = view->node();
          builtinCall(s.range, "aten::index_put_", {NamedValue(s.range, idx->input(0)), NamedValue(s.range, idx->input(1)),
                                                    NamedValue(s.range, out)});
        }
        return;
      }
      if (sub.subscripts.size() != 1) throw CompileError("unsupported augmented assignment target", target->range);
      if (container->type()->kind() != TypeKind::List && container->type()->kind() != TypeKind::Dict)
        throw CompileError(container->type()->annotationStr() + " does not support augmented assignment.", s.range);
      Value* idx = emitExpr(sub.subscripts[0]);
      Value* cur = builtinCallValue(target->range, "aten::__getitem__", {NamedValue(sub.value->range, container), NamedValue(sub.subscripts[0]->range, idx)});
      Value* out = combine(cur, true);  // getAugOp of the element type: tensors in place
      builtinCall(s.range, "aten::_set_item", {NamedValue(s.range, container), NamedValue(s.range, idx), NamedValue(s.range, out)});
      return;
    }
    default: throw CompileError("unsupported augmented assignment target", target->range);
  }
}

void FunctionEmitter::emitDelete(const DeleteStmt& s) {
  for (auto& t : s.targets) {
    if (t->kind == ExprKind::Name) {
      const std::string& n = t->as<NameExpr>().id;
      if (!env_->find(n, t->range)) throw CompileError("undefined value " + echoExcerpt(n), t->range);
      env_->table.erase(n);
      env_->errors[n] = "undefined value " + n;
      continue;
    }
    if (t->kind == ExprKind::Subscript) {
      auto& sub = t->as<SubscriptExpr>();
      SugaredValuePtr container = emitSugaredExpr(sub.value);
      if (dynamic_cast<KeywordArgumentsValue*>(container.get())) throw kwargsChangeError(t->range, "an item deleted");
      Value* obj = container->asValue(sub.value->range, *this);
      if (sub.subscripts.size() != 1) throw CompileError("unsupported del target", t->range);
      if (sub.subscripts[0]->kind == ExprKind::Slice && obj->type()->kind() == TypeKind::List) {
        emitDeleteListSlice(t->range, obj, sub.subscripts[0]->as<SliceExpr>());
        continue;
      }
      Value* idx = emitExpr(sub.subscripts[0]);
      if (obj->type()->kind() == TypeKind::List || obj->type()->kind() == TypeKind::Dict) {
        builtinCall(t->range, "aten::Delete", {NamedValue(t->range, obj), NamedValue(t->range, idx)});
        continue;
      }
      if (obj->type()->cast<ClassType>()) {
        callMethod(t->range, obj, "__delitem__", {NamedValue(t->range, idx)}, {});
        continue;
      }
      throw CompileError("'" + obj->type()->annotationStr() + "' object does not support item deletion", t->range);
    }
    throw CompileError("del statements are only supported for names and subscripts", t->range);
  }
}

}  // namespace kindling

namespace kindling {

// `del xs[a:b:c]` (PyTorch 1.13 has no operator for it): the indices the slice selects, taken by slicing
// list(range(len(xs))) with the same bounds (Python's slice semantics, negative steps included), sorted
// in descending order and deleted one by one, so the list object itself changes (as for every alias).
//     $idx = list(range(len(xs)))[a:b:c]; $idx.sort(reverse=True)
//     for $i in $idx: del xs[$i]
void FunctionEmitter::emitDeleteListSlice(const SourceRange& loc, Value* list, const SliceExpr& slice) {
  std::string k = std::to_string(tmpCounter_++);
  auto name = [&](const std::string& n) { return std::make_shared<NameExpr>(loc, "$del_" + n + k); };
  auto call = [&](const std::string& f, std::vector<ExprPtr> args) {
    return std::make_shared<CallExpr>(loc, std::make_shared<NameExpr>(loc, f), std::move(args), std::vector<Keyword>{});
  };
  ExprPtr indices = call("list", {call("range", {call("len", {name("l")})})});
  ExprPtr sliced = std::make_shared<SubscriptExpr>(
      loc, indices, std::vector<ExprPtr>{std::make_shared<SliceExpr>(slice.range, slice.start, slice.end, slice.step)},
      false);
  auto sortCall = std::make_shared<CallExpr>(
      loc, std::make_shared<AttributeExpr>(loc, name("idx"), "sort", loc), std::vector<ExprPtr>{},
      std::vector<Keyword>{Keyword{"reverse", std::make_shared<BoolExpr>(loc, true), loc}});
  StmtList body{std::make_shared<DeleteStmt>(
      loc, std::vector<ExprPtr>{std::make_shared<SubscriptExpr>(loc, name("l"), std::vector<ExprPtr>{name("i")}, false)})};
  StmtList prog{std::make_shared<AssignStmt>(loc, std::vector<ExprPtr>{name("idx")}, sliced, nullptr),
                std::make_shared<ExprStmt>(loc, sortCall),
                std::make_shared<ForStmt>(loc, name("i"), name("idx"), body, StmtList{})};
  auto scope = std::make_shared<Environment>(env_->block, env_);
  env_ = scope;
  setVar(*this, *env_, "$del_l" + k, std::make_shared<SimpleValue>(list), loc);
  emitStatements(prog);
  env_ = scope->next;
}

}  // namespace kindling
