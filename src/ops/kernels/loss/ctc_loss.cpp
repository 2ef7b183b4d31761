// aten::ctc_loss (IntList and Tensor lengths), the operator F.ctc_loss ends in (PyTorch 1.13 CPU semantics):
// log_probs (T, N, C) or unbatched (T, C); targets padded (N, S) or concatenated 1-d (sum of target_lengths);
// per sample the negative log likelihood of its target under the connectionist temporal classification
// alignment model, computed by the forward (alpha) recursion in log space over the target with blanks
// interleaved (2 L + 1 states). zero_infinity turns infinite losses (impossible alignments) into 0.
// reduction 0 none (N), 1 mean (each loss divided by its clamped-to-1 target length, then averaged), 2 sum.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "ops/registry/kernel_args.h"
#include "ops/registry/operator.h"
#include "tensor/tensor_iterator.h"

namespace kindling {

namespace {

IntArray lengthsFromTensor(const Tensor& t, const char* what) {
  KD_CHECK(isIntegralType(t.dtype(), false), "{} must be integral", what);
  const Tensor c = t.to(ScalarType::Long).contiguous();
  const int64_t* p = c.data_ptr<int64_t>();
  return IntArray(p, p + c.numel());
}

template <class T>
T logSumExp3(T a, T b, T c) {
  T m = std::max(a, std::max(b, c));
  if (m == -std::numeric_limits<T>::infinity()) m = 0;
  return std::log(std::exp(a - m) + std::exp(b - m) + std::exp(c - m)) + m;
}

Tensor ctcLoss(const Tensor& logProbsIn, const Tensor& targetsIn, const IntArray& inputLengths,
               const IntArray& targetLengths, int64_t blank, int64_t reduction, bool zeroInfinity) {
  const bool batched = logProbsIn.dim() == 3;
  KD_CHECK(logProbsIn.dim() == 3 || logProbsIn.dim() == 2, "ctc_loss: expected log_probs to be 2-D or 3-D, got {}-D",
           logProbsIn.dim());
  const Tensor logProbs = (batched ? logProbsIn : logProbsIn.unsqueeze(1)).contiguous();
  const Tensor targets = (batched || targetsIn.dim() != 1 ? targetsIn : targetsIn.unsqueeze(0)).to(ScalarType::Long)
                             .contiguous();
  const int64_t T = logProbs.size(0), N = logProbs.size(1), C = logProbs.size(2);
  KD_CHECK(blank >= 0 && blank < C, "blank must be in label range");
  KD_CHECK(static_cast<int64_t>(inputLengths.size()) == N, "input_lengths must be of size batch_size");
  KD_CHECK(static_cast<int64_t>(targetLengths.size()) == N, "target_lengths must be of size batch_size");
  // where each sample's target starts, and the stride between its labels
  std::vector<int64_t> offsets(static_cast<size_t>(N));
  int64_t labelStride = 1, maxTarget = 0;
  const bool concatenated = targets.dim() == 1;
  if (concatenated) {
    int64_t pos = 0;
    for (int64_t b = 0; b < N; ++b) {
      offsets[static_cast<size_t>(b)] = pos;
      pos += targetLengths[static_cast<size_t>(b)];
      maxTarget = std::max(maxTarget, targetLengths[static_cast<size_t>(b)]);
    }
    KD_CHECK(targets.size(0) >= pos, "Expected tensor to have size at least {} at dimension 0, but got size {} for "
             "argument #2 'targets' (while checking arguments for ctc_loss_cpu)", pos, targets.size(0));
  } else {
    KD_CHECK(targets.dim() == 2 && targets.size(0) == N, "ctc_loss: targets must be 1-D or (batch_size, S), got {}",
             targets.sizesStr());
    for (int64_t b = 0; b < N; ++b) {
      offsets[static_cast<size_t>(b)] = b * targets.size(1);
      maxTarget = std::max(maxTarget, targetLengths[static_cast<size_t>(b)]);
    }
    KD_CHECK(targets.size(1) >= maxTarget, "Expected tensor to have size at least {} at dimension 1, but got size {} "
             "for argument #2 'targets' (while checking arguments for ctc_loss_cpu)", maxTarget, targets.size(1));
  }
  for (int64_t b = 0; b < N; ++b)
    KD_CHECK(inputLengths[static_cast<size_t>(b)] <= T, "Expected input_lengths to have value at most {}, but got "
             "value {} (while checking arguments for ctc_loss_cpu)", T, inputLengths[static_cast<size_t>(b)]);
  Tensor losses = Tensor::empty({N}, logProbs.dtype());
  dispatchLoopFloating(logProbs.dtype(), "ctc_loss_cpu", [&](auto tag) {
    using F = decltype(tag);
    const F ninf = -std::numeric_limits<F>::infinity();
    const F* lp = logProbs.data_ptr<F>();
    const int64_t* tg = targets.data_ptr<int64_t>();
    F* out = losses.data_ptr<F>();
    for (int64_t b = 0; b < N; ++b) {
      const int64_t L = targetLengths[static_cast<size_t>(b)], Tb = inputLengths[static_cast<size_t>(b)];
      const int64_t S = 2 * L + 1;
      const int64_t* tgb = tg + offsets[static_cast<size_t>(b)] * labelStride;
      auto prime = [&](int64_t s) { return s % 2 == 0 ? blank : tgb[s / 2]; };
      auto logp = [&](int64_t t, int64_t c) { return lp[(t * N + b) * C + c]; };
      if (Tb == 0) {  // no frames: only an empty target has an alignment
        out[b] = L == 0 ? F(0) : std::numeric_limits<F>::infinity();
        continue;
      }
      std::vector<F> prev(static_cast<size_t>(S), ninf), cur(static_cast<size_t>(S), ninf);
      prev[0] = logp(0, blank);
      if (L > 0) prev[1] = logp(0, prime(1));
      for (int64_t t = 1; t < Tb; ++t) {
        for (int64_t s = 0; s < S; ++s) {
          const int64_t cp = prime(s);
          const F a1 = prev[static_cast<size_t>(s)];
          const F a2 = s > 0 ? prev[static_cast<size_t>(s - 1)] : ninf;
          const F a3 = s > 1 && cp != prime(s - 2) ? prev[static_cast<size_t>(s - 2)] : ninf;
          cur[static_cast<size_t>(s)] = logSumExp3(a1, a2, a3) + logp(t, cp);
        }
        std::swap(prev, cur);
      }
      F ll;
      if (L == 0) {
        ll = prev[0];
      } else {
        const F l1 = prev[static_cast<size_t>(2 * L)], l2 = prev[static_cast<size_t>(2 * L - 1)];
        F m = std::max(l1, l2);
        if (m == ninf) m = 0;
        ll = std::log(std::exp(l1 - m) + std::exp(l2 - m)) + m;
      }
      out[b] = -ll;
      if (zeroInfinity && out[b] == std::numeric_limits<F>::infinity()) out[b] = 0;
    }
  });
  Tensor res = losses;
  if (reduction == 1) {
    double total = 0;
    for (int64_t b = 0; b < N; ++b)
      total += losses.doubleAt(b) /
               static_cast<double>(std::max<int64_t>(targetLengths[static_cast<size_t>(b)], 1));
    return Tensor::scalarTensor(Scalar(total / static_cast<double>(N)), logProbs.dtype());
  }
  if (reduction == 2) {
    double total = 0;
    for (int64_t b = 0; b < N; ++b) total += losses.doubleAt(b);
    return Tensor::scalarTensor(Scalar(total), logProbs.dtype());
  }
  return batched ? res : res.squeeze(0);
}

void ctcLossIntListK(Stack& s) {
  Args a(s, 7);
  a.ret(ctcLoss(a.tensor(0), a.tensor(1), a.intList(2), a.intList(3), a.toInt(4), a.toInt(5), a.toBool(6)));
}

void ctcLossTensorK(Stack& s) {
  Args a(s, 7);
  const IntArray il = lengthsFromTensor(a.tensor(2), "input_lengths");
  const IntArray tl = lengthsFromTensor(a.tensor(3), "target_lengths");
  a.ret(ctcLoss(a.tensor(0), a.tensor(1), il, tl, a.toInt(4), a.toInt(5), a.toBool(6)));
}

}  // namespace

void registerCtcLossOps(OperatorRegistry& r) {
  r.add("aten::ctc_loss.IntList(Tensor log_probs, Tensor targets, int[] input_lengths, int[] target_lengths, int "
        "blank=0, int reduction=1, bool zero_infinity=False) -> Tensor",
        ctcLossIntListK);
  r.add("aten::ctc_loss.Tensor(Tensor log_probs, Tensor targets, Tensor input_lengths, Tensor target_lengths, int "
        "blank=0, int reduction=1, bool zero_infinity=False) -> Tensor",
        ctcLossTensorK);
}

}  // namespace kindling
