#include "frontend/sugared_value.h"

#include <cmath>
#include <functional>
#include <stdexcept>
#include <limits>

#include "frontend/functional_library.h"
#include "frontend/ir_emitter.h"

namespace kindling {

// ---------------------------------------------------------------- defaults

Value* SugaredValue::asValue(const SourceRange& loc, FunctionEmitter&) {
  throw CompileError(kind() + " cannot be used as a value", loc);
}
SugaredValuePtr SugaredValue::attr(const SourceRange& loc, FunctionEmitter&, const std::string& field) {
  throw CompileError("attribute lookup is not defined on " + kind() + " (looking up '" + field + "')", loc);
}
std::optional<bool> SugaredValue::hasAttr(const SourceRange&, FunctionEmitter&, const std::string&) { return std::nullopt; }
void SugaredValue::setAttr(const SourceRange& loc, FunctionEmitter&, const std::string& field, Value*) {
  throw CompileError("attribute assignment is not defined on " + kind() + " (assigning '" + field + "')", loc);
}
SugaredValuePtr SugaredValue::call(const SourceRange& loc, FunctionEmitter&, const std::vector<NamedValue>&,
                                   const std::vector<NamedValue>&, size_t) {
  throw CompileError("cannot call a " + kind(), loc);
}
std::vector<SugaredValuePtr> SugaredValue::asTuple(const SourceRange& loc, FunctionEmitter&, std::optional<size_t>) {
  throw CompileError(kind() + " cannot be used as a tuple", loc);
}

namespace {

// Values of arguments (empty list literals become List[Tensor] when no schema says otherwise).
std::vector<Value*> argValues(const SourceRange& loc, FunctionEmitter& m, const std::vector<NamedValue>& args) {
  std::vector<Value*> out;
  for (auto& a : args) out.push_back(a.value ? a.value : m.createList(TensorType(), {}, a.loc.valid() ? a.loc : loc));
  return out;
}

// A sugared value whose call runs a C++ callback (small builtins such as C.__new__ or torch.jit.is_scripting).
struct LambdaCallValue : SugaredValue {
  using Fn = std::function<SugaredValuePtr(const SourceRange&, FunctionEmitter&, const std::vector<NamedValue>&,
                                           const std::vector<NamedValue>&)>;
  LambdaCallValue(std::string n, Fn f) : name(std::move(n)), fn(std::move(f)) {}
  std::string kind() const override { return "builtin '" + name + "'"; }
  SugaredValuePtr call(const SourceRange& loc, FunctionEmitter& m, const std::vector<NamedValue>& args,
                       const std::vector<NamedValue>& kwargs, size_t) override {
    return fn(loc, m, args, kwargs);
  }
  std::string name;
  Fn fn;
};

SugaredValuePtr simple(Value* v) { return std::make_shared<SimpleValue>(v); }

// torch.nn.functional.X: the aten operator of the same name, with the Python signature's differences
// handled — `input=` is the schema's `self`, `inplace` selects the in-place variant `X_`, and a few
// functions whose arguments differ (dropout's `training`, embedding's argument order, softmax's
// `_stacklevel`).
SugaredValuePtr functionalValue(const std::string& field) {
  static const std::pair<const char*, size_t> inplaceIndex[] = {
      {"relu", 1}, {"relu6", 1}, {"silu", 1}, {"hardswish", 1}, {"hardsigmoid", 1}, {"mish", 1}, {"selu", 1},
      {"hardtanh", 3}, {"leaky_relu", 2}, {"elu", 2}, {"celu", 2}, {"dropout", 3}, {"threshold", 3}};
  std::optional<size_t> inplacePos;
  for (auto& [n, i] : inplaceIndex)
    if (field == n) inplacePos = i;
  std::string fname = field;
  return std::make_shared<LambdaCallValue>(
      "torch.nn.functional." + field,
      [fname, inplacePos](const SourceRange& loc, FunctionEmitter& m, const std::vector<NamedValue>& argsIn,
                          const std::vector<NamedValue>& kwargsIn) -> SugaredValuePtr {
        std::vector<NamedValue> args = argsIn, kwargs;
        bool inplace = false;
        auto constBool = [&](const NamedValue& v) {
          auto c = v.value ? v.value->constantValue() : std::nullopt;
          if (!c || !c->isBool()) throw CompileError("'inplace' must be a constant bool", v.loc);
          return c->toBool();
        };
        if (inplacePos && args.size() > *inplacePos) {
          inplace = constBool(args[*inplacePos]);
          args.erase(args.begin() + static_cast<long>(*inplacePos));
        }
        for (auto kw : kwargsIn) {
          if (kw.name == "inplace" && inplacePos) { inplace = constBool(kw); continue; }
          if (kw.name == "_stacklevel") continue;
          if (kw.name == "input") kw.name = fname == "dropout" ? "input" : "self";
          if (fname == "dropout" && kw.name == "training") kw.name = "train";
          kwargs.push_back(kw);
        }
        if (fname == "dropout") {
          // F.dropout(input, p=0.5, training=True)
          bool hasP = args.size() > 1, hasTrain = args.size() > 2;
          for (auto& k : kwargs) { hasP |= k.name == "p"; hasTrain |= k.name == "train"; }
          if (!hasP) kwargs.emplace_back(loc, "p", m.insertConstant(IValue(0.5), loc));
          if (!hasTrain) kwargs.emplace_back(loc, "train", m.insertConstant(IValue(true), loc));
        }
        if (fname == "embedding") {
          // F.embedding(input, weight, padding_idx=None, ...) → aten::embedding(weight, indices, padding_idx=-1, ...)
          if (args.size() < 2) throw CompileError("embedding() expects input and weight", loc);
          std::vector<NamedValue> a{args[1], args[0]};
          std::vector<NamedValue> kw;
          for (auto& k : kwargs) {
            if (k.name == "padding_idx" && k.value && k.value->type()->kind() == TypeKind::None) continue;
            if (k.name == "max_norm" || k.name == "norm_type") continue;
            kw.push_back(k);
          }
          return m.builtinCall(loc, "aten::embedding", a, kw);
        }
        std::string op = "aten::" + fname + (inplace ? "_" : "");
        return m.builtinCall(loc, op, args, kwargs);
      });
}

// torch.nn.functional.X as PyTorch resolves it (frontend/functional_library.h): a builtin alias, a
// boolean_dispatch on a constant return_indices, or a function of our TorchScript library; names
// neither knows keep the aten-operator mapping of functionalValue.
SugaredValuePtr resolveFunctional(const SourceRange& loc, FunctionEmitter& m, const std::string& field) {
  const auto& resolver = m.context().resolver;
  auto libraryFunction = [&](const std::string& n) -> Function* {
    if (!resolver || m.context().archiveMode) return nullptr;
    return resolver->resolveFunction(std::string(kFunctionalPrefix) + "." + n, loc);
  };
  if (auto bd = functionalBooleanDispatch(field)) {
    if (libraryFunction(bd->ifFalse)) {
      BooleanDispatch d = *bd;
      return std::make_shared<LambdaCallValue>(
          "torch.nn.functional." + field,
          [d, libraryFunction](const SourceRange& l, FunctionEmitter& em, const std::vector<NamedValue>& args,
                               const std::vector<NamedValue>& kwargs) -> SugaredValuePtr {
            bool flag = false;
            const NamedValue* v = args.size() > d.argIndex ? &args[d.argIndex] : nullptr;
            for (auto& k : kwargs)
              if (k.name == "return_indices") v = &k;
            if (v) {
              auto c = v->value ? v->value->constantValue() : std::nullopt;
              if (!c || !c->isBool())
                throw CompileError("return_indices of a boolean_dispatch function must be a constant bool", v->loc);
              flag = c->toBool();
            }
            Function* f = libraryFunction(flag ? d.ifTrue : d.ifFalse);
            return em.callFunction(l, f, args, kwargs);
          });
    }
  }
  std::string builtin = functionalBuiltinName(field);
  if (!builtin.empty()) return std::make_shared<BuiltinFunction>(builtin);
  if (isFunctionalLibraryFunction(field)) {
    if (Function* f = libraryFunction(field)) {
      // PyTorch's @_overload signatures the library's definition does not cover: later overloads, in
      // mangled namespaces, tried after it (functional_library.h). An overload's own body calls the
      // library's definition.
      std::vector<Function*> fs{f};
      if (field == "interpolate")
        if (Function* o = libraryFunction("___torch_mangle_1.interpolate"); o && o != m.context().currentFunction)
          fs.push_back(o);
      return std::make_shared<FunctionValue>(std::move(fs));
    }
  }
  return functionalValue(field);
}

// torch.<name> for the torch/functional.py functions PyTorch compiles from source (unique, norm, tensordot,
// cdist, ...): the library function torchFunctionalTarget picks from the call's argument types and flags
// (frontend/functional_library.h); a call of a compiled function, as in PyTorch's graph.
SugaredValuePtr resolveTorchFunctional(const std::string& field) {
  return std::make_shared<LambdaCallValue>(
      "torch." + field,
      [field](const SourceRange& l, FunctionEmitter& em, const std::vector<NamedValue>& args,
              const std::vector<NamedValue>& kwargs) -> SugaredValuePtr {
        CallShape shape;
        for (auto& a : args) shape.positional.push_back(a.value ? a.value->type() : nullptr);
        for (auto& k : kwargs) shape.keywords.emplace_back(k.name, k.value ? k.value->type() : nullptr);
        shape.flag = [&](const std::string& name, size_t index) -> int {
          const NamedValue* v = index < args.size() ? &args[index] : nullptr;
          for (auto& k : kwargs)
            if (k.name == name) v = &k;
          if (!v) return -1;
          auto c = v->value ? v->value->constantValue() : std::nullopt;
          if (!c || !c->isBool()) return 2;
          return c->toBool() ? 1 : 0;
        };
        std::string target;
        try {
          target = torchFunctionalTarget(field, shape);
        } catch (const std::invalid_argument& e) {
          throw CompileError(e.what(), l);
        }
        const auto& resolver = em.context().resolver;
        Function* f = resolver ? resolver->resolveFunction(target, l) : nullptr;
        if (!f) throw CompileError("torch." + field + " is not available here", l);
        return em.callFunction(l, f, args, kwargs);
      });
}

}  // namespace

// ---------------------------------------------------------------- SimpleValue

ClassType::Container moduleContainerOf(const Value* v) {
  if (auto* ct = v->type()->cast<ClassType>()) return ct->container();
  return ClassType::Container::None;
}

std::vector<size_t> moduleContainerSlots(const ClassType& ct) {
  bool params = ct.container() == ClassType::Container::ParameterList ||
                ct.container() == ClassType::Container::ParameterDict;
  std::vector<size_t> out;
  const auto& attrs = ct.attributes();
  for (size_t i = 0; i < attrs.size(); ++i) {
    bool isModule = attrs[i].type->kind() == TypeKind::Class && attrs[i].type->cast<ClassType>()->isModule();
    if (params ? attrs[i].isParameter : isModule) out.push_back(i);
  }
  return out;
}

SugaredValuePtr moduleContainerElement(const SourceRange&, FunctionEmitter& m, Value* v, size_t slot) {
  auto* ct = v->type()->cast<ClassType>();
  const auto& a = ct->attributes()[slot];
  Node* n = m.graph().insert(prim::GetAttr, {v}, 1);
  n->s_("name", a.name);
  n->output()->setType(a.type);
  bool numeric = !a.name.empty() && a.name.find_first_not_of("0123456789") == std::string::npos;
  n->output()->setDebugName(numeric ? "_" + a.name : a.name);
  return simple(n->output());
}

bool SimpleValue::shouldUnroll() const {
  return value->type()->kind() == TypeKind::Tuple || moduleContainerOf(value) != ClassType::Container::None;
}

std::optional<int64_t> SimpleValue::staticLen() const {
  if (auto* t = value->type()->cast<TupleType>()) return static_cast<int64_t>(t->elements().size());
  if (moduleContainerOf(value) != ClassType::Container::None)
    return static_cast<int64_t>(moduleContainerSlots(*value->type()->cast<ClassType>()).size());
  return std::nullopt;
}

SugaredValuePtr SimpleValue::attr(const SourceRange& loc, FunctionEmitter& m, const std::string& field) {
  const TypePtr& t = value->type();
  Graph& g = m.graph();
  if (auto* ct = t->cast<ClassType>()) {
    if (const IValue* c = ct->findConstant(field)) return simple(m.insertConstant(*c, loc));
    bool isDict = ct->container() == ClassType::Container::ModuleDict ||
                  ct->container() == ClassType::Container::ParameterDict;
    if (isDict && (field == "keys" || field == "values" || field == "items") && !ct->findMethod(field)) {
      // ModuleDict / ParameterDict views, unrolled as torch's ModuleDictMethod: keys are string constants.
      Value* self = value;
      std::string what = field;
      return std::make_shared<LambdaCallValue>(
          field, [self, what](const SourceRange& l, FunctionEmitter& em, const std::vector<NamedValue>& args,
                              const std::vector<NamedValue>& kwargs) -> SugaredValuePtr {
            if (!args.empty() || !kwargs.empty()) throw CompileError(what + "() takes no arguments", l);
            std::vector<SugaredValuePtr> elems;
            auto* c = self->type()->cast<ClassType>();
            for (size_t slot : moduleContainerSlots(*c)) {
              SugaredValuePtr key = simple(em.insertConstant(IValue(c->attributes()[slot].name), l));
              if (what == "keys") {
                elems.push_back(key);
                continue;
              }
              SugaredValuePtr v = moduleContainerElement(l, em, self, slot);
              if (what == "values") elems.push_back(v);
              else elems.push_back(std::make_shared<SugaredTupleValue>(std::vector<SugaredValuePtr>{key, v}));
            }
            return std::make_shared<SugaredTupleValue>(elems);
          });
    }
    int slot = ct->findAttributeSlot(field);
    if (slot >= 0) {
      // As PyTorch's Graph::createGetAttr: the output is named after the attribute, no source range.
      Node* n = g.insert(prim::GetAttr, {value}, 1);
      n->s_("name", field);
      n->output()->setType(ct->attributes()[static_cast<size_t>(slot)].type);
      bool numeric = !field.empty() && field.find_first_not_of("0123456789") == std::string::npos;
      n->output()->setDebugName(numeric ? "_" + field : field);
      return simple(n->output());
    }
    const auto& r = m.context().resolver;
    if (const ClassType::Property* p = ct->findProperty(field)) {
      // a module's property accessors are compiled from Python when first used (as its methods)
      if (!ct->findMethod(p->getter) && r) r->resolveMethod(*ct, p->getter, loc);
      return m.callMethod(loc, value, p->getter, {}, {});
    }
    // overloads first, as torch's ModuleValue::attr
    if (r) {
      if (auto names = r->resolveMethodOverloads(*ct, field, loc); !names.empty())
        return std::make_shared<MethodValue>(value, field, std::move(names));
      if (ct->isModule())
        if (SugaredValuePtr f = r->resolveModuleAttribute(*ct, field, loc)) return f;
    }
    if (ct->findMethod(field)) return std::make_shared<MethodValue>(value, field);
    if (r) {
      if (r->resolveMethod(*ct, field, loc)) return std::make_shared<MethodValue>(value, field);
      // compiling it on demand may have declared it as overloads
      if (auto names = r->resolveMethodOverloads(*ct, field, loc); !names.empty())
        return std::make_shared<MethodValue>(value, field, std::move(names));
    }
    if (ct->isModule())
      throw CompileError("Module '" + ct->name() + "' has no attribute '" + field + "' ", loc);
    // PyTorch's SimpleValue::attr wording for classes
    throw CompileError("'" + ct->str() + "' object has no attribute or method '" + field +
                           "'. Did you forget to initialize an attribute in __init__()?",
                       loc);
  }
  if (t->kind() == TypeKind::Tensor) {
    static const char* const primProps[] = {"dtype", "device", "is_cuda", "requires_grad", "layout", "grad", "data",
                                            "is_sparse", "is_quantized", "is_mkldnn", "is_meta", "is_nested",
                                            "is_xpu", "is_mps", "is_vulkan", "name"};
    for (const char* p : primProps)
      if (field == p) {
        std::string op = std::string("prim::") + p;
        if (isBuiltinOperator(op, m.registry())) return m.builtinCall(loc, op, {NamedValue(loc, value)});
        if (field == "dtype" || field == "device") {
          Node* n = g.insert(Symbol::fromQualString(op), {value}, 1);
          n->setSourceRange(loc);
          n->output()->setType(field == "dtype" ? IntType() : DeviceObjType());
          return simple(n->output());
        }
      }
    if (field == "shape") {
      if (isBuiltinOperator("prim::shape", m.registry())) return m.builtinCall(loc, "prim::shape", {NamedValue(loc, value)});
      return m.builtinCall(loc, "aten::size", {NamedValue(loc, value)});
    }
    if (field == "ndim") return m.builtinCall(loc, "aten::dim", {NamedValue(loc, value)});
    if (field == "T") {
      if (isBuiltinOperator("prim::T", m.registry())) return m.builtinCall(loc, "prim::T", {NamedValue(loc, value)});
      return m.builtinCall(loc, "aten::numpy_T", {NamedValue(loc, value)});
    }
    if (field == "mT" || field == "mH" || field == "H" || field == "real" || field == "imag" || field == "is_leaf" ||
        field == "retains_grad") {
      std::string op = "aten::" + field;
      if (field == "H") op = isBuiltinOperator("prim::H", m.registry()) ? "prim::H" : "aten::matrix_H";  // PyTorch: matrix_H
      return m.builtinCall(loc, op, {NamedValue(loc, value)});
    }
    // x.float(), x.long(), ... → aten::to(x, dtype) (PyTorch's TensorCastValue)
    static const std::pair<const char*, ScalarType> casts[] = {
        {"byte", ScalarType::Byte}, {"char", ScalarType::Char}, {"short", ScalarType::Short},
        {"int", ScalarType::Int}, {"long", ScalarType::Long}, {"half", ScalarType::Half},
        {"float", ScalarType::Float}, {"double", ScalarType::Double}, {"bool", ScalarType::Bool},
        {"bfloat16", ScalarType::BFloat16}};
    for (auto& [n, st] : casts) {
      if (field == n) {
        Value* self = value;
        ScalarType dt = st;
        return std::make_shared<LambdaCallValue>(
            n, [self, dt](const SourceRange& l, FunctionEmitter& em, const std::vector<NamedValue>& args,
                          const std::vector<NamedValue>& kwargs) {
              std::vector<NamedValue> a{NamedValue(l, self),
                                        NamedValue(l, em.insertConstant(IValue(static_cast<int64_t>(dt)), l))};
              a.insert(a.end(), args.begin(), args.end());
              return em.builtinCall(l, "aten::to", a, kwargs);
            });
      }
    }
    if (!isBuiltinOperator("aten::" + field, m.registry()))
      throw CompileError("'Tensor' object has no attribute or method '" + field + "'.", loc);
    return std::make_shared<BuiltinFunction>("aten::" + field, NamedValue(loc, "self", value));
  }
  if (auto* tt = t->cast<TupleType>()) {
    const auto& names = tt->names();
    for (size_t i = 0; i < names.size(); ++i) {
      if (names[i] == field) {
        // A field of a tuple built right here is its element (PyTorch's LowerSimpleTuples folds the index).
        if (value->node()->kind() == prim::TupleConstruct) return simple(value->node()->input(i));
        Value* idx = m.insertConstant(IValue(static_cast<int64_t>(i)), loc);
        Node* n = g.insert(prim::TupleIndex, {value, idx}, 1);
        n->setSourceRange(loc);
        n->output()->setType(tt->elements()[i]);
        return simple(n->output());
      }
    }
    throw CompileError("Unknown attribute to named tuple: " + field + " on " + t->annotationStr(), loc);
  }
  if (auto* et = t->cast<EnumType>()) {
    if (field == "name" || field == "value") {
      Node* n = g.insert(field == "name" ? prim::EnumName : prim::EnumValue, {value}, 1);  // no range, as PyTorch
      n->output()->setType(field == "name" ? StringType() : et->valueType());
      return simple(n->output());
    }
    throw CompileError("'" + et->qualName() + "' object has no attribute '" + field + "'", loc);
  }
  if (t->kind() == TypeKind::Device) {
    if (field == "type" || field == "index") {
      std::string op = "prim::" + field;
      return m.builtinCall(loc, op, {NamedValue(loc, value)});
    }
  }
  if (t->kind() == TypeKind::Optional || t->kind() == TypeKind::None)
    throw CompileError("Tried to access attribute '" + field + "' of a value of type " + t->annotationStr() +
                           "; refine it first (e.g. `assert x is not None`)",
                       loc);
  // list / dict / str / int / float / future methods are aten operators taking self
  if (!isBuiltinOperator("aten::" + field, m.registry()))
    throw CompileError("'" + t->annotationStr() + "' object has no attribute or method '" + field + "'.", loc);
  return std::make_shared<BuiltinFunction>("aten::" + field, NamedValue(loc, "self", value));
}

std::optional<bool> SimpleValue::hasAttr(const SourceRange& loc, FunctionEmitter& m, const std::string& field) {
  if (auto* ct = value->type()->cast<ClassType>()) {
    if (ct->findConstant(field) || ct->findAttributeSlot(field) >= 0 || ct->findMethod(field) || ct->findProperty(field))
      return true;
    const auto& r = m.context().resolver;
    return r && !r->resolveMethodOverloads(*ct, field, loc).empty();
  }
  return std::nullopt;
}

void SimpleValue::setAttr(const SourceRange& loc, FunctionEmitter& m, const std::string& field, Value* v) {
  auto* ct = value->type()->cast<ClassType>();
  if (!ct) throw CompileError("Tried to set an attribute on a value of type " + value->type()->annotationStr(), loc);
  if (ct->findConstant(field)) throw CompileError("Cannot assign to constant attribute '" + field + "'", loc);
  if (const ClassType::Property* p = ct->findProperty(field)) {
    if (p->setter.empty()) {
      if (ct->isModule())  // PyTorch's ModuleValue::setAttr wording
        throw CompileError("Tried to set read-only attribute: " + field, loc);
      throw CompileError("can't set attribute '" + field + "': the property of '" + ct->str() + "' has no setter", loc);
    }
    if (!ct->findMethod(p->setter) && m.context().resolver) m.context().resolver->resolveMethod(*ct, p->setter, loc);
    m.callMethod(loc, value, p->setter, {NamedValue(loc, v)}, {});
    return;
  }
  int slot = ct->findAttributeSlot(field);
  if (slot < 0 && m.context().inferAttributesOf && m.context().inferAttributesOf.get() == ct) {
    // the attribute's type is the first value's type (`self.x = None` makes a NoneType attribute, as
    // PyTorch 1.13; `torch.jit.annotate(Optional[T], None)` makes an Optional[T] one)
    std::function<bool(const TypePtr&)> containsSelf = [&](const TypePtr& t) {
      if (t.get() == ct) return true;
      for (const TypePtr& c : t->containedTypes())
        if (containsSelf(c)) return true;
      return false;
    };
    if (containsSelf(v->type()))
      throw CompileError("Assignment to attribute '" + field + "' cannot be of a type that contains class '" +
                             ct->str() + "'.\nClasses that recursively contain instances of themselves are not yet supported",
                         loc);
    slot = static_cast<int>(m.context().inferAttributesOf->addAttribute(field, v->type()));
  }
  if (slot < 0) throw CompileError("Tried to set nonexistent attribute: " + field + ". Did you forget to initialize it in __init__()?", loc);
  const TypePtr& at = ct->attributes()[static_cast<size_t>(slot)].type;
  v = tryConvertToType(loc, m.graph(), at, v, Conversions::Python, m.registry());
  if (!v->type()->isSubtypeOf(at))
    throw CompileError("Wrong type for attribute assignment. Expected " + at->annotationStr() + " but got " +
                           v->type()->annotationStr(),
                       loc);
  Node* n = m.graph().insert(prim::SetAttr, {value, v}, 0);
  n->s_("name", field);
  n->setSourceRange(loc);
}

SugaredValuePtr SimpleValue::call(const SourceRange& loc, FunctionEmitter& m, const std::vector<NamedValue>& args,
                                  const std::vector<NamedValue>& kwargs, size_t nBinders) {
  const TypePtr& t = value->type();
  if (auto* ft = t->cast<FunctionType>()) return m.callFunction(loc, ft->function(), args, kwargs);
  if (auto* ct = t->cast<ClassType>()) {
    if (const auto& r = m.context().resolver)
      if (auto names = r->resolveMethodOverloads(*ct, "forward", loc); !names.empty())
        return m.callMethod(loc, value, names, args, kwargs);
    if (ct->findMethod("forward")) return m.callMethod(loc, value, "forward", args, kwargs);
    if (ct->findMethod("__call__")) return m.callMethod(loc, value, "__call__", args, kwargs);
  }
  (void)nBinders;
  throw CompileError("'" + t->annotationStr() + "' object is not callable", loc);
}

std::vector<SugaredValuePtr> SimpleValue::asTuple(const SourceRange& loc, FunctionEmitter& m,
                                                  std::optional<size_t> sizeHint) {
  const TypePtr& t = value->type();
  Graph& g = m.graph();
  if (auto c = moduleContainerOf(value); c != ClassType::Container::None) {
    // Iterating a ModuleList/Sequential/ParameterList gives its elements; a ModuleDict/ParameterDict its keys.
    std::vector<SugaredValuePtr> out;
    auto* ct = t->cast<ClassType>();
    bool isDict = c == ClassType::Container::ModuleDict || c == ClassType::Container::ParameterDict;
    for (size_t slot : moduleContainerSlots(*ct))
      out.push_back(isDict ? simple(m.insertConstant(IValue(ct->attributes()[slot].name), loc))
                           : moduleContainerElement(loc, m, value, slot));
    return out;
  }
  if (auto* tt = t->cast<TupleType>()) {
    const auto& elems = tt->elements();
    Node* n = g.insert(prim::TupleUnpack, {value}, elems.size());
    n->setSourceRange(loc);
    std::vector<SugaredValuePtr> out;
    for (size_t i = 0; i < elems.size(); ++i) {
      n->output(i)->setType(elems[i]);
      out.push_back(simple(n->output(i)));
    }
    return out;
  }
  if (auto* lt = t->cast<ListType>()) {
    if (!sizeHint) throw CompileError("cannot statically infer the expected size of a list in this context", loc);
    Node* n = g.insert(prim::ListUnpack, {value}, *sizeHint);
    n->setSourceRange(loc);
    std::vector<SugaredValuePtr> out;
    for (size_t i = 0; i < *sizeHint; ++i) {
      n->output(i)->setType(lt->elementType());
      out.push_back(simple(n->output(i)));
    }
    return out;
  }
  throw CompileError("cannot unpack a value of type " + t->annotationStr(), loc);
}

// ---------------------------------------------------------------- builtins

SugaredValuePtr BuiltinFunction::call(const SourceRange& loc, FunctionEmitter& m, const std::vector<NamedValue>& args,
                                      const std::vector<NamedValue>& kwargs, size_t) {
  return m.builtinCall(loc, name, args, kwargs, self);
}

SugaredValuePtr BuiltinModule::attr(const SourceRange& loc, FunctionEmitter& m, const std::string& field) {
  if (name == "ops") return std::make_shared<BuiltinModule>("ops." + field);
  if (name.compare(0, 4, "ops.") == 0) return std::make_shared<BuiltinFunction>(name.substr(4) + "::" + field);
  if (name == "math") {
    if (field == "pi") return simple(m.insertConstant(IValue(M_PI), loc));
    if (field == "e") return simple(m.insertConstant(IValue(M_E), loc));
    if (field == "tau") return simple(m.insertConstant(IValue(2 * M_PI), loc));
    if (field == "inf") return simple(m.insertConstant(IValue(std::numeric_limits<double>::infinity()), loc));
    if (field == "nan") return simple(m.insertConstant(IValue(std::numeric_limits<double>::quiet_NaN()), loc));
    if (field == "remainder") return std::make_shared<BuiltinFunction>("aten::mathremainder");  // IEEE remainder
    return std::make_shared<BuiltinFunction>("aten::" + field);
  }
  if (name == "torch") {
    if (field == "jit" || field == "nn" || field == "autograd" || field == "cuda" || field == "linalg" ||
        field == "fft" || field == "special" || field == "testing")
      return std::make_shared<BuiltinModule>("torch." + field);
    ScalarType st;
    if (scalarTypeFromPythonName(field, st)) return simple(m.insertConstant(IValue(static_cast<int64_t>(st)), loc));
    static const std::pair<const char*, int64_t> enums[] = {
        {"contiguous_format", 0}, {"legacy_contiguous_format", 0}, {"preserve_format", 1}, {"channels_last", 2},
        {"channels_last_3d", 3},
        {"strided", 0}, {"sparse_coo", 1}, {"_mkldnn", 2}};
    for (auto& [n, v] : enums)
      if (field == n) return simple(m.insertConstant(IValue(v), loc));
    if (field == "finfo" || field == "iinfo") return std::make_shared<SpecialFormValue>(field);  // type_info.cpp
    // torch.pi / e / inf / nan: math's constants (torch re-exports them)
    if (field == "pi") return simple(m.insertConstant(IValue(M_PI), loc));
    if (field == "e") return simple(m.insertConstant(IValue(M_E), loc));
    if (field == "inf") return simple(m.insertConstant(IValue(std::numeric_limits<double>::infinity()), loc));
    if (field == "nan") return simple(m.insertConstant(IValue(std::numeric_limits<double>::quiet_NaN()), loc));
    if (field == "_assert")  // torch's builtin function _assert(condition, message), not an operator
      return std::make_shared<LambdaCallValue>("torch._assert", [](const SourceRange& l, FunctionEmitter& em,
                                                                   const std::vector<NamedValue>& args,
                                                                   const std::vector<NamedValue>& kwargs) {
        Value* bound[2] = {nullptr, nullptr};
        static const char* names[2] = {"condition", "message"};
        if (args.size() > 2)
          throw CompileError("torch._assert takes 2 arguments (condition, message) but " +
                             std::to_string(args.size()) + " were given", l);
        for (size_t i = 0; i < args.size(); ++i) bound[i] = args[i].value;
        for (const auto& kw : kwargs) {
          size_t i = kw.name == names[0] ? 0 : kw.name == names[1] ? 1 : 2;
          if (i == 2) throw CompileError("torch._assert got an unexpected keyword argument '" + kw.name + "'", kw.loc);
          if (bound[i]) throw CompileError("torch._assert got multiple values for argument '" + kw.name + "'", kw.loc);
          bound[i] = kw.value;
        }
        for (size_t i = 0; i < 2; ++i)
          if (!bound[i])
            throw CompileError(std::string("torch._assert is missing argument '") + names[i] + "'", l);
        em.emitAssertCall(l, bound[0], bound[1]);
        return std::make_shared<NoneValue>();
      });
    if (field == "functional") return std::make_shared<BuiltinModule>("torch.functional");
    if (field == "_VF") return std::make_shared<BuiltinModule>("torch._VF");
    if (isTorchFunctionalName(field) && !m.context().archiveMode) return resolveTorchFunctional(field);
    return std::make_shared<BuiltinFunction>("aten::" + field);
  }
  if (name == "torch.jit") {
    if (field == "annotate" || field == "isinstance") return std::make_shared<SpecialFormValue>(field);
    if (field == "is_scripting")
      return std::make_shared<LambdaCallValue>("torch.jit.is_scripting", [](const SourceRange& l, FunctionEmitter& em,
                                                                            const std::vector<NamedValue>&,
                                                                            const std::vector<NamedValue>&) {
        return simple(em.insertConstant(IValue(true), l));
      });
    if (field == "_unwrap_optional") return std::make_shared<BuiltinFunction>("aten::_unwrap_optional");
    if (field == "wait") return std::make_shared<BuiltinFunction>("aten::wait");
    if (field == "fork") return std::make_shared<SpecialFormValue>("fork");  // frontend/emitter/fork.h
    throw CompileError("torch.jit." + field + " is not supported", loc);
  }
  if (name == "torch.nn") {
    if (field == "functional") return std::make_shared<BuiltinModule>("torch.nn.functional");
    throw CompileError("torch.nn." + field + " is not supported in TorchScript code", loc);
  }
  if (name == "torch.nn.functional") return resolveFunctional(loc, m, field);
  if (name == "torch._VF") return std::make_shared<BuiltinFunction>("aten::" + field);  // the aten operator itself
  if (name == "torch.functional") {
    if (isTorchFunctionalName(field) && !m.context().archiveMode) return resolveTorchFunctional(field);
    return std::make_shared<BuiltinFunction>("aten::" + field);
  }
  if (name == "torch.linalg") return std::make_shared<BuiltinFunction>("aten::linalg_" + field);
  if (name == "torch.special") return std::make_shared<BuiltinFunction>("aten::special_" + field);
  if (name == "torch.fft") return std::make_shared<BuiltinFunction>("aten::fft_" + field);
  if (name == "torch.cuda" && field == "is_available")
    return std::make_shared<LambdaCallValue>("torch.cuda.is_available", [](const SourceRange& l, FunctionEmitter& em,
                                                                           const std::vector<NamedValue>&,
                                                                           const std::vector<NamedValue>&) {
      return simple(em.insertConstant(IValue(false), l));
    });
  throw CompileError("Unknown attribute '" + field + "' of module '" + name + "'", loc);
}

SugaredValuePtr QualifiedNamespace::attr(const SourceRange& loc, FunctionEmitter& m, const std::string& field) {
  std::string q = name + "." + field;
  if (auto& r = m.context().resolver) {
    if (Function* f = r->resolveFunction(q, loc)) return std::make_shared<FunctionValue>(f);
    if (TypePtr t = r->resolveType(q, loc)) return std::make_shared<ClassValue>(t);
  }
  return std::make_shared<QualifiedNamespace>(q);
}

// ---------------------------------------------------------------- functions, methods, classes

Value* FunctionValue::asValue(const SourceRange& loc, FunctionEmitter& m) {
  if (overloads.size() > 1)
    throw CompileError("the overloaded function '" + fn->qualname() + "' cannot be used as a value: call it", loc);
  Node* c = m.graph().insert(prim::Constant, {}, 1);
  c->s_("name", fn->name());
  c->setSourceRange(loc);
  c->output()->setType(std::make_shared<FunctionType>(fn));
  return c->output();
}

SugaredValuePtr FunctionValue::call(const SourceRange& loc, FunctionEmitter& m, const std::vector<NamedValue>& args,
                                    const std::vector<NamedValue>& kwargs, size_t) {
  return m.callFunction(loc, overloads, args, kwargs);
}

SugaredValuePtr MethodValue::call(const SourceRange& loc, FunctionEmitter& m, const std::vector<NamedValue>& args,
                                  const std::vector<NamedValue>& kwargs, size_t) {
  return m.callMethod(loc, self, names, args, kwargs);
}

SugaredValuePtr ClassValue::attr(const SourceRange& loc, FunctionEmitter& m, const std::string& field) {
  if (field == "__new__") return std::make_shared<SpecialFormValue>("__new__", type);
  if (auto* et = type->cast<EnumType>()) {
    auto shared = std::static_pointer_cast<const EnumType>(type);
    for (auto& [name, v] : et->members)
      if (name == field) return simple(m.insertConstant(IValue(makeIntrusive<EnumHolder>(shared, name, *v)), loc, type));
    throw CompileError("'" + et->qualName() + "' has no member '" + field + "'", loc);
  }
  if (auto* ct = type->cast<ClassType>()) {
    if (const IValue* c = ct->findConstant(field)) return simple(m.insertConstant(*c, loc));
    if (m.context().staticMethods) {
      auto it = m.context().staticMethods->find(ct->qualName() + "." + field);
      if (it != m.context().staticMethods->end()) return std::make_shared<FunctionValue>(it->second);
    }
    if (Function* f = ct->findMethod(field)) return std::make_shared<FunctionValue>(f);  // archive code
  }
  throw CompileError("Unknown attribute '" + field + "' of class " + type->str(), loc);
}

SugaredValuePtr ClassValue::call(const SourceRange& loc, FunctionEmitter& m, const std::vector<NamedValue>& args,
                                 const std::vector<NamedValue>& kwargs, size_t) {
  if (auto* tt = type->cast<TupleType>()) {
    // NamedTuple constructor: match the fields like a schema
    FunctionSchema s;
    s.name = tt->qualName() ? *tt->qualName() : "tuple";
    for (size_t i = 0; i < tt->elements().size(); ++i) {
      Argument a;
      a.name = i < tt->names().size() ? tt->names()[i] : "_" + std::to_string(i);
      a.type = tt->elements()[i];
      if (i < tt->fieldDefaults().size() && tt->fieldDefaults()[i]) a.defaultValue = *tt->fieldDefaults()[i];
      s.arguments.push_back(a);
    }
    auto [idx, matched] = matchSchemas({&s}, loc, m.graph(), args, kwargs, std::nullopt, m.registry());
    (void)idx;
    Node* n = m.graph().insert(prim::TupleConstruct, matched.inputs, 1);  // no source range, as PyTorch
    n->output()->setType(type);
    return simple(n->output());
  }
  auto* ct = type->cast<ClassType>();
  if (!ct) throw CompileError("cannot call " + kind(), loc);
  Node* n = m.graph().insert(prim::CreateObject, {}, 1);
  n->setSourceRange(loc);
  n->output()->setType(type);
  Value* obj = n->output();
  if (ct->findMethod("__init__")) m.callMethod(loc, obj, "__init__", args, kwargs);
  return simple(obj);
}

std::vector<SugaredValuePtr> ClassValue::asTuple(const SourceRange& loc, FunctionEmitter& m, std::optional<size_t>) {
  auto* et = type->cast<EnumType>();
  if (!et) throw CompileError("cannot iterate over " + kind(), loc);
  std::vector<SugaredValuePtr> out;
  auto shared = std::static_pointer_cast<const EnumType>(type);
  for (auto& [name, v] : et->members)
    out.push_back(simple(m.insertConstant(IValue(makeIntrusive<EnumHolder>(shared, name, *v)), loc, type)));
  return out;
}

std::optional<int64_t> ClassValue::staticLen() const {
  if (auto* et = type->cast<EnumType>()) return static_cast<int64_t>(et->members.size());
  return std::nullopt;
}

Value* SugaredTupleValue::asValue(const SourceRange& loc, FunctionEmitter& m) {
  std::vector<Value*> vs;
  for (auto& e : elems) vs.push_back(e->asValue(loc, m));
  return m.createTuple(vs, loc);
}

SugaredValuePtr ExceptionValue::call(const SourceRange& loc, FunctionEmitter& m, const std::vector<NamedValue>& args,
                                     const std::vector<NamedValue>& kwargs, size_t) {
  if (!kwargs.empty()) throw CompileError("exceptions do not take keyword arguments", loc);
  Value* msg;
  auto vals = argValues(loc, m, args);
  if (vals.empty()) {
    msg = m.insertConstant(IValue(std::string("")), loc);
  } else if (vals.size() == 1 && vals[0]->type()->kind() == TypeKind::Str) {
    msg = vals[0];
  } else if (vals.size() == 1) {
    msg = m.builtinCallValue(loc, "aten::str", {NamedValue(loc, vals[0])});
  } else {
    // several arguments: str of the tuple, as Python prints them
    msg = m.builtinCallValue(loc, "aten::str", {NamedValue(loc, m.createTuple(vals, loc))});
  }
  return std::make_shared<ExceptionMessageValue>(msg, "builtins." + name);
}

Value* ConstantValue::asValue(const SourceRange& loc, FunctionEmitter& m) { return m.insertConstant(value, loc); }

SugaredValuePtr ConstantValue::attr(const SourceRange& loc, FunctionEmitter& m, const std::string& field) {
  return SimpleValue(asValue(loc, m)).attr(loc, m, field);
}

std::vector<SugaredValuePtr> ConstantValue::asTuple(const SourceRange& loc, FunctionEmitter& m,
                                                    std::optional<size_t> sizeHint) {
  if (!value.isTuple()) return SimpleValue(asValue(loc, m)).asTuple(loc, m, sizeHint);
  std::vector<SugaredValuePtr> out;
  for (const IValue& e : value.toTupleRef().elements) out.push_back(std::make_shared<ConstantValue>(e));
  return out;
}

std::optional<int64_t> ConstantValue::staticLen() const {
  if (!value.isTuple()) return std::nullopt;
  return static_cast<int64_t>(value.toTupleRef().elements.size());
}

Value* NoneValue::asValue(const SourceRange& loc, FunctionEmitter& m) { return m.insertConstant(IValue(), loc); }

SugaredValuePtr ConstantTableValue::attr(const SourceRange& loc, FunctionEmitter& m, const std::string& field) {
  if (auto& r = m.context().resolver) {
    if (auto v = r->resolveConstant(field, loc)) return simple(m.insertConstant(*v, loc));
  }
  throw CompileError("unknown archive constant CONSTANTS." + field, loc);
}

SugaredValuePtr PrintValue::call(const SourceRange& loc, FunctionEmitter& m, const std::vector<NamedValue>& args,
                                 const std::vector<NamedValue>& kwargs, size_t) {
  if (!kwargs.empty()) throw CompileError("print doesn't accept any keyword arguments", loc);
  Node* n = m.graph().insert(prim::Print, argValues(loc, m, args), 0);
  n->setSourceRange(loc);
  return std::make_shared<NoneValue>();
}

SugaredValuePtr CastValue::call(const SourceRange& loc, FunctionEmitter& m, const std::vector<NamedValue>& args,
                                const std::vector<NamedValue>& kwargs, size_t) {
  if (args.size() == 1 && kwargs.empty() && args[0].value && args[0].value->type()->equals(*type)) return simple(args[0].value);
  if (args.empty() && kwargs.empty()) {
    // int() == 0, float() == 0.0, bool() == False, str() == ""
    if (type->kind() == TypeKind::Int) return simple(m.insertConstant(IValue(int64_t(0)), loc));
    if (type->kind() == TypeKind::Float) return simple(m.insertConstant(IValue(0.0), loc));
    if (type->kind() == TypeKind::Bool) return simple(m.insertConstant(IValue(false), loc));
    if (type->kind() == TypeKind::Str) return simple(m.insertConstant(IValue(std::string()), loc));
  }
  if (args.size() == 1 && args[0].value) {
    if (auto* ct = args[0].value->type()->cast<ClassType>()) {
      std::string magic = "__" + type->str() + "__";
      if (ct->findMethod(magic)) return m.callMethod(loc, args[0].value, magic, {}, {});
    }
    // bool(list / str / dict) is len(x) > 0, as PyTorch emits it
    TypeKind ak = args[0].value->type()->kind();
    if (type->kind() == TypeKind::Bool && kwargs.empty() &&
        (ak == TypeKind::List || ak == TypeKind::Str || ak == TypeKind::Dict)) {
      Value* n = m.builtinCallValue(loc, "aten::len", {args[0]});
      return m.builtinCall(loc, "aten::gt", {NamedValue(loc, n), NamedValue(loc, m.insertConstant(IValue(int64_t(0)), loc))});
    }
  }
  return m.builtinCall(loc, opName, args, kwargs);
}

namespace {
// super().__init__ when the MRO ends at `object`: object.__init__() takes no arguments and does nothing.
struct ObjectInitValue : SugaredValue {
  std::string kind() const override { return "method 'object.__init__'"; }
  SugaredValuePtr call(const SourceRange& loc, FunctionEmitter& m, const std::vector<NamedValue>& args,
                       const std::vector<NamedValue>& kwargs, size_t) override {
    if (!args.empty() || !kwargs.empty())
      throw CompileError("object.__init__() takes exactly one argument (the instance to initialize)", loc);
    return std::make_shared<SimpleValue>(m.insertConstant(IValue(), loc));
  }
};
}  // namespace

SugaredValuePtr BoundSuperValue::attr(const SourceRange& loc, FunctionEmitter& m, const std::string& field) {
  std::string method = super->methodFor(loc, m, self->type(), startClass, field);
  if (method.empty()) return std::make_shared<ObjectInitValue>();
  return std::make_shared<SimpleValue>(self)->attr(loc, m, method);
}

}  // namespace kindling
