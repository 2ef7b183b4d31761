// Symbol: an interned node kind such as "aten::add" or "prim::If" (c10::Symbol). Comparing two Symbols
// is an integer compare; the qualified string is kept in a process-wide table.
#pragma once
#include <cstdint>
#include <string>

namespace kindling {

class Symbol {
 public:
  Symbol() = default;
  /// Interns "ns::name" (e.g. "aten::relu").
  static Symbol fromQualString(const std::string& s);
  const std::string& toQualString() const;
  /// "aten", "prim", ...
  std::string ns() const;
  /// Part after "::".
  std::string unqualName() const;
  uint32_t id() const { return id_; }
  bool operator==(const Symbol& o) const { return id_ == o.id_; }
  bool operator!=(const Symbol& o) const { return id_ != o.id_; }
  bool isAten() const;
  bool isPrim() const;
 private:
  explicit Symbol(uint32_t id) : id_(id) {}
  uint32_t id_ = 0;
};

struct SymbolHash { size_t operator()(const Symbol& s) const { return s.id(); } };

/// Kinds the IR and passes refer to by name.
namespace prim {
extern const Symbol Constant, Param, Return, If, Loop, GetAttr, SetAttr, CallMethod, CallFunction,
    CreateObject, TupleConstruct, TupleUnpack, TupleIndex, TupleSlice, ListConstruct, ListUnpack,
    DictConstruct, Uninitialized, unchecked_cast, RaiseException, Print, isinstance, NumToTensor,
    device, dtype, Enter, Exit, fork, wait, Closure, EnumName, EnumValue, Store, Load, IgnoredPythonOp,
    MethodCall, FunctionCall, ModuleContainerIndex, StringIndex, AutogradZero, TypeCheck, Guard,
    Try;  // Kindling: try/except (block0 the body, block1(cls, msg, text) the handler; no PyTorch equivalent)
}
/// The aten:: kinds the IR, passes and runtime match on (one place, so a pass never spells an operator
/// name as a string).
namespace aten {
extern const Symbol __is__, __isnot__, __not__, format, size, dim, len, add, add_, batch_norm, conv1d, conv2d,
    conv3d, _convolution, convolution, eq, hardtanh, hardtanh_, linear, manual_seed, ne, relu, relu_, wait, warn;
}

}  // namespace kindling
