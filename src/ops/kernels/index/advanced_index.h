// Advanced-indexing operands as ATen prepares them for aten::index and aten::index_put_: the `indices`
// list (one optional tensor per leading dim of self) turned into one long index tensor or an undefined
// tensor (the whole dim) per dim of self, and the element offsets self[indices] reads or writes. Shared by
// index.cpp and index_put.cpp.
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

/// self[indices] as positions: the result's shape and, in its row-major order, each element's offset into
/// `self` (in elements, from self's data pointer). Indexed dims broadcast together; adjacent ones stay in
/// place, separated ones move to the front (NumPy's rule, as ATen). anyIndexed is false when every entry
/// is None (the result is then self's shape). Throws IndexError for an index out of bounds.
struct IndexedOffsets {
  IntArray shape;
  std::vector<int64_t> offsets;
  bool anyIndexed = false;
};
IndexedOffsets indexedOffsets(const Tensor& self, const std::vector<IValue>& indices);

}  // namespace kindling
