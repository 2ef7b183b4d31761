// Function: anything callable by name from TorchScript — a compiled TorchScript function or method
// (runtime/graph_function.h), or a builtin. Abstract here so the type system (ClassType methods,
// FunctionType) can refer to functions without depending on the runtime layer.
#pragma once
#include <string>

#include "core/function_schema.h"
#include "core/ivalue.h"

namespace kindling {

class Function {
 public:
  virtual ~Function() = default;
  /// Qualified name: "__torch__.torchvision.models.resnet.ResNet.forward" for methods.
  virtual const std::string& qualname() const = 0;
  /// Unqualified name: "forward".
  virtual const std::string& name() const = 0;
  virtual const FunctionSchema& getSchema() const = 0;
  /// Runs the function: consumes its arguments from the top of the stack (self first for methods) and
  /// pushes its return value. Throws RuntimeError for errors raised by the program.
  virtual void run(Stack& stack) = 0;
  /// Convenience: run with the given arguments and return the result.
  IValue operator()(std::vector<IValue> args) {
    Stack s(std::move(args));
    run(s);
    return s.empty() ? IValue() : std::move(s.back());
  }
};

}  // namespace kindling
