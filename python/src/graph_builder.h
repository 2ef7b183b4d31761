// Building TorchScript graphs from Python, node by node: what kindling.jit.trace records into.
//
// A GraphBuilder owns one Graph. Python adds typed inputs (typed from example values, as the tracer
// types its inputs from the example inputs), inserts operator calls by name ("aten::add") with value or
// constant arguments — the overload is chosen by the frontend's schema matching (frontend/
// schema_matching.h) against the operator registry, exactly as a call in TorchScript source would be —
// builds lists and tuples, unpacks them, calls TorchScript functions (prim::CallFunction) and methods
// (prim::CallMethod), reads module attributes (prim::GetAttr), registers outputs and finally wraps the
// graph as a free function (ScriptFunction) or as a method of a module's class.
//
// Errors: an operator with no matching overload raises kindling.jit.CompileError listing the variants
// (the frontend's message); a value handle from another builder, or a builder used after finish(),
// raises ValueError.
#pragma once
#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "ir/ir.h"

namespace kindling::python {

namespace py = pybind11;

/// A value of a builder's graph. `graph` keeps the graph alive; `value` is valid until the builder's
/// dead-code elimination removes its node (only done by finish()).
struct GraphValueHandle {
  std::shared_ptr<Graph> graph;
  Value* value;
};

/// Defines GraphBuilder and GraphValue in module `m`.
void initGraphBuilderBindings(py::module_& m);

}  // namespace kindling::python
