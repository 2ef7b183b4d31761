// Iteration plans for loops and comprehensions; see iteration.h.
#include "frontend/emitter/iteration.h"

#include "core/error.h"
#include "frontend/ir_emitter.h"

namespace kindling {

IterPlan planIteration(FunctionEmitter& m, const SourceRange& loc, const SugaredValuePtr& it) {
  IterPlan p;
  if (auto* r = dynamic_cast<RangeValue*>(it.get())) {
    p.kind = IterPlan::Kind::Range;
    p.end = r->end;
    if (r->start || r->step) {
      p.start = r->start ? r->start : m.insertConstant(IValue(int64_t(0)), loc);
      p.step = r->step ? r->step : m.insertConstant(IValue(int64_t(1)), loc);
    }
    return p;
  }
  if (auto* t = dynamic_cast<IterableTree*>(it.get())) {
    p.kind = IterPlan::Kind::Tree;
    p.isEnumerate = t->what == "enumerate";
    p.enumStart = t->start;
    for (auto& c : t->children) p.children.push_back(planIteration(m, loc, c));
    return p;
  }
  if (it->shouldUnroll())
    throw CompileError("cannot mix tuples (which are unrolled) with other iterables in zip/enumerate", loc);
  Value* seq = it->asValue(loc, m);
  const TypePtr& st = seq->type();
  if (st->kind() == TypeKind::Dict) {
    p.dict = seq;
    seq = m.builtinCallValue(loc, "aten::keys", {NamedValue(loc, seq)});
    p.dictSize = m.builtinCallValue(loc, "aten::len", {NamedValue(loc, seq)});
  }
  TypeKind k = seq->type()->kind();
  if (k != TypeKind::List && k != TypeKind::Str && k != TypeKind::Tensor)
    throw CompileError("'" + st->annotationStr() + "' object is not iterable", loc);
  p.kind = IterPlan::Kind::Sequence;
  p.seq = seq;
  return p;
}

Value* iterationTripCount(FunctionEmitter& m, const SourceRange& loc, const IterPlan& p) {
  switch (p.kind) {
    case IterPlan::Kind::Range:
      if (!p.start) return p.end;
      return m.builtinCallValue(loc, "aten::__range_length",
                                {NamedValue(loc, p.start), NamedValue(loc, p.end), NamedValue(loc, p.step)});
    case IterPlan::Kind::Sequence: return m.builtinCallValue(loc, "aten::len", {NamedValue(loc, p.seq)});
    case IterPlan::Kind::Tree: {
      Value* trip = nullptr;
      for (auto& c : p.children) {
        Value* n = iterationTripCount(m, loc, c);
        trip = trip ? m.builtinCallValue(loc, "prim::min", {NamedValue(loc, trip), NamedValue(loc, n)}) : n;
      }
      return trip;
    }
  }
  return nullptr;
}

SugaredValuePtr iterationElement(FunctionEmitter& m, const SourceRange& loc, const IterPlan& p, Value* idx) {
  switch (p.kind) {
    case IterPlan::Kind::Range:
      if (!p.start) return std::make_shared<SimpleValue>(idx);
      return std::make_shared<SimpleValue>(m.builtinCallValue(
          loc, "aten::__derive_index", {NamedValue(loc, idx), NamedValue(loc, p.start), NamedValue(loc, p.step)}));
    case IterPlan::Kind::Sequence:
      if (p.seq->type()->kind() == TypeKind::Tensor)
        return std::make_shared<SimpleValue>(m.builtinCallValue(
            loc, "aten::select",
            {NamedValue(loc, p.seq), NamedValue(loc, m.insertConstant(IValue(int64_t(0)), loc)), NamedValue(loc, idx)}));
      return std::make_shared<SimpleValue>(
          m.builtinCallValue(loc, "aten::__getitem__", {NamedValue(loc, p.seq), NamedValue(loc, idx)}));
    case IterPlan::Kind::Tree: {
      std::vector<SugaredValuePtr> elems;
      if (p.isEnumerate) {
        Value* i = idx;
        if (p.enumStart) i = m.builtinCallValue(loc, "aten::add", {NamedValue(loc, idx), NamedValue(loc, p.enumStart)});
        elems.push_back(std::make_shared<SimpleValue>(i));
      }
      for (auto& c : p.children) elems.push_back(iterationElement(m, loc, c, idx));
      return std::make_shared<SugaredTupleValue>(elems);
    }
  }
  return nullptr;
}

}  // namespace kindling
