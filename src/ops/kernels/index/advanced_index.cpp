// Advanced-indexing operands (see advanced_index.h).
#include "ops/kernels/index/advanced_index.h"

#include "core/error.h"
#include "tensor/type_promotion.h"

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

IndexedOffsets indexedOffsets(const Tensor& self, const std::vector<IValue>& indices) {
  IndexedOffsets r;
  IntArray& outShape = r.shape;
  std::vector<Tensor> idx = indexTensorsPerDim(self, indices);
  std::vector<const IntArray*> shapes;
  std::vector<int64_t> indexed;
  for (int64_t k = 0; k < self.dim(); ++k)
    if (idx[k].defined()) {
      shapes.push_back(&idx[k].sizes());
      indexed.push_back(k);
    }
  IntArray bshape = indexed.empty() ? IntArray{} : inferSizeN(shapes);
  std::vector<Tensor> bidx;
  for (int64_t k : indexed) bidx.push_back(idx[k].expand(bshape).contiguous());
  bool adjacent = true;
  for (size_t i = 1; i < indexed.size(); ++i) adjacent = adjacent && indexed[i] == indexed[i - 1] + 1;
  IntArray before, after;
  for (int64_t k = 0; k < self.dim(); ++k) {
    if (idx[k].defined()) continue;
    if (adjacent && !indexed.empty() && k < indexed.front()) before.push_back(k);
    else after.push_back(k);
  }
  outShape.clear();
  for (int64_t k : before) outShape.push_back(self.sizes()[k]);
  if (!indexed.empty()) outShape.insert(outShape.end(), bshape.begin(), bshape.end());
  for (int64_t k : after) outShape.push_back(self.sizes()[k]);
  int64_t total = 1;
  for (int64_t x : outShape) total *= x;
  std::vector<int64_t>& offsets = r.offsets;
  offsets.reserve(static_cast<size_t>(total));
  r.anyIndexed = !indexed.empty();
  const int64_t nb = indexed.empty() ? 0 : static_cast<int64_t>(bshape.size());
  IntArray pos(outShape.size(), 0);
  for (int64_t e = 0; e < total; ++e) {
    int64_t off = 0;
    size_t p = 0;
    for (int64_t k : before) off += pos[p++] * self.strides()[k];
    int64_t flat = 0;
    for (int64_t j = 0; j < nb; ++j) flat = flat * bshape[j] + pos[p++];
    for (size_t j = 0; j < indexed.size(); ++j) {
      const int64_t k = indexed[j];
      int64_t v = bidx[j].data_ptr<int64_t>()[flat];
      const int64_t n = self.sizes()[k];
      KD_CHECK_INDEX(v >= -n && v < n, "index {} is out of bounds for dimension {} with size {}", v, k, n);
      if (v < 0) v += n;
      off += v * self.strides()[k];
    }
    for (int64_t k : after) off += pos[p++] * self.strides()[k];
    offsets.push_back(off);
    for (int64_t k = static_cast<int64_t>(outShape.size()) - 1; k >= 0; --k) {
      if (++pos[k] < outShape[k]) break;
      pos[k] = 0;
    }
  }
  return r;
}

}  // namespace kindling
