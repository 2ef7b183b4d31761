// Type promotion and broadcasting as PyTorch 1.13 does them (ATen's TensorIterator / result_type):
//
//  * resultType: the dtype of an elementwise op over operands of three priority categories,
//      dim>0 tensors  >  0-dim tensors  >  "wrapped numbers" (Python scalars passed as Scalar).
//    A lower category only changes the result when it is of a higher kind (bool < integral < floating),
//    so int64 tensor + 2.5 → float32 (the default dtype), float32 tensor + float64 0-dim tensor → float32,
//    uint8 tensor + int64 0-dim tensor → uint8, int32 tensor + int64 tensor(dim>0) → int64.
//  * inferSize: the broadcast shape of two shapes, with PyTorch's error message.
#pragma once
#include <vector>

#include "core/scalar.h"
#include "core/scalar_type.h"
#include "tensor/tensor.h"

namespace kindling {

/// Accumulates operands for result_type (at::native::ResultTypeState).
struct ResultTypeState {
  ScalarType dimResult = ScalarType::Undefined;
  ScalarType zeroResult = ScalarType::Undefined;
  ScalarType wrappedResult = ScalarType::Undefined;

  /// A tensor operand; `wrappedNumber` marks a 0-dim tensor made from a Python scalar.
  void add(const Tensor& t, bool wrappedNumber = false);
  /// A tensor operand given only by dtype and rank.
  void add(ScalarType dtype, int64_t dim, bool wrappedNumber = false);
  /// A Python-scalar operand (always a wrapped number: a float Scalar counts as the default dtype float32).
  void add(const Scalar& s);
  /// The combined result dtype (Undefined when nothing was added).
  ScalarType result() const;
};

/// The dtype PyTorch uses for a Scalar turned into a tensor (torch.tensor(3) → Long, 3.5 → Double for the
/// wrapped value; bool → Bool).
ScalarType scalarTypeOfScalar(const Scalar& s);

/// torch.result_type for two tensors / tensor and scalar.
ScalarType resultType(const Tensor& a, const Tensor& b);
ScalarType resultType(const Tensor& a, const Scalar& b);

/// c10::canCast: whether a value of type `from` may be written into `to` by an in-place/out op
/// (no floating → integral, no non-bool → bool).
bool canCast(ScalarType from, ScalarType to);

/// Broadcast shape of a and b. Throws RuntimeError:
///   "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"
IntArray inferSize(const IntArray& a, const IntArray& b);

/// Same as inferSize for any number of shapes (left-folded).
IntArray inferSizeN(const std::vector<const IntArray*>& shapes);

/// Normalizes a possibly negative dim for a tensor of rank `ndim` (dims of 0-dim tensors accept -1 and 0).
/// Throws IndexError "Dimension out of range (expected to be in range of [-2, 1], but got 2)".
int64_t maybeWrapDim(int64_t dim, int64_t ndim, bool wrapScalar = true);

}  // namespace kindling
