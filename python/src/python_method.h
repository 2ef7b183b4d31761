// A method whose body is Python: a module method marked @torch.jit.ignore that compiled code calls. As
// torch.jit runs it (a PythonOp), the call goes back into the Python process: the arguments converted to
// Python (the module itself as its kindling.jit ScriptModule, as torch passes its ScriptModule), the function
// called under the GIL, its result converted to the declared return type (Tensor when undeclared, as torch's
// ignored signatures). Such a method cannot be saved: the archive printer refuses it, as torch.jit.save
// refuses a module calling Python ("Could not export Python function call").
#pragma once
#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "core/function.h"
#include "runtime/compilation_unit.h"

namespace kindling::python {

namespace py = pybind11;

class PythonMethod : public Function {
 public:
  PythonMethod(std::string qualname, std::string name, FunctionSchema schema, py::object fn,
               std::shared_ptr<CompilationUnit> cu);
  ~PythonMethod() override;
  const std::string& qualname() const override { return qualname_; }
  const std::string& name() const override { return name_; }
  const FunctionSchema& getSchema() const override { return schema_; }
  /// Throws RuntimeError (of the Python exception's class) when the Python function raises, and
  /// py::type_error's message as a RuntimeError when its result does not fit the return type.
  void run(Stack& stack) override;

 private:
  std::string qualname_, name_;
  FunctionSchema schema_;
  py::object fn_;
  std::shared_ptr<CompilationUnit> cu_;
};

/// The handle Python holds for a free @ignore'd function's PythonMethod (kindling._C._PythonFunctionHandle).
struct PythonFunctionHandle {
  Function* fn = nullptr;
};

}  // namespace kindling::python
