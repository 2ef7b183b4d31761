// Calls: builtin operators (schema matching picks the overload), TorchScript functions
// (prim::CallFunction) and methods (prim::CallMethod), the arguments of a call expression, and
// emitApply, which resolves the callee and dispatches (special forms go to special_forms.cpp).
#include "frontend/ir_emitter.h"

#include "frontend/emitter/environment.h"
#include "frontend/emitter/iteration.h"
#include "frontend/emitter/keyword_arguments.h"

namespace kindling {

using namespace emitter;

SugaredValuePtr FunctionEmitter::builtinCall(const SourceRange& loc, const std::string& name,
                                             const std::vector<NamedValue>& args,
                                             const std::vector<NamedValue>& kwargs,
                                             const std::optional<NamedValue>& self) {
  std::vector<Value*> outs = emitBuiltinCall(loc, graph_, name, args, kwargs, self, *registry_);
  // An operator whose returns are all named ("-> (Tensor values, Tensor indices)") packs them into an
  // anonymous NamedTuple, so `x.min(1).values` works, as PyTorch's packOutputs with return_field_names.
  const FunctionSchema* schema = outs.size() > 1 ? outs[0]->node()->schema() : nullptr;
  if (schema && schema->returns.size() == outs.size() &&
      std::all_of(schema->returns.begin(), schema->returns.end(), [](const Argument& r) { return !r.name.empty(); })) {
    std::vector<std::string> names;
    std::vector<TypePtr> types;
    for (size_t i = 0; i < outs.size(); ++i) {
      names.push_back(schema->returns[i].name);
      types.push_back(outs[i]->type());
    }
    Node* n = graph_.insert(prim::TupleConstruct, outs, 1);  // no source range, as PyTorch's createTuple
    n->output()->setType(TupleType::createNamed(std::move(names), std::move(types)));
    return std::make_shared<SimpleValue>(n->output());
  }
  return packOutputs(outs, loc);
}

Value* FunctionEmitter::builtinCallValue(const SourceRange& loc, const std::string& name,
                                         const std::vector<NamedValue>& args, const std::vector<NamedValue>& kwargs,
                                         const std::optional<NamedValue>& self) {
  return builtinCall(loc, name, args, kwargs, self)->asValue(loc, *this);
}

SugaredValuePtr FunctionEmitter::callFunction(const SourceRange& loc, Function* fn, const std::vector<NamedValue>& args,
                                              const std::vector<NamedValue>& kwargs) {
  return callFunction(loc, std::vector<Function*>{fn}, args, kwargs);
}

SugaredValuePtr FunctionEmitter::callFunction(const SourceRange& loc, const std::vector<Function*>& fns,
                                              const std::vector<NamedValue>& args, const std::vector<NamedValue>& kwargs) {
  // Every candidate is checked for recursion before its schema is read (as torch's FunctionValue::call
  // defines each overload first): the schema of a function still being emitted is not known yet.
  for (Function* f : fns)
    if (ctx_.callGraph && ctx_.currentFunction && ctx_.callGraph->addAndCheckCycle(ctx_.currentFunction, f))
      throw CompileError("function '" + f->name() + "' is called recursively. Recursive calls are not supported", loc);
  std::vector<const FunctionSchema*> schemas;
  for (Function* f : fns) schemas.push_back(&f->getSchema());
  auto [idx, matched] = matchSchemas(schemas, loc, graph_, args, kwargs, std::nullopt, *registry_);
  Function* fn = fns[idx];
  Node* c = graph_.insert(prim::Constant, {}, 1);
  c->s_("name", fn->name());  // no source range, as PyTorch's Graph::insertFunctionCall
  c->output()->setType(std::make_shared<FunctionType>(fn));
  std::vector<Value*> inputs{c->output()};
  inputs.insert(inputs.end(), matched.inputs.begin(), matched.inputs.end());
  Node* n = graph_.insert(prim::CallFunction, inputs, matched.returnTypes.size());
  forgetAttributeRefinements(*env_);  // compiled code may assign any attribute
  n->setCallee(fn);
  n->setSourceRange(loc);
  for (size_t i = 0; i < matched.returnTypes.size(); ++i) n->output(i)->setType(matched.returnTypes[i]);
  return packOutputs(n->outputs(), loc);
}

SugaredValuePtr FunctionEmitter::callMethod(const SourceRange& loc, Value* self, const std::string& name,
                                            const std::vector<NamedValue>& args, const std::vector<NamedValue>& kwargs) {
  return callMethod(loc, self, std::vector<std::string>{name}, args, kwargs);
}

SugaredValuePtr FunctionEmitter::callMethod(const SourceRange& loc, Value* self, const std::vector<std::string>& names,
                                            const std::vector<NamedValue>& args, const std::vector<NamedValue>& kwargs) {
  auto* ct = self->type()->cast<ClassType>();
  std::vector<Function*> fns;
  std::vector<const FunctionSchema*> schemas;
  for (const std::string& name : names) {
    Function* fn = ct ? ct->findMethod(name) : nullptr;
    if (!fn) throw CompileError("Tried to access nonexistent attribute or method '" + name + "' of type '" +
                                    self->type()->str() + "'.",
                                loc);
    if (ctx_.callGraph && ctx_.currentFunction && ctx_.callGraph->addAndCheckCycle(ctx_.currentFunction, fn))
      throw CompileError("method '" + name + "' is called recursively. Recursive calls are not supported", loc);
    fns.push_back(fn);
  }
  for (Function* f : fns) schemas.push_back(&f->getSchema());
  std::vector<NamedValue> withSelf{NamedValue(loc, self)};
  withSelf.insert(withSelf.end(), args.begin(), args.end());
  auto [idx, matched] = matchSchemas(schemas, loc, graph_, withSelf, kwargs, std::nullopt, *registry_);
  const std::string& name = names[idx];
  Node* n = graph_.insert(prim::CallMethod, matched.inputs, matched.returnTypes.size());
  forgetAttributeRefinements(*env_);  // compiled code may assign any attribute
  n->s_("name", name);
  n->setSourceRange(loc);
  for (size_t i = 0; i < matched.returnTypes.size(); ++i) n->output(i)->setType(matched.returnTypes[i]);
  return packOutputs(n->outputs(), loc);
}

// ====================================================================== def

std::vector<NamedValue> FunctionEmitter::emitArgs(const std::vector<ExprPtr>& args) {
  std::vector<NamedValue> out;
  for (auto& a : args) {
    if (a->kind == ExprKind::Starred) {
      auto v = emitSugaredExpr(a->as<StarredExpr>().value);
      for (auto& e : v->asTuple(a->range, *this)) out.emplace_back(a->range, e->asValue(a->range, *this));
      continue;
    }
    if (a->kind == ExprKind::List && a->as<SequenceExpr>().elts.empty()) {
      out.push_back(NamedValue::emptyList(a->range));
      continue;
    }
    out.emplace_back(a->range, emitExpr(a));
  }
  return out;
}

std::vector<NamedValue> FunctionEmitter::emitKwargs(const std::vector<Keyword>& kws) {
  std::vector<NamedValue> out;
  for (auto& k : kws) {
    if (k.name.empty()) {
      // f(**kwargs) of a **kwargs parameter, or f(**{"k": v, ...}) of a dict display with string constant keys
      SugaredValuePtr m = emitSugaredExpr(k.value);
      if (auto* kw = dynamic_cast<KeywordArgumentsValue*>(m.get())) {
        for (const auto& [key, v] : kw->entries) out.emplace_back(k.range, key, v);
        continue;
      }
      if (k.value->kind == ExprKind::Dict) {
        const auto& d = k.value->as<DictExpr>();
        for (size_t i = 0; i < d.keys.size(); ++i) {
          if (!d.keys[i] || d.keys[i]->kind != ExprKind::Str)
            throw CompileError("the keys of a dict passed as **keyword arguments must be string constants",
                               d.keys[i] ? d.keys[i]->range : k.range);
          out.emplace_back(d.keys[i]->range, d.keys[i]->as<StrExpr>().value, emitExpr(d.values[i]));
        }
        continue;
      }
      throw CompileError("** unpacks keyword arguments only from a **kwargs parameter or a dict display whose keys "
                         "are string constants (the keywords of a call must be known statically); this is " +
                             m->kind(),
                         k.range);
    }
    if (k.value->kind == ExprKind::List && k.value->as<SequenceExpr>().elts.empty()) {
      out.push_back(NamedValue::emptyList(k.range, k.name));
      continue;
    }
    out.emplace_back(k.range, k.name, emitExpr(k.value));
  }
  return out;
}

SugaredValuePtr FunctionEmitter::emitApply(const CallExpr& c, size_t nBinders, const TypePtr& typeHint) {
  SugaredValuePtr callee;
  if (c.func->kind == ExprKind::Attribute && c.func->as<AttributeExpr>().attr == "tolist") {
    // x.tolist() on a tensor: prim::tolist(x, dim, elem type) typed by the annotation (PyTorch's
    // TensorCastValue / tolist special case); elem type 0 int, 1 float, 2 bool.
    auto& a = c.func->as<AttributeExpr>();
    SugaredValuePtr base = emitSugaredExpr(a.value);
    auto* sv = dynamic_cast<SimpleValue*>(base.get());
    if (sv && sv->value->type()->kind() == TypeKind::Tensor) {
      if (!c.args.empty() || !c.keywords.empty()) throw CompileError("tolist() takes no arguments", c.range);
      if (!typeHint) throw CompileError("Expected type hint for result of tolist()", c.range);
      TypePtr t = typeHint;
      int64_t dim = 0;
      while (t->kind() == TypeKind::List) {
        t = t->cast<ListType>()->elementType();
        ++dim;
      }
      int64_t elem = t->kind() == TypeKind::Int ? 0 : t->kind() == TypeKind::Float ? 1 : t->kind() == TypeKind::Bool ? 2 : -1;
      if (dim == 0 || elem < 0)
        throw CompileError("Output annotation " + typeNameForMsg(typeHint) + " for tolist() must be a (nested) List of int, float or bool", c.range);
      Node* n = graph_.insert(Symbol::fromQualString("prim::tolist"),
                              {sv->value, insertConstant(IValue(dim), c.range), insertConstant(IValue(elem), c.range)}, 1);
      n->setSourceRange(c.range);
      n->output()->setType(typeHint);
      return std::make_shared<SimpleValue>(n->output());
    }
    callee = base->attr(c.func->range, *this, a.attr);
  } else if (c.func->kind == ExprKind::Attribute && c.func->as<AttributeExpr>().attr == "type" &&
             c.args.size() == 1 && c.keywords.empty()) {
    // x.type(dtype) of a tensor: x.to(dtype), as torch.jit desugars it (aten::to(x, dtype, False, False, None))
    auto& a = c.func->as<AttributeExpr>();
    SugaredValuePtr base = emitSugaredExpr(a.value);
    auto* sv = dynamic_cast<SimpleValue*>(base.get());
    Value* dtype = sv && sv->value->type()->kind() == TypeKind::Tensor ? emitExpr(c.args[0]) : nullptr;
    if (dtype && (dtype->type()->kind() == TypeKind::ScalarTypeK || dtype->type()->kind() == TypeKind::Int)) {
      Value* no = insertConstant(IValue(false), c.range);
      return builtinCall(c.range, "aten::to",
                         {NamedValue(a.value->range, sv->value), NamedValue(c.args[0]->range, dtype),
                          NamedValue(c.range, no), NamedValue(c.range, no),
                          NamedValue(c.range, insertConstant(IValue(), c.range))});
    }
    if (dtype) throw CompileError("Tensor.type() takes a dtype (torch.float64, ...) in TorchScript", c.args[0]->range);
    callee = base->attr(c.func->range, *this, a.attr);
  } else if (c.func->kind == ExprKind::Name && c.func->as<NameExpr>().id == "list" && c.args.size() == 1 &&
             c.keywords.empty() && !env_->findQuiet("list")) {
    // list(range(...)), list(zip(...)), list(enumerate(...)), list(tensor) (its rows): a loop appending each
    // element, as PyTorch emits list(range(...)); other iterables are aten::list's copies
    SugaredValuePtr it = emitSugaredExpr(c.args[0]);
    auto* simple = dynamic_cast<SimpleValue*>(it.get());
    bool tensor = simple && simple->value->type()->kind() == TypeKind::Tensor;
    if (!dynamic_cast<RangeValue*>(it.get()) && !dynamic_cast<IterableTree*>(it.get()) && !tensor)
      return builtinCall(c.range, "aten::list", {NamedValue(c.args[0]->range, it->asValue(c.args[0]->range, *this))});
    IterPlan plan = planIteration(*this, c.args[0]->range, it);
    Value* trip = iterationTripCount(*this, c.range, plan);
    Node* n = graph_.insert(prim::Loop, {trip, insertConstant(IValue(true), c.range)}, 0);
    n->setSourceRange(c.range);
    Block* b = n->addBlock();
    Value* idx = b->addInput();
    idx->setType(IntType());
    Value* list = nullptr;
    {
      WithInsertPoint guard(b);
      Value* e = iterationElement(*this, c.range, plan, idx)->asValue(c.range, *this);
      {
        WithInsertPoint before(n);  // the list, typed by its elements, is made before the loop
        list = createList(e->type(), {}, c.range);
      }
      builtinCall(c.range, "aten::append", {NamedValue(c.range, list), NamedValue(c.range, e)});
      b->registerOutput(insertConstant(IValue(true), c.range));
    }
    return std::make_shared<SimpleValue>(list);
  } else {
    callee = emitSugaredExpr(c.func);
  }
  if (auto* sf = dynamic_cast<SpecialFormValue*>(callee.get())) return emitSpecialForm(*sf, c, typeHint);
  if (auto super = std::dynamic_pointer_cast<SuperValue>(callee)) return emitSuper(super, c);
  if (auto* bf = dynamic_cast<BuiltinFunction*>(callee.get())) {
    if (bf->name == "aten::sum" && !bf->self && c.func->kind == ExprKind::Name && !ctx_.archiveMode)
      if (SugaredValuePtr v = tryEmitPythonSum(c)) return v;
    // any(x for ...) / all(x for ...) stop at the deciding element, as Python's
    bool isAny = bf->name == "aten::any", isAll = bf->name == "aten::all";
    if ((isAny || isAll) && !bf->self && c.func->kind == ExprKind::Name && c.args.size() == 1 && c.keywords.empty() &&
        c.args[0]->kind == ExprKind::ListComp && c.args[0]->as<ComprehensionExpr>().generator)
      return std::make_shared<SimpleValue>(emitShortCircuitAnyAll(c.args[0]->as<ComprehensionExpr>(), isAny, c.range));
  }
  auto args = emitArgs(c.args);
  auto kwargs = emitKwargs(c.keywords);
  if (auto* bf = dynamic_cast<BuiltinFunction*>(callee.get()))
    if (auto sorted = tryEmitClassListSort(c.range, *bf, args, kwargs)) return sorted;
  // materialize empty list literals for non-builtin callees lazily in schema matching; others need values
  return callee->call(c.range, *this, args, kwargs, nBinders);
}

SugaredValuePtr FunctionEmitter::emitSuper(const std::shared_ptr<SuperValue>& super, const CallExpr& c) {
  // super(): the method's first argument; super(C, self): C by name (the resolver finds it), self a value
  if (!c.keywords.empty() || (c.args.size() != 0 && c.args.size() != 2))
    throw CompileError("super() takes no arguments, or a class and self (super(C, self))", c.range);
  if (c.args.empty()) {
    if (graph_.inputs().empty() || graph_.inputs()[0]->type()->kind() != TypeKind::Class)
      throw CompileError("super() without arguments is only supported in a method (its first argument is self)",
                         c.range);
    return std::make_shared<BoundSuperValue>(super, graph_.inputs()[0], "");
  }
  if (c.args[0]->kind != ExprKind::Name)
    throw CompileError("super(C, self): the first argument must name a class", c.args[0]->range);
  Value* self = emitExpr(c.args[1]);
  if (self->type()->kind() != TypeKind::Class)
    throw CompileError("super(C, self): the second argument must be an object, not '" + self->type()->annotationStr() +
                           "'",
                       c.args[1]->range);
  return std::make_shared<BoundSuperValue>(super, self, c.args[0]->as<NameExpr>().id);
}

}  // namespace kindling
