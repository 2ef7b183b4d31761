// index_put_ / index_put: x[indices] = values (and `+=` with accumulate=True), the kernel behind
// TorchScript assignments whose subscript holds a tensor, a boolean mask or a list of ints
// (`x[mask] = 0`, `x[idx] = v`, `x[:, idx] += 1`). Semantics of ATen's index_put_:
//   - indices is one optional tensor per leading dim of self (None: the whole dim); boolean / byte
//     masks stand for the positions of their true elements (one long index per masked dim);
//   - the index tensors broadcast together; the indexed positions are those of `self[indices]`
//     (adjacent indexed dims stay in place, separated ones move to the front);
//   - values (cast to self's dtype) broadcast to the shape of self[indices]; positions written twice
//     keep the last value, or sum with accumulate=True.
// Registered from registerTensorPrimOps (tensor_prim.cpp) with PyTorch 1.13's schemas.
#include <cstring>

#include "ops/kernels/index/advanced_index.h"
#include "ops/registry/kernel_args.h"
#include "ops/registry/operator.h"
#include "tensor/type_promotion.h"

namespace kindling {

namespace {

template <class T>
void accumulateInto(char* dst, const char* src, const std::vector<int64_t>& offsets) {
  T* d = reinterpret_cast<T*>(dst);
  const T* v = reinterpret_cast<const T*>(src);
  for (size_t e = 0; e < offsets.size(); ++e) d[offsets[e]] = static_cast<T>(d[offsets[e]] + v[e]);
}

void indexPutInPlace(Tensor& self, const std::vector<IValue>& indices, const Tensor& values, bool accumulate) {
  const IndexedOffsets pos = indexedOffsets(self, indices);
  const IntArray& outShape = pos.shape;
  const std::vector<int64_t>& offsets = pos.offsets;
  // values broadcast to the indexed shape (ATen: "shape mismatch: value tensor of shape [..] cannot be
  // broadcast to indexing result of shape [..]")
  bool ok = values.dim() <= static_cast<int64_t>(outShape.size());
  for (int64_t i = 0; ok && i < values.dim(); ++i) {
    int64_t vs = values.sizes()[values.dim() - 1 - i], os = outShape[outShape.size() - 1 - i];
    ok = vs == os || vs == 1;
  }
  KD_CHECK(ok, "shape mismatch: value tensor of shape {} cannot be broadcast to indexing result of shape {}",
           values.sizesStr(), Tensor::empty(outShape, ScalarType::Bool).sizesStr());
  if (offsets.empty()) return;
  const Tensor v = values.to(self.dtype()).expand(outShape).contiguous();
  char* dst = static_cast<char*>(self.data_ptr());
  const char* src = static_cast<const char*>(v.data_ptr());
  const size_t es = self.element_size();
  if (!accumulate) {
    for (size_t e = 0; e < offsets.size(); ++e) std::memcpy(dst + offsets[e] * es, src + e * es, es);
    return;
  }
  switch (self.dtype()) {
    case ScalarType::Float: accumulateInto<float>(dst, src, offsets); break;
    case ScalarType::Double: accumulateInto<double>(dst, src, offsets); break;
    case ScalarType::Long: accumulateInto<int64_t>(dst, src, offsets); break;
    case ScalarType::Int: accumulateInto<int32_t>(dst, src, offsets); break;
    case ScalarType::Short: accumulateInto<int16_t>(dst, src, offsets); break;
    case ScalarType::Char: accumulateInto<int8_t>(dst, src, offsets); break;
    case ScalarType::Byte: accumulateInto<uint8_t>(dst, src, offsets); break;
    case ScalarType::Bool: accumulateInto<bool>(dst, src, offsets); break;  // a sum of bools: logical or
    default: KD_CHECK(false, "index_put_ with accumulate=True is not implemented for {}", scalarTypeName(self.dtype()));
  }
}

void indexPut_(Stack& s) {  // (self, indices, values, accumulate) -> self
  Args a(s, 4);
  Tensor self = a.tensor(0);
  indexPutInPlace(self, a[1].toListRef().elements, a.tensor(2), a.toBool(3));
  a.ret(std::move(self));
}

void indexPut(Stack& s) {  // out-of-place: a copy of self with the values put
  Args a(s, 4);
  Tensor out = a.tensor(0).to(a.tensor(0).dtype(), /*copy=*/true);
  indexPutInPlace(out, a[1].toListRef().elements, a.tensor(2), a.toBool(3));
  a.ret(std::move(out));
}

}  // namespace

void registerIndexPutOps(OperatorRegistry& r) {
  r.add("aten::index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor(a!)", indexPut_);
  r.add("aten::index_put_.hacked_twin(Tensor(a!) self, Tensor[] indices, Tensor values, bool accumulate=False) -> Tensor(a!)", indexPut_);
  r.add("aten::index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor", indexPut);
  r.add("aten::index_put.hacked_twin(Tensor self, Tensor[] indices, Tensor values, bool accumulate=False) -> Tensor", indexPut);
}

}  // namespace kindling
