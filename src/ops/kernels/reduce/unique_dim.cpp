// aten::unique_dim(self, dim, sorted, return_inverse, return_counts): the unique slices of `self` along
// `dim` (torch.unique(x, dim=d) through torch/functional.py's _unique_impl), as ATen 1.13 computes them on
// CPU: the slices are always sorted lexicographically (whatever `sorted` says), the inverse indices
// (size self.size(dim)) and the counts are always computed. A tensor with size 0 at `dim` gives empty
// results; 0-sized other dims are PyTorch's error.
#include <algorithm>
#include <numeric>
#include <vector>

#include "ops/registry/kernel_args.h"
#include "ops/registry/operator.h"
#include "tensor/tensor_iterator.h"
#include "tensor/type_promotion.h"

namespace kindling {

namespace {

void uniqueDimK(Stack& s) {
  Args a(s, 5);
  const Tensor self = a.tensor(0);
  KD_CHECK_INDEX(self.dim() > 0, "Dimension specified as {} but tensor has no dimensions", a.toInt(1));
  const int64_t dim = maybeWrapDim(a.toInt(1), self.dim());
  if (self.numel() == 0) {
    int64_t zeros = 0;
    for (int64_t v : self.sizes()) zeros += v == 0;
    KD_CHECK(self.size(dim) == 0, "There are 0 sized dimensions, and they aren't selected, so unique cannot be applied");
    KD_CHECK(zeros == 1, "Number of zero sized dimensions is more than one, so unique cannot be applied");
    a.ret(Tensor::empty(self.sizes(), self.dtype()), Tensor::empty({0}, ScalarType::Long),
          Tensor::empty({0}, ScalarType::Long));
    return;
  }
  // slices as rows of a (n, m) matrix
  const Tensor moved = self.transpose(0, dim).contiguous();
  const int64_t n = moved.size(0), m = moved.numel() / n;
  Tensor out, inverse = Tensor::empty({n}, ScalarType::Long), counts;
  dispatchLoopTypes(self.dtype(), "unique_dim", [&](auto tag) {
    using T = decltype(tag);
    const T* X = moved.data_ptr<T>();
    std::vector<int64_t> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    auto less = [&](int64_t i, int64_t j) {
      const T* a = X + i * m;
      const T* b = X + j * m;
      for (int64_t k = 0; k < m; ++k)
        if (a[k] != b[k]) return a[k] < b[k];
      return false;
    };
    auto equal = [&](int64_t i, int64_t j) { return std::equal(X + i * m, X + (i + 1) * m, X + j * m); };
    std::sort(order.begin(), order.end(), less);
    std::vector<int64_t> firsts, cnt;
    int64_t* inv = inverse.data_ptr<int64_t>();
    for (int64_t r = 0; r < n; ++r) {
      const int64_t i = order[static_cast<size_t>(r)];
      if (firsts.empty() || !equal(firsts.back(), i)) {
        firsts.push_back(i);
        cnt.push_back(0);
      }
      ++cnt.back();
      inv[i] = static_cast<int64_t>(firsts.size()) - 1;
    }
    const int64_t u = static_cast<int64_t>(firsts.size());
    IntArray shape = moved.sizes();
    shape[0] = u;
    Tensor rows = Tensor::empty(shape, self.dtype());
    T* Y = rows.data_ptr<T>();
    for (int64_t r = 0; r < u; ++r) std::copy(X + firsts[r] * m, X + (firsts[r] + 1) * m, Y + r * m);
    out = rows.transpose(0, dim);
    counts = Tensor::empty({u}, ScalarType::Long);
    std::copy(cnt.begin(), cnt.end(), counts.data_ptr<int64_t>());
  });
  a.ret(std::move(out), std::move(inverse), std::move(counts));
}

}  // namespace

void registerUniqueDimOps(OperatorRegistry& r) {
  r.add("aten::unique_dim(Tensor self, int dim, bool sorted=True, bool return_inverse=False, bool "
        "return_counts=False) -> (Tensor, Tensor, Tensor)",
        uniqueDimK);
}

}  // namespace kindling
