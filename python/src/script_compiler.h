// Compiling Python source from a live program into TorchScript (torch.jit.script's C++ half:
// torch/csrc/jit/python/script_init.cpp `_jit_script_compile` / `_jit_script_class_compile`).
//
// How to compile from Python (the functions below, bound in kindling._C):
//
//   1. Get the source of one `def` or one `class` (kindling/jit/_sources.py: inspect.getsource, dedented,
//      the object's own decorators removed) with the file name and the 1-based line its first line has
//      in that file; errors then print `File "<file>", line <n>` and the `~~~ <--- HERE` excerpt there.
//   2. Build a resolution callback `rcb(name) -> object or None` over the function's globals and closure
//      (kindling/jit/_sources.py's resolution_callback). Names the source does not define are looked up
//      through it and classified by kindling/jit/_script.py's `_classify` (python_resolver.h), which
//      compiles called Python functions and used classes on demand.
//   3. Call, with the GIL held:
//        _C._compile_function(source, filename, line, qualname, rcb, defaults, unused=False, signature=None)
//            -> ScriptFunction (a FunctionHandle over the Python compilation unit)
//        _C._compile_class(source, filename, line, qualname, rcb, python_class)
//            -> qualified name of the class / NamedTuple / Enum type defined
//        _C._unique_name(qualname) -> qualname, or "<prefix>.___torch_mangle_<N>.<name>" when taken
//      In C++, compilePythonFunction / compilePythonClass below do the same for any CompilationUnit and
//      Resolver; a method of a class type (e.g. an nn.Module's forward) is compiled by passing
//      `selfType`: the `def` then becomes a method added to that ClassType, its first parameter typed as
//      `selfType`, `self.x` resolved from the type's attributes.
//
// Qualified names are torch's: "__torch__.<python module>.<name>" ("__torch__.<name>" for __main__).
// Everything compiled from Python lives in one compilation unit (pythonCompilationUnit(), as torch's
// get_python_cu()), so functions and classes compiled separately call each other.
#pragma once
#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <string>

#include "frontend/ir_emitter.h"
#include "runtime/compilation_unit.h"
#include "runtime/graph_function.h"

namespace kindling::python {

namespace py = pybind11;

/// Source text of one definition and where it is in the user's file (`startingLine`: 1-based line of the
/// text's first line).
struct PythonSource {
  std::string text;
  std::string filename;
  size_t startingLine = 1;
};

struct CompileFunctionOptions {
  /// Defaults by parameter name, from the live function (inspect.signature), used instead of the
  /// expressions in the source (which may name globals); converted to the parameter's declared type.
  py::dict defaults;
  /// @unused: only the signature is compiled; the body raises "This function has been marked unused".
  bool unused = false;
  /// An overload declaration (`@_overload_method def forward(self, x: Tensor) -> Tensor: ...`): when its
  /// text is set, the function takes this def's parameters, annotations, type comment and return type,
  /// the body of `source`, and the last component of its qualified name as its name (torch's
  /// _replace_overloaded_method_decl).
  PythonSource signature;
  /// What the call being compiled for binds to the def's `*args` / `**kwargs` (frontend's VariadicBinding;
  /// its `def` is set by compilePythonFunction). Without it, a def taking them is compiled as taking none.
  std::optional<VariadicBinding> variadic;
};

/// Compiles the single `def` of `source` as `qualName` (a method of `selfType` when set) into `cu`, names
/// resolved by `resolver`, and emits its body now so errors surface here. Throws CompileError (at the
/// user's file and line) for anything the frontend rejects, and when `source` is not exactly one `def`.
GraphFunction* compilePythonFunction(const std::shared_ptr<CompilationUnit>& cu, const PythonSource& source,
                                     const std::string& qualName, const std::shared_ptr<ClassType>& selfType,
                                     const std::shared_ptr<Resolver>& resolver, const CompileFunctionOptions& options);

/// Declares the @torch.jit.ignore'd method `def` of `source` on `selfType` (a module class of `cu`; null: a
/// free function, named "__torch__.<name>" and owned by the process): its
/// schema from the def's annotations (an unannotated return is a Tensor, as torch types ignored signatures),
/// its body the Python function `fn` (python_method.h). Throws CompileError for a bad annotation.
Function* definePythonMethod(const std::shared_ptr<CompilationUnit>& cu, const PythonSource& source,
                             const std::shared_ptr<ClassType>& selfType, const std::shared_ptr<Resolver>& resolver,
                             py::object fn);

/// The single `class` of `source` as the base of a TorchScript class (frontend/class_inheritance.h): its
/// methods are compiled as methods of derived classes of `cu`, with `resolver`; the class itself is not
/// compiled. Throws CompileError when `source` is not one class statement.
std::shared_ptr<const ClassDefinition> pythonClassDefinition(const std::shared_ptr<CompilationUnit>& cu,
                                                             const PythonSource& source, const std::string& qualName,
                                                             const std::shared_ptr<Resolver>& resolver);

/// Compiles the single `class` of `source` as `qualName` into `cu`: a TorchScript class (methods emitted
/// now), a NamedTuple (`class P(NamedTuple)`) or an Enum (`class C(Enum)`), as frontend/compiler.h's
/// defineClass. Returns the type. Throws CompileError.
TypePtr compilePythonClass(const std::shared_ptr<CompilationUnit>& cu, const PythonSource& source,
                           const std::string& qualName, const std::shared_ptr<Resolver>& resolver);

/// `qualName` if no function or type of `cu` has it, else torch's mangled form
/// "<prefix>.___torch_mangle_<N>.<name>" with the next free N.
std::string uniqueQualifiedName(const CompilationUnit& cu, const std::string& qualName);

/// "c" for "a.b.c".
std::string lastComponent(const std::string& qualName);

/// Defines _compile_function, _compile_class, _unique_name, _set_object_classifier in `m`.
void initScriptCompilerBindings(py::module_& m);

}  // namespace kindling::python
