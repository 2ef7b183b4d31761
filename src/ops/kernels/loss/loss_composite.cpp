// The composite loss operators of ATen 1.13 (Loss.cpp) that torch.nn.functional's bodies end in, written as
// ATen composes them from elementwise operators (so values follow the same rounding steps):
//   aten::kl_div(self, target, reduction, log_target): exp(t) (t - x) for log targets, xlogy(t, t) - t x else;
//   aten::soft_margin_loss(self, target, reduction): log1p(exp(-x y));
//   aten::margin_ranking_loss(x1, x2, y, margin, reduction): max(0, -y (x1 - x2) + margin);
//   aten::hinge_embedding_loss(self, target, margin, reduction): max(0, margin - x) where y != 1, plus x where
//       y != -1;
//   aten::poisson_nll_loss(input, target, log_input, full, eps, reduction): exp(x) - y x (log input) or
//       x - y log(x + eps), plus Stirling's term y log y - y + 0.5 log(2 pi y) for y > 1 when full;
//   aten::cosine_embedding_loss(x1, x2, y, margin, reduction): 1 - cos where y == 1, max(0, cos - margin)
//       where y == -1 (cos over the last dim, magnitudes offset by 1e-12).
// reduction: 0 none, 1 mean, 2 sum.
#include <cmath>
#include <vector>

#include "ops/registry/kernel_args.h"
#include "ops/registry/list_args.h"
#include "ops/kernels/loss/loss_reduction.h"
#include "ops/registry/op_call.h"
#include "ops/registry/operator.h"

namespace kindling {

namespace {

const OpHandle kSumDim("aten::sum.dim_IntList");
const OpHandle kMul("aten::mul.Tensor");
const OpHandle kMulScalar("aten::mul.Scalar");
const OpHandle kSub("aten::sub.Tensor");
const OpHandle kSubScalar("aten::sub.Scalar");
const OpHandle kAdd("aten::add.Tensor");
const OpHandle kAddScalar("aten::add.Scalar");
const OpHandle kRsubScalar("aten::rsub.Scalar");
const OpHandle kNeg("aten::neg");
const OpHandle kExp("aten::exp");
const OpHandle kLog("aten::log");
const OpHandle kLog1p("aten::log1p");
const OpHandle kSqrt("aten::sqrt");
const OpHandle kDiv("aten::div.Tensor");
const OpHandle kXlogy("aten::xlogy.Tensor");
const OpHandle kClampMin("aten::clamp_min");
const OpHandle kZerosLike("aten::zeros_like");
const OpHandle kWhere("aten::where.self");
const OpHandle kNeScalar("aten::ne.Scalar");
const OpHandle kEqScalar("aten::eq.Scalar");
const OpHandle kLeScalar("aten::le.Scalar");
const OpHandle kMaskedFill("aten::masked_fill.Scalar");

const Scalar kOne(int64_t(1));

Tensor reduce(const Tensor& loss, int64_t reduction) { return applyLossReduction(loss, reduction); }

Tensor zerosLike(const Tensor& t) { return kZerosLike(t, IValue(), IValue(), IValue(), IValue(), IValue()); }

void klDivK(Stack& s) {
  Args a(s, 4);
  const Tensor x = a.tensor(0), t = a.tensor(1);
  const Tensor out = a.toBool(3) ? kMul(kExp(t), kSub(t, x, kOne)) : kSub(kXlogy(t, t), kMul(t, x), kOne);
  a.ret(reduce(out, a.toInt(2)));
}

void softMarginLossK(Stack& s) {
  Args a(s, 3);
  a.ret(reduce(kLog1p(kExp(kMul(kNeg(a.tensor(0)), a.tensor(1)))), a.toInt(2)));
}

void marginRankingLossK(Stack& s) {
  Args a(s, 5);
  const Tensor diff = kSub(a.tensor(0), a.tensor(1), kOne);
  const Tensor out = kClampMin(kAddScalar(kMul(kNeg(a.tensor(2)), diff), Scalar(a.toDouble(3)), kOne),
                               Scalar(int64_t(0)));
  a.ret(reduce(out, a.toInt(4)));
}

void hingeEmbeddingLossK(Stack& s) {
  Args a(s, 4);
  const Tensor x = a.tensor(0), y = a.tensor(1);
  const Tensor zeros = zerosLike(x);
  const Tensor marginClamp = kClampMin(kRsubScalar(x, Scalar(a.toDouble(2)), kOne), Scalar(int64_t(0)));
  const Tensor outMargin = kWhere(kNeScalar(y, kOne), marginClamp, zeros);
  const Tensor outSelf = kWhere(kNeScalar(y, Scalar(int64_t(-1))), x, zeros);
  a.ret(reduce(kAdd(outMargin, outSelf, kOne), a.toInt(3)));
}

void poissonNllLossK(Stack& s) {
  Args a(s, 6);
  const Tensor x = a.tensor(0), y = a.tensor(1);
  Tensor loss = a.toBool(2) ? kSub(kExp(x), kMul(y, x), kOne)
                            : kSub(x, kMul(y, kLog(kAddScalar(x, Scalar(a.toDouble(4)), kOne))), kOne);
  if (a.toBool(3)) {
    const Tensor stirling = kAdd(kSub(kMul(y, kLog(y)), y, kOne),
                                 kMulScalar(kLog(kMulScalar(y, Scalar(2 * M_PI))), Scalar(0.5)), kOne);
    loss = kAdd(loss, kMaskedFill(stirling, kLeScalar(y, kOne), Scalar(int64_t(0))), kOne);
  }
  a.ret(reduce(loss, a.toInt(5)));
}

void cosineEmbeddingLossK(Stack& s) {
  Args a(s, 5);
  const Tensor x1 = a.tensor(0), x2 = a.tensor(1), y = a.tensor(2);
  const int64_t td = y.dim();
  KD_CHECK(td == 1 || td == 0, "0D or 1D target tensor expected, multi-target not supported");
  if (td == 1)
    KD_CHECK(x1.dim() == 2 && x2.dim() == 2,
             "1D target tensor expects 2D input tensors, but found inputs with sizes {} and {}.", x1.sizesStr(),
             x2.sizesStr());
  else
    KD_CHECK(x1.dim() == 1 && x2.dim() == 1,
             "0D target tensor expects 1D input tensors, but found inputs with sizes {} and {}.", x1.sizesStr(),
             x2.sizesStr());
  const IValue dim = intListIValue({td});
  const Scalar eps(1e-12);
  const Tensor prodSum = kSumDim(kMul(x1, x2), dim, false, IValue());
  const Tensor mag1 = kAddScalar(kSumDim(kMul(x1, x1), dim, false, IValue()), eps, kOne);
  const Tensor mag2 = kAddScalar(kSumDim(kMul(x2, x2), dim, false, IValue()), eps, kOne);
  const Tensor cos = kDiv(prodSum, kSqrt(kMul(mag1, mag2)));
  const Tensor zeros = zerosLike(cos);
  const Tensor pos = kRsubScalar(cos, kOne, kOne);
  const Tensor neg = kClampMin(kSubScalar(cos, Scalar(a.toDouble(3)), kOne), Scalar(int64_t(0)));
  const Tensor outPos = kWhere(kEqScalar(y, kOne), pos, zeros);
  const Tensor outNeg = kWhere(kEqScalar(y, Scalar(int64_t(-1))), neg, zeros);
  a.ret(reduce(kAdd(outPos, outNeg, kOne), a.toInt(4)));
}

}  // namespace

void registerLossCompositeOps(OperatorRegistry& r) {
  r.add("aten::kl_div(Tensor self, Tensor target, int reduction=1, *, bool log_target=False) -> Tensor", klDivK);
  r.add("aten::soft_margin_loss(Tensor self, Tensor target, int reduction=1) -> Tensor", softMarginLossK);
  r.add("aten::margin_ranking_loss(Tensor input1, Tensor input2, Tensor target, float margin=0., int reduction=1) -> "
        "Tensor",
        marginRankingLossK);
  r.add("aten::hinge_embedding_loss(Tensor self, Tensor target, float margin=1., int reduction=1) -> Tensor",
        hingeEmbeddingLossK);
  r.add("aten::poisson_nll_loss(Tensor input, Tensor target, bool log_input, bool full, float eps, int reduction) -> "
        "Tensor",
        poissonNllLossK);
  r.add("aten::cosine_embedding_loss(Tensor input1, Tensor input2, Tensor target, float margin=0., int reduction=1) "
        "-> Tensor",
        cosineEmbeddingLossK);
}

}  // namespace kindling
