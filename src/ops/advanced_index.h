// Advanced-indexing operands as ATen prepares them for aten::index and aten::index_put_: the `indices`
// list (one optional tensor per leading dim of self) turned into one long index tensor or an undefined
// tensor (the whole dim) per dim of self. Shared by ops/index.cpp and ops/index_put.cpp.
#pragma once
#include <vector>

#include "core/ivalue.h"
#include "tensor/tensor.h"

namespace kindling {

/// Returns self.dim() tensors: None entries and dims past the list are undefined (a full slice); a
/// boolean or byte mask covering k dims becomes k long tensors with the positions of its true elements
/// (row-major); integer index tensors are converted to long.
/// Throws IndexError (KD_CHECK_INDEX) for too many indices, a mask whose shape does not match the dims it
/// covers, or an index tensor that is not integral or boolean (PyTorch's messages).
std::vector<Tensor> indexTensorsPerDim(const Tensor& self, const std::vector<IValue>& indices);

}  // namespace kindling
