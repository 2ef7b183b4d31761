#include "frontend/schema_matching.h"

#include <sstream>

namespace kindling {

namespace {

bool hasFreeVariables(const TypePtr& t) {
  if (t->kind() == TypeKind::Var) return true;
  for (auto& c : t->containedTypes())
    if (hasFreeVariables(c)) return true;
  return false;
}

TypePtr* findVar(TypeEnv& env, const std::string& n) {
  for (auto& [k, v] : env)
    if (k == n) return &v;
  return nullptr;
}

const TypePtr* findVar(const TypeEnv& env, const std::string& n) {
  for (auto& [k, v] : env)
    if (k == n) return &v;
  return nullptr;
}

// The type the JIT matches for a schema type (PyTorch's "fake type"): ScalarType, Layout and MemoryFormat
// are ints in TorchScript.
TypePtr fakeType(const TypePtr& t) {
  switch (t->kind()) {
    case TypeKind::ScalarTypeK:
    case TypeKind::Layout:
    case TypeKind::MemoryFormat: return IntType();
    case TypeKind::Optional: {
      const TypePtr& e = t->cast<OptionalType>()->elementType();
      TypePtr f = fakeType(e);
      return f == e ? t : OptionalType::create(f);
    }
    case TypeKind::List: {
      const TypePtr& e = t->cast<ListType>()->elementType();
      TypePtr f = fakeType(e);
      return f == e ? t : ListType::create(f);
    }
    default: return t;
  }
}

TypePtr unwrapOptional(const TypePtr& t) {
  if (t->kind() == TypeKind::Optional) return t->cast<OptionalType>()->elementType();
  return t;
}

// PyTorch's matchTypeVariables: binds variables of `formal` from `actual`. Returns "" on success.
std::string matchTypeVariables(const TypePtr& formal, const TypePtr& actual, TypeEnv& env) {
  if (!hasFreeVariables(formal)) return "";
  switch (formal->kind()) {
    case TypeKind::Var: {
      const auto& name = formal->cast<VarType>()->name();
      TypePtr* bound = findVar(env, name);
      if (!bound) {
        env.emplace_back(name, actual);
        return "";
      }
      if (auto u = unifyTypes(*bound, actual)) {
        *bound = *u;
        return "";
      }
      return "Type variable '" + name + "' previously matched to type " + (*bound)->annotationStr() +
             " is matched to type " + actual->annotationStr();
    }
    case TypeKind::List: {
      const TypePtr& fe = formal->cast<ListType>()->elementType();
      if (actual->kind() == TypeKind::List) {
        std::string r = matchTypeVariables(fe, actual->cast<ListType>()->elementType(), env);
        return r.empty() ? "" : "Cannot match " + formal->annotationStr() + " to " + actual->annotationStr() + ": " + r;
      }
      if (actual->kind() == TypeKind::Tuple) {
        const auto& elems = actual->cast<TupleType>()->elements();
        if (elems.empty()) return "";
        TypePtr u = elems[0];
        for (size_t i = 1; i < elems.size(); ++i) {
          auto x = unifyTypes(u, elems[i]);
          if (!x) return "Cannot match a tuple of heterogeneous types to a list";
          u = *x;
        }
        return matchTypeVariables(fe, u, env);
      }
      return "Cannot match " + formal->annotationStr() + " to " + actual->annotationStr();
    }
    case TypeKind::Tuple: {
      if (actual->kind() != TypeKind::Tuple) return "Cannot match a tuple to " + actual->annotationStr();
      const auto& f = formal->cast<TupleType>()->elements();
      const auto& a = actual->cast<TupleType>()->elements();
      if (f.size() != a.size()) return "Cannot match tuples of mismatched size";
      for (size_t i = 0; i < f.size(); ++i) {
        std::string r = matchTypeVariables(f[i], a[i], env);
        if (!r.empty()) return r;
      }
      return "";
    }
    case TypeKind::Future: {
      if (actual->kind() != TypeKind::Future) return "Cannot match a future to " + actual->annotationStr();
      return matchTypeVariables(formal->cast<FutureType>()->elementType(), actual->cast<FutureType>()->elementType(), env);
    }
    case TypeKind::Optional: {
      const TypePtr& fe = formal->cast<OptionalType>()->elementType();
      if (actual->kind() == TypeKind::Optional)
        return matchTypeVariables(fe, actual->cast<OptionalType>()->elementType(), env);
      if (actual->kind() == TypeKind::None) return "";
      return matchTypeVariables(fe, actual, env);
    }
    case TypeKind::Dict: {
      if (actual->kind() != TypeKind::Dict) return "Cannot match a dict to " + actual->annotationStr();
      auto* fd = formal->cast<DictType>();
      auto* ad = actual->cast<DictType>();
      std::string r = matchTypeVariables(fd->keyType(), ad->keyType(), env);
      if (!r.empty()) return r;
      return matchTypeVariables(fd->valueType(), ad->valueType(), env);
    }
    default: return "";
  }
}

// A tuple whose elements all fit the list's element type converts to that list.
bool convertibleToList(const TypePtr& type, const TypePtr& listType) {
  auto* lt = listType->cast<ListType>();
  if (!lt || type->kind() != TypeKind::Tuple) return false;
  for (auto& e : type->cast<TupleType>()->elements())
    if (!e->isSubtypeOf(lt->elementType())) return false;
  return true;
}

bool isIntOrFloatUsedAsList(const Value* value, const Argument& arg) {
  const TypePtr& vt = value->type();
  if (vt->kind() != TypeKind::Float && vt->kind() != TypeKind::Int) return false;
  TypePtr at = unwrapOptional(arg.type);
  auto* lt = at->cast<ListType>();
  return lt && lt->elementType()->kind() == vt->kind() && arg.N.has_value();
}

bool varargsCanBeUsedAsList(const FunctionSchema& schema, size_t i, const Argument& arg) {
  bool isLast = i + 1 == schema.arguments.size() || schema.arguments[i + 1].kwargOnly;
  TypePtr t = arg.type;
  bool isList = t->kind() == TypeKind::List;
  bool typevarList = isList && t->cast<ListType>()->elementType()->kind() == TypeKind::Var;
  return isLast && isList && !arg.N && !typevarList;
}

Value* insertConversion(const SourceRange& loc, Graph& graph, const char* op, Value* v, const OperatorRegistry& reg) {
  const auto& ops = reg.lookup(op);
  for (const Operator* o : ops) {
    if (o->schema.arguments.size() == 1 && v->type()->isSubtypeOf(o->schema.arguments[0].type)) {
      Node* n = graph.insert(Symbol::fromQualString(o->schema.name), {v}, 1);
      n->setOp(o);
      n->setSourceRange(loc);
      n->output()->setType(o->schema.returns.at(0).type);
      return n->output();
    }
  }
  // No registered kernel: leave the value as is (the caller reports the type mismatch).
  return v;
}

Value* createList(Graph& graph, const SourceRange& loc, const TypePtr& elemType, const std::vector<Value*>& elems) {
  Node* n = graph.insert(prim::ListConstruct, elems, 1);  // no source range, as PyTorch's createList
  (void)loc;
  n->output()->setType(ListType::create(elemType));
  return n->output();
}

// Removes every node inserted after `marker` (up to the insertion point), newest first.
void rollback(Graph& graph, Node* marker) {
  Node* stop = graph.insertPoint();
  while (stop->prev() != marker) {
    Node* n = stop->prev();
    bool used = false;
    for (Value* o : n->outputs()) used |= o->hasUses();
    if (used) break;  // should not happen: only nodes created for this attempt are here
    n->destroy();
  }
}

std::string typeMismatch(const Argument& arg, const TypePtr& actual) {
  return "Expected a value of type '" + arg.type->annotationStr() + "' for argument '" + arg.name +
         "' but instead found type '" + actual->annotationStr() + "'.\n";
}

}  // namespace

TypePtr evalTypeVariables(const TypePtr& t, const TypeEnv& env) {
  if (!hasFreeVariables(t)) return t;
  switch (t->kind()) {
    case TypeKind::Var: {
      const TypePtr* b = findVar(env, t->cast<VarType>()->name());
      return b ? *b : nullptr;
    }
    case TypeKind::List: {
      TypePtr e = evalTypeVariables(t->cast<ListType>()->elementType(), env);
      return e ? ListType::create(e) : nullptr;
    }
    case TypeKind::Optional: {
      TypePtr e = evalTypeVariables(t->cast<OptionalType>()->elementType(), env);
      return e ? OptionalType::create(e) : nullptr;
    }
    case TypeKind::Future: {
      TypePtr e = evalTypeVariables(t->cast<FutureType>()->elementType(), env);
      return e ? FutureType::create(e) : nullptr;
    }
    case TypeKind::Dict: {
      TypePtr k = evalTypeVariables(t->cast<DictType>()->keyType(), env);
      TypePtr v = evalTypeVariables(t->cast<DictType>()->valueType(), env);
      return k && v ? DictType::create(k, v) : nullptr;
    }
    case TypeKind::Tuple: {
      std::vector<TypePtr> es;
      for (auto& e : t->cast<TupleType>()->elements()) {
        TypePtr x = evalTypeVariables(e, env);
        if (!x) return nullptr;
        es.push_back(x);
      }
      return TupleType::create(std::move(es));
    }
    case TypeKind::Union: {
      std::vector<TypePtr> es;
      for (auto& e : t->cast<UnionType>()->types()) {
        TypePtr x = evalTypeVariables(e, env);
        if (!x) return nullptr;
        es.push_back(x);
      }
      return UnionType::create(std::move(es));
    }
    default: return t;
  }
}

Value* tryConvertToType(const SourceRange& loc, Graph& graph, const TypePtr& concrete, Value* value,
                        Conversions conversions, const OperatorRegistry& registry) {
  // Conversion to Optional[T] is conversion to T (unless the value is already optional or None).
  if (concrete->kind() == TypeKind::Optional) {
    if (value->type()->kind() != TypeKind::Optional && value->type()->kind() != TypeKind::None)
      return tryConvertToType(loc, graph, concrete->cast<OptionalType>()->elementType(), value, conversions,
                              registry);
  }
  TypePtr target = unwrapOptional(concrete);
  // Homogeneous tuples convert to lists.
  if (value->type()->kind() == TypeKind::Tuple) {
    if (convertibleToList(value->type(), target)) {
      const auto& elems = value->type()->cast<TupleType>()->elements();
      Node* unpack = graph.insert(prim::TupleUnpack, {value}, elems.size());
      unpack->setSourceRange(loc);
      std::vector<Value*> outs;
      for (size_t i = 0; i < elems.size(); ++i) {
        unpack->output(i)->setType(elems[i]);
        outs.push_back(unpack->output(i));
      }
      value = createList(graph, loc, target->cast<ListType>()->elementType(), outs);
    } else if (auto* ct = target->cast<TupleType>()) {
      // conversions apply element-wise (a `number` from x.item() returned as a float element)
      const auto& elems = value->type()->cast<TupleType>()->elements();
      if (!value->type()->isSubtypeOf(target) && ct->elements().size() == elems.size()) {
        Node* unpack = graph.insert(prim::TupleUnpack, {value}, elems.size());
        unpack->setSourceRange(loc);
        std::vector<Value*> outs;
        std::vector<TypePtr> types;
        for (size_t i = 0; i < elems.size(); ++i) {
          unpack->output(i)->setType(elems[i]);
          outs.push_back(tryConvertToType(loc, graph, ct->elements()[i], unpack->output(i), conversions, registry));
          types.push_back(outs.back()->type());
        }
        Node* tn = graph.insert(prim::TupleConstruct, outs, 1);  // no source range, as PyTorch's createTuple
        tn->output()->setType(TupleType::create(std::move(types)));
        value = tn->output();
      }
    }
  }
  if (conversions != Conversions::None) {
    const TypePtr& vt = value->type();
    bool isTensor = vt->kind() == TypeKind::Tensor;
    bool isNumber = vt->kind() == TypeKind::Number;
    TypeKind ck = concrete->kind();
    if (isTensor && conversions != Conversions::PythonArguments) {
      if (ck == TypeKind::Float) value = insertConversion(loc, graph, "aten::FloatImplicit", value, registry);
      else if (ck == TypeKind::Int) value = insertConversion(loc, graph, "aten::IntImplicit", value, registry);
      else if (ck == TypeKind::Number) value = insertConversion(loc, graph, "aten::ScalarImplicit", value, registry);
    } else if (isNumber) {
      if (ck == TypeKind::Float) value = insertConversion(loc, graph, "aten::Float", value, registry);
      else if (ck == TypeKind::Int) value = insertConversion(loc, graph, "aten::Int", value, registry);
    } else if (vt->kind() == TypeKind::Bool &&
               (conversions == Conversions::Python || conversions == Conversions::PythonArguments)) {
      if (ck == TypeKind::Float) value = insertConversion(loc, graph, "aten::Float", value, registry);
      else if (ck == TypeKind::Int) value = insertConversion(loc, graph, "aten::Int", value, registry);
    }
    if (value->type()->kind() == TypeKind::Str && ck == TypeKind::Device)
      value = insertConversion(loc, graph, "aten::device", value, registry);
  }
  return value;
}

namespace {

// The value of an argument; an empty list literal becomes a list of the type `formal` expects.
Value* materialize(const NamedValue& nv, const TypePtr& formal, const TypeEnv& env, Graph& graph) {
  if (nv.value) return nv.value;
  TypePtr elem = TensorType();
  TypePtr f = formal ? unwrapOptional(formal) : nullptr;
  if (f && f->kind() == TypeKind::List) {
    TypePtr e = evalTypeVariables(f->cast<ListType>()->elementType(), env);
    if (e) elem = e;
  }
  return createList(graph, nv.loc, elem, {});
}

Value* tryMatchArgument(const Argument& schemaArg, Graph& graph, const SourceRange& loc, Value* value,
                        std::ostream* failures, const std::function<std::ostream&()>& err, Conversions conversions,
                        TypeEnv& env, const OperatorRegistry& registry) {
  // ScalarType/Layout/MemoryFormat take ints in both passes, as PyTorch (x.to(other, memory_format=2) is
  // to.other in the first pass); view.dtype is never matched (see tryMatchSchema).
  Argument arg = schemaArg;
  arg.type = fakeType(schemaArg.type);
  if (isIntOrFloatUsedAsList(value, arg)) {
    std::vector<Value*> repeated(static_cast<size_t>(*arg.N), value);
    value = createList(graph, loc, value->type(), repeated);
  }
  std::string why = matchTypeVariables(arg.type, value->type(), env);
  if (!why.empty()) {
    if (failures)
      err() << "Could not match type " << value->type()->annotationStr() << " to " << arg.type->annotationStr() << " in argument '"
            << arg.name << "': " << why << ".\n";
    return nullptr;
  }
  TypePtr concrete = evalTypeVariables(arg.type, env);
  if (!concrete) {
    if (failures)
      err() << "Type variables in type " << arg.type->annotationStr() << " could not be inferred from actual type "
            << value->type()->annotationStr();
    return nullptr;
  }
  value = tryConvertToType(loc, graph, concrete, value, conversions, registry);
  if (!value->type()->isSubtypeOf(concrete)) {
    if (failures) err() << typeMismatch(arg, value->type());
    return nullptr;
  }
  return value;
}

Value* tryCreateList(const TypePtr& elemType, Graph& graph, const SourceRange& loc, const std::vector<NamedValue>& varargs,
                     std::ostream* failures, const std::function<std::ostream&()>& err, Conversions conversions,
                     TypeEnv& env, const OperatorRegistry& registry) {
  Argument elemArg;
  elemArg.name = "<varargs>";
  elemArg.type = elemType;
  std::vector<Value*> elems;
  for (auto& nv : varargs) {
    Value* v = tryMatchArgument(elemArg, graph, loc, materialize(nv, elemType, env, graph), failures, err, conversions, env, registry);
    if (!v) return nullptr;
    elems.push_back(v);
  }
  return createList(graph, loc, elemType, elems);
}

}  // namespace

std::optional<MatchedSchema> tryMatchSchema(const FunctionSchema& schema, const SourceRange& loc, Graph& graph,
                                            const std::vector<NamedValue>& args,
                                            const std::vector<NamedValue>& kwargs,
                                            std::optional<NamedValue> self, std::ostream* failures,
                                            Conversions conversions, const OperatorRegistry& registry) {
  // PyTorch's isBlockListedSchema: the JIT cannot tell x.view(1) from x.view(torch.int8) (ScalarType is an
  // int), so aten::view.dtype is never matched and x.view(torch.int32) views as shape [3].
  if (schema.name == "aten::view" && schema.overloadName == "dtype") return std::nullopt;
  auto err = [&]() -> std::ostream& {
    *failures << "\n" << schema.str() << ":\n";
    return *failures;
  };
  TypeEnv env;
  std::vector<Value*> positional;
  std::vector<bool> usedKwarg(kwargs.size(), false);
  size_t usedArgs = 0;
  for (size_t i = 0; i < schema.arguments.size(); ++i) {
    const Argument& arg = schema.arguments[i];
    Value* actual = nullptr;
    SourceRange aloc = loc;
    if (arg.name == "self" && self) {
      actual = materialize(*self, arg.type, env, graph);
      aloc = self->loc;
      self.reset();
    } else if (!arg.kwargOnly && usedArgs < args.size()) {
      if (conversions != Conversions::None && varargsCanBeUsedAsList(schema, i, arg)) {
        Value* v = args[usedArgs].value;
        if (v && v->type()->kind() != TypeKind::List && !convertibleToList(v->type(), unwrapOptional(arg.type))) {
          TypePtr elemType = unwrapOptional(arg.type)->cast<ListType>()->elementType();
          std::vector<NamedValue> rest(args.begin() + static_cast<long>(usedArgs), args.end());
          Value* list = tryCreateList(elemType, graph, loc, rest, failures, err, conversions, env, registry);
          if (!list) return std::nullopt;
          usedArgs = args.size();
          positional.push_back(list);
          continue;
        }
      }
      actual = materialize(args[usedArgs], arg.type, env, graph);
      aloc = args[usedArgs].loc;
      ++usedArgs;
    } else {
      bool found = false;
      for (size_t k = 0; k < kwargs.size(); ++k) {
        if (kwargs[k].name == arg.name) {
          if (usedKwarg[k]) {
            if (failures) err() << "Argument " << kwargs[k].name << " specified twice in schema.\n";
            return std::nullopt;
          }
          usedKwarg[k] = true;
          actual = materialize(kwargs[k], arg.type, env, graph);
          aloc = kwargs[k].loc;
          found = true;
          break;
        }
      }
      if (!found) {
        if (arg.defaultValue) {
          TypePtr t = arg.defaultValue->isNone() ? NoneType() : nullptr;
          if (arg.defaultValue->isList() && arg.defaultValue->toListRef().elements.empty()) {
            TypePtr at = unwrapOptional(arg.type);
            if (at->kind() == TypeKind::List && !hasFreeVariables(at)) t = at;
          }
          actual = graph.insertConstant(*arg.defaultValue, loc, t);
        } else {
          if (failures) err() << "Argument " << arg.name << " not provided.\n";
          return std::nullopt;
        }
      }
    }
    Value* v = tryMatchArgument(arg, graph, aloc, actual, failures, err, conversions, env, registry);
    if (!v) return std::nullopt;
    positional.push_back(v);
  }
  if (self) {
    if (failures) err() << "Provided self argument not used in schema.\n";
    return std::nullopt;
  }
  if (schema.isVarArg) {
    for (; usedArgs < args.size(); ++usedArgs) positional.push_back(materialize(args[usedArgs], nullptr, env, graph));
  }
  if (usedArgs < args.size()) {
    if (failures)
      err() << "Expected at most " << usedArgs << " arguments but found " << args.size() << " positional arguments.\n";
    return std::nullopt;
  }
  for (size_t k = 0; k < kwargs.size(); ++k) {
    if (!usedKwarg[k]) {
      if (failures) {
        if (schema.argumentIndex(kwargs[k].name) < 0) err() << "Keyword argument " << kwargs[k].name << " unknown.\n";
        else err() << "Keyword argument " << kwargs[k].name << " specified twice.\n";
      }
      return std::nullopt;
    }
  }
  MatchedSchema m;
  m.inputs = std::move(positional);
  for (auto& r : schema.returns) {
    TypePtr t = evalTypeVariables(fakeType(r.type), env);
    if (!t) {
      if (failures) err() << "Return type " << r.type->str() << " has unbound type variables.\n";
      return std::nullopt;
    }
    m.returnTypes.push_back(t);
  }
  return m;
}

std::pair<size_t, MatchedSchema> matchSchemas(const std::vector<const FunctionSchema*>& schemas,
                                              const SourceRange& loc, Graph& graph,
                                              const std::vector<NamedValue>& args,
                                              const std::vector<NamedValue>& kwargs,
                                              const std::optional<NamedValue>& self,
                                              const OperatorRegistry& registry) {
  Node* marker = graph.insertPoint()->prev();
  for (Conversions conversions : {Conversions::None, Conversions::Implicit, Conversions::PythonArguments}) {
    for (size_t i = 0; i < schemas.size(); ++i) {
      auto m = tryMatchSchema(*schemas[i], loc, graph, args, kwargs, self, nullptr, conversions, registry);
      if (m) return {i, std::move(*m)};
      rollback(graph, marker);
    }
  }
  // Render the failures (second pass semantics, as PyTorch).
  std::stringstream failures;
  for (size_t i = 0; i < schemas.size(); ++i) {
    tryMatchSchema(*schemas[i], loc, graph, args, kwargs, self, &failures, Conversions::Implicit, registry);
    rollback(graph, marker);
  }
  if (schemas.size() == 1) throw CompileError(failures.str(), loc);
  std::string indented;
  std::string text = failures.str();
  size_t p = 0;
  while (p < text.size()) {
    size_t e = text.find('\n', p);
    if (e == std::string::npos) e = text.size();
    indented += "  " + text.substr(p, e - p) + "\n";
    p = e + 1;
  }
  throw CompileError("Arguments for call are not valid.\nThe following variants are available:\n" + indented +
                         "\nThe original call is",
                     loc);
}

bool isBuiltinOperator(const std::string& name, const OperatorRegistry& registry) {
  return !registry.lookup(name).empty();
}

namespace {

// A module attribute whose value is None in this module's configuration (prim::GetAttr of a NoneType slot:
// a parameter registered as None, such as MultiheadAttention's in_proj_weight when kdim != embed_dim).
bool isNoneModuleAttribute(const NamedValue& nv) {
  return nv.value && nv.value->type()->kind() == TypeKind::None && nv.value->node()->kind() == prim::GetAttr;
}

// A call of a builtin operator passing such a None attribute where the operator takes a non-optional value
// matches no schema, though Python runs the code and raises TypeError only if the call is reached (code
// guarded by a runtime check of the configuration, as MultiheadAttention's fast path). The call is emitted
// as Python's meaning: prim::RaiseException(TypeError "<op>(): argument '<name>' (position <k>) must be
// <type>, not NoneType") before the operator, which takes prim::Uninitialized for those arguments (what
// PyTorch emits after a raise; its archives load and print it as `uninitialized(T)`). Tries the schemas in
// order; nullopt when none matches this way either.
std::optional<std::pair<size_t, MatchedSchema>> matchWithNoneAttributes(
    const std::vector<const FunctionSchema*>& schemas, const SourceRange& loc, Graph& graph,
    const std::vector<NamedValue>& args, const std::vector<NamedValue>& kwargs,
    const std::optional<NamedValue>& self, const OperatorRegistry& registry) {
  bool any = self && isNoneModuleAttribute(*self);
  for (auto& a : args) any |= isNoneModuleAttribute(a);
  for (auto& a : kwargs) any |= isNoneModuleAttribute(a);
  if (!any) return std::nullopt;
  Node* marker = graph.insertPoint()->prev();
  for (size_t si = 0; si < schemas.size(); ++si) {
    const FunctionSchema& schema = *schemas[si];
    // the schema argument each positional / keyword argument binds to (as tryMatchSchema binds them)
    std::vector<const Argument*> positional;
    const Argument* selfArg = nullptr;
    for (const Argument& a : schema.arguments) {
      if (a.name == "self" && self && !selfArg) selfArg = &a;
      else if (!a.kwargOnly) positional.push_back(&a);
    }
    std::string why;
    auto substitute = [&](const NamedValue& nv, const Argument* formal) -> std::optional<NamedValue> {
      if (!isNoneModuleAttribute(nv)) return nv;
      if (!formal || formal->type->kind() == TypeKind::Optional || hasFreeVariables(formal->type)) return std::nullopt;
      if (why.empty()) {
        size_t position = 0;
        for (size_t i = 0; i < schema.arguments.size(); ++i)
          if (&schema.arguments[i] == formal) position = i + 1;
        why = schema.name.substr(schema.name.find("::") + 2) + "(): argument '" + formal->name + "' (position " +
              std::to_string(position) + ") must be " + formal->type->annotationStr() + ", not NoneType";
      }
      Node* u = graph.insert(prim::Uninitialized, {}, 1);
      u->setSourceRange(nv.loc);
      u->output()->setType(formal->type);
      NamedValue out = nv;
      out.value = u->output();
      return out;
    };
    bool ok = true;
    std::optional<NamedValue> newSelf;
    if (self) {
      auto v = substitute(*self, selfArg);
      ok &= v.has_value();
      newSelf = v;
    }
    std::vector<NamedValue> newArgs, newKwargs;
    for (size_t i = 0; ok && i < args.size(); ++i) {
      auto v = substitute(args[i], i < positional.size() ? positional[i] : nullptr);
      if (!v) ok = false;
      else newArgs.push_back(*v);
    }
    for (size_t i = 0; ok && i < kwargs.size(); ++i) {
      int idx = schema.argumentIndex(kwargs[i].name);
      auto v = substitute(kwargs[i], idx >= 0 ? &schema.arguments[static_cast<size_t>(idx)] : nullptr);
      if (!v) ok = false;
      else newKwargs.push_back(*v);
    }
    if (ok && !why.empty()) {
      auto m = tryMatchSchema(schema, loc, graph, newArgs, newKwargs, newSelf, nullptr, Conversions::Python, registry);
      if (m) {
        Value* msg = graph.insertConstant(IValue(why), loc);
        Value* cls = graph.insertConstant(IValue(std::string("builtins.TypeError")), loc);
        // before the operator's inputs are used: at the current insert point, after the substitutions
        emitBuiltinCall(loc, graph, "prim::RaiseException", {NamedValue(loc, msg), NamedValue(loc, cls)}, {},
                        std::nullopt, registry);
        return std::make_pair(si, std::move(*m));
      }
    }
    rollback(graph, marker);
  }
  return std::nullopt;
}

}  // namespace

std::vector<Value*> emitBuiltinCall(const SourceRange& loc, Graph& graph, const std::string& name,
                                    const std::vector<NamedValue>& args, const std::vector<NamedValue>& kwargs,
                                    const std::optional<NamedValue>& self, const OperatorRegistry& registry) {
  const auto& ops = registry.lookup(name);
  if (ops.empty())
    throw CompileError("Unknown builtin op: " + name + ".\nCould not find any similar ops to " + name +
                           ". This op may not exist or may not be currently supported in TorchScript.",
                       loc);
  std::vector<const FunctionSchema*> schemas;
  schemas.reserve(ops.size());
  for (const Operator* o : ops) schemas.push_back(&o->schema);
  size_t index = 0;
  MatchedSchema matched;
  try {
    std::tie(index, matched) = matchSchemas(schemas, loc, graph, args, kwargs, self, registry);
  } catch (const CompileError&) {
    auto lowered = matchWithNoneAttributes(schemas, loc, graph, args, kwargs, self, registry);
    if (!lowered) throw;
    std::tie(index, matched) = std::move(*lowered);
  }
  const Operator* op = ops[index];
  Node* n = graph.insert(Symbol::fromQualString(op->schema.name), matched.inputs, matched.returnTypes.size());
  n->setOp(op);
  n->setSourceRange(loc);
  for (size_t i = 0; i < matched.returnTypes.size(); ++i) n->output(i)->setType(matched.returnTypes[i]);
  return n->outputs();
}

}  // namespace kindling
