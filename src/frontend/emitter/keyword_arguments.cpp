// `kwargs` of a def compiled for one VariadicBinding. See keyword_arguments.h.
#include "frontend/emitter/keyword_arguments.h"

#include "frontend/ir_emitter.h"

namespace kindling {

namespace {

// A method of kwargs bound to it: get, keys, values, items.
struct KeywordArgumentsMethod : SugaredValue {
  KeywordArgumentsMethod(std::shared_ptr<KeywordArgumentsValue> k, std::string n) : kwargs(std::move(k)), name(std::move(n)) {}
  std::string kind() const override { return "method '" + name + "' of **kwargs"; }
  SugaredValuePtr call(const SourceRange& loc, FunctionEmitter& m, const std::vector<NamedValue>& args,
                       const std::vector<NamedValue>& kw, size_t) override {
    if (!kw.empty()) throw CompileError("kwargs." + name + "() takes no keyword arguments", loc);
    if (name == "get") {
      if (args.empty() || args.size() > 2)
        throw CompileError("kwargs.get expected 1 or 2 arguments, got " + std::to_string(args.size()), loc);
      auto key = args[0].value ? args[0].value->constantValue() : std::nullopt;
      if (!key || !key->isString())
        throw CompileError("the key of kwargs.get must be a string constant (the keys of **kwargs are known statically)",
                           args[0].loc);
      if (Value* v = kwargs->find(key->toStringRef())) return std::make_shared<SimpleValue>(v);
      if (args.size() == 2) return std::make_shared<SimpleValue>(args[1].value);
      return std::make_shared<NoneValue>();
    }
    if (!args.empty()) throw CompileError("kwargs." + name + "() takes no arguments", loc);
    std::vector<SugaredValuePtr> out;
    for (const auto& [key, v] : kwargs->entries) {
      auto k = std::make_shared<SimpleValue>(m.insertConstant(IValue(key), loc));
      auto val = std::make_shared<SimpleValue>(v);
      if (name == "keys") out.push_back(k);
      else if (name == "values") out.push_back(val);
      else out.push_back(std::make_shared<SugaredTupleValue>(std::vector<SugaredValuePtr>{k, val}));
    }
    return std::make_shared<SugaredTupleValue>(std::move(out));
  }
  std::shared_ptr<KeywordArgumentsValue> kwargs;
  std::string name;
};

}  // namespace

Value* KeywordArgumentsValue::find(const std::string& key) const {
  for (const auto& [k, v] : entries)
    if (k == key) return v;
  return nullptr;
}

SugaredValuePtr KeywordArgumentsValue::item(const SourceRange& loc, const std::string& key) const {
  if (Value* v = find(key)) return std::make_shared<SimpleValue>(v);
  std::string passed;
  for (const auto& e : entries) passed += (passed.empty() ? "'" : ", '") + e.first + "'";
  throw CompileError("KeyError: '" + key + "': the call passes no keyword argument '" + key + "' to **kwargs (" +
                         (passed.empty() ? std::string("it passes none") : "it passes " + passed) + ")",
                     loc);
}

Value* KeywordArgumentsValue::asValue(const SourceRange& loc, FunctionEmitter& m) {
  TypePtr valueType = declaredType ? declaredType : entries.empty() ? TensorType() : entries[0].second->type();
  for (const auto& [key, v] : entries) {
    if (v->type()->equals(*valueType)) continue;
    auto u = unifyTypes(valueType, v->type());
    if (!u)
      throw CompileError("**kwargs holds arguments of different types (" + valueType->annotationStr() + " and " +
                             v->type()->annotationStr() + " for '" + key +
                             "'), so it is no dict value: use it through its keys (kwargs[\"k\"], kwargs.get, in, "
                             "len, iteration, **kwargs)",
                         loc);
    valueType = *u;
  }
  std::vector<Value*> inputs;
  for (const auto& [key, v] : entries) {
    inputs.push_back(m.insertConstant(IValue(key), loc));
    inputs.push_back(v);
  }
  Node* n = m.graph().insert(prim::DictConstruct, inputs, 1);
  n->setSourceRange(loc);
  n->output()->setType(DictType::create(StringType(), valueType));
  return n->output();
}

CompileError kwargsChangeError(const SourceRange& loc, const std::string& what) {
  return CompileError("a **kwargs dict cannot be changed (" + what +
                          "): its keys are fixed when the function is compiled for a call; change a copy, "
                          "`d = kwargs.copy()`",
                      loc);
}

SugaredValuePtr KeywordArgumentsValue::attr(const SourceRange& loc, FunctionEmitter& m, const std::string& field) {
  if (field == "get" || field == "keys" || field == "values" || field == "items")
    return std::make_shared<KeywordArgumentsMethod>(std::static_pointer_cast<KeywordArgumentsValue>(shared_from_this()),
                                                    field);
  if (field == "pop" || field == "popitem" || field == "update" || field == "setdefault" || field == "clear")
    throw kwargsChangeError(loc, field + "()");
  return SimpleValue(asValue(loc, m)).attr(loc, m, field);
}

std::vector<SugaredValuePtr> KeywordArgumentsValue::asTuple(const SourceRange& loc, FunctionEmitter& m,
                                                            std::optional<size_t>) {
  std::vector<SugaredValuePtr> keys;
  for (const auto& e : entries) keys.push_back(std::make_shared<SimpleValue>(m.insertConstant(IValue(e.first), loc)));
  return keys;
}

}  // namespace kindling
