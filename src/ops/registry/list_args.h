// int[] and Tensor[] values for composite kernels: the list arguments they pass to other operators through
// OpHandle (op_call.h), and list results (broadcast_tensors). A list IValue carries its element type.
#pragma once
#include <vector>

#include "core/ivalue.h"
#include "core/type.h"
#include "tensor/tensor.h"

namespace kindling {

/// An int[] value.
inline IValue intListIValue(const IntArray& v) {
  std::vector<IValue> e(v.begin(), v.end());
  return IValue(makeIntrusive<ListValue>(IntType(), std::move(e)));
}

/// A Tensor[] value.
inline IValue tensorListIValue(const std::vector<Tensor>& ts) {
  std::vector<IValue> e(ts.begin(), ts.end());
  return IValue(makeIntrusive<ListValue>(TensorType(), std::move(e)));
}

}  // namespace kindling
