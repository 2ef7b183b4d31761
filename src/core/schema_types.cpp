// Schema-only types (SymInt, RRef, ConstQuantizerPtr, custom classes) and schema-syntax printing of
// types and default values. See schema_types.h.
#include "core/schema_types.h"

#include <cmath>
#include <cstdio>
#include <mutex>
#include <unordered_map>

#include <fmt/format.h>

namespace kindling {
namespace schema_types {
namespace {

/// A leaf type known only by its spelling.
class OpaqueType : public Type {
 public:
  OpaqueType(TypeKind k, std::string spelling, TypePtr elem = nullptr)
      : Type(k), spelling_(std::move(spelling)), elem_(std::move(elem)) {}
  std::string str() const override { return elem_ ? spelling_ + "(" + elem_->str() + ")" : spelling_; }
  std::vector<TypePtr> containedTypes() const override { return elem_ ? std::vector<TypePtr>{elem_} : std::vector<TypePtr>{}; }
  bool equals(const Type& o) const override {
    auto* p = o.cast<OpaqueType>();
    if (!p || p->kind() != kind() || p->spelling_ != spelling_) return false;
    if (!elem_ || !p->elem_) return elem_ == p->elem_;
    return elem_->equals(*p->elem_);
  }
  const std::string& spelling() const { return spelling_; }
  const TypePtr& elem() const { return elem_; }
 private:
  std::string spelling_;
  TypePtr elem_;
};

}  // namespace

TypePtr SymInt() {
  static const TypePtr t = std::make_shared<OpaqueType>(TypeKind::Int, "SymInt");
  return t;
}

TypePtr RRef(TypePtr elem) { return std::make_shared<OpaqueType>(TypeKind::Capsule, "RRef", std::move(elem)); }

TypePtr ConstQuantizerPtr() {
  static const TypePtr t = std::make_shared<OpaqueType>(TypeKind::Capsule, "ConstQuantizerPtr");
  return t;
}

TypePtr customClass(const std::string& qualName) {
  static std::mutex mu;
  static std::unordered_map<std::string, TypePtr> classes;
  std::lock_guard<std::mutex> g(mu);
  auto it = classes.find(qualName);
  if (it != classes.end()) return it->second;
  TypePtr t = ClassType::create(qualName, /*isModule=*/false);
  classes.emplace(qualName, t);
  return t;
}

std::string typeStr(const TypePtr& t) {
  if (auto* o = dynamic_cast<const OpaqueType*>(t.get()))
    return o->elem() ? o->spelling() + "(" + typeStr(o->elem()).append(")") : o->spelling();
  auto join = [](const std::vector<TypePtr>& ts) {
    std::string s;
    for (size_t i = 0; i < ts.size(); ++i) {
      if (i) s += ", ";
      s += typeStr(ts[i]);
    }
    return s;
  };
  auto wrap = [](const char* open, const std::string& inner) {
    std::string s = open;
    s += inner;
    s += ')';
    return s;
  };
  switch (t->kind()) {
    case TypeKind::AnyList: return "AnyListType";
    case TypeKind::AnyTuple: return "AnyTupleType";
    case TypeKind::List: return typeStr(t->cast<ListType>()->elementType()) + "[]";
    case TypeKind::Optional: return typeStr(t->cast<OptionalType>()->elementType()) + "?";
    case TypeKind::Dict: return wrap("Dict(", join(t->containedTypes()));
    case TypeKind::Tuple: return wrap("(", join(t->containedTypes()));
    case TypeKind::Union: return wrap("Union(", join(t->containedTypes()));
    case TypeKind::Future: return wrap("Future(", typeStr(t->cast<FutureType>()->elementType()));
    case TypeKind::Var: return t->cast<VarType>()->name();
    default: return t->str();  // scalar kinds as Type::str(); classes, enums, interfaces: qualified name
  }
}

std::string valueStr(const IValue& v) {
  switch (v.tag()) {
    case IValue::Tag::None: return "None";
    case IValue::Tag::Bool: return v.toBool() ? "True" : "False";
    case IValue::Tag::Int: return std::to_string(v.toInt());
    case IValue::Tag::Double: return graphFloatStr(v.toDouble());
    case IValue::Tag::String: return quotedString(v.toStringRef());
    case IValue::Tag::Device: return quotedString(v.toDevice().str());
    case IValue::Tag::List: {
      std::string s = "[";
      const auto& el = v.toListRef().elements;
      for (size_t i = 0; i < el.size(); ++i) {
        if (i) s += ", ";
        s += valueStr(el[i]);
      }
      return s + "]";
    }
    case IValue::Tag::Tuple: {
      std::string s = "(";
      const auto& el = v.toTupleRef().elements;
      for (size_t i = 0; i < el.size(); ++i) {
        if (i) s += ", ";
        s += valueStr(el[i]);
      }
      if (el.size() == 1) s += ",";
      return s + ")";
    }
    default: return v.repr();
  }
}

}  // namespace schema_types
}  // namespace kindling
