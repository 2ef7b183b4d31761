// Pairwise distances, as torch.cdist's TorchScript body (torch/functional.py) reaches them in PyTorch 1.13:
//   aten::cdist(x1 (B.., R1, C), x2 (B.., R2, C), p, compute_mode) -> (B.., R1, R2): for p == 2 with
//       compute_mode 1 ("use_mm_for_euclid_dist"), or None when R1 or R2 exceeds 25, the matrix-product form
//       (aten::_euclidean_dist); otherwise aten::_cdist_forward, the direct p-norm of every row difference
//       (p 0 counts non-zero differences, p inf is the largest one). Batch dims broadcast.
//   aten::_euclidean_dist(x1, x2): sqrt(clamp_min(|a|^2 - 2 a.b + |b|^2, 0)) through one matmul of
//       [-2 x1, |x1|^2, 1] and [x2, 1, |x2|^2], as ATen computes it.
// Float and double; errors as ATen's ("cdist only supports at least 2D tensors, X1 got: 1D", ...).
#include <cmath>
#include <limits>
#include <vector>

#include "ops/registry/kernel_args.h"
#include "ops/registry/list_args.h"
#include "ops/registry/op_call.h"
#include "ops/registry/operator.h"
#include "tensor/tensor_iterator.h"
#include "tensor/type_promotion.h"

namespace kindling {

namespace {

const OpHandle kPow("aten::pow.Tensor_Scalar");
const OpHandle kSumDim("aten::sum.dim_IntList");
const OpHandle kOnesLike("aten::ones_like");
const OpHandle kMulScalar("aten::mul.Scalar");
const OpHandle kCat("aten::cat");
const OpHandle kMatmul("aten::matmul");
const OpHandle kClampMin_("aten::clamp_min_");
const OpHandle kSqrt_("aten::sqrt_");

Tensor euclideanDist(const Tensor& x1, const Tensor& x2) {
  const IValue lastDim = intListIValue({-1});
  const Scalar two(int64_t(2));
  Tensor n1 = kSumDim(kPow(x1, two), lastDim, true, IValue());
  Tensor pad1 = kOnesLike(n1, IValue(), IValue(), IValue(), IValue(), IValue());
  Tensor n2 = kSumDim(kPow(x2, two), lastDim, true, IValue());
  Tensor pad2 = kOnesLike(n2, IValue(), IValue(), IValue(), IValue(), IValue());
  Tensor a = kCat(tensorListIValue({kMulScalar(x1, Scalar(int64_t(-2))), n1, pad1}), int64_t(-1));
  Tensor b = kCat(tensorListIValue({x2, pad2, n2}), int64_t(-1));
  Tensor r = kMatmul(a, b.transpose(-2, -1));
  kClampMin_(r, Scalar(int64_t(0)));
  kSqrt_(r);
  return r;
}

/// Direct distances of contiguous (B, R1, C) and (B, R2, C) into out (B, R1, R2).
template <class T>
void directDist(const T* a, const T* b, T* out, int64_t B, int64_t R1, int64_t R2, int64_t C, double p) {
  const bool inf = std::isinf(p);
#pragma omp parallel for collapse(2) if (B * R1 * R2 * C > 32768)
  for (int64_t bi = 0; bi < B; ++bi)
    for (int64_t i = 0; i < R1; ++i) {
      const T* ra = a + (bi * R1 + i) * C;
      for (int64_t j = 0; j < R2; ++j) {
        const T* rb = b + (bi * R2 + j) * C;
        T acc = 0;
        for (int64_t k = 0; k < C; ++k) {
          const T d = std::abs(ra[k] - rb[k]);
          if (p == 0) acc += d != T(0) ? T(1) : T(0);
          else if (p == 1) acc += d;
          else if (p == 2) acc += d * d;
          else if (inf) acc = std::max(acc, d);
          else acc += std::pow(d, static_cast<T>(p));
        }
        T r = acc;
        if (p == 2) r = std::sqrt(acc);
        else if (p != 0 && p != 1 && !inf) r = std::pow(acc, static_cast<T>(1.0 / p));
        out[(bi * R1 + i) * R2 + j] = r;
      }
    }
}

Tensor cdistImpl(const Tensor& x1, const Tensor& x2, double p, std::optional<int64_t> computeMode) {
  KD_CHECK(isFloatingType(x1.dtype()), "cdist only supports floating-point dtypes, X1 got: {}",
           scalarTypeName(x1.dtype()));
  KD_CHECK(isFloatingType(x2.dtype()), "cdist only supports floating-point dtypes, X2 got: {}",
           scalarTypeName(x2.dtype()));
  KD_CHECK(p >= 0, "cdist only supports non-negative p values");
  const int64_t mode = computeMode.value_or(0);
  KD_CHECK(mode >= 0 && mode <= 2, "possible modes: 0, 1, 2, but was: {}", mode);
  const int64_t r1 = x1.size(-2), r2 = x2.size(-2), c = x1.size(-1);
  const IntArray batch1(x1.sizes().begin(), x1.sizes().end() - 2), batch2(x2.sizes().begin(), x2.sizes().end() - 2);
  const IntArray batch = inferSize(batch1, batch2);
  int64_t nb = 1;
  for (int64_t v : batch) nb *= v;
  IntArray e1 = batch, e2 = batch, outShape = batch;
  e1.insert(e1.end(), {r1, c});
  e2.insert(e2.end(), {r2, c});
  outShape.insert(outShape.end(), {r1, r2});
  if (r1 == 0 || r2 == 0 || nb == 0) return Tensor::empty(outShape, x1.dtype());
  if (c == 0) return Tensor::zeros(outShape, x1.dtype());
  const Tensor t1 = x1.expand(e1).contiguous().view({nb, r1, c});
  const Tensor t2 = x2.expand(e2).contiguous().view({nb, r2, c});
  if (p == 2 && (mode == 1 || (mode == 0 && (r1 > 25 || r2 > 25)))) {
    Tensor r = nb == 1 ? euclideanDist(x1, x2) : euclideanDist(t1, t2);
    return r.reshape(outShape);
  }
  KD_CHECK(x1.dtype() == x2.dtype(), "expected scalar type {} but found {}", scalarTypeName(x1.dtype()),
           scalarTypeName(x2.dtype()));
  Tensor out = Tensor::empty(outShape, x1.dtype());
  dispatchLoopFloating(x1.dtype(), "cdist", [&](auto tag) {
    using T = decltype(tag);
    directDist<T>(t1.data_ptr<T>(), t2.data_ptr<T>(), out.data_ptr<T>(), nb, r1, r2, c, p);
  });
  return out;
}

void checkCdistArgs(const Tensor& x1, const Tensor& x2) {
  KD_CHECK(x1.dim() >= 2, "cdist only supports at least 2D tensors, X1 got: {}D", x1.dim());
  KD_CHECK(x2.dim() >= 2, "cdist only supports at least 2D tensors, X2 got: {}D", x2.dim());
  KD_CHECK(x1.size(-1) == x2.size(-1), "X1 and X2 must have the same number of columns. X1: {} X2: {}", x1.size(-1),
           x2.size(-1));
}

void cdistK(Stack& s) {
  Args a(s, 4);
  const Tensor x1 = a.tensor(0), x2 = a.tensor(1);
  checkCdistArgs(x1, x2);
  a.ret(cdistImpl(x1, x2, a.toDouble(2), a.optInt(3)));
}

void euclideanDistK(Stack& s) {
  Args a(s, 2);
  a.ret(euclideanDist(a.tensor(0), a.tensor(1)));
}

}  // namespace

void registerCdistOps(OperatorRegistry& r) {
  r.add("aten::cdist(Tensor x1, Tensor x2, float p=2., int? compute_mode=None) -> Tensor", cdistK);
  r.add("aten::_cdist_forward(Tensor x1, Tensor x2, float p, int? compute_mode) -> Tensor", cdistK);
  r.add("aten::_euclidean_dist(Tensor x1, Tensor x2) -> Tensor", euclideanDistK);
}

}  // namespace kindling
