// Object/Module: the runtime view of a TorchScript object — an Object (core/ivalue.h) plus the
// CompilationUnit that owns its class and methods (torch::jit::Module). Copying a Module copies the handle.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/ivalue.h"
#include "runtime/compilation_unit.h"
#include "tensor/tensor.h"

namespace kindling {

class Module {
 public:
  Module() = default;
  Module(std::shared_ptr<CompilationUnit> cu, IntrusivePtr<Object> obj)
      : cu_(std::move(cu)), obj_(std::move(obj)), frozen_(std::make_shared<FrozenMethods>()) {}
  const IntrusivePtr<Object>& object() const { return obj_; }
  const ClassTypePtr& type() const { return obj_->type; }
  const std::shared_ptr<CompilationUnit>& compilationUnit() const { return cu_; }
  /// Calls a method with `self` prepended. Throws Error if the method does not exist.
  IValue runMethod(const std::string& name, std::vector<IValue> args) const;
  IValue forward(std::vector<IValue> args) const { return runMethod("forward", std::move(args)); }
  Function* findMethod(const std::string& name) const;
  IValue attr(const std::string& name) const { return obj_->getAttr(name); }
  bool hasattr(const std::string& name) const;
  /// Sets an attribute; drops frozen methods (see freezeMethod) so they cannot run with stale values.
  void setattr(const std::string& name, IValue v);
  /// Specializes a method to this object for inference, once, at load (torch.jit.freeze +
  /// optimize_for_inference): the method's inlined graph with this object's attributes that the program
  /// never writes turned into constants (passes/optimize/freeze_module.h), then runFrozenGraphPasses
  /// (drops `self.training` branches, folds conv + batch_norm). Later runMethod(name)/forward calls through
  /// this handle and its copies run the specialized code; results are unchanged. Throws Error if the
  /// method does not exist; CompileError from compiling it.
  void freezeMethod(const std::string& name = "forward");
  /// The specialized function made by freezeMethod, or nullptr.
  Function* frozenMethod(const std::string& name) const;
  /// (name, tensor) of parameters, recursively with dotted names when recurse.
  std::vector<std::pair<std::string, Tensor>> namedParameters(bool recurse = true) const;
  std::vector<std::pair<std::string, Tensor>> namedBuffers(bool recurse = true) const;
  std::vector<std::pair<std::string, Module>> namedChildren() const;
 private:
  struct FrozenMethods {
    std::vector<std::pair<std::string, std::shared_ptr<GraphFunction>>> methods;
  };
  std::shared_ptr<CompilationUnit> cu_;
  IntrusivePtr<Object> obj_;
  std::shared_ptr<FrozenMethods> frozen_;
};

}  // namespace kindling
