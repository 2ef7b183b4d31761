// Literal displays: tuples (with starred elements), lists and dicts typed from their elements or the
// annotation they are assigned to, f-strings (aten::format).
#include "frontend/ir_emitter.h"

#include "frontend/emitter/environment.h"

namespace kindling {

using namespace emitter;

Value* FunctionEmitter::emitTupleLiteral(const SequenceExpr& e, const TypePtr& typeHint) {
  std::vector<Value*> vs;
  const TupleType* th = typeHint ? typeHint->cast<TupleType>() : nullptr;
  for (size_t i = 0; i < e.elts.size(); ++i) {
    const ExprPtr& x = e.elts[i];
    if (x->kind == ExprKind::Starred) {
      auto sv = emitSugaredExpr(x->as<StarredExpr>().value);
      for (auto& el : sv->asTuple(x->range, *this)) vs.push_back(el->asValue(x->range, *this));
      continue;
    }
    vs.push_back(emitExpr(x, th && i < th->elements().size() ? th->elements()[i] : nullptr));
  }
  return createTuple(vs, e.range);
}

Value* FunctionEmitter::emitListLiteral(const SequenceExpr& e, const TypePtr& typeHint) {
  TypePtr hint = typeHint;
  if (hint && hint->kind() == TypeKind::Optional) hint = hint->cast<OptionalType>()->elementType();
  TypePtr elemHint;
  if (hint && hint->kind() == TypeKind::List) elemHint = hint->cast<ListType>()->elementType();
  std::vector<Value*> vs;
  for (auto& x : e.elts) {
    if (x->kind == ExprKind::Starred) {
      auto sv = emitSugaredExpr(x->as<StarredExpr>().value);
      for (auto& el : sv->asTuple(x->range, *this)) vs.push_back(el->asValue(x->range, *this));
      continue;
    }
    vs.push_back(emitExpr(x, elemHint));
  }
  TypePtr elemType;
  if (elemHint) {
    elemType = elemHint;
    for (size_t i = 0; i < vs.size(); ++i) {
      vs[i] = tryConvertToType(e.elts[i]->range, graph_, elemHint, vs[i], Conversions::Python, *registry_);
      if (!vs[i]->type()->isSubtypeOf(elemHint)) {
        // as PyTorch: name the elements' unified type
        TypePtr unified = vs[0]->type();
        for (size_t j = 1; j < vs.size() && unified; ++j) {
          auto u = unifyTypes(unified, vs[j]->type());
          unified = u ? *u : nullptr;
        }
        throw CompileError("List type annotation `" + hint->annotationStr() +
                               "` did not match the types of the given list elements, which were unified to " +
                               (unified ? unified : vs[i]->type())->annotationStr(),
                           e.range);
      }
    }
  } else if (vs.empty()) {
    elemType = TensorType();
  } else {
    elemType = vs[0]->type();
    for (size_t i = 1; i < vs.size(); ++i) {
      auto u = unifyTypes(elemType, vs[i]->type());
      // heterogeneous lists are List[Union[...]] (PyTorch 1.13 warns and does the same)
      elemType = u ? *u : UnionType::create({elemType, vs[i]->type()});
    }
  }
  return createList(elemType, vs, e.range);
}

Value* FunctionEmitter::emitDictLiteral(const DictExpr& e, const TypePtr& typeHint) {
  TypePtr hint = typeHint;
  if (hint && hint->kind() == TypeKind::Optional) hint = hint->cast<OptionalType>()->elementType();
  const DictType* dh = hint ? hint->cast<DictType>() : nullptr;
  std::vector<Value*> inputs;
  TypePtr kt, vt;
  for (size_t i = 0; i < e.keys.size(); ++i) {
    Value* k = emitExpr(e.keys[i], dh ? dh->keyType() : nullptr);
    Value* v = emitExpr(e.values[i], dh ? dh->valueType() : nullptr);
    if (dh) v = tryConvertToType(e.values[i]->range, graph_, dh->valueType(), v, Conversions::Python, *registry_);
    if (!kt) {
      kt = k->type();
      vt = v->type();
    } else {
      auto uk = unifyTypes(kt, k->type());
      auto uv = unifyTypes(vt, v->type());
      if (!uk || !uv) throw CompileError("Dict values must contain only a single type", e.range);
      kt = *uk;
      vt = *uv;
    }
    inputs.push_back(k);
    inputs.push_back(v);
  }
  if (dh) {
    if (kt && (!kt->isSubtypeOf(dh->keyType()) || !vt->isSubtypeOf(dh->valueType())))
      throw CompileError("Dict type annotation `" + hint->annotationStr() + "` did not match the type of an actual key type `" +
                             kt->annotationStr() + "` or value type `" + vt->annotationStr() + "`",
                         e.range);
    kt = dh->keyType();
    vt = dh->valueType();
  } else if (!kt) {
    kt = StringType();
    vt = TensorType();
  }
  Node* n = graph_.insert(prim::DictConstruct, inputs, 1);  // no source range, as PyTorch's createDict
  n->output()->setType(DictType::create(kt, vt));
  return n->output();
}

Value* FunctionEmitter::emitJoinedStr(const JoinedStrExpr& e) {
  // f"a{x}b" → "a{}b".format(x)  (aten::format)
  std::string fmt;
  std::vector<NamedValue> args;
  for (auto& p : e.parts) {
    if (!p.value) {
      for (char ch : p.literal) {
        if (ch == '{') fmt += "{{";
        else if (ch == '}') fmt += "}}";
        else fmt += ch;
      }
      continue;
    }
    if (!p.formatSpec.empty() || !p.conversion.empty())
      throw CompileError("f-string format specs and conversions are not supported", e.range);
    fmt += "{}";
    args.emplace_back(p.value->range, emitExpr(p.value));
  }
  Value* f = insertConstant(IValue(fmt), e.range);
  args.insert(args.begin(), NamedValue(e.range, f));
  return builtinCallValue(e.range, "aten::format", args);
}

}  // namespace kindling
