// The TorchScript type system (c10 jit_type.h): every Value in the IR and every attribute of a class has
// a Type. Types are immutable and shared (TypePtr), except ClassType, which is filled in while its
// definition is compiled.
//
// Two spellings, as PyTorch:
//   str()            — schema / graph spelling: "Tensor", "int[]", "Tensor?", "Dict(str, int)", "(int, float)"
//   annotationStr()  — Python spelling used in code/: "List[int]", "Optional[Tensor]", "Tuple[int, float]"
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/scalar_type.h"

namespace kindling {

class IValue;
class Function;
struct FunctionSchema;

enum class TypeKind : uint8_t {
  Any, Tensor, Int, Float, Complex, Bool, Str, None, Number, Device, Layout, ScalarTypeK, MemoryFormat,
  Generator, Storage, Stream, Capsule, QScheme,
  List, Dict, Tuple, Optional, Union, Future, Class, Interface, Enum, Function,
  Var,        // type variable `t` in schemas
  AnyList, AnyTuple, AnyClass, AnyEnum,
};

class Type;
using TypePtr = std::shared_ptr<const Type>;

class Type : public std::enable_shared_from_this<Type> {
 public:
  explicit Type(TypeKind k) : kind_(k) {}
  virtual ~Type() = default;
  TypeKind kind() const { return kind_; }
  virtual std::string str() const;
  virtual std::string annotationStr() const { return str(); }
  /// Types directly contained (list element, optional payload, tuple elements, dict key/value, ...).
  virtual std::vector<TypePtr> containedTypes() const { return {}; }
  /// Structural equality.
  virtual bool equals(const Type& other) const;
  /// Subtyping as c10: int <: Number, T <: Optional[T], None <: Optional[T], everything <: Any,
  /// Tuple covariance, List/Dict invariance, union membership.
  bool isSubtypeOf(const TypePtr& other) const;
  template <class T> const T* cast() const { return dynamic_cast<const T*>(this); }
  TypePtr ptr() const { return shared_from_this(); }
  /// isSubtypeOf on a plain reference (overridden by types with structure).
  virtual bool isSubtypeOfImpl(const Type& other) const;
 private:
  TypeKind kind_;
};

inline bool operator==(const TypePtr& a, const Type& b) { return a->equals(b); }

// Singletons for the leaf types.
TypePtr AnyType();
TypePtr TensorType();
TypePtr IntType();
TypePtr FloatType();
TypePtr ComplexType();
TypePtr BoolType();
TypePtr StringType();
TypePtr NoneType();
TypePtr NumberType();
TypePtr DeviceObjType();
TypePtr LayoutType();       // prints "Layout"; an int at runtime
TypePtr ScalarTypeType();   // prints "ScalarType"; an int at runtime
TypePtr MemoryFormatType(); // prints "MemoryFormat"; an int at runtime
TypePtr GeneratorType();
TypePtr StorageType();
TypePtr StreamType();
TypePtr CapsuleType();
TypePtr QSchemeType();
TypePtr AnyListType();
TypePtr AnyTupleType();
TypePtr AnyClassType();
TypePtr AnyEnumType();

class ListType : public Type {
 public:
  explicit ListType(TypePtr elem) : Type(TypeKind::List), elem_(std::move(elem)) {}
  static TypePtr create(TypePtr elem);
  static TypePtr ofTensors();
  static TypePtr ofInts();
  const TypePtr& elementType() const { return elem_; }
  std::string str() const override;             // "int[]"
  std::string annotationStr() const override;   // "List[int]"
  std::vector<TypePtr> containedTypes() const override { return {elem_}; }
  bool equals(const Type& o) const override;
 private:
  TypePtr elem_;
};

class DictType : public Type {
 public:
  DictType(TypePtr k, TypePtr v) : Type(TypeKind::Dict), key_(std::move(k)), value_(std::move(v)) {}
  static TypePtr create(TypePtr k, TypePtr v);
  const TypePtr& keyType() const { return key_; }
  const TypePtr& valueType() const { return value_; }
  std::string str() const override;             // "Dict(str, int)"
  std::string annotationStr() const override;   // "Dict[str, int]"
  std::vector<TypePtr> containedTypes() const override { return {key_, value_}; }
  bool equals(const Type& o) const override;
 private:
  TypePtr key_, value_;
};

class OptionalType : public Type {
 public:
  explicit OptionalType(TypePtr elem) : Type(TypeKind::Optional), elem_(std::move(elem)) {}
  /// Optional[Optional[T]] collapses to Optional[T].
  static TypePtr create(TypePtr elem);
  const TypePtr& elementType() const { return elem_; }
  std::string str() const override;             // "Tensor?"
  std::string annotationStr() const override;   // "Optional[Tensor]"
  std::vector<TypePtr> containedTypes() const override { return {elem_}; }
  bool equals(const Type& o) const override;
  bool isSubtypeOfImpl(const Type& other) const override;
 private:
  TypePtr elem_;
};

class TupleType : public Type {
 public:
  /// names/schemaName set for NamedTuple types (qualified name e.g. "__torch__.MyTuple").
  TupleType(std::vector<TypePtr> elems, std::optional<std::string> qualName = std::nullopt,
            std::vector<std::string> names = {})
      : Type(TypeKind::Tuple), elems_(std::move(elems)), qualName_(std::move(qualName)), names_(std::move(names)) {}
  static TypePtr create(std::vector<TypePtr> elems);
  static TypePtr createNamed(std::string qualName, std::vector<std::string> names, std::vector<TypePtr> elems);
  /// An anonymous NamedTuple: the returns of an operator whose schema names them all
  /// ("-> (Tensor values, Tensor indices)"); str() "NamedTuple(values : Tensor, indices : Tensor)",
  /// annotationStr() "Tuple[Tensor, Tensor]", fields readable by name.
  static TypePtr createNamed(std::vector<std::string> names, std::vector<TypePtr> elems);
  const std::vector<TypePtr>& elements() const { return elems_; }
  const std::optional<std::string>& qualName() const { return qualName_; }
  const std::vector<std::string>& names() const { return names_; }
  /// Field defaults of a NamedTuple class written in source (`b : float = 2.5`), one entry per field,
  /// null where the field has none (or empty): its constructor fills them in. Archives never carry them
  /// (PyTorch 1.13 prints the defaults into each constructor call instead).
  const std::vector<std::shared_ptr<IValue>>& fieldDefaults() const { return defaults_; }
  static TypePtr createNamed(std::string qualName, std::vector<std::string> names, std::vector<TypePtr> elems,
                             std::vector<std::shared_ptr<IValue>> defaults);
  std::string str() const override;             // "(int, float)"
  std::string annotationStr() const override;   // "Tuple[int, float]"
  std::vector<TypePtr> containedTypes() const override { return elems_; }
  bool equals(const Type& o) const override;
  bool isSubtypeOfImpl(const Type& other) const override;
 private:
  std::vector<TypePtr> elems_;
  std::optional<std::string> qualName_;
  std::vector<std::string> names_;
  std::vector<std::shared_ptr<IValue>> defaults_;
};

class UnionType : public Type {
 public:
  explicit UnionType(std::vector<TypePtr> types) : Type(TypeKind::Union), types_(std::move(types)) {}
  /// Flattens nested unions, removes duplicates; a union of one type is that type.
  static TypePtr create(std::vector<TypePtr> types);
  const std::vector<TypePtr>& types() const { return types_; }
  std::string str() const override;
  std::string annotationStr() const override;
  std::vector<TypePtr> containedTypes() const override { return types_; }
  bool equals(const Type& o) const override;
  bool isSubtypeOfImpl(const Type& other) const override;
 private:
  std::vector<TypePtr> types_;
};

class FutureType : public Type {
 public:
  explicit FutureType(TypePtr elem) : Type(TypeKind::Future), elem_(std::move(elem)) {}
  static TypePtr create(TypePtr elem);
  const TypePtr& elementType() const { return elem_; }
  std::string str() const override;             // "Future[int]" (PyTorch 1.13 prints brackets in both spellings)
  std::string annotationStr() const override;   // "Future[int]"
  std::vector<TypePtr> containedTypes() const override { return {elem_}; }
  bool equals(const Type& o) const override;
 private:
  TypePtr elem_;
};

/// Type variable in schemas ("t", "t1"); bound during schema matching.
class VarType : public Type {
 public:
  explicit VarType(std::string name) : Type(TypeKind::Var), name_(std::move(name)) {}
  static TypePtr create(std::string name);
  const std::string& name() const { return name_; }
  std::string str() const override { return name_; }
  bool equals(const Type& o) const override;
 private:
  std::string name_;
};

/// A TorchScript class or module type: "__torch__.torchvision.models.resnet.ResNet".
/// Attributes are slots, in declaration order; an Object stores its attribute values by slot index.
class ClassType : public Type {
 public:
  struct Attribute {
    std::string name;
    TypePtr type;
    bool isParameter = false;
    bool isBuffer = false;
  };
  struct Constant {
    std::string name;
    std::shared_ptr<IValue> value;  // Final[...] = value in the class body
  };
  ClassType(std::string qualName, bool isModule) : Type(TypeKind::Class), qualName_(std::move(qualName)), isModule_(isModule) {}
  static std::shared_ptr<ClassType> create(std::string qualName, bool isModule);

  const std::string& qualName() const { return qualName_; }
  /// Unqualified name: "ResNet".
  std::string name() const;
  bool isModule() const { return isModule_; }
  std::string str() const override { return qualName_; }
  /// Same qualified name (class types are nominal).
  bool equals(const Type& o) const override;

  const std::vector<Attribute>& attributes() const { return attributes_; }
  /// Slot index of an attribute, or -1.
  int findAttributeSlot(const std::string& name) const;
  size_t addAttribute(const std::string& name, TypePtr type, bool isParameter = false, bool isBuffer = false);
  /// Refines an attribute's declared type (e.g. parameters later discovered).
  void setAttributeType(size_t slot, TypePtr type) { attributes_[slot].type = std::move(type); }

  const std::vector<Constant>& constants() const { return constants_; }
  const IValue* findConstant(const std::string& name) const;
  void addConstant(const std::string& name, const IValue& v);

  /// `@property` of a TorchScript class, as PyTorch 1.13 compiles it: the getter is the method
  /// "__<name>_getter", the setter (empty when there is none) "__<name>_setter"; `obj.name` calls the
  /// getter and `obj.name = v` the setter. Archives carry only the two methods (their code calls them).
  struct Property {
    std::string name, getter, setter;
  };
  const std::vector<Property>& properties() const { return properties_; }
  const Property* findProperty(const std::string& name) const {
    for (const Property& p : properties_)
      if (p.name == name) return &p;
    return nullptr;
  }
  void addProperty(Property p) { properties_.push_back(std::move(p)); }
  void setPropertySetter(const std::string& name, const std::string& setter) {
    for (Property& p : properties_)
      if (p.name == name) p.setter = setter;
  }

  const std::vector<Function*>& methods() const { return methods_; }
  Function* findMethod(const std::string& name) const;
  void addMethod(Function* fn) { methods_.push_back(fn); }

  /// What kind of container module this class is (torch's ConcreteModuleType set_module_list /
  /// set_module_dict / set_parameter_list / set_parameter_dict): compiled code iterates over such a
  /// module's submodules (or parameters) in slot order, unrolled, takes len() statically and indexes it
  /// with constants; a dict also has keys()/values()/items(). Set only for classes made from Python
  /// nn.Modules; archives never carry it (their code is already unrolled).
  /// The qualified names of the classes a TorchScript class inherits from (its MRO after itself,
  /// frontend/class_inheritance.h): `isinstance(obj, Base)` is true for them. Inheritance is resolved
  /// when the class is compiled, so this is not subtyping: a value of this class is not accepted where
  /// a base is annotated. Empty for classes without user bases and for classes read from archives.
  const std::vector<std::string>& baseQualNames() const { return baseQualNames_; }
  void setBaseQualNames(std::vector<std::string> names) { baseQualNames_ = std::move(names); }
  bool inheritsFrom(const std::string& qualName) const {
    for (const std::string& b : baseQualNames_)
      if (b == qualName) return true;
    return false;
  }

  enum class Container : uint8_t { None, ModuleList, ModuleDict, ParameterList, ParameterDict };
  Container container() const { return container_; }
  void setContainer(Container c) { container_ = c; }

 private:
  std::string qualName_;
  bool isModule_;
  Container container_ = Container::None;
  std::vector<Attribute> attributes_;
  std::vector<Constant> constants_;
  std::vector<Function*> methods_;  // owned by the CompilationUnit
  std::vector<Property> properties_;
  std::vector<std::string> baseQualNames_;
};
using ClassTypePtr = std::shared_ptr<ClassType>;

/// Python-style Enum class (`class Color(Enum): RED = 1`): name, value type and members.
class EnumType : public Type {
 public:
  EnumType(std::string qualName, TypePtr valueType) : Type(TypeKind::Enum), qualName_(std::move(qualName)), valueType_(std::move(valueType)) {}
  const std::string& qualName() const { return qualName_; }
  const TypePtr& valueType() const { return valueType_; }
  std::string str() const override { return "Enum<" + qualName_ + ">"; }  // graph spelling, as c10
  std::string annotationStr() const override { return qualName_; }
  bool equals(const Type& o) const override;
  std::vector<std::pair<std::string, std::shared_ptr<IValue>>> members;
 private:
  std::string qualName_;
  TypePtr valueType_;
};

/// The type of a first-class function value (prim::Constant[name="f"] in graphs).
class FunctionType : public Type {
 public:
  explicit FunctionType(Function* fn) : Type(TypeKind::Function), fn_(fn) {}
  Function* function() const { return fn_; }
  std::string str() const override;
  bool equals(const Type& o) const override;
 private:
  Function* fn_;
};

/// Least common supertype for joining branches (c10::unifyTypes); nullopt when none exists.
std::optional<TypePtr> unifyTypes(const TypePtr& a, const TypePtr& b);

}  // namespace kindling
