// Constant propagation (see passes/canonicalize/constant_propagation.h).
#include "passes/canonicalize/constant_propagation.h"

#include "ir/operator_matching.h"

namespace kindling {

namespace {

bool isImmutableType(const TypePtr& t) {
  if (!t) return false;
  switch (t->kind()) {
    case TypeKind::Int: case TypeKind::Float: case TypeKind::Bool: case TypeKind::Str: case TypeKind::None:
    case TypeKind::Device: case TypeKind::Number: case TypeKind::ScalarTypeK: case TypeKind::Layout:
    case TypeKind::MemoryFormat:
      return true;
    case TypeKind::Tuple:
      for (const TypePtr& e : t->containedTypes())
        if (!isImmutableType(e)) return false;
      return true;
    case TypeKind::Optional:
      return isImmutableType(t->cast<OptionalType>()->elementType());
    default:
      return false;
  }
}

bool isImmutableValue(const IValue& v) {
  switch (v.tag()) {
    case IValue::Tag::None: case IValue::Tag::Int: case IValue::Tag::Double: case IValue::Tag::Bool:
    case IValue::Tag::String: case IValue::Tag::Device:
      return true;
    case IValue::Tag::Tuple:
      for (const IValue& e : v.toTupleRef().elements)
        if (!isImmutableValue(e)) return false;
      return true;
    default:
      return false;
  }
}

bool allInputsConstant(const Node* n) {
  for (Value* v : n->inputs())
    if (v->node()->kind() != prim::Constant || !v->constantValue()) return false;
  return true;
}

std::vector<IValue> inputConstants(const Node* n) {
  std::vector<IValue> r;
  for (Value* v : n->inputs()) r.push_back(*v->constantValue());
  return r;
}

// The new constants have no source range, as PyTorch's (tryInsertConstant without a location): printed
// graphs show `prim::Constant[value=3]()` without a `# file:line:col` comment for folded values.
void replaceWithConstants(Graph& g, Node* n, const std::vector<IValue>& values) {
  WithInsertPoint guard(n);
  for (size_t i = 0; i < values.size(); ++i) {
    Value* out = n->outputs()[i];
    Value* c = g.insertConstant(values[i], SourceRange(), out->type());
    out->replaceAllUsesWith(c);
  }
  n->destroy();
}

// A list constant is safe when every user is an operator whose matching argument has no alias annotation.
bool listUsesAreReadOnly(const Value* v) {
  if (!v->hasUses()) return false;
  for (const Use& u : v->uses()) {
    const FunctionSchema* s = u.user->schema();
    if (!s || u.offset >= s->arguments.size()) return false;
    if (s->arguments[u.offset].aliasInfo) return false;
  }
  return true;
}

bool tryFoldOperator(Graph& g, Node* n) {
  const Operator* op = n->op();
  if (!op || n->hasSideEffects() || op->schema.isMutable() || n->outputs().empty()) return false;
  for (Value* o : n->outputs())
    if (!isImmutableType(o->type())) return false;
  Stack st = inputConstants(n);
  if (op->schema.isVarArg) st.emplace_back(static_cast<int64_t>(n->inputs().size()));
  try {
    op->fn(st);
  } catch (const std::exception&) {
    return false;  // raise at run time, as the program would
  }
  if (st.size() != n->outputs().size()) return false;
  for (const IValue& v : st)
    if (!isImmutableValue(v)) return false;
  replaceWithConstants(g, n, st);
  return true;
}

bool tryFoldStructural(Graph& g, Node* n) {
  Symbol k = n->kind();
  if (k == prim::TupleConstruct) {
    auto vals = inputConstants(n);
    for (const IValue& v : vals)
      if (!isImmutableValue(v)) return false;
    const TupleType* tt = n->output()->type() ? n->output()->type()->cast<TupleType>() : nullptr;
    IValue t(makeIntrusive<TupleValue>(std::move(vals), tt && tt->qualName() ? n->output()->type() : nullptr));
    replaceWithConstants(g, n, {t});
    return true;
  }
  if (k == prim::TupleIndex) {
    auto vals = inputConstants(n);
    if (!vals[0].isTuple() || !vals[1].isInt()) return false;
    const auto& e = vals[0].toTupleRef().elements;
    int64_t i = vals[1].toInt(), sz = static_cast<int64_t>(e.size());
    if (i < 0) i += sz;
    if (i < 0 || i >= sz) return false;
    replaceWithConstants(g, n, {e[i]});
    return true;
  }
  if (k == prim::TupleUnpack) {
    auto vals = inputConstants(n);
    if (!vals[0].isTuple() || vals[0].toTupleRef().elements.size() != n->outputs().size()) return false;
    replaceWithConstants(g, n, vals[0].toTupleRef().elements);
    return true;
  }
  if (k == prim::ListConstruct) {
    const ListType* lt = n->output()->type() ? n->output()->type()->cast<ListType>() : nullptr;
    if (!lt || !listUsesAreReadOnly(n->output())) return false;
    auto vals = inputConstants(n);
    for (const IValue& v : vals)
      if (!isImmutableValue(v)) return false;
    replaceWithConstants(g, n, {IValue(makeIntrusive<ListValue>(lt->elementType(), std::move(vals)))});
    return true;
  }
  if (!n->op() && (k == aten::__is__ || k == aten::__isnot__)) {
    auto vals = inputConstants(n);
    if (!isImmutableValue(vals[0]) || !isImmutableValue(vals[1])) return false;
    bool r = vals[0].is(vals[1]);
    replaceWithConstants(g, n, {IValue(k == aten::__is__ ? r : !r)});
    return true;
  }
  // As PyTorch's ConstantPropagationImmutableTypes, which runs these nodes in its interpreter: the name
  // and value of an enum constant, and an unchecked_cast of a (non-None) constant.
  if ((k == prim::EnumName || k == prim::EnumValue) && n->inputs().size() == 1) {
    auto vals = inputConstants(n);
    if (!vals[0].isEnum()) return false;
    auto e = vals[0].toEnum();
    IValue r = k == prim::EnumName ? IValue(e->name) : e->value;
    if (!isImmutableValue(r)) return false;
    replaceWithConstants(g, n, {r});
    return true;
  }
  if (k == prim::unchecked_cast && n->inputs().size() == 1) {
    auto vals = inputConstants(n);
    if (vals[0].isNone() || !isImmutableValue(vals[0])) return false;
    replaceWithConstants(g, n, {vals[0]});
    return true;
  }
  if (!n->op() && k == aten::__not__) {
    auto vals = inputConstants(n);
    if (!vals[0].isBool()) return false;
    replaceWithConstants(g, n, {IValue(!vals[0].toBool())});
    return true;
  }
  return false;
}

// Replaces a prim::If on a constant condition by its taken branch.
bool tryFoldIf(Node* n) {
  if (n->kind() != prim::If || n->blocks().size() != 2) return false;
  auto c = n->input(0)->constantValue();
  if (!c || !c->isBool()) return false;
  Block* taken = n->blocks()[c->toBool() ? 0 : 1];
  for (auto it = taken->begin(); it != taken->end();) {
    Node* m = *it++;
    m->moveBefore(n);
  }
  for (size_t i = 0; i < n->outputs().size(); ++i) {
    Value* out = n->outputs()[i];
    Value* r = taken->outputs()[i];
    out->replaceAllUsesWith(r);
  }
  n->destroy();
  return true;
}

bool canBeNone(const TypePtr& t) {
  if (!t) return true;
  switch (t->kind()) {
    case TypeKind::Optional: case TypeKind::None: case TypeKind::Any: case TypeKind::Union: case TypeKind::Var:
      return true;
    default:
      return false;
  }
}

// `x is None` / `x is not None` where x is a non-None constant or has a type that excludes None (PyTorch's
// peephole): a tensor attribute frozen to a constant makes `self.running_mean is None` False.
bool tryFoldIsNone(Graph& g, Node* n) {
  Symbol k = n->kind();
  if ((k != aten::__is__ && k != aten::__isnot__) || n->inputs().size() != 2) return false;
  for (int side = 0; side < 2; ++side) {
    auto c = n->input(side)->constantValue();
    if (!c || !c->isNone()) continue;
    Value* other = n->input(1 - side);
    auto oc = other->constantValue();
    bool isNone;
    if (oc) isNone = oc->isNone();
    else if (!canBeNone(other->type())) isNone = false;
    else return false;
    replaceWithConstants(g, n, {IValue(k == aten::__is__ ? isNone : !isNone)});
    return true;
  }
  return false;
}

void propagateBlock(Graph& g, Block* b, bool immutableOnly) {
  for (auto it = b->begin(); it != b->end();) {
    Node* n = *it++;
    Symbol k = n->kind();
    if (k == prim::Constant) continue;
    if (k == prim::If && tryFoldIf(n)) {
      // The moved nodes now sit before `it`; they were not visited yet only if the If was not folded
      // earlier. Revisit them by restarting at the first moved node is unnecessary: a second sweep runs.
      continue;
    }
    if (!n->blocks().empty()) {
      for (Block* sb : n->blocks()) propagateBlock(g, sb, immutableOnly);
      continue;
    }
    if (!immutableOnly && tryFoldIsNone(g, n)) continue;
    // prim::unchecked_cast to a type the input already has is a no-op (lets list constants fold).
    if (!immutableOnly && k == prim::unchecked_cast && n->inputs().size() == 1 && n->outputs().size() == 1 && n->input(0)->type() &&
        n->output()->type() && n->input(0)->type()->isSubtypeOf(n->output()->type())) {
      n->output()->replaceAllUsesWith(n->input(0));
      n->destroy();
      continue;
    }
    if (!allInputsConstant(n)) continue;
    if (n->op()) {
      tryFoldOperator(g, n);
    } else if (immutableOnly && k == prim::ListConstruct) {
      continue;
    } else if (n->inputs().size() > 0 || k == prim::TupleConstruct || k == prim::ListConstruct) {
      tryFoldStructural(g, n);
    }
  }
}

}  // namespace

void propagateConstants(Graph& graph, bool immutableTypesOnly) {
  // Two sweeps: nodes moved out of folded If branches get folded on the second.
  for (int i = 0; i < 2; ++i) propagateBlock(graph, graph.block(), immutableTypesOnly);
}

}  // namespace kindling
