// DLPack bridge between torch and Kindling tensors. See tensor_bridge.h.
#include "tensor_bridge.h"

#include <dlpack/dlpack.h>

#include <array>
#include <string>
#include <vector>

namespace kindling::python {

namespace {

// Borrowed for the life of the process (torch is never unloaded once imported).
PyObject* gToDlpack = nullptr;        // torch._C._to_dlpack
PyObject* gFromDlpack = nullptr;      // torch._C._from_dlpack
PyObject* gTensorBase = nullptr;      // torch._C._TensorBase
PyObject* gDtypeType = nullptr;       // torch.dtype
PyObject* gViewName = nullptr;        // "view"

struct DtypeEntry {
  const char* torchName;
  ScalarType type;
};
constexpr std::array<DtypeEntry, 16> kDtypes = {{
    {"uint8", ScalarType::Byte}, {"int8", ScalarType::Char}, {"int16", ScalarType::Short},
    {"int32", ScalarType::Int}, {"int64", ScalarType::Long}, {"float16", ScalarType::Half},
    {"float32", ScalarType::Float}, {"float64", ScalarType::Double}, {"complex32", ScalarType::ComplexHalf},
    {"complex64", ScalarType::ComplexFloat}, {"complex128", ScalarType::ComplexDouble}, {"bool", ScalarType::Bool},
    {"qint8", ScalarType::QInt8}, {"quint8", ScalarType::QUInt8}, {"qint32", ScalarType::QInt32},
    {"bfloat16", ScalarType::BFloat16},
}};
// torch.dtype objects indexed by ScalarType (borrowed references kept alive by the torch module).
std::array<PyObject*, 16> gDtypeObjects{};

ScalarType fromDLDataType(const DLDataType& t) {
  if (t.lanes != 1) throw py::type_error("Kindling cannot take a vector-typed DLPack tensor (lanes != 1)");
  switch (t.code) {
    case kDLInt:
      switch (t.bits) {
        case 8: return ScalarType::Char;
        case 16: return ScalarType::Short;
        case 32: return ScalarType::Int;
        case 64: return ScalarType::Long;
      }
      break;
    case kDLUInt:
      if (t.bits == 8) return ScalarType::Byte;
      break;
    case kDLFloat:
      switch (t.bits) {
        case 16: return ScalarType::Half;
        case 32: return ScalarType::Float;
        case 64: return ScalarType::Double;
      }
      break;
    case kDLBfloat:
      if (t.bits == 16) return ScalarType::BFloat16;
      break;
    case kDLComplex:
      switch (t.bits) {
        case 64: return ScalarType::ComplexFloat;
        case 128: return ScalarType::ComplexDouble;
      }
      break;
  }
  throw py::type_error("Kindling has no dtype for DLPack type code " + std::to_string(t.code) + " with " +
                       std::to_string(t.bits) + " bits");
}

DLDataType toDLDataType(ScalarType t) {
  DLDataType d;
  d.lanes = 1;
  switch (t) {
    case ScalarType::Byte: d.code = kDLUInt; d.bits = 8; break;
    case ScalarType::Bool: d.code = kDLUInt; d.bits = 8; break;  // re-viewed as bool by the caller
    case ScalarType::Char: d.code = kDLInt; d.bits = 8; break;
    case ScalarType::Short: d.code = kDLInt; d.bits = 16; break;
    case ScalarType::Int: d.code = kDLInt; d.bits = 32; break;
    case ScalarType::Long: d.code = kDLInt; d.bits = 64; break;
    case ScalarType::Half: d.code = kDLFloat; d.bits = 16; break;
    case ScalarType::Float: d.code = kDLFloat; d.bits = 32; break;
    case ScalarType::Double: d.code = kDLFloat; d.bits = 64; break;
    case ScalarType::BFloat16: d.code = kDLBfloat; d.bits = 16; break;
    case ScalarType::ComplexFloat: d.code = kDLComplex; d.bits = 64; break;
    case ScalarType::ComplexDouble: d.code = kDLComplex; d.bits = 128; break;
    default:
      throw py::type_error(std::string("a Kindling tensor of dtype ") + scalarTypeName(t) +
                           " cannot be passed to torch through DLPack");
  }
  return d;
}

// A Kindling tensor lent to torch: the DLManagedTensor torch receives, and what keeps its memory alive.
struct LentTensor {
  DLManagedTensor managed;
  Tensor tensor;
  std::vector<int64_t> shape, strides;
};

void deleteLent(DLManagedTensor* m) { delete static_cast<LentTensor*>(m->manager_ctx); }

// A capsule torch never consumed (conversion failed) still owns the tensor.
void capsuleDestructor(PyObject* capsule) {
  if (!PyCapsule_IsValid(capsule, "dltensor")) return;  // consumed: renamed "used_dltensor"
  auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (m && m->deleter) m->deleter(m);
}

py::object callOne(PyObject* fn, PyObject* arg) {
  PyObject* r = PyObject_CallOneArg(fn, arg);
  if (!r) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(r);
}

}  // namespace

void initTensorBridge() {
  py::module_ torch = py::module_::import("torch");
  py::module_ torchC = py::module_::import("torch._C");
  gToDlpack = py::object(torchC.attr("_to_dlpack")).release().ptr();
  gFromDlpack = py::object(torchC.attr("_from_dlpack")).release().ptr();
  gTensorBase = py::object(torchC.attr("_TensorBase")).release().ptr();
  gDtypeType = py::object(torch.attr("dtype")).release().ptr();
  gViewName = PyUnicode_InternFromString("view");
  for (const DtypeEntry& e : kDtypes)
    gDtypeObjects[static_cast<size_t>(e.type)] = py::object(torch.attr(e.torchName)).release().ptr();
}

bool isTorchTensor(py::handle obj) { return PyObject_TypeCheck(obj.ptr(), reinterpret_cast<PyTypeObject*>(gTensorBase)); }

bool isTorchDtype(py::handle obj) { return Py_TYPE(obj.ptr()) == reinterpret_cast<PyTypeObject*>(gDtypeType); }

ScalarType scalarTypeFromTorch(py::handle dtype) {
  for (size_t i = 0; i < gDtypeObjects.size(); ++i)
    if (gDtypeObjects[i] == dtype.ptr()) return static_cast<ScalarType>(i);
  throw py::type_error("expected a torch.dtype, got " + std::string(py::str(py::type::handle_of(dtype))));
}

py::object torchDtype(ScalarType t) {
  auto i = static_cast<size_t>(t);
  if (i >= gDtypeObjects.size() || !gDtypeObjects[i]) throw py::type_error("no torch dtype for this Kindling dtype");
  return py::reinterpret_borrow<py::object>(gDtypeObjects[i]);
}

Tensor tensorFromTorch(py::handle obj) {
  if (!isTorchTensor(obj))
    throw py::type_error("expected a torch.Tensor, got " + std::string(py::str(py::type::handle_of(obj))));
  py::object src = py::reinterpret_borrow<py::object>(obj);
  bool isBool = false;
  py::object dtype = src.attr("dtype");
  if (dtype.ptr() == gDtypeObjects[static_cast<size_t>(ScalarType::Bool)]) {
    isBool = true;
    src = src.attr(gViewName)(torchDtype(ScalarType::Byte));
  }
  py::object capsule = callOne(gToDlpack, src.ptr());
  auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
  if (!m) throw py::error_already_set();
  // From here on the DLManagedTensor is ours: the capsule is marked consumed, the storage deletes it.
  if (PyCapsule_SetName(capsule.ptr(), "used_dltensor") != 0) throw py::error_already_set();
  const DLTensor& dl = m->dl_tensor;
  auto release = [m](void*) { if (m->deleter) m->deleter(m); };
  if (dl.device.device_type != kDLCPU) {
    release(nullptr);
    throw py::type_error("Kindling runs on the CPU only: move the tensor to the CPU first (tensor.cpu())");
  }
  ScalarType st;
  try {
    st = isBool ? ScalarType::Bool : fromDLDataType(dl.dtype);
  } catch (...) {
    release(nullptr);
    throw;
  }
  IntArray sizes(dl.shape, dl.shape + dl.ndim);
  IntArray strides(dl.ndim);
  if (dl.strides) {
    strides.assign(dl.strides, dl.strides + dl.ndim);
  } else {
    int64_t s = 1;
    for (int i = dl.ndim - 1; i >= 0; --i) {
      strides[i] = s;
      s *= sizes[i];
    }
  }
  // Bytes spanned by the view (the storage Kindling sees starts at the first element).
  size_t elem = elementSize(st);
  size_t nbytes = 0;
  bool empty = false;
  for (int i = 0; i < dl.ndim; ++i) empty |= sizes[i] == 0;
  if (!empty) {
    int64_t last = 0;
    for (int i = 0; i < dl.ndim; ++i) last += (sizes[i] - 1) * strides[i];
    nbytes = static_cast<size_t>(last + 1) * elem;
  }
  void* data = static_cast<char*>(dl.data) + dl.byte_offset;
  Storage storage = makeIntrusive<StorageImpl>(data, nbytes, release);
  return Tensor::fromStorage(std::move(storage), st, std::move(sizes), std::move(strides), 0);
}

py::object tensorToTorch(const Tensor& t) {
  if (!t.defined()) return py::none();
  auto lent = std::make_unique<LentTensor>();
  lent->tensor = t;
  lent->shape = t.sizes();
  lent->strides = t.strides();
  DLTensor& dl = lent->managed.dl_tensor;
  dl.data = t.numel() == 0 && !t.storage()->data() ? nullptr : t.data_ptr();
  dl.device = DLDevice{kDLCPU, 0};
  dl.ndim = static_cast<int>(t.dim());
  dl.dtype = toDLDataType(t.dtype());
  dl.shape = lent->shape.data();
  dl.strides = lent->strides.data();
  dl.byte_offset = 0;
  lent->managed.manager_ctx = lent.get();
  lent->managed.deleter = deleteLent;
  PyObject* cap = PyCapsule_New(&lent->managed, "dltensor", capsuleDestructor);
  if (!cap) throw py::error_already_set();
  lent.release();  // owned by the capsule until torch consumes it
  py::object capsule = py::reinterpret_steal<py::object>(cap);
  py::object result = callOne(gFromDlpack, capsule.ptr());
  if (t.dtype() == ScalarType::Bool) result = result.attr(gViewName)(torchDtype(ScalarType::Bool));
  return result;
}

}  // namespace kindling::python
