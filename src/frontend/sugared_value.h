// SugaredValue: what a name or expression denotes while emitting, before it becomes an IR Value
// (torch/csrc/jit/frontend/sugared_value.h). Most expressions are plain Values (SimpleValue), but some
// names denote things that only make sense in a call or attribute position: the `torch` and `ops.prim`
// namespaces, a builtin operator (`torch.conv2d`, `x.add`), a TorchScript function or method, a class
// (constructor), `range(...)`, a tuple of sugared values (iterated by unrolling), special forms such as
// `annotate`/`isinstance`, exception classes for `raise`.
//
// Each kind implements the operations it supports (attr, call, iteration, indexing, len); the default
// implementations throw CompileError "<kind> cannot be used as a value" etc. at the use's range.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/type.h"
#include "frontend/schema_matching.h"
#include "frontend/tree.h"
#include "ir/ir.h"

namespace kindling {

class FunctionEmitter;  // frontend/ir_emitter.h
struct SugaredValue;
using SugaredValuePtr = std::shared_ptr<SugaredValue>;

struct SugaredValue : std::enable_shared_from_this<SugaredValue> {
  virtual ~SugaredValue() = default;
  /// What this is, for messages: "builtin function aten::add", "module 'torch'", ...
  virtual std::string kind() const = 0;
  virtual Value* asValue(const SourceRange& loc, FunctionEmitter& m);
  virtual SugaredValuePtr attr(const SourceRange& loc, FunctionEmitter& m, const std::string& field);
  /// hasattr(obj, "name"); nullopt when not statically known.
  virtual std::optional<bool> hasAttr(const SourceRange& loc, FunctionEmitter& m, const std::string& field);
  virtual void setAttr(const SourceRange& loc, FunctionEmitter& m, const std::string& field, Value* v);
  virtual SugaredValuePtr call(const SourceRange& loc, FunctionEmitter& m, const std::vector<NamedValue>& args,
                               const std::vector<NamedValue>& kwargs, size_t nBinders);
  /// Unpacking `a, b = v` and unrolled iteration: the elements when statically known.
  virtual std::vector<SugaredValuePtr> asTuple(const SourceRange& loc, FunctionEmitter& m,
                                               std::optional<size_t> sizeHint = std::nullopt);
  /// True when iteration over this value must be unrolled (tuples, module lists).
  virtual bool shouldUnroll() const { return false; }
  /// Statically known length, if any.
  virtual std::optional<int64_t> staticLen() const { return std::nullopt; }
};

/// An IR value. Attribute access and method calls depend on its type (class attributes/methods,
/// tensor properties and methods, list/dict/str methods, named tuple fields).
struct SimpleValue : SugaredValue {
  explicit SimpleValue(Value* v) : value(v) {}
  std::string kind() const override { return "value of type '" + value->type()->annotationStr() + "'"; }
  Value* asValue(const SourceRange&, FunctionEmitter&) override { return value; }
  SugaredValuePtr attr(const SourceRange& loc, FunctionEmitter& m, const std::string& field) override;
  std::optional<bool> hasAttr(const SourceRange& loc, FunctionEmitter& m, const std::string& field) override;
  void setAttr(const SourceRange& loc, FunctionEmitter& m, const std::string& field, Value* v) override;
  SugaredValuePtr call(const SourceRange& loc, FunctionEmitter& m, const std::vector<NamedValue>& args,
                       const std::vector<NamedValue>& kwargs, size_t nBinders) override;
  std::vector<SugaredValuePtr> asTuple(const SourceRange& loc, FunctionEmitter& m,
                                       std::optional<size_t> sizeHint) override;
  bool shouldUnroll() const override;
  std::optional<int64_t> staticLen() const override;
  Value* value;
};

/// The container kind of a value whose type is a container module class (ModuleList, Sequential,
/// ModuleDict, ParameterList, ParameterDict made from Python), else ClassType::Container::None.
ClassType::Container moduleContainerOf(const Value* v);
/// The element slots of a container module class in slot order: its submodules (ModuleList/Dict) or
/// parameters (ParameterList/Dict), never `training` or other attributes.
std::vector<size_t> moduleContainerSlots(const ClassType& ct);
/// Element `slot` of the container module value `v` (a prim::GetAttr).
SugaredValuePtr moduleContainerElement(const SourceRange& loc, FunctionEmitter& m, Value* v, size_t slot);

/// A builtin operator by qualified name ("aten::add"), optionally bound to `self` (method syntax).
struct BuiltinFunction : SugaredValue {
  BuiltinFunction(std::string n, std::optional<NamedValue> s = std::nullopt) : name(std::move(n)), self(std::move(s)) {}
  std::string kind() const override { return "builtin function " + name; }
  SugaredValuePtr call(const SourceRange& loc, FunctionEmitter& m, const std::vector<NamedValue>& args,
                       const std::vector<NamedValue>& kwargs, size_t nBinders) override;
  std::string name;
  std::optional<NamedValue> self;
};

/// A namespace of builtins: "torch", "ops", "ops.prim", "math", "torch.jit", "torch.nn.functional".
struct BuiltinModule : SugaredValue {
  explicit BuiltinModule(std::string n) : name(std::move(n)) {}
  std::string kind() const override { return "module '" + name + "'"; }
  SugaredValuePtr attr(const SourceRange& loc, FunctionEmitter& m, const std::string& field) override;
  std::string name;
};

/// A prefix of a qualified name of archive code ("__torch__", "__torch__.torch.nn"): attribute access
/// extends the name and resolves it to a function or class when one exists.
struct QualifiedNamespace : SugaredValue {
  explicit QualifiedNamespace(std::string n) : name(std::move(n)) {}
  std::string kind() const override { return "namespace '" + name + "'"; }
  SugaredValuePtr attr(const SourceRange& loc, FunctionEmitter& m, const std::string& field) override;
  std::string name;
};

/// A TorchScript function: calls become prim::CallFunction. An overloaded function (`@torch.jit._overload`
/// declarations, each compiled with the implementation's body) holds every overload in `overloads`
/// (`fn` is the first): a call takes the first whose schema matches; it cannot be used as a value.
struct FunctionValue : SugaredValue {
  explicit FunctionValue(Function* f) : fn(f), overloads{f} {}
  explicit FunctionValue(std::vector<Function*> fs) : fn(fs.at(0)), overloads(std::move(fs)) {}
  std::string kind() const override { return "function '" + fn->qualname() + "'"; }
  Value* asValue(const SourceRange& loc, FunctionEmitter& m) override;
  SugaredValuePtr call(const SourceRange& loc, FunctionEmitter& m, const std::vector<NamedValue>& args,
                       const std::vector<NamedValue>& kwargs, size_t nBinders) override;
  Function* fn;
  std::vector<Function*> overloads;
};

/// A method of a class value: calls become prim::CallMethod[name=...]. An overloaded method holds the
/// names of its overloads ("forward__0", "forward__1", see Resolver::resolveMethodOverloads): a call
/// becomes the prim::CallMethod of the first whose schema matches.
struct MethodValue : SugaredValue {
  MethodValue(Value* s, std::string n) : self(s), name(n), names{std::move(n)} {}
  MethodValue(Value* s, std::string n, std::vector<std::string> overloadNames)
      : self(s), name(std::move(n)), names(std::move(overloadNames)) {}
  std::string kind() const override { return "method '" + name + "'"; }
  SugaredValuePtr call(const SourceRange& loc, FunctionEmitter& m, const std::vector<NamedValue>& args,
                       const std::vector<NamedValue>& kwargs, size_t nBinders) override;
  Value* self;
  std::string name;                // as written in the call
  std::vector<std::string> names;  // the methods called: {name}, or its overloads
};

/// A class (or named tuple) type used as a value: constructor calls and `C.__new__(C)`.
struct ClassValue : SugaredValue {
  explicit ClassValue(TypePtr t) : type(std::move(t)) {}
  std::string kind() const override { return "class '" + type->str() + "'"; }
  SugaredValuePtr attr(const SourceRange& loc, FunctionEmitter& m, const std::string& field) override;
  SugaredValuePtr call(const SourceRange& loc, FunctionEmitter& m, const std::vector<NamedValue>& args,
                       const std::vector<NamedValue>& kwargs, size_t nBinders) override;
  /// Enum classes iterate over their members (unrolled).
  std::vector<SugaredValuePtr> asTuple(const SourceRange& loc, FunctionEmitter& m, std::optional<size_t>) override;
  bool shouldUnroll() const override { return type->kind() == TypeKind::Enum; }
  std::optional<int64_t> staticLen() const override;
  TypePtr type;
};

/// A tuple of sugared values (e.g. the result of unpacking, or builtins returning several things);
/// iteration over it is unrolled.
struct SugaredTupleValue : SugaredValue {
  explicit SugaredTupleValue(std::vector<SugaredValuePtr> e) : elems(std::move(e)) {}
  std::string kind() const override { return "tuple"; }
  Value* asValue(const SourceRange& loc, FunctionEmitter& m) override;
  std::vector<SugaredValuePtr> asTuple(const SourceRange&, FunctionEmitter&, std::optional<size_t>) override { return elems; }
  bool shouldUnroll() const override { return true; }
  std::optional<int64_t> staticLen() const override { return static_cast<int64_t>(elems.size()); }
  std::vector<SugaredValuePtr> elems;
};

/// Names handled by the emitter with access to the raw call expression (annotate, isinstance, range, ...).
struct SpecialFormValue : SugaredValue {
  explicit SpecialFormValue(std::string f, TypePtr t = nullptr) : form(std::move(f)), type(std::move(t)) {}
  std::string kind() const override { return "builtin '" + form + "'"; }
  std::string form;
  TypePtr type;  // for "__new__": the class to create
};

/// An exception class (`ValueError`): `raise ValueError(msg)` → prim::RaiseException(msg, "builtins.ValueError").
struct ExceptionValue : SugaredValue {
  explicit ExceptionValue(std::string n) : name(std::move(n)) {}
  std::string kind() const override { return "exception class '" + name + "'"; }
  SugaredValuePtr call(const SourceRange& loc, FunctionEmitter& m, const std::vector<NamedValue>& args,
                       const std::vector<NamedValue>& kwargs, size_t nBinders) override;
  std::string name;
};

/// An exception instance `ValueError(msg)`: only usable in `raise`.
struct ExceptionMessageValue : SugaredValue {
  ExceptionMessageValue(Value* m, std::string c) : message(m), qualifiedClass(std::move(c)) {}
  std::string kind() const override { return "exception"; }
  Value* message;               // str
  std::string qualifiedClass;   // "builtins.ValueError"
};

/// The exception an `except E as e:` clause binds: str(e), print(e) and f"{e}" give its str() (the
/// value); `raise e` raises it again with its class and message.
struct CaughtExceptionValue : SimpleValue {
  CaughtExceptionValue(Value* c, Value* m, Value* t) : SimpleValue(t), cls(c), msg(m) {}
  Value* cls;  // str: "builtins.ValueError"
  Value* msg;  // str
};

/// `range(...)` used as an iterable: start/end/step (start and step may be null).
struct RangeValue : SugaredValue {
  RangeValue(Value* s, Value* e, Value* st) : start(s), end(e), step(st) {}
  std::string kind() const override { return "range"; }
  Value* start;
  Value* end;
  Value* step;
};

/// `enumerate(x)` / `zip(a, b)` used as an iterable.
struct IterableTree : SugaredValue {
  IterableTree(std::string k, std::vector<SugaredValuePtr> c, Value* st = nullptr) : what(std::move(k)), children(std::move(c)), start(st) {}
  std::string kind() const override { return what; }
  std::string what;  // "enumerate" or "zip"
  std::vector<SugaredValuePtr> children;
  Value* start;      // enumerate(x, start)
};

/// The result of a call that returns nothing (an operator with no returns): None when used as a value.
struct NoneValue : SugaredValue {
  std::string kind() const override { return "None"; }
  Value* asValue(const SourceRange& loc, FunctionEmitter& m) override;
};

/// A module-level constant of a user program (`K = 3` at the top level, or a Python global): a
/// prim::Constant where used. A tuple constant unpacks, indexes and iterates (unrolled) element by
/// element as a tuple value does; torch 1.13 rejects iterating a Python global tuple ("python value of
/// type 'tuple' cannot be used as an iterable"), Kindling follows Python.
struct ConstantValue : SugaredValue {
  explicit ConstantValue(IValue v) : value(std::move(v)) {}
  std::string kind() const override { return "constant"; }
  Value* asValue(const SourceRange& loc, FunctionEmitter& m) override;
  SugaredValuePtr attr(const SourceRange& loc, FunctionEmitter& m, const std::string& field) override;
  std::vector<SugaredValuePtr> asTuple(const SourceRange& loc, FunctionEmitter& m,
                                       std::optional<size_t> sizeHint) override;
  bool shouldUnroll() const override { return value.isTuple(); }
  std::optional<int64_t> staticLen() const override;
  IValue value;
};

/// The archive's tensor constants table `CONSTANTS` (`CONSTANTS.c0`).
struct ConstantTableValue : SugaredValue {
  std::string kind() const override { return "CONSTANTS"; }
  SugaredValuePtr attr(const SourceRange& loc, FunctionEmitter& m, const std::string& field) override;
};

/// `print` (prim::Print with varargs).
struct PrintValue : SugaredValue {
  std::string kind() const override { return "print"; }
  SugaredValuePtr call(const SourceRange& loc, FunctionEmitter& m, const std::vector<NamedValue>& args,
                       const std::vector<NamedValue>& kwargs, size_t nBinders) override;
};

/// int(x), float(x), bool(x), str(x): no-op when x already has the type, else aten::Int/Float/Bool/str.
struct CastValue : SugaredValue {
  CastValue(TypePtr t, std::string op) : type(std::move(t)), opName(std::move(op)) {}
  std::string kind() const override { return "builtin '" + type->str() + "'"; }
  SugaredValuePtr call(const SourceRange& loc, FunctionEmitter& m, const std::vector<NamedValue>& args,
                       const std::vector<NamedValue>& kwargs, size_t nBinders) override;
  TypePtr type;
  std::string opName;
};

/// `super` in a method of a class with bases: nn.Module subclasses compiled from Python (a resolver over
/// Python code gives it) and TorchScript classes (frontend/class_inheritance.h). The emitter binds
/// `super()` (the method's class) or `super(C, self)` to self as a BoundSuperValue; `super().name` is the
/// base implementation of `name`, compiled as a method of self's class (PyTorch 1.13 rejects super()
/// altogether).
struct SuperValue : SugaredValue {
  std::string kind() const override { return "builtin 'super'"; }
  /// The name of the method of `selfType` that runs the implementation of `field` found in the MRO of
  /// self's class after `startClass` (the name written in super(C, self); "" for super(): the class
  /// defining the method being compiled); "" for `object.__init__` (a call that does nothing). `m` is the
  /// emitter of the calling method. Throws CompileError at `loc` when there is none.
  virtual std::string methodFor(const SourceRange& loc, FunctionEmitter& m, const TypePtr& selfType,
                                const std::string& startClass, const std::string& field) = 0;
};

/// super() / super(C, self) bound to self: only its attributes (method calls) can be used.
struct BoundSuperValue : SugaredValue {
  BoundSuperValue(std::shared_ptr<SuperValue> s, Value* obj, std::string start)
      : super(std::move(s)), self(obj), startClass(std::move(start)) {}
  std::string kind() const override { return "super() object"; }
  SugaredValuePtr attr(const SourceRange& loc, FunctionEmitter& m, const std::string& field) override;
  std::shared_ptr<SuperValue> super;
  Value* self;
  std::string startClass;
};

}  // namespace kindling
