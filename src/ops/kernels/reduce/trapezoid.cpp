// torch.trapezoid / torch.trapz / torch.cumulative_trapezoid: the trapezoid rule along `dim`, composed from
// elementwise operators exactly as ATen 1.13 does (so dtypes and rounding follow those operators):
//   spacing tensor x: dx = x[1:] - x[:-1] (a 1-d x viewed along dim, a lower-rank x padded with leading 1s),
//                     trapezoid = ((dx * (y[1:] + y[:-1])) / 2).sum(dim)
//   scalar spacing:   trapezoid = (y.sum(dim) - (y[0] + y[-1]) * 0.5) * dx
//   cumulative:       (dx / 2 * (y[:-1] + y[1:])).cumsum(dim)
// An empty `dim` integrates to zeros; bool inputs are rejected (ATen's messages).
#include "ops/registry/kernel_args.h"
#include "ops/registry/op_call.h"
#include "ops/registry/operator.h"
#include "tensor/type_promotion.h"

namespace kindling {

namespace {

const OpHandle kAdd("aten::add.Tensor"), kSub("aten::sub.Tensor"), kMul("aten::mul.Tensor"),
    kMulS("aten::mul.Scalar"), kDivS("aten::div.Scalar"), kSum("aten::sum.dim_IntList"), kCumsum("aten::cumsum"),
    kSlice("aten::slice.Tensor");

Tensor slice(const Tensor& t, int64_t dim, int64_t start, int64_t end) {
  return kSlice(t, dim, start, end, int64_t(1));
}
constexpr int64_t kEnd = INT64_MAX;

Tensor zerosExcept(const Tensor& y, int64_t dim) {
  IntArray sizes = y.sizes();
  sizes.erase(sizes.begin() + maybeWrapDim(dim, y.dim()));
  return Tensor::zeros(sizes, y.dtype());
}

// y[1:] + y[:-1] (trapezoid) or y[:-1] + y[1:] (cumulative), along dim
Tensor pairSum(const Tensor& y, int64_t dim, bool leftFirst) {
  const Tensor l = slice(y, dim, 0, -1), r = slice(y, dim, 1, kEnd);
  return leftFirst ? kAdd(l, r, int64_t(1)) : kAdd(r, l, int64_t(1));
}

// dx = x[1:] - x[:-1] with x viewed to broadcast against y
Tensor spacing(const char* op, const Tensor& y, const Tensor& x, int64_t dim) {
  Tensor xv = x;
  if (x.dim() == 1) {
    KD_CHECK(x.sizes()[0] == y.sizes()[dim], "{}: There must be one `x` value for each sample point", op);
    IntArray shape(y.dim(), 1);
    shape[dim] = x.sizes()[0];
    xv = x.view(shape);
  } else if (x.dim() < y.dim()) {
    IntArray shape(y.dim() - x.dim(), 1);
    shape.insert(shape.end(), x.sizes().begin(), x.sizes().end());
    xv = x.view(shape);
  }
  return kSub(slice(xv, dim, 1, kEnd), slice(xv, dim, 0, -1), int64_t(1));
}

Tensor sumDim(const Tensor& t, int64_t dim) {
  return kSum(t, IValue(makeIntrusive<ListValue>(IntType(), std::vector<IValue>{IValue(dim)})), false, IValue());
}

void trapezoidXK(Stack& s) {
  Args a(s, 3);
  const Tensor y = a.tensor(0), x = a.tensor(1);
  const int64_t dim = maybeWrapDim(a.toInt(2), y.dim());
  if (y.sizes()[dim] == 0) {
    a.ret(zerosExcept(y, dim));
    return;
  }
  KD_CHECK(y.dtype() != ScalarType::Bool && x.dtype() != ScalarType::Bool,
           "trapezoid: received a bool input for `x` or `y`, but bool is not supported");
  const Tensor dx = spacing("trapezoid", y, x, dim);
  a.ret(sumDim(kDivS(kMul(dx, pairSum(y, dim, false)), 2.0), dim));
}

void trapezoidDxK(Stack& s) {
  Args a(s, 3);
  const Tensor y = a.tensor(0);
  const int64_t dim = a.toInt(2);
  if (y.size(dim) == 0) {
    a.ret(zerosExcept(y, dim));
    return;
  }
  KD_CHECK(y.dtype() != ScalarType::Bool, "trapezoid: received a bool input for `y`, but bool is not supported");
  KD_CHECK(!a[1].isBool(), "trapezoid: Currently, we only support dx as a real number.");
  static const OpHandle select("aten::select.int");
  const Tensor ends = kAdd(select(y, dim, int64_t(0)), select(y, dim, int64_t(-1)), int64_t(1));
  a.ret(kMulS(kSub(sumDim(y, dim), kMulS(ends, 0.5), int64_t(1)), a.toDouble(1)));
}

void cumulativeTrapezoidXK(Stack& s) {
  Args a(s, 3);
  const Tensor y = a.tensor(0), x = a.tensor(1);
  const int64_t dim = maybeWrapDim(a.toInt(2), y.dim());
  KD_CHECK(y.dtype() != ScalarType::Bool && x.dtype() != ScalarType::Bool,
           "cumulative_trapezoid: received a bool input for `x` or `y`, but bool is not supported");
  const Tensor dx = spacing("cumulative_trapezoid", y, x, dim);
  a.ret(kCumsum(kMul(kDivS(dx, 2.0), pairSum(y, dim, true)), dim, IValue()));
}

void cumulativeTrapezoidDxK(Stack& s) {
  Args a(s, 3);
  const Tensor y = a.tensor(0);
  KD_CHECK(y.dtype() != ScalarType::Bool,
           "cumulative_trapezoid: received a bool input for `y`, but bool is not supported");
  KD_CHECK(!a[1].isBool(), "cumulative_trapezoid: Currently, we only support dx as a real number.");
  const int64_t dim = a.toInt(2);
  a.ret(kCumsum(kMulS(pairSum(y, dim, true), a.toDouble(1) / 2.0), dim, IValue()));
}

}  // namespace

void registerTrapezoidOps(OperatorRegistry& r) {
  r.add("aten::trapezoid.x(Tensor y, Tensor x, *, int dim=-1) -> Tensor", trapezoidXK);
  r.add("aten::trapezoid.dx(Tensor y, *, Scalar dx=1, int dim=-1) -> Tensor", trapezoidDxK);
  r.add("aten::trapz.x(Tensor y, Tensor x, *, int dim=-1) -> Tensor", trapezoidXK);
  r.add("aten::trapz.dx(Tensor y, *, float dx=1., int dim=-1) -> Tensor", trapezoidDxK);
  r.add("aten::cumulative_trapezoid.x(Tensor y, Tensor x, *, int dim=-1) -> Tensor", cumulativeTrapezoidXK);
  r.add("aten::cumulative_trapezoid.dx(Tensor y, *, Scalar dx=1, int dim=-1) -> Tensor", cumulativeTrapezoidDxK);
}

}  // namespace kindling
