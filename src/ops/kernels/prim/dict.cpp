// Dict builtins: d[k], d[k] = v, del d[k], len, `in`, keys/values/items, get, setdefault, pop, popitem,
// update, clear, copy and dict(...). Dicts keep insertion order and have reference semantics.
// Registered with PyTorch 1.13's schemas for every key type TorchScript allows except complex
// (str, int, bool, float, Tensor — Tensor keys hash by identity). Missing keys raise "KeyError: <key>" as
// PyTorch prints it; popitem() removes the FIRST entry, as PyTorch 1.13 does.
#include <string>

#include "ops/registry/operator.h"
#include "ops/kernels/prim/prim_util.h"

namespace kindling {
namespace {

inline DictValue& dictRef(const IValue& v) { return v.toDictRef(); }

[[noreturn]] void keyError(const IValue& key) {
  throw RuntimeError("KeyError: " + prim::toStr(key));
}

void getItem(Stack& s) {  // __getitem__.Dict_K(Dict(K, t) self, K key) -> t(*)
  IValue key = pop(s);
  IValue d = pop(s);
  const IValue* v = dictRef(d).find(key);
  if (!v) keyError(key);
  push(s, *v);
}

void setItem(Stack& s) {  // _set_item.K(Dict(K, t)(a!) l, K(b -> *) idx, t(c -> *) v) -> ()
  IValue v = pop(s);
  IValue key = pop(s);
  IValue d = pop(s);
  dictRef(d).insertOrAssign(std::move(key), std::move(v));
}

void deleteKey(Stack& s) {  // Delete.Dict_K
  IValue key = pop(s);
  IValue d = pop(s);
  if (!dictRef(d).erase(key)) keyError(key);
}

void len(Stack& s) { push(s, static_cast<int64_t>(dictRef(pop(s)).size())); }

void contains(Stack& s) {  // __contains__.K(Dict(K, t) dict, K key) -> bool
  IValue key = pop(s);
  IValue d = pop(s);
  push(s, dictRef(d).find(key) != nullptr);
}

void keys(Stack& s) {
  IValue d = pop(s);
  const auto& dv = dictRef(d);
  std::vector<IValue> out;
  out.reserve(dv.size());
  for (const auto& kv : dv.items()) out.push_back(kv.first);
  push(s, makeList(dv.keyType, std::move(out)));
}

void values(Stack& s) {
  IValue d = pop(s);
  const auto& dv = dictRef(d);
  std::vector<IValue> out;
  out.reserve(dv.size());
  for (const auto& kv : dv.items()) out.push_back(kv.second);
  push(s, makeList(dv.valueType, std::move(out)));
}

void items(Stack& s) {
  IValue d = pop(s);
  const auto& dv = dictRef(d);
  TypePtr tupleType = TupleType::create({dv.keyType, dv.valueType});
  std::vector<IValue> out;
  out.reserve(dv.size());
  for (const auto& kv : dv.items())
    out.emplace_back(makeIntrusive<TupleValue>(std::vector<IValue>{kv.first, kv.second}, tupleType));
  push(s, makeList(tupleType, std::move(out)));
}

void get(Stack& s) {  // get.K(Dict(K, t) self, K key) -> t(*)?
  IValue key = pop(s);
  IValue d = pop(s);
  const IValue* v = dictRef(d).find(key);
  push(s, v ? *v : IValue());
}

void getDefault(Stack& s) {  // get.default_K(Dict(K, t) self, K key, t default_value) -> t(*)
  IValue dflt = pop(s);
  IValue key = pop(s);
  IValue d = pop(s);
  const IValue* v = dictRef(d).find(key);
  push(s, v ? *v : std::move(dflt));
}

void setdefault(Stack& s) {  // setdefault.K(Dict(K, t)(a!) self, K(b -> *) key, t(c -> *) default_value) -> t(*)
  IValue dflt = pop(s);
  IValue key = pop(s);
  IValue d = pop(s);
  auto& dv = dictRef(d);
  if (const IValue* v = dv.find(key)) {
    push(s, *v);
    return;
  }
  dv.insert(std::move(key), dflt);
  push(s, std::move(dflt));
}

void popKey(Stack& s) {  // pop.Dict_K(Dict(K, t)(a!) self, K key) -> t(*)
  IValue key = pop(s);
  IValue d = pop(s);
  auto& dv = dictRef(d);
  const IValue* v = dv.find(key);
  if (!v) keyError(key);
  IValue out = *v;
  dv.erase(key);
  push(s, std::move(out));
}

void popKeyDefault(Stack& s) {  // pop.Dict_default_K(Dict(K, t)(a!) self, K key, t default_value) -> t(*)
  IValue dflt = pop(s);
  IValue key = pop(s);
  IValue d = pop(s);
  auto& dv = dictRef(d);
  const IValue* v = dv.find(key);
  if (!v) {
    push(s, std::move(dflt));
    return;
  }
  IValue out = *v;
  dv.erase(key);
  push(s, std::move(out));
}

void popitem(Stack& s) {  // popitem.K(Dict(K, t)(a!) self) -> ((K, t))
  IValue d = pop(s);
  auto& dv = dictRef(d);
  KD_CHECK(dv.size() > 0, "popitem(): dictionary is empty");
  auto kv = dv.items().front();
  dv.erase(kv.first);
  push(s, makeIntrusive<TupleValue>(std::vector<IValue>{kv.first, kv.second}, TupleType::create({dv.keyType, dv.valueType})));
}

void update(Stack& s) {  // update.K(Dict(K, t)(a!) self, Dict(K, t)(a!) to_add) -> ()
  IValue add = pop(s);
  IValue d = pop(s);
  if (add.is(d)) return;
  auto& dv = dictRef(d);
  for (const auto& kv : dictRef(add).items()) dv.insertOrAssign(kv.first, kv.second);
}

void clear(Stack& s) { dictRef(pop(s)).clear(); }

void copy(Stack& s) {  // copy.Dict_K / dict.Dict_K: shallow copy
  IValue d = pop(s);
  const auto& dv = dictRef(d);
  auto out = makeIntrusive<DictValue>(dv.keyType, dv.valueType);
  for (const auto& kv : dv.items()) out->insert(kv.first, kv.second);
  push(s, IValue(out));
}

void emptyDict(Stack& s) {  // aten::dict() -> Dict(str, Tensor)
  push(s, IValue(makeIntrusive<DictValue>(StringType(), TensorType())));
}

template <TypePtr (*KeyType)()>
void fromPairs(Stack& s) {  // dict.K((K, tVal)[] inputs) -> Dict(K, tVal)
  IValue l = pop(s);
  const auto& lv = l.toListRef();
  TypePtr valueType = AnyType();
  if (lv.elementType && lv.elementType->kind() == TypeKind::Tuple && lv.elementType->containedTypes().size() == 2)
    valueType = lv.elementType->containedTypes()[1];
  auto out = makeIntrusive<DictValue>(KeyType(), valueType);
  for (const auto& e : lv.elements) {
    const auto& t = e.toTupleRef().elements;
    KD_CHECK(t.size() == 2, "dict(): expected (key, value) pairs");
    out->insertOrAssign(t[0], t[1]);
  }
  push(s, IValue(out));
}

}  // namespace

void registerPrimDictOps(OperatorRegistry& r) {
  struct Key {
    const char* name;
    OperationFn fromPairs;
  };
  const Key keyTypes[] = {
      {"str", fromPairs<StringType>}, {"int", fromPairs<IntType>},
      {"bool", fromPairs<BoolType>},    {"float", fromPairs<FloatType>},
      {"Tensor", fromPairs<TensorType>},
  };
  for (const Key& k : keyTypes) {
    const char* K = k.name;
    r.add(fmt::format("aten::__getitem__.Dict_{0}(Dict({0}, t) self, {0} key) -> t(*)", K), getItem);
    r.add(fmt::format("aten::_set_item.{0}(Dict({0}, t)(a!) l, {0}(b -> *) idx, t(c -> *) v) -> ()", K), setItem);
    r.add(fmt::format("aten::Delete.Dict_{0}(Dict({0}, t)(a!) self, {0} key) -> ()", K), deleteKey);
    r.add(fmt::format("aten::len.Dict_{0}(Dict({0}, t) self) -> int", K), len);
    r.add(fmt::format("aten::__contains__.{0}(Dict({0}, t) dict, {0} key) -> bool", K), contains);
    r.add(fmt::format("aten::keys.{0}(Dict({0}, t) self) -> {0}[](*)", K), keys);
    r.add(fmt::format("aten::values.{0}(Dict({0}, t) self) -> t[](*)", K), values);
    r.add(fmt::format("aten::items.{0}(Dict({0}, t) self) -> (({0}, t)[])", K), items);
    r.add(fmt::format("aten::get.{0}(Dict({0}, t) self, {0} key) -> t(*)?", K), get);
    r.add(fmt::format("aten::get.default_{0}(Dict({0}, t) self, {0} key, t default_value) -> t(*)", K), getDefault);
    r.add(fmt::format("aten::setdefault.{0}(Dict({0}, t)(a!) self, {0}(b -> *) key, t(c -> *) default_value) -> t(*)", K), setdefault);
    r.add(fmt::format("aten::pop.Dict_{0}(Dict({0}, t)(a!) self, {0} key) -> t(*)", K), popKey);
    r.add(fmt::format("aten::pop.Dict_default_{0}(Dict({0}, t)(a!) self, {0} key, t default_value) -> t(*)", K), popKeyDefault);
    r.add(fmt::format("aten::popitem.{0}(Dict({0}, t)(a!) self) -> (({0}, t))", K), popitem);
    r.add(fmt::format("aten::update.{0}(Dict({0}, t)(a!) self, Dict({0}, t)(a!) to_add) -> ()", K), update);
    r.add(fmt::format("aten::clear.{0}(Dict({0}, t)(a!) self) -> ()", K), clear);
    r.add(fmt::format("aten::copy.Dict_{0}(Dict({0}, t)(a) self) -> Dict({0}, t)", K), copy);
    r.add(fmt::format("aten::dict.Dict_{0}(Dict({0}, t)(a) self) -> Dict({0}, t)", K), copy);
    r.add(fmt::format("aten::dict.{0}(({0}, tVal)[] inputs) -> Dict({0}, tVal)", K), k.fromPairs);
  }
  r.add("aten::dict() -> Dict(str, Tensor)", emptyDict);
}

}  // namespace kindling
