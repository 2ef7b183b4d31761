// The frontend's Resolver over live Python objects, for compiling Python source with kindling.jit.script
// (torch/csrc/jit/python/python_sugared_value.cpp and script_init.cpp's PythonResolver).
//
// A name the compiled code does not define locally is looked up through a Python *resolution callback*
// (`rcb(name) -> object or None`, what torch.jit's createResolutionCallbackFromClosure builds: the
// function's globals, then its closure cells, then `typing` and `builtins`). The object found is then
// *classified* by the Python hook registered with `_C._set_object_classifier` (kindling/jit/_script.py's
// `_classify`), which may compile it on demand (a Python function called by compiled code, a class used
// as a type) and answers with a tuple the resolver turns into a SugaredValue:
//
//   ("constant", value)          None/bool/int/float/str/dtype/device or tuples of those: prim::Constant
//   ("function", ScriptFunction) a compiled function (kindling._C.ScriptFunction): prim::CallFunction
//   ("function_name", qualname)  a function of the Python compilation unit being compiled right now
//   ("overloads", [ScriptFunction, ...])  a function declared with @torch.jit._overload: its overloads,
//                                each compiled with the implementation's body; a call takes the first
//                                whose schema matches
//   ("type", qualname)           a class / NamedTuple / Enum type of the Python compilation unit
//   ("annotation", "List[int]")  a typing alias (resolveType only): parsed as an annotation
//   ("module_class", [qualname, ...], own_qualname)  an nn.Module subclass: as a type (isinstance), the
//                                module classes built from it and its subclasses (a Union of several); none:
//                                an unregistered module class named own_qualname, which no value has; as a
//                                value, its static methods and constants (`M.scale(x)`)
//   ("module", "torch", m)       a namespace the frontend knows: torch, math, torch.nn.functional, ...
//                                (m, the Python module, resolves what the frontend does not: submodules
//                                such as torch.overrides, special forms)
//   ("pymodule", module)         any other Python module: attribute access classifies getattr(module, x)
//   ("builtin", "torch", "relu") an attribute of a frontend namespace (`from torch import relu`)
//   ("special", "annotate")      annotate / isinstance / fork / wait / is_scripting / is_tracing / _unwrap_optional /
//                                has_torch_function (False) / _single, _pair, _triple, _quadruple
//                                (torch.nn.modules.utils: an int repeated into a list)
//   ("builtin_op", "aten::warn") a Python function torch maps to an operator (warnings.warn)
//   ("python_builtin", "len")    a Python builtin: handled by the emitter under its own name
//   ("ignored", name)            an @ignore'd function: calling it is a CompileError (it needs Python)
//   ("varargs_function", f)      a Python function taking *args and/or **kwargs: each call compiles (once
//                                per binding) f.specialize([annotation of each extra positional argument],
//                                [(name, annotation) of each keyword argument]) -> FunctionHandle, what *args
//                                and **kwargs bind known statically (frontend's VariadicBinding)
//   ("super", resolver)          the builtin `super` in a method (kindling/jit/_recursive.py's _Super):
//                                resolver.method_for(self_qualname, start_class_name, name) -> the name of
//                                the method of self's class running the base implementation of `name`
//   ("error", message)           a CompileError at the use ("python value of type 'X' cannot be used ...")
//   None                         not known to Python: the emitter's own names, then "undefined value x"
//
// Python exceptions raised by the callback or the hook become CompileErrors at the use's range; a
// CompileError raised while compiling a callee keeps its text and adds "'g' is being compiled since it was
// called from 'f'" with the call site, as torch does.
#pragma once
#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

#include "frontend/ir_emitter.h"
#include "runtime/compilation_unit.h"

namespace kindling::python {

namespace py = pybind11;

class PythonResolver : public Resolver, public std::enable_shared_from_this<PythonResolver> {
 public:
  /// `rcb`: name -> Python object or None. `cu`: where compiled functions and types live (the Python
  /// compilation unit). `owner`: the name of what is being compiled (for "called from 'f'" messages).
  PythonResolver(py::object rcb, std::shared_ptr<CompilationUnit> cu, std::string owner);
  ~PythonResolver() override;

  TypePtr resolveType(const std::string& name, const SourceRange& loc) override;
  Function* resolveFunction(const std::string& name, const SourceRange& loc) override;
  SugaredValuePtr resolveValue(const std::string& name, const SourceRange& loc) override;
  /// A method a module class built from Python does not have yet (`self.helper(x)`): the hook registered
  /// with `_C._set_method_compiler` (kindling/jit/_recursive.py's `_compile_method_on_demand(qualname,
  /// name) -> bool`) compiles it from the Python class into `cls`. Python exceptions become CompileErrors
  /// at the use ("'helper' is being compiled since it was called from 'forward'").
  Function* resolveMethod(const ClassType& cls, const std::string& name, const SourceRange& loc) override;
  /// A function attribute registered for `cls.name` with registerModuleFunctionAttribute, classified as
  /// any Python object the code names (compiled on first use).
  SugaredValuePtr resolveModuleAttribute(const ClassType& cls, const std::string& name, const SourceRange& loc) override;
  /// The overloads registered for `cls.name` with registerMethodOverloads (no Python call).
  std::vector<std::string> resolveMethodOverloads(const ClassType& cls, const std::string& name,
                                                  const SourceRange& loc) override;
  /// The base class `name` of a TorchScript class compiled from Python: the hook registered with
  /// `_C._set_class_definition_finder` (kindling/jit/_script.py's `_class_definition(rcb, name)`) gives
  /// its source, qualified name and resolution callback; nullptr when `name` is no such class.
  std::shared_ptr<const ClassDefinition> resolveClassDefinition(const std::string& name, const SourceRange& loc) override;

  /// The SugaredValue for a Python object found under `name` (nullptr: let the emitter resolve `name`).
  SugaredValuePtr objectToSugared(py::handle obj, const std::string& name, const SourceRange& loc);
  /// An attribute `obj` of a frontend namespace when Python must resolve it (a submodule, a special form,
  /// an @ignore'd function); nullptr lets the frontend's builtins resolve the name.
  SugaredValuePtr namespaceMember(py::handle obj, const std::string& name, const SourceRange& loc);
  /// The type a Python object denotes in an annotation (class, NamedTuple, Enum, typing alias), or nullptr.
  TypePtr objectToType(py::handle obj, const std::string& name, const SourceRange& loc);

  const std::shared_ptr<CompilationUnit>& compilationUnit() const { return cu_; }
  const std::string& owner() const { return owner_; }

 private:
  py::object lookup(const std::string& name, const SourceRange& loc);
  py::object classify(py::handle obj, const std::string& name, const SourceRange& loc);

  py::object rcb_;
  std::shared_ptr<CompilationUnit> cu_;
  std::string owner_;
};

/// Declares method `name` of the module class `cls` overloaded: calls of `name` choose among the methods
/// `overloadNames` of the class (in that order; Resolver::resolveMethodOverloads). Replaces an earlier
/// declaration. Throws py::value_error when `overloadNames` is empty.
void registerMethodOverloads(const ClassType& cls, const std::string& name, std::vector<std::string> overloadNames);

/// Declares `name` a function attribute of the module class `cls`: `self.name` in compiled code denotes
/// the Python function (or torch builtin) `fn` (torch's ConcreteModuleType add_function_attribute /
/// add_builtin_function); it is no slot of the class and archives never see it (their code calls the
/// function itself). Replaces an earlier declaration. Call with the GIL held.
void registerModuleFunctionAttribute(const ClassType& cls, const std::string& name, py::object fn);

/// Registers the on-demand method compiler (see PythonResolver::resolveMethod).
void setMethodCompiler(py::object compiler);

/// Registers the base class finder (see PythonResolver::resolveClassDefinition).
void setClassDefinitionFinder(py::object finder);

/// Registers the classification hook (kindling.jit._script._classify(obj) -> tuple or None).
void setObjectClassifier(py::object classifier);

/// Converts a Python exception being handled (from `e`) into a CompileError at `loc`: a Kindling
/// CompileError raised in Python keeps its text and gets `context` appended ("'g' is being compiled since
/// it was called from 'f'"); other exceptions are reported as "<context>: <ExceptionType>: <message>".
[[noreturn]] void rethrowAsCompileError(py::error_already_set& e, const std::string& context, const SourceRange& loc);

}  // namespace kindling::python
