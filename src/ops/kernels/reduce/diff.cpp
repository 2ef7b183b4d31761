// torch.diff: aten::diff(self, n=1, dim=-1, prepend=None, append=None), as ATen 1.13 composes it:
// prepend/append (same rank, same sizes off `dim`) are concatenated along `dim` first; then n times
// (at most the size of `dim`) the difference of neighbours, narrow(1..) - narrow(0..) (logical_xor for
// bool); n == 0 returns a copy. Errors with ATen's messages.
#include "ops/registry/kernel_args.h"
#include "ops/registry/op_call.h"
#include "ops/registry/operator.h"
#include "tensor/type_promotion.h"

namespace kindling {

namespace {

void checkCompatible(const Tensor& self, const Tensor& other, int64_t dim) {
  if (!other.defined()) return;
  const int64_t d = maybeWrapDim(dim, self.dim(), false);
  KD_CHECK(other.dim() == self.dim(), "diff expects prepend or append to be the same dimension as input");
  for (int64_t i = 0; i < other.dim(); ++i) {
    if (i == d) continue;
    KD_CHECK(other.sizes()[i] == self.sizes()[i],
             "diff expects the shape of tensor to prepend or append to match that of input except along the "
             "differenced dimension; input.size({}) = {}, but got tensor.size({}) = {}",
             i, self.sizes()[i], i, other.sizes()[i]);
  }
}

Tensor diff(const Tensor& self, int64_t n, int64_t dim, const Tensor& prepend, const Tensor& append) {
  KD_CHECK(n >= 0, "order must be non-negative but got {}", n);
  KD_CHECK(self.dim() >= 1, "diff expects input to be at least one-dimensional");
  checkCompatible(self, prepend, dim);
  checkCompatible(self, append, dim);
  Tensor x = self;
  if (prepend.defined() || append.defined()) {
    static const OpHandle cat("aten::cat");
    std::vector<IValue> parts;
    if (prepend.defined()) parts.emplace_back(prepend);
    parts.emplace_back(self);
    if (append.defined()) parts.emplace_back(append);
    x = cat(makeList(TensorType(), std::move(parts)), dim);
  }
  if (n == 0) return x.clone();
  const int64_t d = maybeWrapDim(dim, x.dim());
  int64_t len = x.sizes()[d] - 1;
  n = std::min(n, x.sizes()[d]);
  static const OpHandle sub("aten::sub.Tensor"), lxor("aten::logical_xor");
  const bool isBool = x.dtype() == ScalarType::Bool;
  for (int64_t i = 0; i < n; ++i, --len) {
    const Tensor hi = x.narrow(d, 1, len), lo = x.narrow(d, 0, len);
    x = isBool ? lxor(hi, lo) : sub(hi, lo, int64_t{1});
  }
  return x;
}

// diff(Tensor self, int n=1, int dim=-1, Tensor? prepend=None, Tensor? append=None)
void diffK(Stack& s) {
  Args a(s, 5);
  Tensor r = diff(a.tensor(0), a.toInt(1), a.toInt(2), a.optTensor(3), a.optTensor(4));
  a.ret(std::move(r));
}

}  // namespace

void registerDiffOps(OperatorRegistry& r) {
  r.add("aten::diff(Tensor self, int n=1, int dim=-1, Tensor? prepend=None, Tensor? append=None) -> Tensor", diffK);
}

}  // namespace kindling
