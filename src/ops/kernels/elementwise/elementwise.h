// Elementwise kernels as C++ functions (the boxed aten:: kernels in elementwise.cpp / activation.cpp wrap
// them). All follow PyTorch 1.13: broadcasting, result_type promotion (a Scalar `other` is a wrapped number),
// in-place variants write into `self` and fail when the result type cannot be cast to it
// ("result type Float can't be cast to the desired output type Long").
//
// Helpers unaryOp / binaryOp build a TensorIterator and run a scalar lambda for each loop dtype; they are
// what a new elementwise kernel should use.
#pragma once
#include <optional>
#include <string>

#include "tensor/tensor.h"
#include "tensor/tensor_iterator.h"

namespace kindling {

/// A Tensor or a Python scalar operand.
struct Operand {
  Tensor t;
  Scalar s;
  bool isScalar = false;
  Operand(const Tensor& x) : t(x) {}
  Operand(const Scalar& x) : s(x), isScalar(true) {}
};

/// Configures `it` with output `out` (undefined → allocated) and inputs, then builds it.
inline void addOperand(TensorIterator& it, const Operand& o) {
  if (o.isScalar) it.addInput(o.s);
  else it.addInput(o.t);
}

/// out = self + alpha * other (and sub with alpha negated / rsub).
Tensor add(const Tensor& self, const Operand& other, const Scalar& alpha = Scalar(int64_t(1)), const Tensor& out = Tensor());
Tensor sub(const Tensor& self, const Operand& other, const Scalar& alpha = Scalar(int64_t(1)), const Tensor& out = Tensor());
Tensor mul(const Tensor& self, const Operand& other, const Tensor& out = Tensor());
/// roundingMode: nullopt (true division), "trunc", "floor".
Tensor div(const Tensor& self, const Operand& other, const std::optional<std::string>& roundingMode = std::nullopt,
           const Tensor& out = Tensor());

/// Clamp with optional bounds (NaN propagates); at least one bound required.
Tensor clamp(const Tensor& self, const std::optional<Scalar>& lo, const std::optional<Scalar>& hi,
             const Tensor& out = Tensor());

}  // namespace kindling
