// The extension module kindling._C: tensor bridge, value conversion, TorchScript objects and functions,
// and the translation of Kindling's errors into Python exceptions:
//   CompileError -> kindling.jit.CompileError (a RuntimeError), printed with the source excerpt;
//   RuntimeError raised by a program -> the class kindling.jit builds for its Python class
//     (kindling.jit.Error, subclassing e.g. ValueError for `raise ValueError(...)`), with the
//     TorchScript frames;
//   LoadError -> RuntimeError; UsageError -> ValueError; any other kindling::Error -> RuntimeError.
#include <pybind11/pybind11.h>

#include "api/api.h"
#include "core/error.h"
#include "graph_builder.h"
#include "module_builder.h"
#include "script_compiler.h"
#include "script_objects.h"
#include "tensor_bridge.h"
#include "value_conversion.h"

namespace py = pybind11;
using namespace kindling;
using namespace kindling::python;

namespace {

py::handle gErrorFactory;     // (never released) kindling.jit._errors.script_error_class(python_class_name) -> exception class
PyObject* gCompileError = nullptr;

std::string scriptErrorMessage(const kindling::RuntimeError& e) {
  std::string msg = "The following operation failed in the TorchScript interpreter.\n";
  if (!e.callStack.empty()) {
    msg += "Traceback of TorchScript (most recent call last):\n";
    for (const auto& frame : e.callStack) msg += "  " + frame + "\n";
  }
  msg += e.pythonClass() + ": " + e.message();
  return msg;
}

}  // namespace

PYBIND11_MODULE(_C, m) {
  m.doc() = "Kindling's TorchScript compiler and runtime, for the kindling package (no libtorch).";
  initTensorBridge();

  static py::exception<kindling::CompileError> compileError(m, "CompileError", PyExc_RuntimeError);
  gCompileError = compileError.ptr();
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const kindling::CompileError& e) {
      PyErr_SetString(gCompileError, e.what());
    } catch (const kindling::RuntimeError& e) {
      std::string msg = scriptErrorMessage(e);
      if (gErrorFactory) {
        py::object cls = gErrorFactory(e.pythonClass());
        PyErr_SetString(cls.ptr(), msg.c_str());
      } else {
        PyErr_SetString(PyExc_RuntimeError, msg.c_str());
      }
    } catch (const kindling::UsageError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const kindling::Error& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });

  m.def("_set_error_factory", [](py::object f) { gErrorFactory = f.release(); });
  m.def("_set_module_wrapper", &setModuleWrapper);
  m.def("_register_python_class", &registerPythonClass);

  initScriptObjectBindings(m);
  initGraphBuilderBindings(m);
  initModuleBuilderBindings(m);
  initScriptCompilerBindings(m);

  m.def("set_num_threads", &kindling::set_num_threads, "Intra-op threads for Kindling's kernels (>= 1).");
  m.def("get_num_threads", &kindling::get_num_threads);

  // Conversion helpers (tests and the pure-Python layer).
  m.def("_roundtrip_tensor", [](py::handle t) { return tensorToTorch(tensorFromTorch(t)); },
        "torch tensor -> Kindling tensor -> torch tensor, sharing memory (for tests).");
  m.def("_infer_type", [](py::handle obj) -> py::object {
    std::string why;
    TypePtr t = inferType(obj, &why);
    if (!t) return py::make_tuple(py::none(), why);
    return py::make_tuple(t->annotationStr(), py::str(""));
  }, "The TorchScript type of a Python value: (annotation string or None, reason when None).");
}
