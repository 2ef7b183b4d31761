// Builtins whose arguments are not plain values, emitted from the call's syntax: fork, annotate,
// unchecked_cast, uninitialized, isinstance, getattr/hasattr with a literal name, range, enumerate/zip,
// len, tuple, and C.__new__ of archive code.
#include "frontend/ir_emitter.h"

#include "frontend/emitter/environment.h"
#include "frontend/emitter/fork.h"
#include "frontend/emitter/type_info.h"

namespace kindling {

using namespace emitter;

SugaredValuePtr FunctionEmitter::emitSpecialForm(const SpecialFormValue& f, const CallExpr& c, const TypePtr& typeHint) {
  const std::string& form = f.form;
  const SourceRange& loc = c.range;
  auto nargs = [&](size_t lo, size_t hi) {
    if (c.args.size() < lo || c.args.size() > hi || !c.keywords.empty())
      throw CompileError(form + "() expected " + (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
                             " positional arguments but got " + std::to_string(c.args.size()),
                         loc);
  };
  if (form == "fork") {
    // torch.jit.fork(fn, *args, **kwargs), or fork(closure) in archive code (frontend/emitter/fork.h)
    if (c.args.empty()) throw CompileError("Expected at least one argument to fork()", loc);
    SugaredValuePtr forked = emitSugaredExpr(c.args[0], 1);
    if (auto* closure = dynamic_cast<ClosureValue*>(forked.get())) {
      if (c.args.size() != 1 || !c.keywords.empty())
        throw CompileError("fork() of a closure takes no further arguments", loc);
      const ExprPtr& body = closure->returnedExpr(loc);
      return emitFork(*this, loc, [&] { return emitExpr(body); });
    }
    std::vector<ExprPtr> rest(c.args.begin() + 1, c.args.end());
    std::vector<NamedValue> args = emitArgs(rest);
    std::vector<NamedValue> kwargs = emitKwargs(c.keywords);
    return emitFork(*this, loc, [&] { return forked->call(loc, *this, args, kwargs, 1)->asValue(loc, *this); });
  }
  if (form == "finfo" || form == "iinfo") {
    // torch.finfo(dtype) / torch.iinfo(dtype) (PyTorch 1.13: "Unknown builtin op: aten::finfo"): their
    // attributes resolved while compiling (frontend/emitter/type_info.h); finfo() is float32's
    if (c.args.size() > 1 || !c.keywords.empty()) throw CompileError(form + "() takes one argument, a dtype", loc);
    Value* dtype = c.args.empty() ? insertConstant(IValue(static_cast<int64_t>(ScalarType::Float)), loc)
                                  : emitExpr(c.args[0]);
    if (dtype->type()->kind() != TypeKind::Int && dtype->type()->kind() != TypeKind::ScalarTypeK)
      throw CompileError(form + "() takes a dtype, not a value of type " + dtype->type()->annotationStr(), loc);
    return std::make_shared<TypeInfoValue>(form == "finfo", dtype);
  }
  if (form == "__new__") {
    // C.__new__(C) in archive code: an uninitialized object (its __init__ is called next)
    Node* n = graph_.insert(prim::CreateObject, {}, 1);
    n->setSourceRange(loc);
    n->output()->setType(f.type);
    return std::make_shared<SimpleValue>(n->output());
  }
  if (form == "annotate") {
    nargs(2, 2);
    TypePtr t = typeParser_.parse(c.args[0]);
    Value* v = emitExpr(c.args[1], t);
    v = tryConvertToType(loc, graph_, t, v, Conversions::Python, *registry_);
    if (!v->type()->isSubtypeOf(t))
      throw CompileError("expected an expression of type " + typeNameForMsg(t) + " but found " + typeNameForMsg(v->type()),
                         c.args[1]->range);
    if ((t->kind() == TypeKind::Optional || t->kind() == TypeKind::Union) && v->type()->kind() == TypeKind::None)
      v = insertConstant(IValue(), loc, t);
    return std::make_shared<SimpleValue>(v);
  }
  if (form == "unchecked_cast") {
    nargs(2, 2);
    TypePtr t = typeParser_.parse(c.args[0]);
    Value* v = emitExpr(c.args[1]);
    Node* n = graph_.insert(prim::unchecked_cast, {v}, 1);
    n->setSourceRange(loc);
    n->output()->setType(t);
    return std::make_shared<SimpleValue>(n->output());
  }
  if (form == "uninitialized") {
    nargs(1, 1);
    TypePtr t = typeParser_.parse(c.args[0]);
    Node* n = graph_.insert(prim::Uninitialized, {}, 1);
    n->setSourceRange(loc);
    n->output()->setType(t);
    return std::make_shared<SimpleValue>(n->output());
  }
  if (form == "isinstance") {
    CondValue cv;
    return emitIsInstance(c, &cv);
  }
  if (form == "getattr" || form == "hasattr") {
    nargs(2, form == "getattr" ? 3 : 2);
    if (c.args[1]->kind != ExprKind::Str) throw CompileError(form + "'s second argument must be a string literal", c.args[1]->range);
    auto obj = emitSugaredExpr(c.args[0]);
    const std::string& name = c.args[1]->as<StrExpr>().value;
    if (form == "hasattr") {
      auto h = obj->hasAttr(loc, *this, name);
      if (!h) throw CompileError("hasattr's first argument must be a class or module", c.args[0]->range);
      return std::make_shared<SimpleValue>(insertConstant(IValue(*h), loc));
    }
    if (c.args.size() == 3) {
      auto h = obj->hasAttr(loc, *this, name);
      if (h && !*h) return emitSugaredExpr(c.args[2]);
    }
    return obj->attr(loc, *this, name);
  }
  if (form == "range") {
    nargs(1, 3);
    std::vector<Value*> vs;
    for (auto& a : c.args) {
      Value* v = emitExpr(a);
      if (v->type()->kind() != TypeKind::Int)
        throw CompileError("range() expects int arguments but got " + typeNameForMsg(v->type()), a->range);
      vs.push_back(v);
    }
    if (vs.size() == 1) return std::make_shared<RangeValue>(nullptr, vs[0], nullptr);
    return std::make_shared<RangeValue>(vs[0], vs[1], vs.size() == 3 ? vs[2] : nullptr);
  }
  if (form == "enumerate" || form == "zip") {
    std::vector<SugaredValuePtr> children;
    Value* start = nullptr;
    if (form == "enumerate") {
      if (c.args.empty() || c.args.size() > 2) throw CompileError("enumerate() expects 1 or 2 arguments", loc);
      children.push_back(emitSugaredExpr(c.args[0]));
      if (c.args.size() == 2) start = emitExpr(c.args[1]);
      for (auto& k : c.keywords)
        if (k.name == "start") start = emitExpr(k.value);
    } else {
      if (c.args.empty()) throw CompileError("zip() expects at least one argument", loc);
      for (auto& a : c.args) children.push_back(emitSugaredExpr(a));
    }
    // unrolled when every child is statically sized
    bool allUnroll = true;
    for (auto& ch : children) allUnroll &= ch->shouldUnroll();
    if (allUnroll) {
      std::vector<std::vector<SugaredValuePtr>> elems;
      size_t n = SIZE_MAX;
      for (auto& ch : children) {
        elems.push_back(ch->asTuple(loc, *this));
        n = std::min(n, elems.back().size());
      }
      std::vector<SugaredValuePtr> rows;
      int64_t base = 0;
      for (size_t i = 0; i < n; ++i) {
        std::vector<SugaredValuePtr> row;
        if (form == "enumerate") {
          Value* iv = insertConstant(IValue(static_cast<int64_t>(i) + base), loc);
          if (start) iv = builtinCallValue(loc, "aten::add", {NamedValue(loc, iv), NamedValue(loc, start)});
          row.push_back(std::make_shared<SimpleValue>(iv));
        }
        for (auto& e : elems) row.push_back(e[i]);
        rows.push_back(std::make_shared<SugaredTupleValue>(row));
      }
      return std::make_shared<SugaredTupleValue>(rows);
    }
    return std::make_shared<IterableTree>(form, children, start);
  }
  if (form == "len") {
    nargs(1, 1);
    auto v = emitSugaredExpr(c.args[0]);
    if (auto n = v->staticLen()) return std::make_shared<SimpleValue>(insertConstant(IValue(*n), loc));
    // as PyTorch, len(range(n)) is an error: range cannot be used as a value
    Value* x = v->asValue(c.args[0]->range, *this);
    if (x->type()->cast<ClassType>()) return callMethod(loc, x, "__len__", {}, {});
    return builtinCall(loc, "aten::len", {NamedValue(c.args[0]->range, x)});
  }
  if (form == "tuple") {
    nargs(1, 1);
    if (c.args[0]->kind == ExprKind::ListComp) {
      std::vector<Value*> vs;
      for (auto& e : emitUnrolledComprehension(c.args[0]->as<ComprehensionExpr>())) vs.push_back(e->asValue(loc, *this));
      return std::make_shared<SimpleValue>(createTuple(vs, loc));
    }
    auto v = emitSugaredExpr(c.args[0]);
    if (v->shouldUnroll()) {
      std::vector<Value*> vs;
      for (auto& e : v->asTuple(loc, *this)) vs.push_back(e->asValue(loc, *this));
      return std::make_shared<SimpleValue>(createTuple(vs, loc));
    }
    throw CompileError("tuple() can only be called on tuples (the length must be known statically)", loc);
  }
  throw CompileError("unknown builtin " + form, loc);
}

}  // namespace kindling
