// Python values <-> IValues, as torch's pybind_utils (toIValue / toPyObject) does it for TorchScript
// calls from Python:
//   - into TorchScript, a value is converted to the type the schema declares (toIValue): Tensor from a
//     torch tensor (no copy), int from int (bool is an int in Python), float from float or int, bool,
//     str, None, Optional[T], Union, List/Tuple/Dict element-wise, NamedTuple from a tuple, Enum from a
//     Python Enum member, Device from torch.device or str, ScalarType/Layout/MemoryFormat from torch's
//     objects (as ints), class instances from ScriptObjects/ScriptModules, Any and Number by inference;
//   - back to Python (toPyObject): tensors as torch tensors sharing Kindling's memory, tuples, lists,
//     dicts, NamedTuples as Python namedtuple instances (the registered Python class when the type was
//     scripted from one), Enums as their Python members when registered, devices as torch.device,
//     objects as ScriptObject / ScriptModule wrappers.
// Conversion errors are py::type_error with the expected and found types.
#pragma once
#include <pybind11/pybind11.h>

#include <string>

#include "core/ivalue.h"
#include "core/type.h"
#include "runtime/module.h"

namespace kindling::python {

namespace py = pybind11;

/// Converts `obj` to a value of `type`. Throws py::type_error (message: "expected a value of type 'T'
/// but found 'U'") when it does not fit.
IValue toIValue(py::handle obj, const TypePtr& type);

/// The TorchScript type of a Python value (tryToInferType): Tensor, None, bool, int, float, str, device,
/// dtype (int), lists/tuples/dicts by unifying element types, NamedTuples, Enums and script objects.
/// Returns nullptr and sets `why` when it cannot be inferred (empty list or dict, mixed element types,
/// unsupported Python types).
TypePtr inferType(py::handle obj, std::string* why = nullptr);

/// Converts by inference (toIValue with the inferred type). Throws py::type_error.
IValue toIValueInferred(py::handle obj);

/// Converts a value back to Python. `cu` is the compilation unit owning the classes of the objects the
/// value holds (it is kept alive by their wrappers).
py::object toPyObject(IValue v, const std::shared_ptr<CompilationUnit>& cu);

/// A Module handle for a TorchScript object (what ScriptObject / ScriptModule wrap on the C++ side).
/// The CompilationUnit owning its class may be shared with other objects.
struct ObjectHandle {
  Module module;
};

/// The Python object for a TorchScript object: for a module, the factory registered by kindling.jit
/// (_set_module_wrapper) builds a kindling.jit.ScriptModule around the ObjectHandle; an object of a class
/// compiled from a Python class is a new instance of that class (made with `cls.__new__`, __init__ not
/// run) holding the object's attributes converted, as torch's toPyObject makes it; any other object (a
/// class of a loaded archive) is a ScriptObject.
py::object wrapObject(const IValue& objectValue, const std::shared_ptr<CompilationUnit>& cu);

/// Registers the Python factory for module objects, and the Python classes of scripted classes,
/// NamedTuples and Enums (by qualified name) so values convert back to them.
void setModuleWrapper(py::object factory);
void registerPythonClass(const std::string& qualName, py::object cls);
py::object findPythonClass(const std::string& qualName);
/// The TorchScript type compiled from a Python class (NamedTuple, Enum), for converting its instances.
void registerTypeOfPythonClass(py::handle cls, TypePtr type);

/// The compilation unit that TorchScript classes and objects created from Python belong to.
std::shared_ptr<CompilationUnit> pythonCompilationUnit();

}  // namespace kindling::python
