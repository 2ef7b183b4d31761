// SourceImporter: turns the TorchScript source in an archive's code/ folder into classes and functions
// of a CompilationTarget, on demand (torch::jit::SourceImporter in torch/csrc/jit/serialization/
// import_source.cpp). This is the contract between the archive loader (H6: the unpickler calls loadType
// when data.pkl names a class) and the frontend.
//
// File lookup: a qualified name a.b.c.D lives in the file named by its longest prefix that exists:
// "__torch__.torch.nn.modules.conv.Conv2d" → code/__torch__/torch/nn/modules/conv.py, class Conv2d;
// "__torch__.torch.nn.modules.conv.___torch_mangle_1.Conv2d" → code/__torch__/torch/nn/modules/conv/
// ___torch_mangle_1.py; "__torch__.torch.nn.functional.relu" → code/__torch__/torch/nn/functional.py,
// def relu. Each file is read and parsed once. Classes are defined when first needed (attribute types,
// method signatures and code naming other classes load those too); method and function bodies are
// compiled lazily on first use through CompilationTarget::defineFunction.
//
// Lifetime: the CompilationTarget must outlive the importer and every function it defines; the
// importer's state is shared with the lazily compiled bodies, so the SourceImporter object itself may be
// destroyed once loading is done.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/ivalue.h"
#include "frontend/compilation_target.h"
#include "ops/registry/operator.h"

namespace kindling {

class SourceImporter {
 public:
  /// Reads one archive record by its path relative to the archive root, e.g.
  /// "code/__torch__/torch/nn/modules/conv.py"; nullopt when the record does not exist.
  using Reader = std::function<std::optional<std::string>(const std::string& path)>;

  /// `constants`: the tuple elements of constants.pkl (CONSTANTS.c0, c1, ... in code).
  /// `fileVersion`: the archive's `version` record: code is compiled against the operators of that version
  /// and calls of operators changed since are replaced by their upgraders (passes/canonicalize/upgraders.h).
  /// `registry`: operators the code may call (null: OperatorRegistry::global()).
  SourceImporter(CompilationTarget& target, Reader reader, std::vector<IValue> constants, uint64_t fileVersion,
                 const OperatorRegistry* registry = nullptr);
  ~SourceImporter();

  /// The class type (ClassType, or a named TupleType) with this qualified name, loading and defining
  /// it (and what it depends on) from code/ if needed. Throws LoadError when no file defines it, and
  /// CompileError for bad source.
  TypePtr loadType(const std::string& qualName);
  /// loadType for a class: throws LoadError if the name is not a class.
  ClassTypePtr loadClass(const std::string& qualName);
  /// A free function by qualified name ("__torch__.torch.nn.functional.relu"), or nullptr.
  Function* loadFunction(const std::string& qualName);
  /// Archive file-format version given at construction.
  uint64_t version() const;

  class Impl;
 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace kindling
