// Operator: a FunctionSchema plus the kernel that runs it on the interpreter stack. Kernels follow
// PyTorch's boxed calling convention: the caller pushes every argument of the schema (defaults already
// filled in by schema matching), the kernel pops them and pushes its returns.
//
// The registry maps "aten::add" to all its overloads. The frontend picks the overload once, at compile
// time, and the interpreter calls the kernel through a plain function pointer: no look-ups at run time.
#pragma once
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/function_schema.h"
#include "core/ivalue.h"

namespace kindling {

using OperationFn = void (*)(Stack& stack);

struct Operator {
  FunctionSchema schema;
  OperationFn fn;
  /// Bit i set: the kernel writes the tensors passed for argument i in place (`Tensor(a!)`,
  /// `Tensor(a!)?`, `Tensor(a!)[]`). Computed from the schema by OperatorRegistry::add.
  uint64_t writtenArgs = 0;
  const std::string& name() const { return schema.name; }
};

/// The writtenArgs mask of a schema (arguments past the 64th are not tracked).
uint64_t writtenTensorArguments(const FunctionSchema& schema);
/// Increments the version counter (tensor/tensor.h, PyTorch's `_version`) of every tensor passed for an
/// argument in `writtenArgs`; `args` points at the operator's first argument. Every caller of a kernel with
/// writtenArgs != 0 runs it before the kernel (the interpreter, OpHandle, the public call_op), so values
/// derived from a tensor's bytes (packed weights) are never used after a write.
void bumpWrittenVersions(uint64_t writtenArgs, const IValue* args);

class OperatorRegistry {
 public:
  /// The process-wide registry, filled on first use with every kernel family (see operator_registry.cpp).
  static OperatorRegistry& global();

  /// Registers one overload from its schema string in PyTorch's syntax. Throws Error on a malformed
  /// schema or a duplicate "name.overload".
  void add(const std::string& schema, OperationFn fn);
  /// All overloads of "aten::add" (empty vector when unknown).
  const std::vector<const Operator*>& lookup(const std::string& name) const;
  /// The overload "aten::add.Tensor" ("aten::relu" for the empty overload name), or nullptr.
  const Operator* find(const std::string& qualifiedName) const;
  /// Every operator, in registration order.
  const std::vector<std::unique_ptr<Operator>>& all() const { return ops_; }

 private:
  std::vector<std::unique_ptr<Operator>> ops_;
  std::unordered_map<std::string, std::vector<const Operator*>> byName_;
  std::unordered_map<std::string, const Operator*> byQualified_;
};

/// Every registered operator's schema in PyTorch's syntax (FunctionSchema::str(), as
/// torch._C._jit_get_all_schemas() prints them), in registration order (the `kindling ops` command).
/// Fills the global registry.
std::vector<std::string> allSchemaStrings();

// Kernel families. Each lives in its own file (ops/<family>.cpp) and registers its overloads.
void registerElementwiseOps(OperatorRegistry& r);
void registerReduceOps(OperatorRegistry& r);
void registerShapeOps(OperatorRegistry& r);
void registerIndexOps(OperatorRegistry& r);
void registerFactoryOps(OperatorRegistry& r);
void registerLinalgOps(OperatorRegistry& r);
void registerConvOps(OperatorRegistry& r);
void registerPoolOps(OperatorRegistry& r);
void registerNormOps(OperatorRegistry& r);
void registerActivationOps(OperatorRegistry& r);
void registerPrimScalarOps(OperatorRegistry& r);   // int/float/bool arithmetic, math
void registerPrimListOps(OperatorRegistry& r);     // list builtins (len, append, __getitem__, ...)
void registerPrimStringOps(OperatorRegistry& r);   // str builtins, aten::format
void registerPrimDictOps(OperatorRegistry& r);
void registerTensorPrimOps(OperatorRegistry& r);   // aten::size, dim, Int/Float/Bool conversions, ScalarImplicit...
void registerRnnOps(OperatorRegistry& r);          // lstm/gru/rnn_tanh/rnn_relu and their cells
void registerTorchvisionOps(OperatorRegistry& r);  // torchvision::nms, torchvision::roi_align
void registerAttentionOps(OperatorRegistry& r);    // _native_multi_head_attention, _transformer_encoder_layer_fwd, ...

}  // namespace kindling
