// The C++ side of what kindling.jit hands to Python: TorchScript objects (ScriptObject: a module or class
// instance), their bound methods (ScriptMethod), free functions (ScriptFunction) and graphs (Graph), and
// calling them with Python arguments (matched against the function's schema as torch.jit does: positional
// and keyword arguments, defaults, each value converted to its declared type).
#pragma once
#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "core/function.h"
#include "ir/ir.h"
#include "runtime/compilation_unit.h"
#include "runtime/graph_function.h"
#include "runtime/module.h"
#include "value_conversion.h"

namespace kindling::python {

namespace py = pybind11;

/// A method bound to its object. `fn` belongs to the class of `module`.
struct MethodHandle {
  Module module;
  Function* fn;
};

/// A free TorchScript function; `cu` owns it.
struct FunctionHandle {
  std::shared_ptr<CompilationUnit> cu;
  GraphFunction* fn;
};

/// A graph, printed as print(fn.graph) prints it. `owner` keeps what owns the graph alive.
struct GraphHandle {
  std::shared_ptr<Graph> graph;
  std::shared_ptr<CompilationUnit> owner;
};

/// Calls `fn` with Python arguments: `self` (may be null) first, then args/kwargs bound to the schema.
/// Errors in binding raise RuntimeError naming the function and argument ("forward() Expected a value of
/// type 'Tensor' for argument 'x' but instead found type 'int'."); errors raised by the program propagate
/// as kindling::RuntimeError (translated to kindling.jit.Error). The GIL is released while TorchScript runs.
py::object invokeFunction(Function& fn, const IValue* self, const py::args& args, const py::kwargs& kwargs,
                          const std::shared_ptr<CompilationUnit>& cu);

/// The graph a method or function call inlines to (torch's `inlined_graph`): a copy of the graph with
/// every call to a TorchScript function or method replaced by the callee's inlined graph.
std::shared_ptr<Graph> inlinedGraphOf(GraphFunction& fn);

/// Defines ScriptObject, ScriptMethod, ScriptFunction, Graph, load/save in module `m`.
void initScriptObjectBindings(py::module_& m);

}  // namespace kindling::python
