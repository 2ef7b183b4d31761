// The norm operators torch.norm's TorchScript body (torch/functional.py) ends in, beyond aten::norm's
// Scalar and ScalarOpt_dim overloads (reduce.cpp):
//   aten::frobenius_norm(self) / frobenius_norm.dim(self, dim, keepdim): at most two dims; zero or one dim
//       is the 2-norm over them (all dims for an empty list), two distinct dims sqrt(sum(x*x)) over both;
//   aten::norm.ScalarOpt_dim_dtype / norm.ScalarOpt_dtype: the input converted to `dtype` first, then
//       the p-norm (over `dim`, or over every element).
//   aten::linalg_vector_norm(self, ord, dim?, keepdim, dtype?): the ord-norm over `dim` (every element for None)
//       of the input converted to `dtype`; floating inputs only, as torch.linalg.vector_norm.
//   aten::nuclear_norm(self 2-d) / nuclear_norm.dim(self, [d0, d1]): the sum of the singular values of each
//       matrix spanned by the two dims (one-sided Jacobi SVD in double precision).
//   The out= overloads (frobenius_norm.out, norm.out, norm.dtype_out, nuclear_norm.out/dim_out) write the
//   result into `out` with PyTorch's resize (ops/kernels/common/out_variant.h); torch.norm's body compiles them.
// Errors are PyTorch 1.13's ("Expected at most 2 dimensions, but got 3 dimensions instead.").
#include <cmath>
#include <vector>

#include "core/type.h"
#include "ops/registry/kernel_args.h"
#include "ops/registry/list_args.h"
#include "ops/registry/op_call.h"
#include "ops/registry/operator.h"
#include "ops/kernels/common/out_variant.h"
#include "tensor/tensor_iterator.h"
#include "tensor/type_promotion.h"

namespace kindling {

namespace {

const OpHandle kNormDim("aten::norm.ScalarOpt_dim");
const OpHandle kSumDim("aten::sum.dim_IntList");
const OpHandle kMul("aten::mul.Tensor");
const OpHandle kSqrt("aten::sqrt");

Tensor frobeniusNorm(const Tensor& self, IntArray dim, bool keepdim) {
  KD_CHECK(dim.size() <= 2, "Expected at most 2 dimensions, but got {} dimensions instead.", dim.size());
  if (dim.size() <= 1) return kNormDim(self, Scalar(int64_t(2)), intListIValue(dim), keepdim);
  for (auto& d : dim) d = maybeWrapDim(d, self.dim());
  KD_CHECK(dim[0] != dim[1], "Expected dims to be different, got [{}, {}] instead", dim[0], dim[1]);
  return kSqrt(kSumDim(kMul(self, self), intListIValue(dim), keepdim, IValue()));
}

void frobeniusNormK(Stack& s) {
  Args a(s, 1);
  a.ret(frobeniusNorm(a.tensor(0), IntArray{}, false));
}

void frobeniusNormDimK(Stack& s) {
  Args a(s, 3);
  a.ret(frobeniusNorm(a.tensor(0), a.intList(1), a.toBool(2)));
}

void normDimDtypeK(Stack& s) {
  Args a(s, 5);
  const ScalarType dt = a.optDtype(4);
  a.ret(kNormDim(a.tensor(0).to(dt), a[1], intListIValue(a.intList(2)), a.toBool(3)));
}

void normDtypeK(Stack& s) {
  Args a(s, 3);
  const ScalarType dt = a.optDtype(2);
  a.ret(kNormDim(a.tensor(0).to(dt), a[1], intListIValue(IntArray{}), false));
}

/// Singular values of the m x n row-major matrix `a` (one-sided Jacobi on the columns; a is overwritten).
double nuclearOfMatrix(std::vector<double>& a, int64_t m, int64_t n) {
  auto at = [&](int64_t i, int64_t j) -> double& { return a[static_cast<size_t>(i * n + j)]; };
  for (int sweep = 0; sweep < 80; ++sweep) {
    bool rotated = false;
    for (int64_t p = 0; p < n; ++p)
      for (int64_t q = p + 1; q < n; ++q) {
        double alpha = 0, beta = 0, gamma = 0;
        for (int64_t i = 0; i < m; ++i) {
          alpha += at(i, p) * at(i, p);
          beta += at(i, q) * at(i, q);
          gamma += at(i, p) * at(i, q);
        }
        if (gamma == 0 || std::abs(gamma) <= 1e-15 * std::sqrt(alpha * beta)) continue;
        rotated = true;
        const double zeta = (beta - alpha) / (2 * gamma);
        const double t = (zeta >= 0 ? 1.0 : -1.0) / (std::abs(zeta) + std::sqrt(1 + zeta * zeta));
        const double c = 1 / std::sqrt(1 + t * t), sn = c * t;
        for (int64_t i = 0; i < m; ++i) {
          const double up = at(i, p), uq = at(i, q);
          at(i, p) = c * up - sn * uq;
          at(i, q) = sn * up + c * uq;
        }
      }
    if (!rotated) break;
  }
  double total = 0;
  for (int64_t j = 0; j < n; ++j) {
    double ss = 0;
    for (int64_t i = 0; i < m; ++i) ss += at(i, j) * at(i, j);
    total += std::sqrt(ss);
  }
  return total;
}

Tensor nuclearNorm(const Tensor& self, IntArray dim, bool keepdim) {
  KD_CHECK(dim.size() == 2, "nuclear norm requires a 'dim' argument of size 2");
  KD_CHECK(isFloatingType(self.dtype()), "linalg.svd: Expected a floating point or complex tensor as input. Got {}",
           scalarTypeName(self.dtype()));
  for (auto& d : dim) d = maybeWrapDim(d, self.dim());
  KD_CHECK(dim[0] != dim[1], "Expected dims to be different, got [{}, {}] instead", dim[0], dim[1]);
  IntArray perm, batch, outShape;
  for (int64_t d = 0; d < self.dim(); ++d)
    if (d != dim[0] && d != dim[1]) {
      perm.push_back(d);
      batch.push_back(self.size(d));
    }
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (d != dim[0] && d != dim[1]) outShape.push_back(self.size(d));
    else if (keepdim) outShape.push_back(1);
  }
  perm.push_back(dim[0]);
  perm.push_back(dim[1]);
  const int64_t m = self.size(dim[0]), n = self.size(dim[1]);
  int64_t nb = 1;
  for (int64_t b : batch) nb *= b;
  const Tensor x = self.permute(perm).to(ScalarType::Double).contiguous();
  Tensor out = Tensor::empty(outShape, self.dtype());
  const double* X = x.data_ptr<double>();
  dispatchLoopFloating(self.dtype(), "nuclear_norm", [&](auto tag) {
    using T = decltype(tag);
    T* Y = out.data_ptr<T>();
    for (int64_t b = 0; b < nb; ++b) {
      // columns >= rows keeps the rotations on the smaller side; singular values are those of the transpose
      std::vector<double> a(static_cast<size_t>(m * n));
      const double* src = X + b * m * n;
      int64_t rows = m, cols = n;
      if (n > m) {
        for (int64_t i = 0; i < m; ++i)
          for (int64_t j = 0; j < n; ++j) a[static_cast<size_t>(j * m + i)] = src[i * n + j];
        rows = n;
        cols = m;
      } else {
        std::copy(src, src + m * n, a.begin());
      }
      Y[b] = static_cast<T>(nuclearOfMatrix(a, rows, cols));
    }
  });
  return out;
}

void nuclearNormK(Stack& s) {
  Args a(s, 2);
  const Tensor self = a.tensor(0);
  KD_CHECK(self.dim() == 2, "Expected a tensor with 2 dimensions, but got a tensor with {} dimension{} instead.",
           self.dim(), self.dim() == 1 ? "" : "s");
  a.ret(nuclearNorm(self, IntArray{-2, -1}, a.toBool(1)));
}

void nuclearNormDimK(Stack& s) {
  Args a(s, 3);
  a.ret(nuclearNorm(a.tensor(0), a.intList(1, 2), a.toBool(2)));
}

// out= overloads: the functional result written into `out` (the last argument), which is returned.
template <void (*Fn)(Stack&)>
void outK(Stack& s) {
  const IValue out = s.back();
  s.pop_back();
  Fn(s);  // leaves the functional result in place of its N arguments
  writeOut(out.toTensor(), s.back().toTensor());
  s.back() = out;
}

void linalgVectorNormK(Stack& s) {
  Args a(s, 5);
  const Tensor self = a.tensor(0);
  KD_CHECK(isFloatingType(self.dtype()), "linalg.vector_norm: Expected a floating point or complex tensor as input. "
           "Got {}", scalarTypeName(self.dtype()));
  const ScalarType dt = a.optDtype(4);
  if (dt != ScalarType::Undefined)
    KD_CHECK(isFloatingType(dt), "linalg.vector_norm: dtype should be floating point or complex. Got {}",
             scalarTypeName(dt));
  const Tensor x = dt == ScalarType::Undefined ? self : self.to(dt);
  const IntArray dims = a[2].isNone() ? IntArray{} : a.intList(2);
  a.ret(kNormDim(x, a[1], intListIValue(dims), a.toBool(3)));
}

void normOutK(Stack& s) {
  Args a(s, 5);
  const Tensor out = a.tensor(4);
  writeOut(out, kNormDim(a.tensor(0), a[1], intListIValue(a.intList(2)), a.toBool(3)));
  a.ret(out);
}

}  // namespace

void registerNormVariantOps(OperatorRegistry& r) {
  r.add("aten::frobenius_norm(Tensor self) -> Tensor", frobeniusNormK);
  r.add("aten::frobenius_norm.dim(Tensor self, int[1] dim, bool keepdim=False) -> Tensor", frobeniusNormDimK);
  r.add("aten::norm.ScalarOpt_dim_dtype(Tensor self, Scalar? p, int[1] dim, bool keepdim, *, ScalarType dtype) -> "
        "Tensor",
        normDimDtypeK);
  r.add("aten::norm.ScalarOpt_dtype(Tensor self, Scalar? p, *, ScalarType dtype) -> Tensor", normDtypeK);
  r.add("aten::linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? "
        "dtype=None) -> Tensor",
        linalgVectorNormK);
  r.add("aten::nuclear_norm(Tensor self, bool keepdim=False) -> Tensor", nuclearNormK);
  r.add("aten::nuclear_norm.dim(Tensor self, int[2] dim, bool keepdim=False) -> Tensor", nuclearNormDimK);
  r.add("aten::frobenius_norm.out(Tensor self, int[1] dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)",
        outK<frobeniusNormDimK>);
  r.add("aten::norm.out(Tensor self, Scalar? p, int[1] dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)",
        normOutK);
  r.add("aten::norm.dtype_out(Tensor self, Scalar? p, int[1] dim, bool keepdim, *, ScalarType dtype, Tensor(a!) "
        "out) -> Tensor(a!)",
        outK<normDimDtypeK>);
  r.add("aten::nuclear_norm.out(Tensor self, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)",
        outK<nuclearNormK>);
  r.add("aten::nuclear_norm.dim_out(Tensor self, int[2] dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)",
        outK<nuclearNormDimK>);
}

}  // namespace kindling
