// Calling a registered operator from inside another kernel (composite kernels: the RNN layers, attention,
// torchvision's roi_align). opCall("aten::linear", x, w, b) pushes the arguments as the interpreter would
// (every schema argument, in order, defaults included by the caller), runs the kernel and returns the one
// result. The operator is looked up once per call site (OpHandle caches the pointer), so the hot path is a
// plain function-pointer call; a name that is not registered is an internal RuntimeError.
#pragma once
#include <string>
#include <utility>

#include "core/error.h"
#include "core/internal_error.h"
#include "ops/registry/operator.h"
#include "tensor/tensor.h"

namespace kindling {

class OpHandle {
 public:
  explicit OpHandle(const char* qualifiedName) : name_(qualifiedName) {}
  const Operator& get() const {
    if (!op_) {
      op_ = OperatorRegistry::global().find(name_);
      KD_INTERNAL_ASSERT(op_ != nullptr, "operator {} called by a kernel is not registered", name_);
    }
    return *op_;
  }
  /// Runs the operator on `args` (all of its schema arguments) and returns the stack of its results.
  template <class... Ts> Stack run(Ts&&... args) const {
    Stack s;
    s.reserve(sizeof...(Ts));
    (s.emplace_back(toIValue(std::forward<Ts>(args))), ...);
    const Operator& op = get();
    if (op.writtenArgs) bumpWrittenVersions(op.writtenArgs, s.data());
    op.fn(s);
    return s;
  }
  /// The single Tensor result.
  template <class... Ts> Tensor operator()(Ts&&... args) const {
    Stack s = run(std::forward<Ts>(args)...);
    return s.back().toTensor();
  }

 private:
  static IValue toIValue(const Tensor& t) { return t.defined() ? IValue(t) : IValue(); }
  static IValue toIValue(Tensor&& t) { return t.defined() ? IValue(std::move(t)) : IValue(); }
  static IValue toIValue(Tensor& t) { return t.defined() ? IValue(t) : IValue(); }
  template <class T> static IValue toIValue(T&& v) { return IValue(std::forward<T>(v)); }
  const char* name_;
  mutable const Operator* op_ = nullptr;
};

}  // namespace kindling
