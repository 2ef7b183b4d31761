// IValue: construction from pointer payloads, accessors, runtime types, equality, hashing and printing
// (Python repr for the CLI and API; c10's operator<< format for TorchScript's print()).
#include "core/ivalue.h"
#include "core/unicode.h"

#include "core/value_nesting.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <unordered_set>

namespace kindling {

namespace {
TensorPrinter gTensorRepr = nullptr;
TensorPrinter gTensorPrint = nullptr;

template <class T>
IntrusiveTarget* adopt(IntrusivePtr<T>& v) {
  return v.release();
}
}  // namespace

void setTensorPrinters(TensorPrinter repr, TensorPrinter print) {
  gTensorRepr = repr;
  gTensorPrint = print;
}

const char* tagName(IValue::Tag t) {
  switch (t) {
    case IValue::Tag::None: return "None";
    case IValue::Tag::Tensor: return "Tensor";
    case IValue::Tag::Double: return "Double";
    case IValue::Tag::Int: return "Int";
    case IValue::Tag::Bool: return "Bool";
    case IValue::Tag::String: return "String";
    case IValue::Tag::Tuple: return "Tuple";
    case IValue::Tag::List: return "GenericList";
    case IValue::Tag::Dict: return "GenericDict";
    case IValue::Tag::Object: return "Object";
    case IValue::Tag::Device: return "Device";
    case IValue::Tag::Future: return "Future";
    case IValue::Tag::Enum: return "Enum";
    case IValue::Tag::Uninitialized: return "Uninitialized";
    case IValue::Tag::Capsule: return "Capsule";
    case IValue::Tag::Generator: return "Generator";
    case IValue::Tag::Storage: return "Storage";
  }
  return "InvalidTag";
}

const char* IValue::tagName() const { return kindling::tagName(tag_); }

void IValue::throwTagMismatch(Tag expected) const {
  throw RuntimeError(fmt::format("Expected {} but got {}", kindling::tagName(expected), kindling::tagName(tag_)));
}

// ------------------------------------------------------------------ construction

IValue::IValue(const Scalar& s) {
  switch (s.kind()) {
    case Scalar::Kind::Int: tag_ = Tag::Int; p_.i = s.toLong(); break;
    case Scalar::Kind::Double: tag_ = Tag::Double; p_.d = s.toDouble(); break;
    case Scalar::Kind::Bool: tag_ = Tag::Bool; p_.i = 0; p_.b = s.toBool(); break;
  }
}

IValue::IValue(std::string s) : tag_(Tag::String) {
  p_.ptr = new StringValue(std::move(s));
  p_.ptr->incref();
}

#define KD_PTR_CTOR(TYPE, TAG)                          \
  IValue::IValue(IntrusivePtr<TYPE> v) : tag_(Tag::TAG) { \
    p_.ptr = adopt(v);                                  \
    if (!p_.ptr) tag_ = Tag::None;                      \
  }
KD_PTR_CTOR(TupleValue, Tuple)
KD_PTR_CTOR(ListValue, List)
KD_PTR_CTOR(DictValue, Dict)
KD_PTR_CTOR(Object, Object)
KD_PTR_CTOR(StringValue, String)
KD_PTR_CTOR(FutureValue, Future)
KD_PTR_CTOR(EnumHolder, Enum)
#undef KD_PTR_CTOR

// ------------------------------------------------------------------ access

Scalar IValue::toScalar() const {
  switch (tag_) {
    case Tag::Int: return Scalar(p_.i);
    case Tag::Double: return Scalar(p_.d);
    case Tag::Bool: return Scalar(p_.b);
    default: throw RuntimeError(fmt::format("Expected a Scalar (int, float or bool) but got {}", tagName()));
  }
}

const std::string& IValue::toStringRef() const {
  check(Tag::String);
  return static_cast<StringValue*>(p_.ptr)->str;
}

#define KD_PTR_GETTER(FN, TYPE, TAG)                     \
  IntrusivePtr<TYPE> IValue::FN() const {                \
    check(Tag::TAG);                                     \
    return IntrusivePtr<TYPE>(static_cast<TYPE*>(p_.ptr)); \
  }
KD_PTR_GETTER(toString, StringValue, String)
KD_PTR_GETTER(toTuple, TupleValue, Tuple)
KD_PTR_GETTER(toList, ListValue, List)
KD_PTR_GETTER(toDict, DictValue, Dict)
KD_PTR_GETTER(toObject, Object, Object)
KD_PTR_GETTER(toFuture, FutureValue, Future)
KD_PTR_GETTER(toEnum, EnumHolder, Enum)
#undef KD_PTR_GETTER

std::vector<int64_t> IValue::toIntVector() const {
  const auto& l = toListRef();
  std::vector<int64_t> out;
  out.reserve(l.elements.size());
  for (const auto& e : l.elements) out.push_back(e.toInt());
  return out;
}

std::vector<double> IValue::toDoubleVector() const {
  const auto& l = toListRef();
  std::vector<double> out;
  out.reserve(l.elements.size());
  for (const auto& e : l.elements) out.push_back(e.toDouble());
  return out;
}

std::vector<bool> IValue::toBoolVector() const {
  const auto& l = toListRef();
  std::vector<bool> out;
  out.reserve(l.elements.size());
  for (const auto& e : l.elements) out.push_back(e.toBool());
  return out;
}

// ------------------------------------------------------------------ type

TypePtr IValue::type() const {
  switch (tag_) {
    case Tag::None: return NoneType();
    case Tag::Tensor: return TensorType();
    case Tag::Double: return FloatType();
    case Tag::Int: return IntType();
    case Tag::Bool: return BoolType();
    case Tag::String: return StringType();
    case Tag::Tuple: {
      const auto& t = toTupleRef();
      if (t.type) return t.type;
      ValueNestingGuard nesting("typing");
      std::vector<TypePtr> elems;
      elems.reserve(t.elements.size());
      for (const auto& e : t.elements) elems.push_back(e.type());
      return TupleType::create(std::move(elems));
    }
    case Tag::List: return ListType::create(toListRef().elementType);
    case Tag::Dict: {
      const auto& d = toDictRef();
      return DictType::create(d.keyType, d.valueType);
    }
    case Tag::Object: return toObjectRef().type;
    case Tag::Device: return DeviceObjType();
    case Tag::Future: return FutureType::create(static_cast<FutureValue*>(p_.ptr)->elementType);
    case Tag::Enum: return static_cast<EnumHolder*>(p_.ptr)->type;
    case Tag::Uninitialized: return AnyType();
    case Tag::Capsule: return CapsuleType();
    case Tag::Generator: return GeneratorType();
    case Tag::Storage: return StorageType();
  }
  return AnyType();
}

// ------------------------------------------------------------------ identity, equality, hash

bool IValue::is(const IValue& o) const {
  switch (tag_) {
    case Tag::None: return o.tag_ == Tag::None;
    case Tag::Int: case Tag::Double: case Tag::Bool: case Tag::Device:
      return o.tag_ == tag_ && (*this == o);
    case Tag::Uninitialized: return o.tag_ == Tag::Uninitialized;
    default: return o.tag_ == tag_ && p_.ptr == o.p_.ptr;
  }
}

namespace {
// Elements of containers compare equal when they are the same object, before any comparison of their
// contents (Python's PyObject_RichCompareBool, c10's _fastEqualsForContainer): comparing a value that shares
// containers with itself is linear in its size.
bool elementsEqual(const IValue& x, const IValue& y) { return x.is(y) || x == y; }
}  // namespace

bool operator==(const IValue& a, const IValue& b) {
  using Tag = IValue::Tag;
  if (a.isScalar() && b.isScalar()) {
    if (a.isDouble() || b.isDouble()) {
      double x = a.isDouble() ? a.p_.d : a.isInt() ? static_cast<double>(a.p_.i) : (a.p_.b ? 1.0 : 0.0);
      double y = b.isDouble() ? b.p_.d : b.isInt() ? static_cast<double>(b.p_.i) : (b.p_.b ? 1.0 : 0.0);
      return x == y;
    }
    int64_t x = a.isInt() ? a.p_.i : (a.p_.b ? 1 : 0);
    int64_t y = b.isInt() ? b.p_.i : (b.p_.b ? 1 : 0);
    return x == y;
  }
  if (a.tag_ != b.tag_) return false;
  switch (a.tag_) {
    case Tag::None: case Tag::Uninitialized: return true;
    case Tag::Device: return a.p_.dev == b.p_.dev;
    case Tag::String: return a.toStringRef() == b.toStringRef();
    case Tag::Tuple: {
      ValueNestingGuard nesting("comparing");
      const auto& x = a.toTupleRef().elements;
      const auto& y = b.toTupleRef().elements;
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i)
        if (!elementsEqual(x[i], y[i])) return false;
      return true;
    }
    case Tag::List: {
      if (a.p_.ptr == b.p_.ptr) return true;
      ValueNestingGuard nesting("comparing");
      const auto& x = a.toListRef().elements;
      const auto& y = b.toListRef().elements;
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i)
        if (!elementsEqual(x[i], y[i])) return false;
      return true;
    }
    case Tag::Dict: {
      if (a.p_.ptr == b.p_.ptr) return true;
      ValueNestingGuard nesting("comparing");
      const auto& x = a.toDictRef();
      const auto& y = b.toDictRef();
      if (x.size() != y.size()) return false;
      for (const auto& kv : x.items()) {
        const IValue* v = y.find(kv.first);
        if (!v || !elementsEqual(*v, kv.second)) return false;
      }
      return true;
    }
    case Tag::Enum: {
      const auto& x = *static_cast<EnumHolder*>(a.p_.ptr);
      const auto& y = *static_cast<EnumHolder*>(b.p_.ptr);
      return x.type->equals(*y.type) && x.name == y.name;
    }
    default: return a.p_.ptr == b.p_.ptr;
  }
}

static size_t hashCombine(size_t seed, size_t h) { return seed ^ (h + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2)); }

size_t IValue::hash() const {
  switch (tag_) {
    case Tag::None: return 0;
    case Tag::Int: return std::hash<int64_t>()(p_.i);
    case Tag::Bool: return std::hash<int64_t>()(p_.b ? 1 : 0);
    case Tag::Double: {
      // Equal numbers hash equally across int/float (1 == 1.0), as in Python.
      double d = p_.d;
      if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.2e18)
        return std::hash<int64_t>()(static_cast<int64_t>(d));
      return std::hash<double>()(d);
    }
    case Tag::String: return std::hash<std::string>()(toStringRef());
    case Tag::Device: return std::hash<int>()(static_cast<int>(p_.dev.type) * 256 + p_.dev.index);
    case Tag::Tuple: {
      ValueNestingGuard nesting("hashing");
      size_t h = 0x345678;
      for (const auto& e : toTupleRef().elements) h = hashCombine(h, e.hash());
      return h;
    }
    case Tag::Enum: {
      const auto& e = *static_cast<EnumHolder*>(p_.ptr);
      return hashCombine(std::hash<std::string>()(e.type->qualName()), std::hash<std::string>()(e.name));
    }
    case Tag::List: case Tag::Dict:
      throw RuntimeError(fmt::format("unhashable type: '{}'", tag_ == Tag::List ? "list" : "dict"), "builtins.TypeError");
    default: return std::hash<const void*>()(p_.ptr);
  }
}

// ------------------------------------------------------------------ printing

std::string pythonStringRepr(const std::string& s) {
  bool hasSingle = s.find('\'') != std::string::npos;
  bool hasDouble = s.find('"') != std::string::npos;
  char q = (hasSingle && !hasDouble) ? '"' : '\'';
  std::string out(1, q);
  for (size_t i = 0; i < s.size();) {
    unicode::Char ch = unicode::decodeAt(s, i);
    if (ch.cp >= 0x80) {  // Python's repr: printable characters as they are, the others escaped
      if (unicode::has(ch.cp, unicode::kPrintable)) out.append(s, i, ch.size);
      else if (ch.size == 1 || ch.cp < 0x100) out += fmt::format("\\x{:02x}", ch.size == 1 ? static_cast<uint8_t>(s[i]) : ch.cp);
      else if (ch.cp < 0x10000) out += fmt::format("\\u{:04x}", ch.cp);
      else out += fmt::format("\\U{:08x}", ch.cp);
      i += ch.size;
      continue;
    }
    unsigned char c = static_cast<unsigned char>(s[i++]);
    if (c == static_cast<unsigned char>(q) || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  out += q;
  return out;
}

namespace {

enum class Style { Repr, Print };

void printValue(std::string& out, const IValue& v, Style style);

// Containers being printed (innermost last): a container that contains itself (possible in unpickled data)
// prints as "[...]" / "{...}" like Python instead of recursing forever.
thread_local std::vector<const void*> tPrinting;
struct PrintingGuard {
  explicit PrintingGuard(const void* p) { tPrinting.push_back(p); }
  ~PrintingGuard() { tPrinting.pop_back(); }
  static bool active(const void* p) {
    for (const void* q : tPrinting)
      if (q == p) return true;
    return false;
  }
};

void printSeq(std::string& out, const std::vector<IValue>& elems, const char* open, const char* close,
              bool tupleComma, Style style) {
  if (PrintingGuard::active(&elems)) {
    out += open;
    out += "...";
    out += close;
    return;
  }
  ValueNestingGuard nesting("printing");
  PrintingGuard guard(&elems);
  out += open;
  for (size_t i = 0; i < elems.size(); ++i) {
    if (i) out += ", ";
    printValue(out, elems[i], style);
  }
  if (tupleComma && elems.size() == 1) out += ",";
  out += close;
}

void printValue(std::string& out, const IValue& v, Style style) {
  using Tag = IValue::Tag;
  switch (v.tag()) {
    case Tag::None: out += "None"; return;
    case Tag::Bool: out += v.toBool() ? "True" : "False"; return;
    case Tag::Int: out += std::to_string(v.toInt()); return;
    case Tag::Double:
      out += style == Style::Repr ? pythonFloatRepr(v.toDouble()) : torchscriptFloatStr(v.toDouble());
      return;
    case Tag::String:
      out += style == Style::Repr ? pythonStringRepr(v.toStringRef()) : v.toStringRef();
      return;
    case Tag::Device:
      out += style == Style::Repr ? "device(type='" : "";
      if (style == Style::Repr) {
        Device d = v.toDevice();
        out += d.type == DeviceType::CPU ? "cpu" : d.type == DeviceType::CUDA ? "cuda" : "meta";
        out += "'";
        if (d.index >= 0) out += ", index=" + std::to_string(d.index);
        out += ")";
      } else {
        out += v.toDevice().str();
      }
      return;
    case Tag::Tensor: {
      TensorPrinter p = style == Style::Repr ? gTensorRepr : (gTensorPrint ? gTensorPrint : gTensorRepr);
      if (!p) throw Error("tensor printing is not available (the tensor layer is not linked)");
      out += p(v);
      return;
    }
    case Tag::Tuple: {
      const auto& t = v.toTupleRef();
      const TupleType* tt = t.type ? t.type->cast<TupleType>() : nullptr;
      if (style == Style::Repr && tt && tt->qualName() && tt->names().size() == t.elements.size()) {
        // Python prints a NamedTuple as Name(a=1, b=2).
        ValueNestingGuard nesting("printing");
        const std::string& qn = *tt->qualName();
        auto dot = qn.rfind('.');
        out += dot == std::string::npos ? qn : qn.substr(dot + 1);
        out += "(";
        for (size_t i = 0; i < t.elements.size(); ++i) {
          if (i) out += ", ";
          out += tt->names()[i] + "=";
          printValue(out, t.elements[i], style);
        }
        out += ")";
        return;
      }
      printSeq(out, t.elements, "(", ")", true, style);
      return;
    }
    case Tag::List: printSeq(out, v.toListRef().elements, "[", "]", false, style); return;
    case Tag::Dict: {
      if (PrintingGuard::active(v.rawPtr())) {
        out += "{...}";
        return;
      }
      ValueNestingGuard nesting("printing");
      PrintingGuard guard(v.rawPtr());
      out += "{";
      bool first = true;
      for (const auto& kv : v.toDictRef().items()) {
        if (!first) out += ", ";
        first = false;
        printValue(out, kv.first, style);
        out += ": ";
        printValue(out, kv.second, style);
      }
      out += "}";
      return;
    }
    case Tag::Object:
      out += fmt::format("<{} object at {}>", v.toObjectRef().type->qualName(), static_cast<const void*>(v.rawPtr()));
      return;
    case Tag::Enum: {
      const auto& e = *static_cast<const EnumHolder*>(v.rawPtr());
      std::string cls = e.type->qualName();
      auto dot = cls.rfind('.');
      if (dot != std::string::npos) cls = cls.substr(dot + 1);
      if (style == Style::Repr) {  // Python: <Color.RED: 1>
        ValueNestingGuard nesting("printing");
        out += "<" + cls + "." + e.name + ": ";
        printValue(out, e.value, style);
        out += ">";
      } else {  // TorchScript print: Enum<Color.RED>
        out += "Enum<" + cls + "." + e.name + ">";
      }
      return;
    }
    case Tag::Future: out += "Future"; return;
    case Tag::Uninitialized: out += "Uninitialized"; return;
    case Tag::Capsule: out += "Capsule"; return;
    case Tag::Generator: out += "Generator"; return;
    case Tag::Storage: out += "Storage"; return;
  }
}

}  // namespace

std::string IValue::repr() const {
  std::string out;
  printValue(out, *this, Style::Repr);
  return out;
}

std::string IValue::str() const {
  if (tag_ == Tag::String) return toStringRef();
  if (tag_ == Tag::Device) return toDevice().str();
  return repr();
}

std::string IValue::printStr() const {
  std::string out;
  printValue(out, *this, Style::Print);
  return out;
}

// ------------------------------------------------------------------ containers

bool DictValue::Eq::operator()(const IValue& a, const IValue& b) const {
  if (a.isTensor() || b.isTensor()) return a.is(b);
  return a == b;
}

IValue* DictValue::find(const IValue& key) {
  auto it = index_.find(key);
  return it == index_.end() ? nullptr : &items_[it->second].second;
}

const IValue* DictValue::find(const IValue& key) const {
  auto it = index_.find(key);
  return it == index_.end() ? nullptr : &items_[it->second].second;
}

void DictValue::insertOrAssign(IValue key, IValue value) {
  auto it = index_.find(key);
  if (it != index_.end()) {
    items_[it->second].second = std::move(value);
    return;
  }
  index_.emplace(key, items_.size());
  items_.emplace_back(std::move(key), std::move(value));
}

bool DictValue::insert(IValue key, IValue value) {
  if (index_.count(key)) return false;
  index_.emplace(key, items_.size());
  items_.emplace_back(std::move(key), std::move(value));
  return true;
}

bool DictValue::erase(const IValue& key) {
  auto it = index_.find(key);
  if (it == index_.end()) return false;
  size_t pos = it->second;
  index_.erase(it);
  items_.erase(items_.begin() + static_cast<std::ptrdiff_t>(pos));
  for (size_t i = pos; i < items_.size(); ++i) index_[items_[i].first] = i;
  return true;
}

void DictValue::clear() {
  items_.clear();
  index_.clear();
}

const IValue& Object::getAttr(const std::string& name) const {
  int slot = type->findAttributeSlot(name);
  if (slot < 0) throw RuntimeError(fmt::format("{} does not have an attribute with name '{}'", type->qualName(), name));
  if (static_cast<size_t>(slot) >= slots.size()) {
    static const IValue none;
    return none;
  }
  return slots[static_cast<size_t>(slot)];
}

void Object::setAttr(const std::string& name, IValue v) {
  int slot = type->findAttributeSlot(name);
  if (slot < 0) throw RuntimeError(fmt::format("{} does not have an attribute with name '{}'", type->qualName(), name));
  if (static_cast<size_t>(slot) >= slots.size()) slots.resize(static_cast<size_t>(slot) + 1);
  slots[static_cast<size_t>(slot)] = std::move(v);
}

const IValue& FutureValue::wait() const {
  if (error) throw RuntimeError(error->first, error->second);
  if (!completed) throw RuntimeError("Future was waited on before it completed");
  return value;
}

IValue makeTuple(std::vector<IValue> elems) { return IValue(makeIntrusive<TupleValue>(std::move(elems))); }

IValue makeList(TypePtr elemType, std::vector<IValue> elems) {
  return IValue(makeIntrusive<ListValue>(std::move(elemType), std::move(elems)));
}

IValue makeIntList(const std::vector<int64_t>& v) {
  std::vector<IValue> e(v.begin(), v.end());
  return makeList(IntType(), std::move(e));
}

IValue makeDoubleList(const std::vector<double>& v) {
  std::vector<IValue> e(v.begin(), v.end());
  return makeList(FloatType(), std::move(e));
}

IValue makeBoolList(const std::vector<bool>& v) {
  std::vector<IValue> e;
  e.reserve(v.size());
  for (bool b : v) e.emplace_back(b);
  return makeList(BoolType(), std::move(e));
}

void forEachReachableObject(const IValue& root, const std::function<void(const Object&)>& fn) {
  std::unordered_set<const Object*> seen;
  std::vector<IValue> work{root};
  while (!work.empty()) {
    IValue v = std::move(work.back());
    work.pop_back();
    if (v.isObject()) {
      const Object& o = v.toObjectRef();
      if (!seen.insert(&o).second) continue;
      fn(o);
      for (const IValue& s : o.slots) work.push_back(s);
    } else if (v.isList()) {
      for (const IValue& s : v.toListRef().elements) work.push_back(s);
    } else if (v.isTuple()) {
      for (const IValue& s : v.toTupleRef().elements) work.push_back(s);
    } else if (v.isDict()) {
      for (const auto& kv : v.toDictRef().items()) work.push_back(kv.second);
    }
  }
}

}  // namespace kindling
