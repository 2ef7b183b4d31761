// The TorchScript type system: printing, equality, subtyping and unification as c10 (jit_type.h).
#include "core/type.h"

#include <algorithm>

#include "core/error.h"
#include "core/function.h"
#include "core/ivalue.h"

namespace kindling {

namespace {

// A leaf type: only its kind matters.
class LeafType : public Type {
 public:
  LeafType(TypeKind k, const char* s, const char* a) : Type(k), str_(s), annot_(a) {}
  std::string str() const override { return str_; }
  std::string annotationStr() const override { return annot_; }
 private:
  const char* str_;
  const char* annot_;
};

TypePtr makeLeaf(TypeKind k, const char* s, const char* a = nullptr) {
  return std::make_shared<LeafType>(k, s, a ? a : s);
}

// c10's TypeKind order, used to sort union members the way c10 does.
int c10KindRank(TypeKind k) {
  switch (k) {
    case TypeKind::Any: return 0;
    case TypeKind::Enum: return 1;
    case TypeKind::AnyEnum: return 2;
    case TypeKind::Tensor: return 3;
    case TypeKind::Storage: return 4;
    case TypeKind::Tuple: return 5;
    case TypeKind::List: return 6;
    case TypeKind::Dict: return 7;
    case TypeKind::Number: return 8;
    case TypeKind::Float: return 9;
    case TypeKind::Complex: return 10;
    case TypeKind::Future: return 11;
    case TypeKind::Int: return 13;
    case TypeKind::None: return 14;
    case TypeKind::Str: return 15;
    case TypeKind::Generator: return 16;
    case TypeKind::Bool: return 18;
    case TypeKind::Union: return 19;
    case TypeKind::Optional: return 19;
    case TypeKind::Var: return 20;
    case TypeKind::Device: return 21;
    case TypeKind::Stream: return 22;
    case TypeKind::Function: return 23;
    case TypeKind::Class: return 24;
    case TypeKind::Capsule: return 26;
    case TypeKind::Interface: return 27;
    case TypeKind::QScheme: return 28;
    case TypeKind::ScalarTypeK: return 29;
    case TypeKind::Layout: return 30;
    case TypeKind::MemoryFormat: return 31;
    case TypeKind::AnyList: return 32;
    case TypeKind::AnyTuple: return 33;
    case TypeKind::AnyClass: return 34;
  }
  return 40;
}

std::string joinTypes(const std::vector<TypePtr>& ts, bool annotation) {
  std::string out;
  for (size_t i = 0; i < ts.size(); ++i) {
    if (i) out += ", ";
    out += annotation ? ts[i]->annotationStr() : ts[i]->str();
  }
  return out;
}

bool sameTypes(const std::vector<TypePtr>& a, const std::vector<TypePtr>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!a[i]->equals(*b[i])) return false;
  return true;
}

}  // namespace

// ---------------------------------------------------------------- Type

std::string Type::str() const {
  switch (kind_) {
    case TypeKind::Any: return "Any";
    case TypeKind::Tensor: return "Tensor";
    case TypeKind::Int: return "int";
    case TypeKind::Float: return "float";
    case TypeKind::Complex: return "complex";
    case TypeKind::Bool: return "bool";
    case TypeKind::Str: return "str";
    case TypeKind::None: return "NoneType";
    case TypeKind::Number: return "Scalar";
    case TypeKind::Device: return "Device";
    case TypeKind::Layout: return "Layout";
    case TypeKind::ScalarTypeK: return "ScalarType";
    case TypeKind::MemoryFormat: return "MemoryFormat";
    case TypeKind::Generator: return "Generator";
    case TypeKind::Storage: return "Storage";
    case TypeKind::Stream: return "Stream";
    case TypeKind::Capsule: return "Capsule";
    case TypeKind::QScheme: return "QScheme";
    case TypeKind::AnyList: return "list";
    case TypeKind::AnyTuple: return "tuple";
    case TypeKind::AnyClass: return "AnyClassType";
    case TypeKind::AnyEnum: return "AnyEnumType";
    default: return "<type>";
  }
}

bool Type::equals(const Type& other) const { return kind_ == other.kind_; }

bool Type::isSubtypeOf(const TypePtr& other) const { return other && isSubtypeOfImpl(*other); }

bool Type::isSubtypeOfImpl(const Type& rhs) const {
  if (rhs.kind() == TypeKind::Any) return true;
  if (equals(rhs)) return true;
  switch (rhs.kind()) {
    case TypeKind::Optional: {
      if (kind_ == TypeKind::None) return true;
      return isSubtypeOfImpl(*static_cast<const OptionalType&>(rhs).elementType());
    }
    case TypeKind::Union: {
      for (const auto& t : static_cast<const UnionType&>(rhs).types())
        if (isSubtypeOfImpl(*t)) return true;
      return false;
    }
    case TypeKind::Number:
      return kind_ == TypeKind::Int || kind_ == TypeKind::Float || kind_ == TypeKind::Complex;
    case TypeKind::AnyList: return kind_ == TypeKind::List;
    case TypeKind::AnyTuple: return kind_ == TypeKind::Tuple;
    case TypeKind::AnyClass: return kind_ == TypeKind::Class;
    case TypeKind::AnyEnum: return kind_ == TypeKind::Enum;
    case TypeKind::Future:
      if (kind_ == TypeKind::Future)
        return static_cast<const FutureType*>(this)->elementType()->isSubtypeOfImpl(
            *static_cast<const FutureType&>(rhs).elementType());
      return false;
    default: return false;
  }
}

// ---------------------------------------------------------------- singletons

#define KD_LEAF(FN, KIND, ...)                          \
  TypePtr FN() {                                        \
    static const TypePtr t = makeLeaf(TypeKind::KIND, __VA_ARGS__); \
    return t;                                           \
  }
KD_LEAF(AnyType, Any, "Any")
KD_LEAF(TensorType, Tensor, "Tensor")
KD_LEAF(IntType, Int, "int")
KD_LEAF(FloatType, Float, "float")
KD_LEAF(ComplexType, Complex, "complex")
KD_LEAF(BoolType, Bool, "bool")
KD_LEAF(StringType, Str, "str")
KD_LEAF(NoneType, None, "NoneType")
KD_LEAF(NumberType, Number, "Scalar", "number")
KD_LEAF(DeviceObjType, Device, "Device")
KD_LEAF(LayoutType, Layout, "Layout")
KD_LEAF(ScalarTypeType, ScalarTypeK, "ScalarType")
KD_LEAF(MemoryFormatType, MemoryFormat, "MemoryFormat")
KD_LEAF(GeneratorType, Generator, "Generator")
KD_LEAF(StorageType, Storage, "Storage")
KD_LEAF(StreamType, Stream, "Stream")
KD_LEAF(CapsuleType, Capsule, "Capsule")
KD_LEAF(QSchemeType, QScheme, "QScheme")
KD_LEAF(AnyListType, AnyList, "list")
KD_LEAF(AnyTupleType, AnyTuple, "tuple")
KD_LEAF(AnyClassType, AnyClass, "AnyClassType")
KD_LEAF(AnyEnumType, AnyEnum, "AnyEnumType")
#undef KD_LEAF

// ---------------------------------------------------------------- List

TypePtr ListType::create(TypePtr elem) { return std::make_shared<ListType>(std::move(elem)); }
TypePtr ListType::ofTensors() {
  static const TypePtr t = create(TensorType());
  return t;
}
TypePtr ListType::ofInts() {
  static const TypePtr t = create(IntType());
  return t;
}
std::string ListType::str() const { return elem_->str() + "[]"; }
std::string ListType::annotationStr() const { return "List[" + elem_->annotationStr() + "]"; }
bool ListType::equals(const Type& o) const {
  return o.kind() == TypeKind::List && elem_->equals(*static_cast<const ListType&>(o).elem_);
}

// ---------------------------------------------------------------- Dict

TypePtr DictType::create(TypePtr k, TypePtr v) { return std::make_shared<DictType>(std::move(k), std::move(v)); }
std::string DictType::str() const { return "Dict(" + key_->str() + ", " + value_->str() + ")"; }
std::string DictType::annotationStr() const {
  return "Dict[" + key_->annotationStr() + ", " + value_->annotationStr() + "]";
}
bool DictType::equals(const Type& o) const {
  if (o.kind() != TypeKind::Dict) return false;
  const auto& d = static_cast<const DictType&>(o);
  return key_->equals(*d.key_) && value_->equals(*d.value_);
}

// ---------------------------------------------------------------- Optional

TypePtr OptionalType::create(TypePtr elem) {
  if (elem->kind() == TypeKind::Optional || elem->kind() == TypeKind::None) return elem;
  return std::make_shared<OptionalType>(std::move(elem));
}
std::string OptionalType::str() const { return elem_->str() + "?"; }
std::string OptionalType::annotationStr() const { return "Optional[" + elem_->annotationStr() + "]"; }
bool OptionalType::equals(const Type& o) const {
  return o.kind() == TypeKind::Optional && elem_->equals(*static_cast<const OptionalType&>(o).elem_);
}
bool OptionalType::isSubtypeOfImpl(const Type& rhs) const {
  if (rhs.kind() == TypeKind::Any || equals(rhs)) return true;
  // Optional[T] is Union[T, None]: both members must fit.
  return elem_->isSubtypeOfImpl(rhs) && NoneType()->isSubtypeOfImpl(rhs);
}

// ---------------------------------------------------------------- Tuple

TypePtr TupleType::create(std::vector<TypePtr> elems) { return std::make_shared<TupleType>(std::move(elems)); }
TypePtr TupleType::createNamed(std::string qualName, std::vector<std::string> names, std::vector<TypePtr> elems) {
  return std::make_shared<TupleType>(std::move(elems), std::move(qualName), std::move(names));
}
TypePtr TupleType::createNamed(std::string qualName, std::vector<std::string> names, std::vector<TypePtr> elems,
                               std::vector<std::shared_ptr<IValue>> defaults) {
  auto t = std::make_shared<TupleType>(std::move(elems), std::move(qualName), std::move(names));
  t->defaults_ = std::move(defaults);
  return t;
}
TypePtr TupleType::createNamed(std::vector<std::string> names, std::vector<TypePtr> elems) {
  return std::make_shared<TupleType>(std::move(elems), std::nullopt, std::move(names));
}
std::string TupleType::str() const {
  if (qualName_) return *qualName_;
  if (!names_.empty()) {
    std::string out = "NamedTuple(";
    for (size_t i = 0; i < elems_.size(); ++i) {
      if (i) out += ", ";
      out += names_[i] + " : " + elems_[i]->str();
    }
    return out + ")";
  }
  std::string out = "(";
  out += joinTypes(elems_, false);
  out += ")";
  return out;
}
std::string TupleType::annotationStr() const {
  if (qualName_) return *qualName_;
  if (elems_.empty()) return "Tuple[()]";
  return "Tuple[" + joinTypes(elems_, true) + "]";
}
bool TupleType::equals(const Type& o) const {
  if (o.kind() != TypeKind::Tuple) return false;
  const auto& t = static_cast<const TupleType&>(o);
  return qualName_ == t.qualName_ && names_ == t.names_ && sameTypes(elems_, t.elems_);
}
bool TupleType::isSubtypeOfImpl(const Type& rhs) const {
  if (Type::isSubtypeOfImpl(rhs)) return true;
  if (rhs.kind() != TypeKind::Tuple) return false;
  const auto& r = static_cast<const TupleType&>(rhs);
  // A NamedTuple may be used as a plain tuple, not the other way round.
  if (r.qualName_ && (!qualName_ || names_ != r.names_)) return false;
  if (!r.names_.empty() && names_ != r.names_) return false;
  if (elems_.size() != r.elems_.size()) return false;
  for (size_t i = 0; i < elems_.size(); ++i)
    if (!elems_[i]->isSubtypeOfImpl(*r.elems_[i])) return false;
  return true;
}

// ---------------------------------------------------------------- Union

TypePtr UnionType::create(std::vector<TypePtr> types) {
  std::vector<TypePtr> flat;
  auto add = [&](const TypePtr& t) {
    for (const auto& f : flat)
      if (f->equals(*t)) return;
    flat.push_back(t);
  };
  for (const auto& t : types) {
    if (t->kind() == TypeKind::Union) {
      for (const auto& u : static_cast<const UnionType&>(*t).types()) add(u);
    } else if (t->kind() == TypeKind::Optional) {
      add(static_cast<const OptionalType&>(*t).elementType());
      add(NoneType());
    } else {
      add(t);
    }
  }
  if (flat.empty()) return NoneType();
  if (flat.size() == 1) return flat[0];
  std::stable_sort(flat.begin(), flat.end(),
                   [](const TypePtr& a, const TypePtr& b) { return c10KindRank(a->kind()) < c10KindRank(b->kind()); });
  if (flat.size() == 2) {
    if (flat[0]->kind() == TypeKind::None) return OptionalType::create(flat[1]);
    if (flat[1]->kind() == TypeKind::None) return OptionalType::create(flat[0]);
  }
  return std::make_shared<UnionType>(std::move(flat));
}

static std::string unionStr(const std::vector<TypePtr>& types, bool annotation) {
  // c10 prints int, float and complex together as "Scalar" ("number" in annotations).
  bool hasInt = false, hasFloat = false, hasComplex = false;
  for (const auto& t : types) {
    hasInt |= t->kind() == TypeKind::Int;
    hasFloat |= t->kind() == TypeKind::Float;
    hasComplex |= t->kind() == TypeKind::Complex;
  }
  bool number = hasInt && hasFloat && hasComplex;
  std::string out = annotation ? "Union[" : "Union(";
  bool first = true;
  if (number) {
    out += annotation ? "number" : "Scalar";
    first = false;
  }
  for (const auto& t : types) {
    if (number && (t->kind() == TypeKind::Int || t->kind() == TypeKind::Float || t->kind() == TypeKind::Complex))
      continue;
    if (!first) out += ", ";
    first = false;
    out += annotation ? t->annotationStr() : t->str();
  }
  out += annotation ? "]" : ")";
  return out;
}
std::string UnionType::str() const { return unionStr(types_, false); }
std::string UnionType::annotationStr() const { return unionStr(types_, true); }
bool UnionType::equals(const Type& o) const {
  if (o.kind() != TypeKind::Union) return false;
  const auto& u = static_cast<const UnionType&>(o);
  if (u.types_.size() != types_.size()) return false;
  for (const auto& t : types_) {
    bool found = false;
    for (const auto& v : u.types_) found |= t->equals(*v);
    if (!found) return false;
  }
  return true;
}
bool UnionType::isSubtypeOfImpl(const Type& rhs) const {
  if (rhs.kind() == TypeKind::Any || equals(rhs)) return true;
  for (const auto& t : types_)
    if (!t->isSubtypeOfImpl(rhs)) return false;
  return true;
}

// ---------------------------------------------------------------- Future, Var

TypePtr FutureType::create(TypePtr elem) { return std::make_shared<FutureType>(std::move(elem)); }
std::string FutureType::str() const { return "Future[" + elem_->str() + "]"; }
std::string FutureType::annotationStr() const { return "Future[" + elem_->annotationStr() + "]"; }
bool FutureType::equals(const Type& o) const {
  return o.kind() == TypeKind::Future && elem_->equals(*static_cast<const FutureType&>(o).elem_);
}

TypePtr VarType::create(std::string name) { return std::make_shared<VarType>(std::move(name)); }
bool VarType::equals(const Type& o) const {
  return o.kind() == TypeKind::Var && name_ == static_cast<const VarType&>(o).name_;
}

// ---------------------------------------------------------------- Class, Enum, Function

std::shared_ptr<ClassType> ClassType::create(std::string qualName, bool isModule) {
  return std::make_shared<ClassType>(std::move(qualName), isModule);
}
std::string ClassType::name() const {
  auto pos = qualName_.rfind('.');
  return pos == std::string::npos ? qualName_ : qualName_.substr(pos + 1);
}
bool ClassType::equals(const Type& o) const {
  return this == &o || (o.kind() == TypeKind::Class && qualName_ == static_cast<const ClassType&>(o).qualName_);
}
int ClassType::findAttributeSlot(const std::string& name) const {
  for (size_t i = 0; i < attributes_.size(); ++i)
    if (attributes_[i].name == name) return static_cast<int>(i);
  return -1;
}
size_t ClassType::addAttribute(const std::string& name, TypePtr type, bool isParameter, bool isBuffer) {
  if (findAttributeSlot(name) >= 0)
    throw RuntimeError("attribute '" + name + "' already defined on class " + qualName_);
  attributes_.push_back(Attribute{name, std::move(type), isParameter, isBuffer});
  return attributes_.size() - 1;
}
const IValue* ClassType::findConstant(const std::string& name) const {
  for (const auto& c : constants_)
    if (c.name == name) return c.value.get();
  return nullptr;
}
void ClassType::addConstant(const std::string& name, const IValue& v) {
  for (auto& c : constants_) {
    if (c.name == name) {
      c.value = std::make_shared<IValue>(v);
      return;
    }
  }
  constants_.push_back(Constant{name, std::make_shared<IValue>(v)});
}
Function* ClassType::findMethod(const std::string& name) const {
  for (Function* f : methods_)
    if (f->name() == name) return f;
  return nullptr;
}

bool EnumType::equals(const Type& o) const {
  return this == &o || (o.kind() == TypeKind::Enum && qualName_ == static_cast<const EnumType&>(o).qualName_);
}

std::string FunctionType::str() const { return "Function"; }
bool FunctionType::equals(const Type& o) const {
  return o.kind() == TypeKind::Function && fn_ == static_cast<const FunctionType&>(o).fn_;
}

// ---------------------------------------------------------------- unifyTypes

std::optional<TypePtr> unifyTypes(const TypePtr& t1, const TypePtr& t2) {
  if (t1->isSubtypeOf(t2)) return t2;
  if (t2->isSubtypeOf(t1)) return t1;
  bool n1 = t1->kind() == TypeKind::None, n2 = t2->kind() == TypeKind::None;
  if (n1 && !n2) return OptionalType::create(t2);
  if (n2 && !n1) return OptionalType::create(t1);
  if (t1->kind() == TypeKind::Optional) {
    if (auto e = unifyTypes(static_cast<const OptionalType&>(*t1).elementType(), t2)) return OptionalType::create(*e);
  } else if (t2->kind() == TypeKind::Optional) {
    if (auto e = unifyTypes(static_cast<const OptionalType&>(*t2).elementType(), t1)) return OptionalType::create(*e);
  }
  if (t1->kind() == TypeKind::Tuple && t2->kind() == TypeKind::Tuple) {
    const auto& a = static_cast<const TupleType&>(*t1).elements();
    const auto& b = static_cast<const TupleType&>(*t2).elements();
    if (a.size() != b.size()) return std::nullopt;
    std::vector<TypePtr> elems;
    for (size_t i = 0; i < a.size(); ++i) {
      auto e = unifyTypes(a[i], b[i]);
      if (!e) return std::nullopt;
      elems.push_back(*e);
    }
    return TupleType::create(std::move(elems));
  }
  if (t1->kind() == TypeKind::Future && t2->kind() == TypeKind::Future) {
    if (auto e = unifyTypes(static_cast<const FutureType&>(*t1).elementType(),
                            static_cast<const FutureType&>(*t2).elementType()))
      return FutureType::create(*e);
  }
  return std::nullopt;
}

}  // namespace kindling
