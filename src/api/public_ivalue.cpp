// kindling::api::IValue, Tuple, List, GenericDict, Object (include/kindling/ivalue.h) over the internal
// IValue, whose 16 bytes the public one holds (public_bridge.h).
#include <ostream>

#include "api/api.h"
#include "api/public_bridge.h"
#include "serialize/unpickler.h"

namespace kindling::api {

using detail::in;
using detail::out;
using detail::translateErrors;
using InValue = ::kindling::IValue;
using Tag = InValue::Tag;

namespace {

[[noreturn]] void mismatch(const char* want, const InValue& v) {
  throw UsageError(std::string("Expected ") + want + " but got " + v.tagName());
}
const InValue& expect(const IValue& v, Tag t, const char* want) {
  const InValue& x = in(v);
  if (x.tag() != t) mismatch(want, x);
  return x;
}

::kindling::TypePtr parseType(const std::string& s, const char* what) {
  try {
    return ::kindling::parseTypeTag(s, nullptr);
  } catch (const ::kindling::Error& e) {
    throw UsageError(std::string(what) + ": '" + s + "' is not a TorchScript type Kindling knows (" + e.what() + ")");
  }
}

/// Converts v to the element type t of a container (int → float, retagged lists), else UsageError.
InValue fit(const InValue& v, const ::kindling::TypePtr& t, const char* what) {
  InValue c = v;
  if (!::kindling::coerceToType(c, t))
    throw UsageError(std::string(what) + ": a value of type '" + v.type()->annotationStr() + "' does not fit '" +
                     t->annotationStr() + "'");
  return c;
}

::kindling::TypePtr commonType(const std::vector<InValue>& elems) {
  if (elems.empty()) return ::kindling::AnyType();
  ::kindling::TypePtr t = elems[0].type();
  for (size_t i = 1; i < elems.size(); ++i) {
    auto u = ::kindling::unifyTypes(t, elems[i].type());
    if (!u) return ::kindling::AnyType();
    t = *u;
  }
  return t;
}

template <class T>
InValue listOf(const std::vector<T>& v, ::kindling::TypePtr et) {
  std::vector<InValue> e;
  e.reserve(v.size());
  for (const auto& x : v) e.emplace_back(x);
  return ::kindling::makeList(std::move(et), std::move(e));
}

}  // namespace

// --- construction ---
IValue::IValue() noexcept { new (repr_)::kindling::IValue(); }
IValue::IValue(const IValue& o) noexcept { new (repr_)::kindling::IValue(in(o)); }
IValue::IValue(IValue&& o) noexcept { new (repr_)::kindling::IValue(std::move(in(o))); }
IValue& IValue::operator=(const IValue& o) noexcept { in(*this) = in(o); return *this; }
IValue& IValue::operator=(IValue&& o) noexcept { in(*this) = std::move(in(o)); return *this; }
IValue::~IValue() { in(*this).~IValue(); }
IValue::IValue(int64_t v) noexcept { new (repr_)::kindling::IValue(v); }
IValue::IValue(double v) noexcept { new (repr_)::kindling::IValue(v); }
IValue::IValue(bool v) noexcept { new (repr_)::kindling::IValue(v); }
IValue::IValue(const char* s) : IValue(std::string(s ? s : "")) {}
IValue::IValue(const std::string& s) { new (repr_)::kindling::IValue(s); }
IValue::IValue(Device d) noexcept {
  ::kindling::Device x;
  x.type = d.is_cpu() ? ::kindling::DeviceType::CPU : ::kindling::DeviceType::CUDA;
  x.index = d.index();
  new (repr_)::kindling::IValue(x);
}
IValue::IValue(const Tensor& t) { new (repr_)::kindling::IValue(in(t)); }
IValue::IValue(const Tuple& t) : IValue(t.value_) {}
IValue::IValue(const List& l) : IValue(l.value_) {}
IValue::IValue(const GenericDict& d) : IValue(d.value_) {}
IValue::IValue(const Object& o) : IValue(o.value_) {}
IValue::IValue(const jit::Module& m) : IValue(m._ivalue()) {}
IValue::IValue(const std::vector<int64_t>& v) { new (repr_)::kindling::IValue(::kindling::makeIntList(v)); }
IValue::IValue(const std::vector<double>& v) { new (repr_)::kindling::IValue(::kindling::makeDoubleList(v)); }
IValue::IValue(const std::vector<bool>& v) { new (repr_)::kindling::IValue(::kindling::makeBoolList(v)); }
IValue::IValue(const std::vector<Tensor>& v) {
  std::vector<InValue> e;
  for (const Tensor& t : v) {
    if (!t.defined()) throw UsageError("IValue: a List[Tensor] cannot hold an undefined tensor");
    e.emplace_back(in(t));
  }
  new (repr_)::kindling::IValue(::kindling::makeList(::kindling::TensorType(), std::move(e)));
}
IValue::IValue(const std::vector<std::string>& v) {
  new (repr_)::kindling::IValue(listOf(v, ::kindling::StringType()));
}
IValue::IValue(const std::vector<IValue>& v) {
  std::vector<InValue> e;
  for (const IValue& x : v) e.push_back(in(x));
  ::kindling::TypePtr t = commonType(e);
  new (repr_)::kindling::IValue(::kindling::makeList(std::move(t), std::move(e)));
}
IValue IValue::tuple(std::vector<IValue> elements) {
  std::vector<InValue> e;
  for (IValue& x : elements) e.push_back(std::move(in(x)));
  return out(::kindling::makeTuple(std::move(e)));
}

// --- inspection ---
bool IValue::isNone() const { return in(*this).isNone(); }
bool IValue::isTensor() const { return in(*this).isTensor(); }
bool IValue::isInt() const { return in(*this).isInt(); }
bool IValue::isDouble() const { return in(*this).isDouble(); }
bool IValue::isBool() const { return in(*this).isBool(); }
bool IValue::isString() const { return in(*this).isString(); }
bool IValue::isDevice() const { return in(*this).isDevice(); }
bool IValue::isTuple() const { return in(*this).isTuple(); }
bool IValue::isList() const { return in(*this).isList(); }
bool IValue::isGenericDict() const { return in(*this).isDict(); }
bool IValue::isObject() const { return in(*this).isObject(); }
bool IValue::isModule() const { return isObject() && in(*this).toObjectRef().type->isModule(); }
namespace {
bool listOfKind(const InValue& v, ::kindling::TypeKind k) {
  return v.isList() && v.toListRef().elementType->kind() == k;
}
}  // namespace
bool IValue::isIntList() const { return listOfKind(in(*this), ::kindling::TypeKind::Int); }
bool IValue::isDoubleList() const { return listOfKind(in(*this), ::kindling::TypeKind::Float); }
bool IValue::isBoolList() const { return listOfKind(in(*this), ::kindling::TypeKind::Bool); }
bool IValue::isTensorList() const { return listOfKind(in(*this), ::kindling::TypeKind::Tensor); }
std::string IValue::tagKind() const { return in(*this).tagName(); }
std::string IValue::type_str() const { return translateErrors([&] { return in(*this).type()->annotationStr(); }); }

// --- access ---
Tensor IValue::toTensor() const { return out(expect(*this, Tag::Tensor, "Tensor").toTensor()); }
int64_t IValue::toInt() const { return expect(*this, Tag::Int, "Int").toInt(); }
double IValue::toDouble() const {
  const InValue& v = in(*this);
  if (v.isInt()) return static_cast<double>(v.toInt());
  return expect(*this, Tag::Double, "Double").toDouble();
}
bool IValue::toBool() const { return expect(*this, Tag::Bool, "Bool").toBool(); }
const std::string& IValue::toStringRef() const { return expect(*this, Tag::String, "String").toStringRef(); }
Device IValue::toDevice() const {
  ::kindling::Device d = expect(*this, Tag::Device, "Device").toDevice();
  return Device(d.type == ::kindling::DeviceType::CUDA ? DeviceType::CUDA : DeviceType::CPU, d.index);
}
Tuple IValue::toTuple() const {
  expect(*this, Tag::Tuple, "Tuple");
  Tuple t;
  t.value_ = *this;
  return t;
}
List IValue::toList() const {
  expect(*this, Tag::List, "GenericList");
  return List(List::FromValue{}, *this);
}
GenericDict IValue::toGenericDict() const {
  expect(*this, Tag::Dict, "GenericDict");
  return GenericDict(GenericDict::FromValue{}, *this);
}
Object IValue::toObject() const {
  expect(*this, Tag::Object, "Object");
  return Object(*this);
}
std::vector<int64_t> IValue::toIntVector() const {
  expect(*this, Tag::List, "GenericList");
  return translateErrors([&] { return in(*this).toIntVector(); });
}
std::vector<double> IValue::toDoubleVector() const {
  expect(*this, Tag::List, "GenericList");
  return translateErrors([&] { return in(*this).toDoubleVector(); });
}
std::vector<bool> IValue::toBoolVector() const {
  expect(*this, Tag::List, "GenericList");
  return translateErrors([&] { return in(*this).toBoolVector(); });
}
std::vector<Tensor> IValue::toTensorVector() const {
  const InValue& v = expect(*this, Tag::List, "GenericList");
  std::vector<Tensor> r;
  for (const InValue& e : v.toListRef().elements) {
    if (!e.isTensor()) mismatch("Tensor", e);
    r.push_back(out(e.toTensor()));
  }
  return r;
}
std::vector<std::string> IValue::toStringVector() const {
  const InValue& v = expect(*this, Tag::List, "GenericList");
  std::vector<std::string> r;
  for (const InValue& e : v.toListRef().elements) {
    if (!e.isString()) mismatch("String", e);
    r.push_back(e.toStringRef());
  }
  return r;
}

std::string IValue::repr() const { return translateErrors([&] { return in(*this).repr(); }); }
bool operator==(const IValue& a, const IValue& b) { return translateErrors([&] { return in(a) == in(b); }); }
bool IValue::is(const IValue& o) const { return in(*this).is(in(o)); }
std::ostream& operator<<(std::ostream& os, const IValue& v) {
  return os << translateErrors([&] { return in(v).printStr(); });
}

// --- Tuple ---
Tuple::Tuple(std::vector<IValue> elements) : value_(IValue::tuple(std::move(elements))) {}
std::vector<IValue> Tuple::elements() const {
  std::vector<IValue> r;
  for (const InValue& e : in(value_).toTupleRef().elements) r.push_back(out(e));
  return r;
}
size_t Tuple::size() const { return in(value_).toTupleRef().elements.size(); }
IValue Tuple::get(size_t i) const {
  const auto& e = in(value_).toTupleRef().elements;
  if (i >= e.size())
    throw UsageError("tuple index " + std::to_string(i) + " out of range for a tuple of " + std::to_string(e.size()));
  return out(e[i]);
}

// --- List ---
List::List(const std::string& elementType) {
  value_ = out(::kindling::makeList(parseType(elementType, "List"), {}));
}
size_t List::size() const { return in(value_).toListRef().elements.size(); }
IValue List::get(size_t i) const {
  const auto& e = in(value_).toListRef().elements;
  if (i >= e.size())
    throw UsageError("list index " + std::to_string(i) + " out of range for a list of " + std::to_string(e.size()));
  return out(e[i]);
}
void List::set(size_t i, IValue v) {
  auto& l = in(value_).toListRef();
  if (i >= l.elements.size())
    throw UsageError("list index " + std::to_string(i) + " out of range for a list of " + std::to_string(l.elements.size()));
  l.elements[i] = fit(in(v), l.elementType, "List.set");
}
void List::push_back(IValue v) {
  auto& l = in(value_).toListRef();
  l.elements.push_back(fit(in(v), l.elementType, "List.push_back"));
}
void List::clear() { in(value_).toListRef().elements.clear(); }
std::vector<IValue> List::vec() const {
  std::vector<IValue> r;
  for (const InValue& e : in(value_).toListRef().elements) r.push_back(out(e));
  return r;
}
std::string List::elementType() const { return in(value_).toListRef().elementType->annotationStr(); }

// --- GenericDict ---
GenericDict::GenericDict(const std::string& keyType, const std::string& valueType) {
  auto k = parseType(keyType, "GenericDict"), v = parseType(valueType, "GenericDict");
  using K = ::kindling::TypeKind;
  if (k->kind() != K::Str && k->kind() != K::Int && k->kind() != K::Float && k->kind() != K::Bool &&
      k->kind() != K::Tensor && k->kind() != K::Any)
    throw UsageError("GenericDict: key type '" + keyType + "' is not str, int, float, bool, Tensor or Any");
  value_ = out(InValue(::kindling::makeIntrusive<::kindling::DictValue>(k, v)));
}
size_t GenericDict::size() const { return in(value_).toDictRef().size(); }
bool GenericDict::contains(const IValue& key) const { return in(value_).toDictRef().find(in(key)) != nullptr; }
IValue GenericDict::at(const IValue& key) const {
  const InValue* v = in(value_).toDictRef().find(in(key));
  if (!v) throw UsageError("KeyError: " + key.repr());
  return out(*v);
}
void GenericDict::insert_or_assign(IValue key, IValue value) {
  auto& d = in(value_).toDictRef();
  d.insertOrAssign(fit(in(key), d.keyType, "GenericDict key"), fit(in(value), d.valueType, "GenericDict value"));
}
bool GenericDict::insert(IValue key, IValue value) {
  auto& d = in(value_).toDictRef();
  return d.insert(fit(in(key), d.keyType, "GenericDict key"), fit(in(value), d.valueType, "GenericDict value"));
}
bool GenericDict::erase(const IValue& key) { return in(value_).toDictRef().erase(in(key)); }
std::string GenericDict::keyType() const { return in(value_).toDictRef().keyType->annotationStr(); }
std::string GenericDict::valueType() const { return in(value_).toDictRef().valueType->annotationStr(); }
GenericDict::Entry GenericDict::entry(size_t i) const {
  const auto& items = in(value_).toDictRef().items();
  if (i >= items.size()) throw UsageError("GenericDict: entry " + std::to_string(i) + " out of range");
  return Entry(out(items[i].first), out(items[i].second));
}

// --- Object ---
std::string Object::type_name() const { return in(value_).toObjectRef().type->qualName(); }
bool Object::hasattr(const std::string& name) const {
  return in(value_).toObjectRef().type->findAttributeSlot(name) >= 0;
}
IValue Object::attr(const std::string& name) const {
  const auto& o = in(value_).toObjectRef();
  if (o.type->findAttributeSlot(name) < 0)
    throw UsageError(o.type->qualName() + " does not have an attribute with name '" + name + "'");
  return out(o.getAttr(name));
}
void Object::setattr(const std::string& name, IValue v) {
  auto& o = in(value_).toObjectRef();
  int slot = o.type->findAttributeSlot(name);
  if (slot < 0) throw UsageError(o.type->qualName() + " does not have an attribute with name '" + name + "'");
  const auto& t = o.type->attributes()[static_cast<size_t>(slot)].type;
  o.setAttr(name, t ? fit(in(v), t, "setattr") : in(v));
  detail::noteAttributeWrite();
}
std::vector<std::string> Object::attribute_names() const {
  std::vector<std::string> r;
  for (const auto& a : in(value_).toObjectRef().type->attributes()) r.push_back(a.name);
  return r;
}

}  // namespace kindling::api
