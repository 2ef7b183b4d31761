// torch.cov / torch.corrcoef / torch.diagflat, composed from other operators as ATen 1.13 (Correlation.cpp,
// TensorShape.cpp) does, with its checks and messages:
//   cov(input, correction, fweights, aweights): input viewed as (variables, observations); w = fweights *
//     aweights; avg = sum(input * w, 1) / sum(w); norm = sum(w) - correction (with aweights: sum(w) -
//     correction * sum(w * aweights) / sum(w)), clamped to 0 when <= 0; mm(input - avg, (input - avg) * w)^T /
//     norm, squeezed
//   corrcoef(input): cov(input) / stddev_i / stddev_j clipped to [-1, 1] (a 0-dim cov: c / c)
//   diagflat(input, offset): diag(input.flatten(), offset)
#include "ops/registry/kernel_args.h"
#include "ops/registry/op_call.h"
#include "ops/registry/operator.h"
#include "tensor/type_promotion.h"

namespace kindling {

namespace {

const OpHandle kMul("aten::mul.Tensor"), kSub("aten::sub.Tensor"), kDiv("aten::div.Tensor"), kSum("aten::sum"),
    kSumDim("aten::sum.dim_IntList"), kMin("aten::min"), kMm("aten::mm"), kDiag("aten::diag"),
    kSqrt("aten::sqrt"), kClamp("aten::clamp");

Tensor cov(const Tensor& self, int64_t correction, const Tensor& fweights, const Tensor& aweights) {
  KD_CHECK(self.dim() <= 2, "cov(): expected input to have two or fewer dimensions but got an input with {} "
           "dimensions", self.dim());
  KD_CHECK(self.dtype() != ScalarType::Bool, "cov(): bool dtype is not supported for input");
  const Tensor in = self.dim() < 2 ? self.view({1, -1}) : self;
  const int64_t nobs = in.sizes()[1];
  Tensor w;
  if (fweights.defined()) {
    w = fweights;
    KD_CHECK(w.dim() <= 1, "cov(): expected fweights to have one or fewer dimensions but got fweights with {} "
             "dimensions", w.dim());
    KD_CHECK(isIntegralType(w.dtype(), false), "cov(): expected fweights to have integral dtype but got fweights with "
             "{} dtype", scalarTypeName(w.dtype()));
    KD_CHECK(w.numel() == nobs, "cov(): expected fweights to have the same numel as there are observations in the "
             "input but got {} != {}", w.numel(), nobs);
    KD_CHECK(nobs == 0 || kMin(w).item().toDouble() >= 0, "cov(): fweights cannot be negative");
  }
  if (aweights.defined()) {
    const Tensor& aw = aweights;
    KD_CHECK(aw.dim() <= 1, "cov(): expected aweights to have one or fewer dimensions but got aweights with {} "
             "dimensions", aw.dim());
    KD_CHECK(isFloatingType(aw.dtype()), "cov(): expected aweights to have floating point dtype but got aweights "
             "with {} dtype", scalarTypeName(aw.dtype()));
    KD_CHECK(aw.numel() == nobs, "cov(): expected aweights to have the same numel as there are observations in the "
             "input but got {} != {}", aw.numel(), nobs);
    KD_CHECK(nobs == 0 || kMin(aw).item().toDouble() >= 0, "cov(): aweights cannot be negative");
    w = w.defined() ? kMul(w, aw) : aw;
  }
  const Tensor wSum = w.defined() ? kSum(w, IValue()) : Tensor::scalarTensor(Scalar(nobs), ScalarType::Long);
  KD_CHECK(!w.defined() || wSum.item().toDouble() != 0, "cov(): weights sum to zero, can't be normalized");
  const IValue obsDim(makeIntrusive<ListValue>(IntType(), std::vector<IValue>{IValue(int64_t(1))}));
  const Tensor avg = kDiv(kSumDim(w.defined() ? kMul(in, w) : in, obsDim, false, IValue()), wSum);
  Tensor norm;
  if (w.defined() && aweights.defined() && correction != 0) {
    static const OpHandle mulS("aten::mul.Scalar");
    norm = kSub(wSum, kDiv(mulS(kSum(kMul(w, aweights), IValue()), correction), wSum), int64_t(1));
  } else {
    static const OpHandle subS("aten::sub.Scalar");
    norm = subS(wSum, correction, int64_t(1));
  }
  if (norm.item().toDouble() <= 0) norm = Tensor::zeros({}, norm.dtype());  // degrees of freedom <= 0
  const Tensor centered = kSub(in, avg.unsqueeze(1), int64_t(1));
  const Tensor c = kMm(centered, (w.defined() ? kMul(centered, w) : centered).transpose(0, 1));
  static const OpHandle trueDivide("aten::true_divide.Tensor");
  return trueDivide(c, norm).squeeze();
}

void covK(Stack& s) {
  Args a(s, 4);
  a.ret(cov(a.tensor(0), a.toInt(1), a.optTensor(2), a.optTensor(3)));
}

void corrcoefK(Stack& s) {
  Args a(s, 1);
  const Tensor self = a.tensor(0);
  KD_CHECK(self.dim() <= 2, "corrcoef(): expected input to have two or fewer dimensions but got an input with {} "
           "dimensions", self.dim());
  Tensor c = cov(self, 1, Tensor(), Tensor());
  if (c.dim() == 0) {
    a.ret(kDiv(c, c));
    return;
  }
  const Tensor sd = kSqrt(kDiag(c, int64_t(0)));
  c = kDiv(c, sd.view({-1, 1}));
  c = kDiv(c, sd.view({1, -1}));
  a.ret(kClamp(c, int64_t(-1), int64_t(1)));
}

void diagflatK(Stack& s) {
  Args a(s, 2);
  a.ret(kDiag(a.tensor(0).contiguous().view({-1}), a.toInt(1)));
}

}  // namespace

void registerCovarianceOps(OperatorRegistry& r) {
  r.add("aten::cov(Tensor self, *, int correction=1, Tensor? fweights=None, Tensor? aweights=None) -> Tensor", covK);
  r.add("aten::corrcoef(Tensor self) -> Tensor", corrcoefK);
  r.add("aten::diagflat(Tensor self, int offset=0) -> Tensor", diagflatK);
}

}  // namespace kindling
