// Subscripts: tensor indexing (ints select, slices slice, None unsqueezes, `...`, tensors and lists as
// advanced indices), tuples (constant indices and slices), lists, strings, dicts, classes with __getitem__,
// and module lists / sugared tuples indexed by a constant.
#include "frontend/ir_emitter.h"

#include <algorithm>

#include "frontend/emitter/environment.h"
#include "frontend/emitter/keyword_arguments.h"

namespace kindling {

using namespace emitter;

SugaredValuePtr FunctionEmitter::emitSubscript(const SubscriptExpr& s, const TypePtr& typeHint) {
  const SourceRange& loc = s.range;
  // `__annotations__["0"]`-style and typing subscripts are not values
  SugaredValuePtr base = emitSugaredExpr(s.value);
  if (auto* kw = dynamic_cast<KeywordArgumentsValue*>(base.get())) {
    // kwargs["k"]: the keys are known statically
    if (s.subscripts.size() != 1 || s.subscripts[0]->kind == ExprKind::Slice)
      throw CompileError("**kwargs takes a single key", loc);
    auto key = emitExpr(s.subscripts[0])->constantValue();
    if (!key || !key->isString())
      throw CompileError("the key of **kwargs must be a string constant (its keys are known statically)",
                         s.subscripts[0]->range);
    return kw->item(loc, key->toStringRef());
  }
  if (auto* sv = dynamic_cast<SimpleValue*>(base.get());
      sv && moduleContainerOf(sv->value) != ClassType::Container::None) {
    // self.layers[0] / self.layers[-1] (ModuleList, Sequential, ParameterList: an int constant),
    // self.blocks["name"] (ModuleDict, ParameterDict: a str constant), as torch's ModuleValue::getitem.
    if (s.subscripts.size() != 1) throw CompileError("Expected exactly one index", loc);
    auto* ct = sv->value->type()->cast<ClassType>();
    bool isDict = ct->container() == ClassType::Container::ModuleDict ||
                  ct->container() == ClassType::Container::ParameterDict;
    Value* idx = emitExpr(s.subscripts[0]);
    auto c = idx->constantValue();
    auto slots = moduleContainerSlots(*ct);
    if (isDict) {
      if (!c || !c->isString())
        throw CompileError("Unable to extract string literal index. ModuleDict indexing is only supported with string literals.",
                           s.subscripts[0]->range);
      for (size_t slot : slots)
        if (ct->attributes()[slot].name == c->toStringRef()) return moduleContainerElement(loc, *this, sv->value, slot);
      throw CompileError("Key Error, " + c->toStringRef(), loc);
    }
    if (!c || !c->isInt())
      throw CompileError("Expected integer literal for index. ModuleList/Sequential indexing is only supported with integer literals.",
                         s.subscripts[0]->range);
    int64_t i = c->toInt();
    int64_t n = static_cast<int64_t>(slots.size());
    if (i < 0) i += n;
    if (i < 0 || i >= n) throw CompileError("Index " + std::to_string(c->toInt()) + " out of range of length " + std::to_string(n), loc);
    return moduleContainerElement(loc, *this, sv->value, slots[static_cast<size_t>(i)]);
  }
  if (!dynamic_cast<SimpleValue*>(base.get()) && !dynamic_cast<ConstantValue*>(base.get()) && base->shouldUnroll()) {
    // index into a sugared tuple (module list) with a constant
    if (s.subscripts.size() != 1) throw CompileError("Expected exactly one index", loc);
    Value* idx = emitExpr(s.subscripts[0]);
    auto c = idx->constantValue();
    if (!c || !c->isInt()) throw CompileError("Expected an integer constant as the index of a module list or tuple", s.subscripts[0]->range);
    auto elems = base->asTuple(loc, *this);
    int64_t i = c->toInt();
    if (i < 0) i += static_cast<int64_t>(elems.size());
    if (i < 0 || i >= static_cast<int64_t>(elems.size())) throw CompileError("Index out of range", loc);
    return elems[static_cast<size_t>(i)];
  }
  Value* v = base->asValue(s.value->range, *this);
  const TypePtr& t = v->type();
  switch (t->kind()) {
    case TypeKind::Tensor: return std::make_shared<SimpleValue>(emitTensorIndexing(loc, v, s.subscripts));
    case TypeKind::Tuple: {
      if (s.subscripts.size() != 1) throw CompileError("Tuple indexing takes a single index or slice", loc);
      const auto& elems = t->cast<TupleType>()->elements();
      const ExprPtr& sub = s.subscripts[0];
      if (sub->kind == ExprKind::Slice) {
        auto& sl = sub->as<SliceExpr>();
        auto constOr = [&](const ExprPtr& x, int64_t d) -> int64_t {
          if (!x) return d;
          IValue c = evalConstantExpr(x, IntType());
          if (!c.isInt()) throw CompileError("tuple slice indices must be integer constants", x->range);
          return c.toInt();
        };
        int64_t n = static_cast<int64_t>(elems.size());
        int64_t step = constOr(sl.step, 1);
        if (step == 0) throw CompileError("slice step cannot be zero", sl.step->range);
        if (step != 1) {
          // Python's slice.indices(n), then one prim::TupleIndex per element, as PyTorch emits a stepped
          // tuple slice (whose bounds PyTorch 1.13 gets wrong for some negative steps: t[10:-10:-1]
          // drops the first element; the indices chosen here are Python's)
          int64_t lower = step < 0 ? -1 : 0, upper = step < 0 ? n - 1 : n;
          auto adjust = [&](const ExprPtr& x, int64_t dflt) {
            if (!x) return dflt;
            int64_t i = constOr(x, 0);
            if (i < 0) i = std::max(i + n, lower);
            else i = std::min(i, upper);
            return i;
          };
          int64_t b = adjust(sl.start, step < 0 ? upper : lower), e = adjust(sl.end, step < 0 ? lower : upper);
          std::vector<Value*> out;
          for (int64_t i = b; step > 0 ? i < e : i > e; i += step) {
            if (v->node()->kind() == prim::TupleConstruct) {
              out.push_back(v->node()->input(static_cast<size_t>(i)));
              continue;
            }
            Node* node = graph_.insert(prim::TupleIndex, {v, literalConstant(IValue(i), sub->range)}, 1);
            node->setSourceRange(loc);
            node->output()->setType(elems[static_cast<size_t>(i)]);
            out.push_back(node->output());
          }
          return std::make_shared<SimpleValue>(createTuple(out, loc));
        }
        int64_t beg = constOr(sl.start, 0), end = constOr(sl.end, n);
        if (beg < 0) beg += n;
        if (end < 0) end += n;
        beg = std::clamp<int64_t>(beg, 0, n);
        end = std::clamp<int64_t>(end, beg, n);
        Node* node = graph_.insert(prim::TupleSlice, {v}, 1);
        node->i_("beg", beg);
        node->i_("end", end);
        node->setSourceRange(loc);
        node->output()->setType(TupleType::create(std::vector<TypePtr>(elems.begin() + beg, elems.begin() + end)));
        return std::make_shared<SimpleValue>(node->output());
      }
      Value* idx = emitExpr(sub);
      auto c = idx->constantValue();
      if (!c || !c->isInt()) {
        // a dynamic index is allowed when all elements have one type
        bool same = !elems.empty();
        for (auto& el : elems) same &= el->equals(*elems[0]);
        if (!same) throw CompileError("Tuple index must be an integer constant when the element types differ", sub->range);
        Node* node = graph_.insert(prim::TupleIndex, {v, idx}, 1);
        node->setSourceRange(loc);
        node->output()->setType(elems[0]);
        return std::make_shared<SimpleValue>(node->output());
      }
      int64_t i = c->toInt();
      int64_t n = static_cast<int64_t>(elems.size());
      if (i < 0) i += n;
      if (i < 0 || i >= n)
        throw CompileError("Tuple index out of range. Tuple is length " + std::to_string(n) + " and index is " +
                               std::to_string(c->toInt()),
                           loc);
      // An element of a tuple built right here is its input (PyTorch's LowerSimpleTuples folds these).
      if (v->node()->kind() == prim::TupleConstruct) return std::make_shared<SimpleValue>(v->node()->input(static_cast<size_t>(i)));
      if (i != c->toInt()) idx = insertConstant(IValue(i), sub->range);
      Node* node = graph_.insert(prim::TupleIndex, {v, idx}, 1);
      node->setSourceRange(loc);
      node->output()->setType(elems[static_cast<size_t>(i)]);
      return std::make_shared<SimpleValue>(node->output());
    }
    case TypeKind::List:
    case TypeKind::Str: {
      if (s.subscripts.size() != 1) throw CompileError("Only one index is allowed for list and string indexing", loc);
      const ExprPtr& sub = s.subscripts[0];
      if (sub->kind == ExprKind::Slice) {
        auto& sl = sub->as<SliceExpr>();
        std::vector<NamedValue> kw;
        if (sl.start) kw.emplace_back(sl.start->range, "start", emitExpr(sl.start));
        if (sl.end) kw.emplace_back(sl.end->range, "end", emitExpr(sl.end));
        if (sl.step) kw.emplace_back(sl.step->range, "step", emitExpr(sl.step));
        return builtinCall(loc, "aten::slice", {NamedValue(s.value->range, v)}, kw);
      }
      Value* idx = emitExpr(sub);
      return builtinCall(loc, "aten::__getitem__", {NamedValue(s.value->range, v), NamedValue(sub->range, idx)});
    }
    case TypeKind::Dict: {
      if (s.subscripts.size() != 1) throw CompileError("Only one key is allowed for dict indexing", loc);
      Value* key = emitExpr(s.subscripts[0], t->cast<DictType>()->keyType());
      return builtinCall(loc, "aten::__getitem__", {NamedValue(s.value->range, v), NamedValue(s.subscripts[0]->range, key)});
    }
    case TypeKind::Class: {
      if (t->cast<ClassType>()->findMethod("__getitem__")) {
        std::vector<NamedValue> args;
        for (auto& x : s.subscripts) args.emplace_back(x->range, emitExpr(x));
        return callMethod(loc, v, "__getitem__", args, {});
      }
      break;
    }
    default: break;
  }
  (void)typeHint;
  throw CompileError("'" + t->annotationStr() + "' object is not subscriptable", s.value->range);
}

Value* FunctionEmitter::emitTensorIndexing(const SourceRange& loc, Value* tensor, const std::vector<ExprPtr>& subs) {
  // As PyTorch's emitIntAndSliceIndexing: ints select (dim stays), slices slice (dim+1), None unsqueezes
  // (dim+1), `...` skips to the trailing dims, tensors/lists become aten::index indices.
  size_t consumingAfterEllipsis = 0;
  bool seenEllipsis = false;
  for (auto& s : subs) {
    if (s->kind == ExprKind::Ellipsis) {
      if (seenEllipsis) throw CompileError("an index can only have a single ellipsis ('...')", s->range);
      seenEllipsis = true;
      continue;
    }
    if (seenEllipsis && s->kind != ExprKind::None) ++consumingAfterEllipsis;
  }
  int64_t dim = 0;
  bool seenEllipsisSoFar = false;
  Value* cur = tensor;
  std::vector<std::pair<int64_t, Value*>> tensorIndices;  // (dim, index)
  auto cst = [&](int64_t x, const SourceRange& r) { return insertConstant(IValue(x), r); };
  for (auto& s : subs) {
    const SourceRange& r = s->range;
    if (s->kind == ExprKind::Ellipsis) {
      dim = -static_cast<int64_t>(consumingAfterEllipsis);
      seenEllipsisSoFar = true;
      continue;
    }
    if (s->kind == ExprKind::None) {
      // after `...`, dims count from the end: insert before the remaining indexed dims
      bool fromEnd = seenEllipsisSoFar;
      cur = builtinCallValue(r, "aten::unsqueeze", {NamedValue(r, cur), NamedValue(r, cst(fromEnd ? dim - 1 : dim, r))});
      if (!fromEnd) ++dim;
      continue;
    }
    if (s->kind == ExprKind::Slice) {
      auto& sl = s->as<SliceExpr>();
      std::vector<NamedValue> args{NamedValue(r, cur), NamedValue(r, cst(dim, r))};
      std::vector<NamedValue> kw;
      if (sl.start) kw.emplace_back(sl.start->range, "start", emitExpr(sl.start));
      if (sl.end) kw.emplace_back(sl.end->range, "end", emitExpr(sl.end));
      if (sl.step) kw.emplace_back(sl.step->range, "step", emitExpr(sl.step));
      bool trivial = !sl.start && !sl.end && !sl.step;
      if (!trivial || dim < 0 || true) cur = builtinCallValue(r, "aten::slice", args, kw);
      ++dim;
      continue;
    }
    Value* idx = emitExpr(s);
    TypeKind k = idx->type()->kind();
    if (k == TypeKind::Int) {
      cur = builtinCallValue(r, "aten::select", {NamedValue(r, cur), NamedValue(r, cst(dim, r)), NamedValue(r, idx)});
      if (dim < 0) ++dim;
      continue;
    }
    if (k == TypeKind::Tensor || k == TypeKind::List || k == TypeKind::Bool) {
      if (k == TypeKind::List || k == TypeKind::Bool) idx = builtinCallValue(r, "aten::tensor", {NamedValue(r, idx)});
      tensorIndices.emplace_back(dim, idx);
      ++dim;
      continue;
    }
    throw CompileError("Unsupported operation: indexing tensor with unsupported index type '" +
                           idx->type()->annotationStr() + "'. Only ints, slices, lists and tensors are supported",
                       r);
  }
  if (tensorIndices.empty()) return cur;
  int64_t maxDim = 0;
  for (auto& [d, v] : tensorIndices) {
    if (d < 0) throw CompileError("tensor indices after '...' are not supported", loc);
    maxDim = std::max(maxDim, d);
  }
  std::vector<Value*> indices(static_cast<size_t>(maxDim + 1), nullptr);
  for (auto& [d, v] : tensorIndices) indices[static_cast<size_t>(d)] = v;
  for (auto& x : indices)
    if (!x) x = insertConstant(IValue(), loc, OptionalType::create(TensorType()));
  Value* list = createList(OptionalType::create(TensorType()), indices, loc);
  return builtinCallValue(loc, "aten::index", {NamedValue(loc, cur), NamedValue(loc, list)});
}

}  // namespace kindling
