// Margin losses and max-unpooling that torch.nn.functional's bodies end in (PyTorch 1.13 CPU semantics):
//   aten::multi_margin_loss(self (N, C) | (C), target (N) | (), p (1 or 2), margin, weight (C)?, reduction):
//       per sample sum over classes d != y of max(0, margin - x[y] + x[d])^p (times weight[y]), divided by C;
//   aten::multilabel_margin_loss(self, target (same shape, class indices ended by -1), reduction): per sample
//       sum over target classes j and non-target classes i of max(0, 1 - x[j] + x[i]), divided by C;
//   aten::triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, reduction):
//       max(0, margin + d(a, p) - d(a, n)) with pairwise p-norm distances (d(a, n) replaced by
//       min(d(a, n), d(p, n)) when swap);
//   aten::max_unpool2d(self, indices, output_size) / max_unpool3d(self, indices, output_size, stride, padding):
//       zeros of the output size with each input value written at its flat index in its (N, C) plane.
// reduction: 0 none (one loss per sample for a batch, a 0-dim loss for a single sample), 1 mean, 2 sum.
#include <cmath>
#include <vector>

#include "ops/registry/kernel_args.h"
#include "ops/kernels/loss/loss_reduction.h"
#include "ops/registry/op_call.h"
#include "ops/registry/operator.h"
#include "tensor/tensor_iterator.h"

namespace kindling {

namespace {

const OpHandle kPairwiseDistance("aten::pairwise_distance");
const OpHandle kMinOther("aten::min.other");
const OpHandle kClampMin("aten::clamp_min");
const OpHandle kAddScalar("aten::add.Scalar");
const OpHandle kSub("aten::sub.Tensor");

Tensor applyReduction(const Tensor& loss, int64_t reduction) { return applyLossReduction(loss, reduction); }

/// (nframe, dim) of a margin-loss input: a vector is one frame, a 0-dim input one frame of one class.
void frames(const Tensor& input, int64_t& nframe, int64_t& dim) {
  const int64_t nd = input.dim();
  KD_CHECK((nd == 2 && input.size(1) != 0) || (nd == 1 && input.size(0) != 0) || nd == 0,
           "Expected non-empty vector or matrix with optional 0-dim batch size, but got: {}", input.sizesStr());
  nframe = nd <= 1 ? 1 : input.size(0);
  dim = nd == 0 ? 1 : input.size(nd - 1);
}

/// per-frame losses into a result of PyTorch's shape (reduction none keeps the frames of a batch)
template <class T>
Tensor framesResult(const std::vector<double>& per, int64_t reduction, bool keepFrames, ScalarType dt) {
  if (reduction == 0 && keepFrames) {
    Tensor out = Tensor::empty({static_cast<int64_t>(per.size())}, dt);
    T* o = out.data_ptr<T>();
    for (size_t i = 0; i < per.size(); ++i) o[i] = static_cast<T>(per[i]);
    return out;
  }
  double total = 0;
  for (double v : per) total += v;
  if (reduction == 1) total /= static_cast<double>(per.size());
  return Tensor::scalarTensor(Scalar(total), dt);
}

void multiMarginLossK(Stack& s) {
  Args a(s, 6);
  const Tensor input = a.tensor(0).contiguous(), target = a.tensor(1).contiguous();
  const Tensor weightIn = a.optTensor(4);
  const int64_t p = a.scalar(2).toLong();
  const double margin = a.scalar(3).toDouble();
  const int64_t reduction = a.toInt(5);
  KD_CHECK(p == 1 || p == 2, "only p == 1 and p == 2 supported");
  int64_t nframe = 0, dim = 0;
  frames(input, nframe, dim);
  KD_CHECK(target.dim() <= 1 && target.numel() == nframe, "inconsistent target size, expected {} but got {}", nframe,
           target.sizesStr());
  KD_CHECK(target.dtype() == ScalarType::Long, "expected scalar type Long but found {}", scalarTypeName(target.dtype()));
  Tensor weight;
  if (weightIn.defined()) {
    KD_CHECK(weightIn.dim() <= 1 && weightIn.numel() == dim, "inconsistent weight size, expected {} but got {}", dim,
             weightIn.sizesStr());
    weight = weightIn.to(input.dtype()).contiguous();
  }
  Tensor result;
  dispatchLoopFloating(input.dtype(), "multi_margin_loss_cpu_kernel", [&](auto tag) {
    using T = decltype(tag);
    const T* x = input.data_ptr<T>();
    const int64_t* y = target.data_ptr<int64_t>();
    const T* w = weight.defined() ? weight.data_ptr<T>() : nullptr;
    std::vector<double> per(static_cast<size_t>(nframe));
    for (int64_t t = 0; t < nframe; ++t) {
      const int64_t yi = y[t];
      KD_CHECK(yi >= 0 && yi < dim, "target out of range");
      const T* row = x + t * dim;
      T sum = 0;
      for (int64_t d = 0; d < dim; ++d) {
        if (d == yi) continue;
        const T z = static_cast<T>(margin) - row[yi] + row[d];
        if (z > 0) {
          T h = p == 1 ? z : z * z;
          if (w) h *= w[yi];
          sum += h;
        }
      }
      per[static_cast<size_t>(t)] = static_cast<double>(sum / static_cast<T>(dim));
    }
    result = framesResult<T>(per, reduction, target.dim() > 0, input.dtype());
  });
  a.ret(result);
}

void multilabelMarginLossK(Stack& s) {
  Args a(s, 3);
  const Tensor input = a.tensor(0).contiguous(), target = a.tensor(1).contiguous();
  const int64_t reduction = a.toInt(2);
  int64_t nframe = 0, dim = 0;
  frames(input, nframe, dim);
  if (input.dim() <= 1)
    KD_CHECK(target.dim() <= 1 && target.numel() == dim, "inconsistent target size: {} for input of size: {}",
             target.sizesStr(), input.sizesStr());
  else
    KD_CHECK(target.dim() == 2 && target.size(0) == nframe && target.size(1) == dim,
             "inconsistent target size: {} for input of size: {}", target.sizesStr(), input.sizesStr());
  KD_CHECK(target.dtype() == ScalarType::Long, "expected scalar type Long but found {}", scalarTypeName(target.dtype()));
  Tensor result;
  dispatchLoopFloating(input.dtype(), "multilabel_margin_loss_forward_out_frame", [&](auto tag) {
    using T = decltype(tag);
    const T* x = input.data_ptr<T>();
    const int64_t* y = target.data_ptr<int64_t>();
    std::vector<double> per(static_cast<size_t>(nframe));
    std::vector<char> isTarget(static_cast<size_t>(dim));
    for (int64_t t = 0; t < nframe; ++t) {
      const T* row = x + t * dim;
      const int64_t* tg = y + t * dim;
      std::fill(isTarget.begin(), isTarget.end(), 0);
      for (int64_t j = 0; j < dim; ++j) {
        const int64_t ti = tg[j];
        if (ti < 0) break;
        KD_CHECK(ti < dim, "target out of range");
        isTarget[static_cast<size_t>(ti)] = 1;
      }
      T sum = 0;
      for (int64_t j = 0; j < dim; ++j) {
        const int64_t ti = tg[j];
        if (ti < 0) break;
        for (int64_t i = 0; i < dim; ++i) {
          if (isTarget[static_cast<size_t>(i)]) continue;
          const T z = 1 - row[ti] + row[i];
          if (z > 0) sum += z;
        }
      }
      per[static_cast<size_t>(t)] = static_cast<double>(sum / static_cast<T>(dim));
    }
    result = framesResult<T>(per, reduction, target.dim() > 1, input.dtype());
  });
  a.ret(result);
}

void tripletMarginLossK(Stack& s) {
  Args a(s, 8);
  const Tensor anchor = a.tensor(0), positive = a.tensor(1), negative = a.tensor(2);
  const double margin = a.toDouble(3), p = a.toDouble(4), eps = a.toDouble(5);
  KD_CHECK(anchor.dim() == positive.dim() && positive.dim() == negative.dim(),
           "All inputs should have same dimension but got {}D, {}D and {}D inputs.", anchor.dim(), positive.dim(),
           negative.dim());
  const Tensor distPos = kPairwiseDistance(anchor, positive, p, eps, false);
  Tensor distNeg = kPairwiseDistance(anchor, negative, p, eps, false);
  if (a.toBool(6)) distNeg = kMinOther(distNeg, kPairwiseDistance(positive, negative, p, eps, false));
  const Scalar one(int64_t(1));
  const Tensor out = kClampMin(kSub(kAddScalar(distPos, Scalar(margin), one), distNeg, one), Scalar(int64_t(0)));
  a.ret(applyReduction(out, a.toInt(7)));
}

// ---------------------------------------------------------------- max_unpool

/// input/indices viewed as (planes, inner) scattered into out planes of `outPlane` elements.
Tensor maxUnpool(const Tensor& self, const Tensor& indices, const IntArray& outSpatial, int spatialDims) {
  KD_CHECK(indices.dtype() == ScalarType::Long, "elements in indices should be type int64 but got: {}",
           scalarTypeName(indices.dtype()));
  KD_CHECK(self.sizes() == indices.sizes(),
           "Expected shape of indices to be same as that of the input tensor ({}) but got indices tensor with shape: {}",
           self.sizesStr(), indices.sizesStr());
  const Tensor in = self.contiguous(), idx = indices.contiguous();
  int64_t outPlane = 1;
  for (int64_t v : outSpatial) outPlane *= v;
  IntArray outShape(self.sizes().begin(), self.sizes().end() - spatialDims);
  for (int64_t v : outSpatial) outShape.push_back(v);
  int64_t inner = 1;
  for (int64_t d = self.dim() - spatialDims; d < self.dim(); ++d) inner *= self.size(d);
  const int64_t planes = inner == 0 ? 0 : self.numel() / inner;
  Tensor out = Tensor::zeros(outShape, self.dtype());
  dispatchLoopTypesNoBool(self.dtype(), "max_unpooling", [&](auto tag) {
    using T = decltype(tag);
    const T* x = in.data_ptr<T>();
    const int64_t* ix = idx.data_ptr<int64_t>();
    T* o = out.data_ptr<T>();
    for (int64_t pl = 0; pl < planes; ++pl)
      for (int64_t k = 0; k < inner; ++k) {
        const int64_t m = ix[pl * inner + k];
        if (m < 0 || m >= outPlane) {
          if (spatialDims == 2)
            throw RuntimeError(fmt::format("Found an invalid max index: {} (output volumes are of size {}x{}", m,
                                           outSpatial[0], outSpatial[1]));
          throw RuntimeError(fmt::format("Found an invalid max index: {} (output volumes are of size {}x{}x{}", m,
                                         outSpatial[0], outSpatial[1], outSpatial[2]));
        }
        o[pl * outPlane + m] = x[pl * inner + k];
      }
  });
  return out;
}

void maxUnpool2dK(Stack& s) {
  Args a(s, 3);
  const Tensor self = a.tensor(0);
  const IntArray outSize = a.intList(2, 2);
  KD_CHECK(outSize.size() == 2, "There should be exactly two elements (height, width) in output_size, but got {} "
           "elements.", outSize.size());
  KD_CHECK(self.dim() == 3 || self.dim() == 4,
           "Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with {} dimensions.", self.dim());
  a.ret(maxUnpool(self, a.tensor(1), outSize, 2));
}

void maxUnpool3dK(Stack& s) {
  Args a(s, 5);
  const Tensor self = a.tensor(0);
  const IntArray outSize = a.intList(2, 3), stride = a.intList(3, 3), padding = a.intList(4, 3);
  KD_CHECK(self.dim() == 4 || self.dim() == 5,
           "Input to max_unpooling3d should be a 4d or 5d Tensor, but got a tensor with {} dimensions.", self.dim());
  KD_CHECK(outSize.size() == 3, "There should be exactly three elements (depth, height, width) in output_size, but "
           "got: {} elements.", outSize.size());
  KD_CHECK(stride.size() == 3, "There should be exactly three elements (depth, height, width) in stride, but got: {} "
           "elements.", stride.size());
  KD_CHECK(padding.size() == 3, "There should be exactly three elements (depth, height, width) in padding, but got: "
           "{} elements.", padding.size());
  KD_CHECK(stride[0] > 0 && stride[1] > 0 && stride[2] > 0,
           "strides should be greater than zero, but got stride: [{}, {}, {}]", stride[0], stride[1], stride[2]);
  a.ret(maxUnpool(self, a.tensor(1), outSize, 3));
}

}  // namespace

void registerMarginLossOps(OperatorRegistry& r) {
  r.add("aten::multi_margin_loss(Tensor self, Tensor target, Scalar p=1, Scalar margin=1, Tensor? weight=None, int "
        "reduction=1) -> Tensor",
        multiMarginLossK);
  r.add("aten::multilabel_margin_loss(Tensor self, Tensor target, int reduction=1) -> Tensor", multilabelMarginLossK);
  r.add("aten::triplet_margin_loss(Tensor anchor, Tensor positive, Tensor negative, float margin=1., float p=2., "
        "float eps=9.9999999999999995e-07, bool swap=False, int reduction=1) -> Tensor",
        tripletMarginLossK);
  r.add("aten::max_unpool2d(Tensor self, Tensor indices, int[2] output_size) -> Tensor", maxUnpool2dK);
  r.add("aten::max_unpool3d(Tensor self, Tensor indices, int[3] output_size, int[3] stride, int[3] padding) -> Tensor",
        maxUnpool3dK);
}

}  // namespace kindling
