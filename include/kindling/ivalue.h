// IValue: the one value type TorchScript methods take and return (libtorch's c10::IValue look-alike):
// None, Tensor, int (int64), float (double), bool, str, Device, tuples, lists, dicts and objects
// (instances of TorchScript classes, submodules among them).
//
// Ownership: an IValue is 16 bytes holding a number in place or one reference-counted pointer. Copying an
// IValue copies a number or shares the pointee: lists, dicts and objects have reference semantics as in
// Python (a List handle from toList() changes the list the IValue holds); tuples and strings are
// immutable.
//
// Accessors (toInt, toTensor, toTuple, ...) throw kindling::UsageError when the IValue holds another
// kind ("Expected Int but got Tensor"), as libtorch's do. is*() never throws.
//
// Threads: IValues may be copied and read from several threads at once; mutating a list, dict or object
// while another thread reads it is the caller's race.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "kindling/export.h"
#include "kindling/scalar_type.h"
#include "kindling/tensor.h"

namespace kindling {
namespace api {

class IValue;
class Tuple;
class List;
class GenericDict;
class Object;
namespace jit {
class Module;
}

class KINDLING_API IValue {
 public:
  /// None.
  IValue() noexcept;
  IValue(const IValue& o) noexcept;
  IValue(IValue&& o) noexcept;
  IValue& operator=(const IValue& o) noexcept;
  IValue& operator=(IValue&& o) noexcept;
  ~IValue();

  IValue(int64_t v) noexcept;  // NOLINT: implicit, as c10::IValue
  IValue(int32_t v) noexcept : IValue(static_cast<int64_t>(v)) {}  // NOLINT
  IValue(double v) noexcept;   // NOLINT
  IValue(bool v) noexcept;     // NOLINT
  IValue(const char* s);       // NOLINT
  IValue(const std::string& s);  // NOLINT
  IValue(Device d) noexcept;   // NOLINT
  /// An undefined tensor becomes None, as in libtorch.
  IValue(const Tensor& t);     // NOLINT
  IValue(const Tuple& t);      // NOLINT
  IValue(const List& l);       // NOLINT
  IValue(const GenericDict& d);  // NOLINT
  IValue(const Object& o);     // NOLINT
  IValue(const jit::Module& m);  // NOLINT: the module object
  /// Lists: List[int], List[float], List[bool], List[Tensor], List[str].
  IValue(const std::vector<int64_t>& v);  // NOLINT
  IValue(const std::vector<double>& v);   // NOLINT
  IValue(const std::vector<bool>& v);     // NOLINT
  IValue(const std::vector<Tensor>& v);   // NOLINT
  IValue(const std::vector<std::string>& v);  // NOLINT
  /// A list of these values; its element type is the common type of the elements (List[Tensor] for
  /// tensors), or Any when they have none. A method's argument check converts it to the declared type.
  IValue(const std::vector<IValue>& v);  // NOLINT
  IValue(ScalarType t) noexcept : IValue(static_cast<int64_t>(t)) {}  // NOLINT: dtypes are ints in TorchScript

  /// A tuple of the given elements (c10::ivalue::Tuple::create).
  static IValue tuple(std::vector<IValue> elements);

  // --- what it holds ---
  bool isNone() const;
  bool isTensor() const;
  bool isInt() const;
  bool isDouble() const;
  bool isBool() const;
  bool isString() const;
  bool isDevice() const;
  bool isTuple() const;
  bool isList() const;
  bool isGenericDict() const;
  bool isObject() const;
  /// An object whose class is a module (torch.nn.Module subclasses).
  bool isModule() const;
  bool isScalar() const { return isInt() || isDouble() || isBool(); }
  bool isIntList() const;
  bool isDoubleList() const;
  bool isBoolList() const;
  bool isTensorList() const;
  /// "None", "Tensor", "Int", "Double", "Bool", "String", "Tuple", "GenericList", "GenericDict",
  /// "Object", "Device", ... (c10::IValue::tagKind).
  std::string tagKind() const;
  /// The TorchScript type: "Tensor", "int", "Tuple[Tensor, int]", "List[str]", "Dict[str, Tensor]",
  /// "__torch__.MyModule".
  std::string type_str() const;

  // --- access (UsageError on a mismatch) ---
  Tensor toTensor() const;
  int64_t toInt() const;
  /// A float; an int is converted (as c10::IValue::toDouble does not: Kindling accepts both).
  double toDouble() const;
  bool toBool() const;
  const std::string& toStringRef() const;
  std::string toStringView() const { return toStringRef(); }
  Device toDevice() const;
  ScalarType toScalarType() const { return static_cast<ScalarType>(toInt()); }
  /// Handles sharing the value: use ->elements(), .size(), .get(i), ... on them.
  Tuple toTuple() const;
  List toList() const;
  GenericDict toGenericDict() const;
  Object toObject() const;
  /// The object as a Module (its methods callable); UsageError unless isModule().
  jit::Module toModule() const;
  /// Copies of list contents: List[int] / List[float] / List[bool] / List[Tensor] / List[str].
  std::vector<int64_t> toIntVector() const;
  std::vector<double> toDoubleVector() const;
  std::vector<bool> toBoolVector() const;
  std::vector<Tensor> toTensorVector() const;
  std::vector<std::string> toStringVector() const;

  /// As Python's repr: "(tensor([1., 2.]), 3)", "{'a': 1}", "'str'".
  std::string repr() const;
  /// Python `==` for None, numbers, strings, devices and containers of them; tensors compare by
  /// identity (use Tensor::equal for values).
  friend KINDLING_API bool operator==(const IValue& a, const IValue& b);
  friend bool operator!=(const IValue& a, const IValue& b) { return !(a == b); }
  /// Identity for tensors, lists, dicts, objects (Python `is`); value equality for numbers.
  bool is(const IValue& o) const;

  /// Kindling's own representation (for Kindling's code).
  const void* unsafeRepr() const { return repr_; }
  void* unsafeRepr() { return repr_; }

 private:
  alignas(8) unsigned char repr_[16];
};

/// Prints as TorchScript's print() does (c10's operator<<: tensors in ATen's format, floats as "1.").
KINDLING_API std::ostream& operator<<(std::ostream& os, const IValue& v);

/// A tuple (c10::ivalue::Tuple). Immutable. toTuple() returns one; `t->elements()` works as in libtorch.
class KINDLING_API Tuple {
 public:
  explicit Tuple(std::vector<IValue> elements);
  /// Copies of the elements (cheap: numbers or shared pointers).
  std::vector<IValue> elements() const;
  size_t size() const;
  /// Element i; UsageError when out of range.
  IValue get(size_t i) const;
  IValue operator[](size_t i) const { return get(i); }
  const Tuple* operator->() const { return this; }

 private:
  friend class IValue;
  Tuple() = default;
  IValue value_;
};

/// A list (c10::List<IValue>) with reference semantics: changes are seen through every IValue holding
/// it. Elements set or appended must fit the list's element type (UsageError otherwise).
class KINDLING_API List {
 public:
  /// A new empty list of the TorchScript element type `elementType` ("Tensor", "int", "float", "str",
  /// "bool", "Any", "List[int]", ...). UsageError for a type Kindling cannot parse.
  explicit List(const std::string& elementType = "Any");
  size_t size() const;
  bool empty() const { return size() == 0; }
  IValue get(size_t i) const;
  IValue operator[](size_t i) const { return get(i); }
  void set(size_t i, IValue v);
  void push_back(IValue v);
  void clear();
  /// Copies of the elements.
  std::vector<IValue> vec() const;
  /// "Tensor", "int", ...
  std::string elementType() const;
  const List* operator->() const { return this; }

  class const_iterator {
   public:
    const_iterator(const List* l, size_t i) : l_(l), i_(i) {}
    IValue operator*() const { return l_->get(i_); }
    const_iterator& operator++() { ++i_; return *this; }
    bool operator!=(const const_iterator& o) const { return i_ != o.i_; }
    bool operator==(const const_iterator& o) const { return i_ == o.i_; }
   private:
    const List* l_;
    size_t i_;
  };
  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, size()); }

 private:
  friend class IValue;
  struct FromValue {};
  List(FromValue, IValue v) : value_(std::move(v)) {}
  IValue value_;
};

/// A dict (c10::Dict<IValue, IValue>, Python's insertion order) with reference semantics. Keys are str,
/// int, float, bool or Tensor (by identity).
class KINDLING_API GenericDict {
 public:
  /// A new empty dict of the TorchScript key and value types ("str", "Tensor"). UsageError for a type
  /// Kindling cannot parse or a key type a dict cannot have.
  GenericDict(const std::string& keyType = "str", const std::string& valueType = "Any");
  size_t size() const;
  bool empty() const { return size() == 0; }
  bool contains(const IValue& key) const;
  /// The value for key; UsageError "KeyError: 'x'" when absent.
  IValue at(const IValue& key) const;
  void insert_or_assign(IValue key, IValue value);
  /// Inserts when absent; returns whether it did.
  bool insert(IValue key, IValue value);
  bool erase(const IValue& key);
  std::string keyType() const;
  std::string valueType() const;
  const GenericDict* operator->() const { return this; }

  class Entry {
   public:
    Entry(IValue k, IValue v) : key_(std::move(k)), value_(std::move(v)) {}
    const IValue& key() const { return key_; }
    const IValue& value() const { return value_; }
   private:
    IValue key_, value_;
  };
  Entry entry(size_t i) const;
  class const_iterator {
   public:
    const_iterator(const GenericDict* d, size_t i) : d_(d), i_(i) {}
    Entry operator*() const { return d_->entry(i_); }
    const_iterator& operator++() { ++i_; return *this; }
    bool operator!=(const const_iterator& o) const { return i_ != o.i_; }
    bool operator==(const const_iterator& o) const { return i_ == o.i_; }
   private:
    const GenericDict* d_;
    size_t i_;
  };
  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, size()); }

 private:
  friend class IValue;
  struct FromValue {};
  GenericDict(FromValue, IValue v) : value_(std::move(v)) {}
  IValue value_;
};

/// An instance of a TorchScript class (c10::ivalue::Object), reference semantics.
class KINDLING_API Object {
 public:
  /// "__torch__.MyModule".
  std::string type_name() const;
  bool hasattr(const std::string& name) const;
  /// The attribute; UsageError when the class has none of that name.
  IValue attr(const std::string& name) const;
  IValue getAttr(const std::string& name) const { return attr(name); }
  /// Sets an attribute the class declares; UsageError for an unknown name or a value of the wrong type.
  void setattr(const std::string& name, IValue v);
  void setAttr(const std::string& name, IValue v) { setattr(name, std::move(v)); }
  /// Attribute names in declaration order.
  std::vector<std::string> attribute_names() const;
  const Object* operator->() const { return this; }

 private:
  friend class IValue;
  explicit Object(IValue v) : value_(std::move(v)) {}
  IValue value_;
};

/// Calls an operator by its PyTorch name ("aten::softmax", or one overload: "aten::softmax.int") on
/// positional and keyword arguments, choosing the first overload whose schema accepts them (defaults fill
/// the rest), as torch.ops.aten.softmax(...) does from Python. Returns the result: one IValue, or a tuple
/// of them for operators returning several. Throws UsageError for an unknown operator or arguments no
/// overload accepts (the message lists the overloads), RuntimeError from the kernel.
KINDLING_API IValue call_op(const std::string& name, std::vector<IValue> args,
                            const std::vector<std::pair<std::string, IValue>>& kwargs = {});

/// Every operator schema Kindling has, one string each ("aten::add.Tensor(Tensor self, ...) -> Tensor").
KINDLING_API std::vector<std::string> operator_schemas();

}  // namespace api
#if KINDLING_EXPOSE_PUBLIC_NAMES
using namespace api;
#endif
}  // namespace kindling
