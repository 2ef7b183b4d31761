// Torch tensors <-> Kindling tensors without copying, through DLPack 0.6 (what torch 1.13's
// torch.utils.dlpack speaks: torch._C._to_dlpack / torch._C._from_dlpack). A tensor passed in shares
// memory with the torch tensor it came from (the Kindling storage keeps torch's DLPack handle alive and
// releases it when the last Kindling view dies); a tensor passed out is a torch tensor viewing Kindling's
// storage (torch's deleter drops the Kindling reference).
//
// DLPack 0.6 has no bool type: bool tensors travel as uint8 views of the same bytes (torch's
// Tensor.view(dtype) reinterprets them). Tensors that require grad are passed through their data (the
// same memory: Kindling runs inference only, so results never require grad).
#pragma once
#include <pybind11/pybind11.h>

#include "tensor/tensor.h"

namespace kindling::python {

namespace py = pybind11;

/// Looks up torch's DLPack entry points and tensor types once (called from the module init).
void initTensorBridge();

/// True for torch.Tensor (and subclasses such as nn.Parameter).
bool isTorchTensor(py::handle obj);

/// The Kindling tensor viewing `obj`'s memory. Throws py::type_error for non-CPU tensors and dtypes
/// Kindling does not have (complex32, quantized), py::type_error when obj is not a tensor.
Tensor tensorFromTorch(py::handle obj);

/// A torch tensor viewing `t`'s memory (sizes, strides and dtype kept). An undefined tensor is None.
py::object tensorToTorch(const Tensor& t);

/// torch.<dtype> <-> ScalarType (torch.float32 <-> Float, ...). Throws py::type_error for a non-dtype.
ScalarType scalarTypeFromTorch(py::handle dtype);
py::object torchDtype(ScalarType t);
bool isTorchDtype(py::handle obj);

}  // namespace kindling::python
