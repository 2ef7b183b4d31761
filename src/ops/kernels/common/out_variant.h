// The `out=` contract of PyTorch's *.out operator overloads, shared by the kernels that register them:
// the memory-overlap checks of ATen/MemoryOverlap.cpp, the resize of at::native::resize_output, and the
// dtype rule of structured kernels. An out kernel typically computes the functional result, checks, then
// writes it into `out` (which is also its return value, the same TensorImpl as the caller's tensor).
#pragma once
#include "tensor/tensor.h"

namespace kindling {

/// The C++ type name PyTorch's messages print for a dtype (caffe2::TypeMeta: "float", "long int", ...).
const char* typeMetaName(ScalarType t);

/// at::assert_no_internal_overlap: throws when two elements of `t` share one memory location (a dim of
/// size > 1 with stride 0, as expand() makes).
void assertNoInternalOverlap(const Tensor& t);
/// at::assert_no_overlap: throws when `out` and `input` share any memory (fully or partially).
void assertNoOverlap(const Tensor& out, const Tensor& input);
/// at::assert_no_partial_overlap: throws when they share some memory but are not the same view.
void assertNoPartialOverlap(const Tensor& out, const Tensor& input);

/// at::native::resize_output: when out's shape differs from `shape`, out becomes a contiguous tensor of
/// that shape at its storage offset, its storage grown when too small (PyTorch also warns when a
/// non-empty out is resized; Kindling does not).
void resizeOutput(const Tensor& out, const IntArray& shape);

/// Structured kernels' out check: "Expected out tensor to have dtype float, but got double instead".
void checkOutDtype(const Tensor& out, ScalarType expected);

/// resizeOutput(out, result.sizes()) then out.copy_(result) (dtype conversion included).
void writeOut(const Tensor& out, const Tensor& result);

}  // namespace kindling
