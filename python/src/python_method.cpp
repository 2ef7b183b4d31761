// Methods whose body is Python (@torch.jit.ignore). See python_method.h.
#include "python_method.h"

#include "core/error.h"
#include "value_conversion.h"

namespace kindling::python {

PythonMethod::PythonMethod(std::string qualname, std::string name, FunctionSchema schema, py::object fn,
                           std::shared_ptr<CompilationUnit> cu)
    : qualname_(std::move(qualname)), name_(std::move(name)), schema_(std::move(schema)), fn_(std::move(fn)),
      cu_(std::move(cu)) {}

PythonMethod::~PythonMethod() {
  py::gil_scoped_acquire gil;
  fn_ = py::object();
}

void PythonMethod::run(Stack& stack) {
  const size_t n = schema_.arguments.size();
  if (stack.size() < n) throw InternalError("PythonMethod " + qualname_ + ": too few arguments on the stack");
  py::gil_scoped_acquire gil;
  py::tuple args(n);
  for (size_t i = 0; i < n; ++i) args[i] = toPyObject(std::move(stack[stack.size() - n + i]), cu_);
  stack.resize(stack.size() - n);
  py::object result;
  try {
    result = fn_(*args);
  } catch (py::error_already_set& e) {
    std::string cls = py::str(e.type().attr("__name__")).cast<std::string>();
    std::string module = py::hasattr(e.type(), "__module__") ? py::str(e.type().attr("__module__")).cast<std::string>()
                                                              : std::string("builtins");
    throw RuntimeError(py::str(e.value()).cast<std::string>(), module + "." + cls);
  }
  const TypePtr ret = schema_.returns.empty() || !schema_.returns[0].type ? NoneType() : schema_.returns[0].type;
  try {
    stack.push_back(ret->kind() == TypeKind::None ? IValue() : toIValue(result, ret));
  } catch (const py::type_error& e) {
    throw RuntimeError("the @ignore'd Python method " + qualname_ + " returned a value that is not a " +
                       ret->annotationStr() + ": " + e.what());
  }
}

}  // namespace kindling::python
