// Loss operators that torch.nn.functional's loss functions end in (PyTorch 1.13, torch._C._nn.*):
//
//   aten::l1_loss / mse_loss / smooth_l1_loss / huber_loss (self, target, reduction[, beta|delta]):
//       elementwise |x-y|, (x-y)^2, smooth L1 (0.5 z^2/beta below beta, z - 0.5 beta above; beta 0 is L1),
//       Huber (0.5 z^2 below delta, delta (z - 0.5 delta) above); operands broadcast and promote.
//   aten::binary_cross_entropy(self, target, weight, reduction): -(y log x + (1-y) log(1-x)), each log
//       clamped at -100; input values outside [0, 1] are an error.
//   aten::binary_cross_entropy_with_logits(self, target, weight, pos_weight, reduction): ATen's stable form
//       (1-y) x + lw (log(exp(-m) + exp(-x-m)) + m), m = max(-x, 0), lw = 1 + (pos_weight-1) y.
//   aten::nll_loss (input (C) or (N, C), target () or (N)), aten::nll_loss2d (input (N, C, H, W), target
//       (N, H, W)), aten::nll_loss_nd (any rank, as ATen's nll_loss_nd: <=2 dims → nll_loss, 4 → nll_loss2d,
//       other ranks viewed as 4-d): -w[t] x[t] per element, ignore_index entries contribute 0 and no weight;
//       'mean' divides by the total weight of the counted targets (0/0 is NaN, as PyTorch).
//   aten::cross_entropy_loss(self, target, weight, reduction, ignore_index, label_smoothing): class indices
//       (log_softmax then nll_loss_nd), class probabilities (target of the input's shape), label smoothing.
// reduction is the enum of torch.nn._reduction.get_enum: 0 none, 1 mean, 2 sum.
#include <cmath>
#include <limits>

#include "core/type.h"
#include "ops/registry/kernel_args.h"
#include "ops/registry/list_args.h"
#include "ops/kernels/loss/loss_reduction.h"
#include "ops/registry/op_call.h"
#include "ops/registry/operator.h"
#include "tensor/tensor_iterator.h"

namespace kindling {

namespace {

const OpHandle kSum("aten::sum");
const OpHandle kSumDim("aten::sum.dim_IntList");
const OpHandle kSub("aten::sub.Tensor");
const OpHandle kRsubScalar("aten::rsub.Scalar");
const OpHandle kMul("aten::mul.Tensor");
const OpHandle kMulScalar("aten::mul.Scalar");
const OpHandle kAbs("aten::abs");
const OpHandle kNeg("aten::neg");
const OpHandle kDiv("aten::div.Tensor");
const OpHandle kAdd("aten::add.Tensor");
const OpHandle kAddScalar("aten::add.Scalar");
const OpHandle kExp("aten::exp");
const OpHandle kLog("aten::log");
const OpHandle kClampMin("aten::clamp_min");
const OpHandle kLogSoftmax("aten::log_softmax.int");
const OpHandle kEqScalar("aten::eq.Scalar");
const OpHandle kMaskedFill("aten::masked_fill.Scalar");
const OpHandle kMaskedSelect("aten::masked_select");
const OpHandle kLogicalNot("aten::logical_not");
const OpHandle kGather("aten::gather");
const OpHandle kFlatten("aten::flatten.using_ints");

enum Reduction : int64_t { kNone = 0, kMeanRed = 1, kSumRed = 2 };

Tensor applyReduction(const Tensor& loss, int64_t reduction) { return applyLossReduction(loss, reduction); }

/// One elementwise pass over (input, target) broadcast and promoted, then the reduction.
template <class Make>
Tensor pointwiseLoss(const Tensor& input, const Tensor& target, int64_t reduction, const char* name, Make make) {
  TensorIterator it;
  it.addOutput(Tensor()).addInput(input).addInput(target).build();
  dispatchLoopFloating(it.loopComputeDtype(), name, [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, make(T{}));
  });
  return applyReduction(it.output(), reduction);
}

void l1LossK(Stack& s) {
  Args a(s, 3);
  Tensor d = kAbs(kSub(a.tensor(0), a.tensor(1), Scalar(int64_t(1))));
  a.ret(applyReduction(d, a.toInt(2)));
}

void mseLossK(Stack& s) {
  Args a(s, 3);
  a.ret(pointwiseLoss(a.tensor(0), a.tensor(1), a.toInt(2), "mse_cpu", [](auto t) {
    using T = decltype(t);
    return [](T x, T y) -> T { const T d = x - y; return d * d; };
  }));
}

void smoothL1LossK(Stack& s) {
  Args a(s, 4);
  const double beta = a.toDouble(3);
  KD_CHECK(beta >= 0, "smooth_l1_loss does not support negative values for beta.");
  if (beta == 0.0) {
    Tensor d = kAbs(kSub(a.tensor(0), a.tensor(1), Scalar(int64_t(1))));
    a.ret(applyReduction(d, a.toInt(2)));
    return;
  }
  a.ret(pointwiseLoss(a.tensor(0), a.tensor(1), a.toInt(2), "smooth_l1_cpu", [beta](auto t) {
    using T = decltype(t);
    const T b = static_cast<T>(beta);
    return [b](T x, T y) -> T {
      const T z = std::abs(x - y);
      return z < b ? T(0.5) * z * z / b : z - T(0.5) * b;
    };
  }));
}

void huberLossK(Stack& s) {
  Args a(s, 4);
  const double delta = a.toDouble(3);
  KD_CHECK(delta > 0, "huber_loss does not support non-positive values for delta.");
  a.ret(pointwiseLoss(a.tensor(0), a.tensor(1), a.toInt(2), "huber_cpu", [delta](auto t) {
    using T = decltype(t);
    const T dl = static_cast<T>(delta);
    return [dl](T x, T y) -> T {
      const T z = std::abs(x - y);
      return z < dl ? T(0.5) * z * z : dl * (z - T(0.5) * dl);
    };
  }));
}

void binaryCrossEntropyK(Stack& s) {
  Args a(s, 4);
  const Tensor& input = a.tensor(0);
  TensorIterator it;
  it.addOutput(Tensor()).addInput(input).addInput(a.tensor(1)).build();
  dispatchLoopFloating(it.loopComputeDtype(), "binary_cross_entropy", [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [](T x, T y) -> T {
      KD_CHECK(x >= T(0) && x <= T(1), "all elements of input should be between 0 and 1");
      return (y - T(1)) * std::max(T(std::log1p(-x)), T(-100)) - y * std::max(T(std::log(x)), T(-100));
    });
  });
  Tensor loss = it.output();
  Tensor weight = a.optTensor(2);
  if (weight.defined()) loss = kMul(loss, weight);
  a.ret(applyReduction(loss, a.toInt(3)));
}

void bceWithLogitsK(Stack& s) {
  Args a(s, 5);
  const Tensor input = a.tensor(0), target = a.tensor(1), weight = a.optTensor(2), posWeight = a.optTensor(3);
  const Scalar one(int64_t(1));
  Tensor maxVal = kClampMin(kNeg(input), Scalar(int64_t(0)));
  // log(exp(-m) + exp(-x - m)) + m = log(1 + exp(-x)) computed without overflow
  Tensor logTerm = kAdd(kLog(kAdd(kExp(kNeg(maxVal)), kExp(kSub(kNeg(input), maxVal, one)), one)), maxVal, one);
  Tensor loss = kMul(kRsubScalar(target, one, one), input);
  if (posWeight.defined()) {
    Tensor logWeight = kAddScalar(kMul(kSub(posWeight, Tensor::scalarTensor(one, posWeight.dtype()), one), target),
                                  one, one);
    loss = kAdd(loss, kMul(logWeight, logTerm), one);
  } else {
    loss = kAdd(loss, logTerm, one);
  }
  if (weight.defined()) loss = kMul(loss, weight);
  a.ret(applyReduction(loss, a.toInt(4)));
}

// ---------------------------------------------------------------- nll_loss

void checkTargetDtype(const Tensor& target, const char* op) {
  KD_CHECK(target.dtype() == ScalarType::Long || target.dtype() == ScalarType::Byte,
           "\"{}\" not implemented for '{}'", op, scalarTypeName(target.dtype()));
}

template <class TT>
int64_t targetAt(const TT* p, int64_t i) { return static_cast<int64_t>(p[i]); }

/// The shared loop: `rows` samples of `C` classes laid out as input[(b * C + c) * inner + k], targets
/// target[b * inner + k]. Per-element results go to `out` (reduction none) or are summed.
template <class T, class TT>
void nllFrame(const T* in, const TT* tg, const T* w, int64_t batch, int64_t C, int64_t inner, int64_t ignoreIndex,
              T* out, double& total, double& totalWeight) {
  total = 0;
  totalWeight = 0;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t k = 0; k < inner; ++k) {
      const int64_t t = targetAt(tg, b * inner + k);
      T v = 0;
      if (t != ignoreIndex) {
        KD_CHECK(t >= 0 && t < C, "Target {} is out of bounds.", t);
        const T wt = w ? w[t] : T(1);
        v = -in[(b * C + t) * inner + k] * wt;
        totalWeight += static_cast<double>(wt);
      }
      if (out) out[b * inner + k] = v;
      else total += static_cast<double>(v);
    }
}

/// input viewed as (batch, C, inner), target as (batch, inner); outShape is the reduction-none shape.
Tensor nllCore(const Tensor& input, const Tensor& target, const Tensor& weightIn, int64_t reduction,
               int64_t ignoreIndex, int64_t batch, int64_t C, int64_t inner, const IntArray& outShape,
               const char* op) {
  checkTargetDtype(target, op);
  Tensor in = input.contiguous(), tg = target.contiguous();
  Tensor w;
  if (weightIn.defined()) w = weightIn.to(in.dtype()).contiguous();
  Tensor result;
  dispatchLoopFloating(in.dtype(), op, [&](auto tag) {
    using T = decltype(tag);
    const T* wp = w.defined() ? w.data_ptr<T>() : nullptr;
    double total = 0, totalWeight = 0;
    auto run = [&](auto ttag, T* out) {
      using TT = decltype(ttag);
      nllFrame<T, TT>(in.data_ptr<T>(), tg.data_ptr<TT>(), wp, batch, C, inner, ignoreIndex, out, total,
                      totalWeight);
    };
    T* outp = nullptr;
    if (reduction == kNone) {
      result = Tensor::empty(outShape, in.dtype());
      outp = result.data_ptr<T>();
    }
    if (tg.dtype() == ScalarType::Long) run(int64_t{}, outp);
    else run(uint8_t{}, outp);
    if (reduction != kNone) {
      double v = total;
      if (reduction == kMeanRed) v = total / totalWeight;
      result = Tensor::scalarTensor(Scalar(v), in.dtype());
    }
  });
  return result;
}

Tensor nllLoss(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction,
               int64_t ignoreIndex) {
  KD_CHECK(self.dim() > 0 && self.dim() <= 2, "input tensor should be 1D or 2D");
  KD_CHECK(target.dim() <= 1, "0D or 1D target tensor expected, multi-target not supported");
  const bool noBatch = self.dim() == 1 && target.dim() == 0;
  KD_CHECK(noBatch || self.size(0) == target.size(0), "size mismatch (got input: {}, target: {})", self.sizesStr(),
           target.sizesStr());
  const int64_t C = self.size(-1);
  KD_CHECK(!weight.defined() || (weight.dim() <= 1 && weight.numel() == C),
           "weight tensor should be defined either for all {} classes or no classes but got weight tensor of "
           "shape: {}", C, weight.defined() ? weight.sizesStr() : std::string());
  const int64_t batch = self.dim() == 1 ? 1 : self.size(0);
  // reduction none gives one loss per sample for a batch, a 0-dim sum for a single 1-d input
  int64_t red = reduction;
  if (reduction == kNone && self.dim() == 1) red = kSumRed;
  return nllCore(self, target, weight, red, ignoreIndex, batch, C, 1, IntArray{batch}, "nll_loss_out_frame");
}

Tensor nllLoss2d(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction,
                 int64_t ignoreIndex) {
  KD_CHECK(target.dim() == 3, "only batches of spatial targets supported (3D tensors) but got targets of dimension: {}",
           target.dim());
  KD_CHECK(self.dim() == 4, "only batches of spatial inputs supported (4D tensors), but got input of dimension: {}",
           self.dim());
  const int64_t C = self.size(1);
  KD_CHECK(!weight.defined() || weight.numel() == C, "weight tensor should be defined either for all or no classes");
  KD_CHECK(self.size(0) == target.size(0) && self.size(2) == target.size(1) && self.size(3) == target.size(2),
           "input and target batch or spatial sizes don't match: target {}, input {}", target.sizesStr(),
           self.sizesStr());
  return nllCore(self, target, weight, reduction, ignoreIndex, self.size(0), C, self.size(2) * self.size(3),
                 target.sizes(), "nll_loss2d_forward_out_frame");
}

Tensor nllLossNd(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction,
                 int64_t ignoreIndex) {
  KD_CHECK(self.dim() >= 1, "Expected 1 or more dimensions (got {})", self.dim());
  KD_CHECK(self.dim() == 1 || self.size(0) == target.size(0),
           "Expected input batch_size ({}) to match target batch_size ({}).", self.size(0),
           target.dim() > 0 ? target.size(0) : int64_t(1));
  if (self.dim() <= 2) return nllLoss(self, target, weight, reduction, ignoreIndex);
  if (self.dim() == 4) return nllLoss2d(self, target, weight, reduction, ignoreIndex);
  const int64_t n = self.size(0), c = self.size(1);
  IntArray outSize{n};
  for (int64_t d = 2; d < self.dim(); ++d) outSize.push_back(self.size(d));
  IntArray targetRest(target.sizes().begin() + (target.dim() > 0 ? 1 : 0), target.sizes().end());
  IntArray inputRest(self.sizes().begin() + 2, self.sizes().end());
  KD_CHECK(targetRest == inputRest, "Expected target size {}, got {}", Tensor::empty(outSize).sizesStr(),
           target.sizesStr());
  Tensor in = self.contiguous(), tg = target.contiguous();
  in = in.numel() > 0 ? in.view({n, c, 1, -1}) : in.view({n, c, 0, 0});
  tg = tg.numel() > 0 ? tg.view({n, 1, -1}) : tg.view({n, 0, 0});
  Tensor out = nllLoss2d(in, tg, weight, reduction, ignoreIndex);
  return reduction == kNone ? out.view(outSize) : out;
}

void nllLossK(Stack& s) {
  Args a(s, 5);
  a.ret(nllLoss(a.tensor(0), a.tensor(1), a.optTensor(2), a.toInt(3), a.toInt(4)));
}
void nllLoss2dK(Stack& s) {
  Args a(s, 5);
  a.ret(nllLoss2d(a.tensor(0), a.tensor(1), a.optTensor(2), a.toInt(3), a.toInt(4)));
}
void nllLossNdK(Stack& s) {
  Args a(s, 5);
  a.ret(nllLossNd(a.tensor(0), a.tensor(1), a.optTensor(2), a.toInt(3), a.toInt(4)));
}

// ---------------------------------------------------------------- cross_entropy_loss

/// weight (C) viewed to broadcast along the class dim of an input of rank `ndim`.
Tensor classWeightView(const Tensor& weight, int64_t ndim, int64_t classDim) {
  if (ndim <= 1) return weight;
  IntArray shape(static_cast<size_t>(ndim), 1);
  shape[static_cast<size_t>(classDim)] = weight.size(0);
  return weight.view(shape);
}

Tensor crossEntropyProbTarget(const Tensor& self, const Tensor& targetIn, const Tensor& weight, int64_t reduction,
                              double labelSmoothing) {
  const int64_t classDim = self.dim() == 1 ? 0 : 1;
  const int64_t C = self.size(classDim);
  KD_CHECK(!weight.defined() || (weight.dim() == 1 && weight.numel() == C),
           "cross_entropy: weight tensor should be defined either for all {} classes or no classes but got weight "
           "tensor of shape: {}", C, weight.defined() ? weight.sizesStr() : std::string());
  const Scalar one(int64_t(1));
  Tensor input = kLogSoftmax(self, classDim, IValue(static_cast<int64_t>(self.dtype())));
  Tensor target = targetIn;
  if (labelSmoothing > 0.0) {
    KD_CHECK(labelSmoothing <= 1.0, "label_smoothing must be between 0.0 and 1.0. Got: {}", labelSmoothing);
    target = kAddScalar(kMulScalar(targetIn, Scalar(1 - labelSmoothing)), Scalar(labelSmoothing / C), one);
  }
  Tensor prod = kMul(input, target);
  if (weight.defined()) prod = kMul(prod, classWeightView(weight, input.dim(), classDim));
  switch (reduction) {
    case kMeanRed: {
      Tensor total = kNeg(kSum(prod, IValue()));
      if (input.numel() == 0) return total.fill_(Scalar(std::numeric_limits<double>::quiet_NaN()));
      return kDiv(total, Tensor::scalarTensor(Scalar(input.numel() / C), ScalarType::Long));
    }
    case kSumRed: return kNeg(kSum(prod, IValue()));
    default: return kNeg(kSumDim(prod, intListIValue({classDim}), false, IValue()));
  }
}

Tensor crossEntropyLabelSmoothing(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction,
                                  int64_t ignoreIndex, double labelSmoothing) {
  const int64_t classDim = self.dim() == 1 ? 0 : 1;
  Tensor input = kLogSoftmax(self, classDim, IValue(static_cast<int64_t>(self.dtype())));
  Tensor nll = nllLossNd(input, target, weight, reduction, ignoreIndex);
  const int64_t C = input.size(classDim);
  Tensor ignoreMask = kEqScalar(target, Scalar(ignoreIndex));
  Tensor smooth;
  if (weight.defined())
    smooth = kNeg(kSumDim(kMul(input, classWeightView(weight, input.dim(), classDim)), intListIValue({classDim}),
                          false, IValue()));
  else
    smooth = kNeg(kSumDim(input, intListIValue({classDim}), false, IValue()));
  smooth = kMaskedFill(smooth, ignoreMask, Scalar(0.0));
  Tensor ret;
  switch (reduction) {
    case kMeanRed:
      if (weight.defined()) {
        // normalized by the weights of the counted targets, as nll_loss_nd
        Tensor picked = kFlatten(kMaskedSelect(target, kLogicalNot(ignoreMask)), int64_t(0), int64_t(-1));
        ret = kDiv(kSum(smooth, IValue()), kSum(kGather(weight, int64_t(0), picked, false), IValue()));
      } else {
        ret = kDiv(kSum(smooth, IValue()), kSum(kLogicalNot(ignoreMask), IValue()));
      }
      break;
    case kSumRed: ret = kSum(smooth, IValue()); break;
    default: ret = smooth; break;
  }
  const Scalar one(int64_t(1));
  return kAdd(kMulScalar(nll, Scalar(1 - labelSmoothing)), kMulScalar(ret, Scalar(labelSmoothing / C)), one);
}

void crossEntropyLossK(Stack& s) {
  Args a(s, 6);
  const Tensor self = a.tensor(0), target = a.tensor(1), weight = a.optTensor(2);
  const int64_t reduction = a.toInt(3), ignoreIndex = a.toInt(4);
  const double labelSmoothing = a.toDouble(5);
  Tensor ret;
  if (self.sizes() == target.sizes()) {
    // class probabilities: the target has the input's shape
    KD_CHECK(isFloatingType(target.dtype()),
             "Expected floating point type for target with class probabilities, got {}", scalarTypeName(target.dtype()));
    KD_CHECK(ignoreIndex < 0, "ignore_index is not supported for floating point target");
    ret = crossEntropyProbTarget(self, target, weight, reduction, labelSmoothing);
  } else if (labelSmoothing > 0.0) {
    KD_CHECK(labelSmoothing <= 1.0, "label_smoothing must be between 0.0 and 1.0. Got: {}", labelSmoothing);
    ret = crossEntropyLabelSmoothing(self, target, weight, reduction, ignoreIndex, labelSmoothing);
  } else {
    const int64_t classDim = self.dim() == 1 ? 0 : 1;
    ret = nllLossNd(kLogSoftmax(self, classDim, IValue(static_cast<int64_t>(self.dtype()))), target, weight,
                    reduction, ignoreIndex);
  }
  a.ret(ret);
}

}  // namespace

void registerLossOps(OperatorRegistry& r) {
  r.add("aten::l1_loss(Tensor self, Tensor target, int reduction=1) -> Tensor", l1LossK);
  r.add("aten::mse_loss(Tensor self, Tensor target, int reduction=1) -> Tensor", mseLossK);
  r.add("aten::smooth_l1_loss(Tensor self, Tensor target, int reduction=1, float beta=1.) -> Tensor", smoothL1LossK);
  r.add("aten::huber_loss(Tensor self, Tensor target, int reduction=1, float delta=1.) -> Tensor", huberLossK);
  r.add("aten::binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, int reduction=1) -> Tensor",
        binaryCrossEntropyK);
  r.add("aten::binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? weight=None, Tensor? "
        "pos_weight=None, int reduction=1) -> Tensor",
        bceWithLogitsK);
  r.add("aten::nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, int ignore_index=-100) -> "
        "Tensor",
        nllLossK);
  r.add("aten::nll_loss2d(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, int ignore_index=-100) "
        "-> Tensor",
        nllLoss2dK);
  r.add("aten::nll_loss_nd(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, int ignore_index=-100) "
        "-> Tensor",
        nllLossNdK);
  r.add("aten::cross_entropy_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, int "
        "ignore_index=-100, float label_smoothing=0.) -> Tensor",
        crossEntropyLossK);
}

}  // namespace kindling
