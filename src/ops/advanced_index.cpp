// Advanced-indexing operands (see ops/advanced_index.h).
#include "ops/advanced_index.h"

#include "core/error.h"

namespace kindling {

std::vector<Tensor> indexTensorsPerDim(const Tensor& self, const std::vector<IValue>& indices) {
  KD_CHECK_INDEX(static_cast<int64_t>(indices.size()) <= self.dim(), "too many indices for tensor of dimension {} (got {})",
                 self.dim(), indices.size());
  std::vector<Tensor> idx;  // one per self dim (undefined: whole dim)
  for (const auto& v : indices) {
    if (v.isNone()) {
      idx.emplace_back();
      continue;
    }
    const Tensor t = v.toTensor();
    if (t.dtype() == ScalarType::Bool || t.dtype() == ScalarType::Byte) {
      const int64_t first = static_cast<int64_t>(idx.size());
      KD_CHECK_INDEX(first + t.dim() <= self.dim(), "too many indices for tensor of dimension {} (got {})", self.dim(),
                     first + t.dim());
      for (int64_t k = 0; k < t.dim(); ++k)
        KD_CHECK_INDEX(t.sizes()[k] == self.sizes()[first + k],
                       "The shape of the mask {} at index {} does not match the shape of the indexed tensor {} at index {}",
                       t.sizesStr(), k, self.sizesStr(), first + k);
      const Tensor m = t.to(ScalarType::Bool).contiguous();
      std::vector<std::vector<int64_t>> pos(t.dim());
      IntArray p(t.dim(), 0);
      for (int64_t e = 0; e < m.numel(); ++e) {
        if (m.data_ptr<bool>()[e])
          for (int64_t k = 0; k < t.dim(); ++k) pos[k].push_back(p[k]);
        for (int64_t k = t.dim() - 1; k >= 0; --k) {
          if (++p[k] < t.sizes()[k]) break;
          p[k] = 0;
        }
      }
      for (int64_t k = 0; k < t.dim(); ++k) idx.push_back(Tensor::fromVector<int64_t>(pos[k], ScalarType::Long));
    } else {
      KD_CHECK_INDEX(isIntegralType(t.dtype(), false), "tensors used as indices must be long, int, byte or bool tensors");
      idx.push_back(t.to(ScalarType::Long));
    }
  }
  KD_CHECK_INDEX(static_cast<int64_t>(idx.size()) <= self.dim(), "too many indices for tensor of dimension {} (got {})",
                 self.dim(), idx.size());
  while (static_cast<int64_t>(idx.size()) < self.dim()) idx.emplace_back();
  return idx;
}

}  // namespace kindling
