// IValue: the one value type of the interpreter, the unpickler and the public API (c10::IValue).
// A tag plus either an inline payload (int, double, bool, Device) or one intrusive pointer
// (tensor, string, tuple, list, dict, object, future, enum). Copying an IValue bumps a refcount;
// lists, dicts and objects have reference semantics, as in Python.
//
// The Tensor accessors are declared here and defined in "tensor/tensor.h" (include it to use them):
// the core layer knows tensors only as an opaque IntrusiveTarget.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/device.h"
#include "core/error.h"
#include "core/intrusive_ptr.h"
#include "core/scalar.h"
#include "core/type.h"

namespace kindling {

class Tensor;
class TensorImpl;
class IValue;
struct TupleValue;
struct ListValue;
struct DictValue;
struct Object;
struct StringValue;
struct FutureValue;
struct EnumHolder;

using Stack = std::vector<IValue>;

class IValue {
 public:
  enum class Tag : uint8_t {
    None, Tensor, Double, Int, Bool, String, Tuple, List, Dict, Object, Device, Future, Enum,
    Uninitialized, Capsule, Generator, Storage,
  };

  IValue() noexcept : tag_(Tag::None) { p_.ptr = nullptr; }
  IValue(const IValue& o) noexcept : tag_(o.tag_), p_(o.p_) { if (isPtr()) p_.ptr->incref(); }
  IValue(IValue&& o) noexcept : tag_(o.tag_), p_(o.p_) { o.tag_ = Tag::None; o.p_.ptr = nullptr; }
  IValue& operator=(const IValue& o) noexcept { IValue(o).swap(*this); return *this; }
  IValue& operator=(IValue&& o) noexcept { IValue(std::move(o)).swap(*this); return *this; }
  ~IValue() { if (isPtr()) p_.ptr->decref(); }
  void swap(IValue& o) noexcept { std::swap(tag_, o.tag_); std::swap(p_, o.p_); }

  // --- construction ---
  IValue(int64_t i) noexcept : tag_(Tag::Int) { p_.i = i; }
  IValue(int i) noexcept : tag_(Tag::Int) { p_.i = i; }
  IValue(double d) noexcept : tag_(Tag::Double) { p_.d = d; }
  IValue(bool b) noexcept : tag_(Tag::Bool) { p_.i = 0; p_.b = b; }
  IValue(Device d) noexcept : tag_(Tag::Device) { p_.i = 0; p_.dev = d; }
  IValue(ScalarType t) noexcept : tag_(Tag::Int) { p_.i = static_cast<int64_t>(t); }
  IValue(const Scalar& s);
  IValue(std::string s);
  IValue(const char* s) : IValue(std::string(s)) {}
  IValue(Tensor t);  // defined in tensor/tensor.h
  IValue(IntrusivePtr<TupleValue> v);
  IValue(IntrusivePtr<ListValue> v);
  IValue(IntrusivePtr<DictValue> v);
  IValue(IntrusivePtr<Object> v);
  IValue(IntrusivePtr<StringValue> v);
  IValue(IntrusivePtr<FutureValue> v);
  IValue(IntrusivePtr<EnumHolder> v);
  /// Generic constructor for pointer payloads (Capsule, Generator, Storage): takes a new reference.
  static IValue fromPtr(Tag tag, IntrusiveTarget* p) { IValue v; v.tag_ = tag; v.p_.ptr = p; if (p) p->incref(); return v; }
  static IValue uninitialized() { IValue v; v.tag_ = Tag::Uninitialized; return v; }

  // --- inspection ---
  Tag tag() const { return tag_; }
  const char* tagName() const;
  bool isNone() const { return tag_ == Tag::None; }
  bool isTensor() const { return tag_ == Tag::Tensor; }
  bool isDouble() const { return tag_ == Tag::Double; }
  bool isInt() const { return tag_ == Tag::Int; }
  bool isBool() const { return tag_ == Tag::Bool; }
  bool isString() const { return tag_ == Tag::String; }
  bool isTuple() const { return tag_ == Tag::Tuple; }
  bool isList() const { return tag_ == Tag::List; }
  bool isDict() const { return tag_ == Tag::Dict; }
  bool isObject() const { return tag_ == Tag::Object; }
  bool isDevice() const { return tag_ == Tag::Device; }
  bool isFuture() const { return tag_ == Tag::Future; }
  bool isEnum() const { return tag_ == Tag::Enum; }
  bool isUninitialized() const { return tag_ == Tag::Uninitialized; }
  bool isScalar() const { return tag_ == Tag::Int || tag_ == Tag::Double || tag_ == Tag::Bool; }
  /// True when the payload is a (non-null) refcounted pointer. One mask test: it runs on every copy.
  bool isPtr() const {
    constexpr uint32_t kPtrTags =
        (1u << static_cast<int>(Tag::Tensor)) | (1u << static_cast<int>(Tag::String)) |
        (1u << static_cast<int>(Tag::Tuple)) | (1u << static_cast<int>(Tag::List)) | (1u << static_cast<int>(Tag::Dict)) |
        (1u << static_cast<int>(Tag::Object)) | (1u << static_cast<int>(Tag::Future)) | (1u << static_cast<int>(Tag::Enum)) |
        (1u << static_cast<int>(Tag::Capsule)) | (1u << static_cast<int>(Tag::Generator)) |
        (1u << static_cast<int>(Tag::Storage));
    return ((kPtrTags >> static_cast<int>(tag_)) & 1u) && p_.ptr != nullptr;
  }

  // --- access (throw RuntimeError on a tag mismatch) ---
  int64_t toInt() const { check(Tag::Int); return p_.i; }
  double toDouble() const { check(Tag::Double); return p_.d; }
  bool toBool() const { check(Tag::Bool); return p_.b; }
  Device toDevice() const { check(Tag::Device); return p_.dev; }
  ScalarType toScalarType() const { return static_cast<ScalarType>(toInt()); }
  /// Int, Double or Bool as a Scalar.
  Scalar toScalar() const;
  Tensor toTensor() const&;   // defined in tensor/tensor.h
  Tensor toTensor() &&;       // defined in tensor/tensor.h
  TensorImpl* unsafeTensorImpl() const { return reinterpret_cast<TensorImpl*>(p_.ptr); }
  const std::string& toStringRef() const;
  IntrusivePtr<StringValue> toString() const;
  TupleValue& toTupleRef() const { check(Tag::Tuple); return *reinterpret_cast<TupleValue*>(p_.ptr); }
  ListValue& toListRef() const { check(Tag::List); return *reinterpret_cast<ListValue*>(p_.ptr); }
  DictValue& toDictRef() const { check(Tag::Dict); return *reinterpret_cast<DictValue*>(p_.ptr); }
  Object& toObjectRef() const { check(Tag::Object); return *reinterpret_cast<Object*>(p_.ptr); }
  IntrusivePtr<TupleValue> toTuple() const;
  IntrusivePtr<ListValue> toList() const;
  IntrusivePtr<DictValue> toDict() const;
  IntrusivePtr<Object> toObject() const;
  IntrusivePtr<FutureValue> toFuture() const;
  IntrusivePtr<EnumHolder> toEnum() const;
  IntrusiveTarget* rawPtr() const { return isPtr() ? p_.ptr : nullptr; }

  /// Convenience: List[int] / List[float] / List[bool] / List[Tensor] contents.
  std::vector<int64_t> toIntVector() const;
  std::vector<double> toDoubleVector() const;
  std::vector<bool> toBoolVector() const;
  std::vector<Tensor> toTensorVector() const;  // defined in tensor/tensor.cpp

  /// The runtime type of this value (for isinstance, error messages, containers without static types).
  TypePtr type() const;

  /// Python `is`: identity for pointer types, value equality for None/int/float/bool/device.
  bool is(const IValue& o) const;
  /// Python `==` for ints, floats, bools, strings, None, devices, and element-wise for tuples/lists/dicts;
  /// tensors compare by identity here (aten::eq on tensors is an operator, not this).
  friend bool operator==(const IValue& a, const IValue& b);
  friend bool operator!=(const IValue& a, const IValue& b) { return !(a == b); }
  /// Hash for dict keys (str, int, float, bool, Tensor by identity).
  size_t hash() const;

  /// repr as Python/PyTorch prints the value (print(x) in TorchScript: `[1, 2]`, `(1, 'a')`, tensors as torch prints).
  std::string repr() const;
  /// str() as Python: strings without quotes, the rest as repr.
  std::string str() const;
  /// How TorchScript's print() / str() / format write the value (c10's operator<<): floats "1." and
  /// "0.10000000000000001", strings unquoted even inside containers ("[a, b]", "{a: 1.}"), tensors in
  /// ATen's C++ print format. This is what prim::Print and aten::str produce.
  std::string printStr() const;

 private:
  void check(Tag t) const { if (__builtin_expect(tag_ != t, 0)) throwTagMismatch(t); }
  [[noreturn]] void throwTagMismatch(Tag expected) const;
  Tag tag_;
  union Payload {
    Payload() noexcept : i(0) {}
    int64_t i;
    double d;
    bool b;
    Device dev;
    IntrusiveTarget* ptr;
  } p_;
};

const char* tagName(IValue::Tag t);
/// Python's repr of a str: 'a', "it's", with \\, \n, \t, \xNN escapes.
std::string pythonStringRepr(const std::string& s);

/// Tensor printing lives in the tensor layer; it installs these at static-initialisation time
/// (tensor/tensor.cpp), so core can print IValues holding tensors without depending on tensor/.
///   repr:  PyTorch's Python repr ("tensor([1., 2.])"), used by IValue::repr/str.
///   print: ATen's C++ operator<< format (" 1\n 2\n[ CPUFloatType{2} ]"), used by IValue::printStr.
using TensorPrinter = std::string (*)(const IValue& tensor);
void setTensorPrinters(TensorPrinter repr, TensorPrinter print);

struct StringValue : IntrusiveTarget {
  explicit StringValue(std::string s) : str(std::move(s)) {}
  std::string str;
};

// The containers below (tuples, lists, dicts, objects, futures, enum members) free the containers they
// hold last iteratively (core/container_release.cpp): a list nested a million levels deep, or a linked
// list of a million objects, is released in a loop, never by a million nested destructor calls.

struct TupleValue : IntrusiveTarget {
  TupleValue() = default;
  explicit TupleValue(std::vector<IValue> e, TypePtr t = nullptr) : elements(std::move(e)), type(std::move(t)) {}
  ~TupleValue() override;
  std::vector<IValue> elements;
  TypePtr type;  // set for NamedTuples (and when known statically); may be null
};

struct ListValue : IntrusiveTarget {
  explicit ListValue(TypePtr elemType, std::vector<IValue> e = {}) : elementType(std::move(elemType)), elements(std::move(e)) {}
  ~ListValue() override;
  TypePtr elementType;
  std::vector<IValue> elements;
};

/// Insertion-ordered dictionary (Python dict semantics). Keys: str, int, float, bool, Tensor (identity).
struct DictValue : IntrusiveTarget {
  DictValue(TypePtr k, TypePtr v) : keyType(std::move(k)), valueType(std::move(v)) {}
  ~DictValue() override;
  TypePtr keyType, valueType;
  /// Entries in insertion order.
  const std::vector<std::pair<IValue, IValue>>& items() const { return items_; }
  size_t size() const { return items_.size(); }
  /// Pointer to the value for key, or nullptr.
  IValue* find(const IValue& key);
  const IValue* find(const IValue& key) const;
  /// d[key] = value (keeps the original position of an existing key).
  void insertOrAssign(IValue key, IValue value);
  /// Inserts only if absent; returns true when inserted.
  bool insert(IValue key, IValue value);
  bool erase(const IValue& key);
  void clear();
 private:
  struct Hash { size_t operator()(const IValue& v) const { return v.hash(); } };
  struct Eq { bool operator()(const IValue& a, const IValue& b) const; };
  std::vector<std::pair<IValue, IValue>> items_;
  std::unordered_map<IValue, size_t, Hash, Eq> index_;
};

/// An instance of a TorchScript class or module: attribute values by slot (see ClassType).
struct Object : IntrusiveTarget {
  Object(ClassTypePtr t, size_t numSlots) : type(std::move(t)), slots(numSlots) {}
  ~Object() override;
  ClassTypePtr type;
  std::vector<IValue> slots;
  const IValue& getAttr(const std::string& name) const;
  void setAttr(const std::string& name, IValue v);
};

/// The value of a `fork`ed task (c10::ivalue::Future), completed with a value or an error.
struct FutureValue : IntrusiveTarget {
  explicit FutureValue(TypePtr elemType) : elementType(std::move(elemType)) {}
  ~FutureValue() override;
  TypePtr elementType;
  bool completed = false;
  IValue value;
  /// Set when the task raised; wait() rethrows it as RuntimeError with this message and class.
  std::optional<std::pair<std::string, std::string>> error;  // (message, python class)
  void markCompleted(IValue v) { value = std::move(v); completed = true; }
  void setError(std::string msg, std::string pythonClass = "builtins.RuntimeError") {
    error.emplace(std::move(msg), std::move(pythonClass));
    completed = true;
  }
  /// The value; throws RuntimeError if the task failed or has not completed.
  const IValue& wait() const;
};

/// An Enum member: its class, name and value.
struct EnumHolder : IntrusiveTarget {
  EnumHolder(std::shared_ptr<const EnumType> t, std::string n, IValue v) : type(std::move(t)), name(std::move(n)), value(std::move(v)) {}
  ~EnumHolder() override;
  std::shared_ptr<const EnumType> type;
  std::string name;
  IValue value;
};

/// Moves the values `container` holds directly (list and tuple elements, dict keys and values, object
/// slots) to the end of `out` and leaves it empty; any other value is left as it is. The step of walks
/// that take nested containers apart with a work list instead of recursion (defined beside the
/// containers' iterative destructors, core/container_release.cpp).
void moveOutContained(const IValue& container, std::vector<IValue>& out);

/// Calls `fn` once for every distinct Object reachable from `root` through object slots, lists, tuples
/// and dict values (a module tree and everything its attributes hold), parents before their slots.
/// Iterative, so deep or cyclic object graphs neither recurse nor loop.
void forEachReachableObject(const IValue& root, const std::function<void(const Object&)>& fn);

// Helpers to build containers.
IValue makeTuple(std::vector<IValue> elems);
IValue makeList(TypePtr elemType, std::vector<IValue> elems);
IValue makeIntList(const std::vector<int64_t>& v);
IValue makeDoubleList(const std::vector<double>& v);
IValue makeBoolList(const std::vector<bool>& v);

// Stack helpers for operator kernels (PyTorch's calling convention: arguments pushed in order,
// the kernel pops them and pushes its results).
inline IValue pop(Stack& s) { IValue v = std::move(s.back()); s.pop_back(); return v; }
/// i-th of the last n entries.
inline IValue& peek(Stack& s, size_t i, size_t n) { return s[s.size() - n + i]; }
inline void drop(Stack& s, size_t n) { s.erase(s.end() - n, s.end()); }
template <class... Ts> inline void push(Stack& s, Ts&&... vs) { (s.emplace_back(std::forward<Ts>(vs)), ...); }

}  // namespace kindling
