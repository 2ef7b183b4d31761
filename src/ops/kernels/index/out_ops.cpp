// `out=` overloads of indexing, joining and reduction operators (torch.gather(x, 0, i, out=y), ...): each
// runs the functional operator, then applies PyTorch's out contract (out_variant.h) with the checks and
// messages of that operator's ATen out kernel, in ATen's order: overlap of out with the inputs, dtype of
// out, resize, copy. The result is `out` itself.
#include "ops/registry/kernel_args.h"
#include "ops/registry/op_call.h"
#include "ops/registry/operator.h"
#include "ops/kernels/common/out_variant.h"
#include "tensor/type_promotion.h"

namespace kindling {

namespace {

// masked_select.out(Tensor self, Tensor mask, *, Tensor(a!) out)
void maskedSelectOut(Stack& s) {
  Args a(s, 3);
  const Tensor self = a.tensor(0), mask = a.tensor(1), out = a.tensor(2);
  KD_CHECK(mask.dtype() == ScalarType::Bool || mask.dtype() == ScalarType::Byte,
           "masked_select: expected BoolTensor or ByteTensor for mask");
  KD_CHECK(self.dtype() == out.dtype(), "masked_select(): self and result must have the same scalar type");
  assertNoInternalOverlap(out);
  assertNoOverlap(out, self);
  assertNoOverlap(out, mask);
  static const OpHandle op("aten::masked_select");
  writeOut(out, op(self, mask));
  a.ret(out);
}

// index_select.out(Tensor self, int dim, Tensor index, *, Tensor(a!) out)
void indexSelectOut(Stack& s) {
  Args a(s, 4);
  const Tensor self = a.tensor(0), index = a.tensor(2), out = a.tensor(3);
  KD_CHECK_INDEX(index.dim() <= 1, "index_select(): Index is supposed to be a vector");
  KD_CHECK(index.dtype() == ScalarType::Long || index.dtype() == ScalarType::Int,
           "index_select(): Expected dtype int32 or int64 for index");
  KD_CHECK(self.dtype() == out.dtype(), "index_select(): self and result must have the same scalar type");
  assertNoInternalOverlap(out);
  assertNoOverlap(out, self);
  assertNoOverlap(out, index);
  static const OpHandle op("aten::index_select");
  writeOut(out, op(self, a.toInt(1), index));
  a.ret(out);
}

// gather.out(Tensor self, int dim, Tensor index, *, bool sparse_grad=False, Tensor(a!) out)
void gatherOut(Stack& s) {
  Args a(s, 5);
  const Tensor self = a.tensor(0), index = a.tensor(2), out = a.tensor(4);
  assertNoInternalOverlap(out);
  assertNoOverlap(out, self);
  assertNoPartialOverlap(out, index);
  static const OpHandle op("aten::gather");
  const Tensor r = op(self, a.toInt(1), index, a.toBool(3));
  checkOutDtype(out, r.dtype());
  writeOut(out, r);
  a.ret(out);
}

// cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out)
void catOut(Stack& s) {
  Args a(s, 3);
  const std::vector<Tensor> tensors = a.tensorList(0);
  const Tensor out = a.tensor(2);
  static const OpHandle op("aten::cat");
  const Tensor r = op(a[0], a.toInt(1));
  bool anyValid = false;
  for (const Tensor& t : tensors) anyValid = anyValid || !(t.dim() == 1 && t.numel() == 0);
  if (anyValid) {
    assertNoInternalOverlap(out);
    for (const Tensor& t : tensors) assertNoOverlap(out, t);
  }
  KD_CHECK(canCast(r.dtype(), out.dtype()), "torch.cat(): input types can't be cast to the desired output type {}",
           scalarTypeName(out.dtype()));
  writeOut(out, r);
  a.ret(out);
}

// amax.out / amin.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out)
template <bool Max>
void amaxOut(Stack& s) {
  Args a(s, 4);
  const Tensor self = a.tensor(0), out = a.tensor(3);
  static const OpHandle op(Max ? "aten::amax" : "aten::amin");
  const Tensor r = op(self, a[1], a.toBool(2));
  KD_CHECK(self.dtype() == out.dtype(),
           "Expected the dtype for input and out to match, but got {} for input's dtype and {} for out's dtype.",
           scalarTypeName(self.dtype()), scalarTypeName(out.dtype()));
  writeOut(out, r);
  a.ret(out);
}

// bernoulli.out(Tensor self, *, Generator? generator=None, Tensor(a!) out): out (any dtype) resized to self's
// shape, each element 1 with probability self[i] (the draws of bernoulli(self)).
void bernoulliOut(Stack& s) {
  Args a(s, 3);
  const Tensor self = a.tensor(0), out = a.tensor(2);
  resizeOutput(out, self.sizes());
  assertNoInternalOverlap(out);
  static const OpHandle op("aten::bernoulli");
  Tensor o = out;
  o.copy_(op(self, a[1]));
  a.ret(out);
}

// take.out(Tensor self, Tensor index, *, Tensor(a!) out)
void takeOut(Stack& s) {
  Args a(s, 3);
  const Tensor self = a.tensor(0), index = a.tensor(1), out = a.tensor(2);
  KD_CHECK(index.dtype() == ScalarType::Long, "take(): Expected a long tensor for index, but got {}",
           scalarTypeName(index.dtype()));
  KD_CHECK(self.dtype() == out.dtype(), "take(): self and out expected to have the same dtype, but got self.dtype = {} "
           "and out.dtype = {}", scalarTypeName(self.dtype()), scalarTypeName(out.dtype()));
  assertNoInternalOverlap(out);
  assertNoOverlap(out, index);
  assertNoOverlap(out, self);
  static const OpHandle op("aten::take");
  writeOut(out, op(self, index));
  a.ret(out);
}

// scatter.src_out / value_out (self, dim, index, src|value, *, out), scatter_add.out (same arguments),
// scatter.reduce_out / value_reduce_out (self, dim, index, src|value, *, reduce, out).
template <const char* Name, size_t N>
void scatterOut(Stack& s) {
  Args a(s, N);
  const Tensor out = a.tensor(N - 1);
  static const OpHandle op(Name);
  const Tensor r = N == 6 ? op(a[0], a[1], a[2], a[3], a[4]) : op(a[0], a[1], a[2], a[3]);
  checkOutDtype(out, r.dtype());
  writeOut(out, r);
  a.ret(out);
}
constexpr char kScatterSrc[] = "aten::scatter.src";
constexpr char kScatterValue[] = "aten::scatter.value";
constexpr char kScatterReduce[] = "aten::scatter.reduce";
constexpr char kScatterValueReduce[] = "aten::scatter.value_reduce";
constexpr char kScatterAdd[] = "aten::scatter_add";

}  // namespace

void registerOutOps(OperatorRegistry& r) {
  r.add("aten::masked_select.out(Tensor self, Tensor mask, *, Tensor(a!) out) -> Tensor(a!)", maskedSelectOut);
  r.add("aten::index_select.out(Tensor self, int dim, Tensor index, *, Tensor(a!) out) -> Tensor(a!)", indexSelectOut);
  r.add("aten::gather.out(Tensor self, int dim, Tensor index, *, bool sparse_grad=False, Tensor(a!) out) -> Tensor(a!)", gatherOut);
  r.add("aten::cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)", catOut);
  r.add("aten::amax.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", amaxOut<true>);
  r.add("aten::amin.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", amaxOut<false>);
  r.add("aten::bernoulli.out(Tensor self, *, Generator? generator=None, Tensor(a!) out) -> Tensor(a!)", bernoulliOut);
  r.add("aten::take.out(Tensor self, Tensor index, *, Tensor(a!) out) -> Tensor(a!)", takeOut);
  r.add("aten::scatter.src_out(Tensor self, int dim, Tensor index, Tensor src, *, Tensor(a!) out) -> Tensor(a!)", scatterOut<kScatterSrc, 5>);
  r.add("aten::scatter.value_out(Tensor self, int dim, Tensor index, Scalar value, *, Tensor(a!) out) -> Tensor(a!)", scatterOut<kScatterValue, 5>);
  r.add("aten::scatter.reduce_out(Tensor self, int dim, Tensor index, Tensor src, *, str reduce, Tensor(a!) out) -> Tensor(a!)", scatterOut<kScatterReduce, 6>);
  r.add("aten::scatter.value_reduce_out(Tensor self, int dim, Tensor index, Scalar value, *, str reduce, Tensor(a!) out) -> Tensor(a!)", scatterOut<kScatterValueReduce, 6>);
  r.add("aten::scatter_add.out(Tensor self, int dim, Tensor index, Tensor src, *, Tensor(a!) out) -> Tensor(a!)", scatterOut<kScatterAdd, 5>);
}

}  // namespace kindling
