// Building TorchScript module classes and objects from live Python nn.Modules: the C++ half of
// torch/jit/_recursive.py's ConcreteModuleType → ClassType → RecursiveScriptModule (used by
// kindling.jit.script for nn.Module instances and by kindling.jit.trace for traced modules).
//
// A ModuleTypeHandle is one module class under construction in the Python compilation unit
// (pythonCompilationUnit()):
//   - created with the Python class's qualified name "__torch__.<python module>.<Class>"; when that name
//     is taken (another concrete type of the same Python class, e.g. different constants or submodule
//     types) it is mangled as torch's NameMangler does: "__torch__.m.___torch_mangle_<N>.Class";
//   - attributes are added in torch's order by the caller (parameters, buffers, other attributes, then
//     submodules), each with its TorchScript type (an annotation string parsed as TorchScript reads
//     annotations, or a submodule's class) and parameter/buffer flags; constants carry their value;
//   - a container kind marks ModuleList/Sequential/ModuleDict/ParameterList/ParameterDict classes so
//     compiled code can iterate, len() and index them (frontend: moduleContainerOf);
//   - methods are compiled from Python source (one `def` each, its file name and first line kept so
//     errors point at the user's file) with `self` typed as the class.
// createModuleObject then makes the object: every slot set from a Python value converted to the slot's
// type (tensors shared with the Python model through the DLPack bridge, no copies; submodule slots take
// objects created before).
//
// Errors: py::value_error for a duplicate attribute or unknown container kind; kindling::CompileError
// (translated to kindling.jit.CompileError) for a bad annotation or method source; py::type_error
// naming the attribute for a value that does not fit its type.
#pragma once
#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "core/type.h"
#include "frontend/ir_emitter.h"
#include "runtime/compilation_unit.h"
#include "script_compiler.h"

namespace kindling::python {

namespace py = pybind11;

/// A module class being built (or built) in `cu`.
struct ModuleTypeHandle {
  ClassTypePtr type;
  std::shared_ptr<CompilationUnit> cu;
};

/// A new module class named `qualName` (mangled with ___torch_mangle_<N> when the name is taken).
ModuleTypeHandle createModuleType(const std::string& qualName);

/// Parses a TorchScript annotation string ("Tensor", "List[int]", "Optional[Tuple[int, str]]",
/// "__torch__.m.Cls") against the types of `cu`. Throws CompileError ("Unknown type name ...").
TypePtr parseAnnotation(const std::string& annotation, const std::shared_ptr<CompilationUnit>& cu);

/// Compiles one method of `type` from `source` (the dedented text of a single `def`, decorators removed;
/// `filename` and `firstLine` say where it came from) and emits its body now. `resolver` resolves the free
/// names of the body (a PythonResolver over the method's globals and closure); null resolves only
/// TorchScript's builtins. `unused` replaces the body by a raise (@torch.jit.unused); `defaults` (by
/// parameter name, from the live function) replace the source's default expressions. A method the class
/// already has is returned as it is. `signature` (when its text is set): an overload declaration whose
/// def gives the method's name and signature (script_compiler.h's CompileFunctionOptions::signature).
/// Throws CompileError at the user's file and line.
Function* defineModuleMethod(const ModuleTypeHandle& type, const std::string& source, const std::string& filename,
                             size_t firstLine, const std::shared_ptr<Resolver>& resolver, bool unused,
                             const py::dict& defaults, const PythonSource& signature = {});

/// Creates an object of `type`, each attribute slot converted from values[name] (a dict); attributes
/// missing from `values` are an error naming them.
py::object createModuleObject(const ModuleTypeHandle& type, const py::dict& values);

/// Defines ModuleType, create_module_type, create_module_object in `m`.
void initModuleBuilderBindings(py::module_& m);

}  // namespace kindling::python
