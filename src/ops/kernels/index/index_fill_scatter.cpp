// Index-driven reads and writes composed as ATen 1.13 composes them:
//   take_along_dim(self, indices, dim=None): with dim, self and int64 indices of the same rank broadcast
//     against each other except along dim, then gather; without dim, gather over the flattened self
//     (self.view(-1): a tensor that cannot be viewed raises as view does).
//   index_fill(_)(self, dim, index, value): every slice self.select(dim, i) for i in the int64 vector
//     `index` (negative counted from the end; out of range is an IndexError) filled with the Scalar value
//     (or a 0-dim tensor's item), converted to self's dtype with fill_'s overflow check; a 0-dim self acts
//     as 1-d. The functional form fills a copy.
//   masked_scatter(_)(self, mask, source): the elements of self where the bool mask (broadcast to self)
//     is true receive source's elements in order (source flattened, same dtype as self; too few is an
//     error). The functional form broadcasts self and mask together first.
#include <algorithm>
#include <cstring>
#include <numeric>

#include "ops/registry/kernel_args.h"
#include "ops/registry/op_call.h"
#include "ops/registry/operator.h"
#include "ops/kernels/common/out_variant.h"
#include "tensor/type_promotion.h"

namespace kindling {

namespace {

// ---------------------------------------------------------------- take_along_dim

Tensor takeAlongDim(const Tensor& self, const Tensor& indices, std::optional<int64_t> dim) {
  static const OpHandle gather("aten::gather");
  if (!dim) return gather(self.view({-1}), int64_t{0}, indices.view({-1}), false);
  KD_CHECK(self.dim() == indices.dim(),
           "torch.take_along_dim(): input and indices should have the same number of dimensions, but got {} "
           "dimensions for input, and {} dimensions for indices",
           self.dim(), indices.dim());
  KD_CHECK(indices.dtype() == ScalarType::Long, "torch.take_along_dim(): dtype of indices should be Long but got {}",
           scalarTypeName(indices.dtype()));
  const int64_t d = maybeWrapDim(*dim, self.dim());
  IntArray selfSizes = self.sizes();
  selfSizes[d] = indices.sizes()[d];
  const Tensor idx = indices.expand(inferSize(selfSizes, indices.sizes()));
  IntArray idxSizes = indices.sizes();
  idxSizes[d] = self.sizes()[d];
  const Tensor src = self.expand(inferSize(idxSizes, self.sizes()));
  return gather(src, d, idx, false);
}

void takeAlongDimK(Stack& s) {
  Args a(s, 3);
  Tensor r = takeAlongDim(a.tensor(0), a.tensor(1), a.optInt(2));
  a.ret(std::move(r));
}

// ---------------------------------------------------------------- index_fill

void indexFillInPlace(Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  KD_CHECK_INDEX(index.dtype() == ScalarType::Long, "index_fill_(): Expected dtype int64 for index.");
  assertNoOverlap(self, index);
  Tensor target = self.dim() == 0 ? self.unsqueeze(-1) : self;
  const int64_t d = maybeWrapDim(dim, target.dim());
  KD_CHECK(index.dim() <= 1, "Index has to be a vector/scalar");
  const int64_t size = target.sizes()[d];
  const Tensor idx = index.contiguous();
  const int64_t* p = idx.data_ptr<int64_t>();
  for (int64_t k = 0; k < idx.numel(); ++k) {
    int64_t i = p[k];
    KD_CHECK_INDEX(i >= -size && i < size, "index {} is out of bounds for dimension {} with size {}", i, d, size);
    if (i < 0) i += size;
    target.select(d, i).fill_(value);
  }
}

Scalar valueOf(const Tensor& v) {
  KD_CHECK(v.dim() == 0, "index_fill_ only supports a 0-dimensional value tensor, but got tensor with {} dimension(s).",
           v.dim());
  return v.item();
}

// index_fill.int_Scalar / int_Tensor (Tensor self, int dim, Tensor index, Scalar|Tensor value)
template <bool TensorValue> void indexFillK(Stack& s) {
  Args a(s, 4);
  Tensor r = a.tensor(0).clone();
  indexFillInPlace(r, a.toInt(1), a.tensor(2), TensorValue ? valueOf(a.tensor(3)) : a.scalar(3));
  a.ret(std::move(r));
}
template <bool TensorValue> void indexFillK_(Stack& s) {
  Args a(s, 4);
  Tensor self = a.tensor(0);
  indexFillInPlace(self, a.toInt(1), a.tensor(2), TensorValue ? valueOf(a.tensor(3)) : a.scalar(3));
  a.ret(std::move(self));
}

// ---------------------------------------------------------------- masked_scatter

void maskedScatterInPlace(Tensor& self, const Tensor& mask, const Tensor& source) {
  assertNoInternalOverlap(self);
  KD_CHECK(self.dtype() == source.dtype(), "masked_scatter: expected self and source to have same dtypes but got{} and {}",
           scalarTypeName(self.dtype()), scalarTypeName(source.dtype()));
  KD_CHECK(mask.dtype() == ScalarType::Bool || mask.dtype() == ScalarType::Byte,
           "masked_scatter_ only supports boolean masks, but got mask with dtype {}", scalarTypeName(mask.dtype()));
  const Tensor m = mask.expand(self.sizes()).to(ScalarType::Bool);
  const Tensor src = source.contiguous();
  // ATen walks self in memory order (its TensorIterator sorts dims by self's strides): visit the dims
  // from the largest stride to the smallest.
  const int64_t nd = self.dim();
  std::vector<int64_t> order(static_cast<size_t>(nd));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
    return self.strides()[x] > self.strides()[y];
  });
  IntArray perm(order.begin(), order.end());
  Tensor selfP = self.permute(perm);
  const Tensor mP = m.permute(perm).contiguous();
  const bool* M = mP.data_ptr<bool>();
  const int64_t n = mP.numel();
  const size_t es = self.element_size();
  const char* S = static_cast<const char*>(src.data_ptr());
  char* base = static_cast<char*>(self.data_ptr());
  const IntArray& sizes = selfP.sizes();
  const IntArray& strides = selfP.strides();
  IntArray pos(static_cast<size_t>(nd), 0);
  int64_t next = 0;
  for (int64_t e = 0; e < n; ++e) {
    if (M[e]) {
      KD_CHECK(next < src.numel(), "Number of elements of source < number of ones in mask");
      int64_t off = 0;
      for (int64_t k = 0; k < nd; ++k) off += pos[k] * strides[k];
      std::memcpy(base + off * static_cast<int64_t>(es), S + next * static_cast<int64_t>(es), es);
      ++next;
    }
    for (int64_t k = nd - 1; k >= 0; --k) {
      if (++pos[k] < sizes[k]) break;
      pos[k] = 0;
    }
  }
}

void maskedScatterK(Stack& s) {
  Args a(s, 3);
  const Tensor self = a.tensor(0), mask = a.tensor(1);
  const IntArray shape = inferSize(mask.sizes(), self.sizes());
  Tensor r = self.expand(shape).clone();
  maskedScatterInPlace(r, mask, a.tensor(2));
  a.ret(std::move(r));
}
void maskedScatterK_(Stack& s) {
  Args a(s, 3);
  Tensor self = a.tensor(0);
  maskedScatterInPlace(self, a.tensor(1), a.tensor(2));
  a.ret(std::move(self));
}

}  // namespace

void registerIndexFillScatterOps(OperatorRegistry& r) {
  r.add("aten::take_along_dim(Tensor self, Tensor indices, int? dim=None) -> Tensor", takeAlongDimK);
  r.add("aten::index_fill.int_Scalar(Tensor self, int dim, Tensor index, Scalar value) -> Tensor", indexFillK<false>);
  r.add("aten::index_fill.int_Tensor(Tensor self, int dim, Tensor index, Tensor value) -> Tensor", indexFillK<true>);
  r.add("aten::index_fill_.int_Scalar(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)",
        indexFillK_<false>);
  r.add("aten::index_fill_.int_Tensor(Tensor(a!) self, int dim, Tensor index, Tensor value) -> Tensor(a!)",
        indexFillK_<true>);
  r.add("aten::masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor", maskedScatterK);
  r.add("aten::masked_scatter_(Tensor(a!) self, Tensor mask, Tensor source) -> Tensor(a!)", maskedScatterK_);
}

}  // namespace kindling
