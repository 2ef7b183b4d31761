// The norm operators torch.norm's TorchScript body (torch/functional.py) ends in, beyond aten::norm's
// Scalar and ScalarOpt_dim overloads (reduce.cpp):
//   aten::frobenius_norm(self) / frobenius_norm.dim(self, dim, keepdim): at most two dims; zero or one dim
//       is the 2-norm over them (all dims for an empty list), two distinct dims sqrt(sum(x*x)) over both;
//   aten::norm.ScalarOpt_dim_dtype / norm.ScalarOpt_dtype: the input converted to `dtype` first, then
//       the p-norm (over `dim`, or over every element).
//   aten::linalg_vector_norm(self, ord, dim?, keepdim, dtype?): the ord-norm over `dim` (every element for None)
//       of the input converted to `dtype`; floating inputs only, as torch.linalg.vector_norm.
//   aten::linalg_norm(self, ord?, dim?, keepdim, dtype?) / linalg_norm.ord_str and aten::linalg_matrix_norm
//       (torch.linalg.norm / matrix_norm): ATen's dispatch between the vector norm and the matrix norms fro,
//       nuc, 1, -1, inf, -inf, 2, -2 (the largest / smallest singular value);
//   aten::nuclear_norm(self 2-d) / nuclear_norm.dim(self, [d0, d1]): the sum of the singular values of each
//       matrix spanned by the two dims (one-sided Jacobi SVD in double precision).
//   The out= overloads (frobenius_norm.out, norm.out, norm.dtype_out, nuclear_norm.out/dim_out) write the
//   result into `out` with PyTorch's resize (ops/kernels/common/out_variant.h); torch.norm's body compiles them.
// Errors are PyTorch 1.13's ("Expected at most 2 dimensions, but got 3 dimensions instead.").
#include <algorithm>
#include <cmath>
#include <string>
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

/// The n singular values of the m x n (m >= n) row-major matrix `a` (one-sided Jacobi on the columns; a is
/// overwritten).
std::vector<double> singularValuesOf(std::vector<double>& a, int64_t m, int64_t n) {
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
  std::vector<double> values;
  for (int64_t j = 0; j < n; ++j) {
    double ss = 0;
    for (int64_t i = 0; i < m; ++i) ss += at(i, j) * at(i, j);
    values.push_back(std::sqrt(ss));
  }
  return values;
}

/// What a norm keeps of a matrix's singular values: their sum (nuclear), the largest (ord 2), the smallest (-2).
enum class SingularValues { Sum, Max, Min };

/// The norm `how` of each matrix spanned by the two dims of `self`.
Tensor singularValueNorm(const Tensor& self, IntArray dim, bool keepdim, SingularValues how) {
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
      const std::vector<double> sv = singularValuesOf(a, rows, cols);
      double r = 0;
      if (how == SingularValues::Sum) for (double v : sv) r += v;
      else if (!sv.empty()) r = how == SingularValues::Max ? *std::max_element(sv.begin(), sv.end())
                                                             : *std::min_element(sv.begin(), sv.end());
      Y[b] = static_cast<T>(r);
    }
  });
  return out;
}

Tensor nuclearNorm(const Tensor& self, IntArray dim, bool keepdim) {
  return singularValueNorm(self, std::move(dim), keepdim, SingularValues::Sum);
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

const OpHandle kVectorNorm("aten::linalg_vector_norm");

std::string intListStr(const IntArray& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + std::to_string(v[i]);
  return out + "]";
}
const OpHandle kAmax("aten::amax");
const OpHandle kAmin("aten::amin");

// linalg.matrix_norm's checks (ATen's _linalg_matrix_norm_checks): at least 2 dims, two distinct dims.
IntArray matrixNormDims(const Tensor& A, IntArray dim) {
  KD_CHECK(A.dim() >= 2, "linalg.matrix_norm: The input tensor A must have at least 2 dimensions.");
  KD_CHECK(dim.size() == 2, "linalg.matrix_norm: dim must be a 2-tuple. Got {} dims", dim.size());
  for (auto& d : dim) d = maybeWrapDim(d, A.dim());
  KD_CHECK(dim[0] != dim[1], "linalg.matrix_norm: dims must be different. Got ({}, {})", dim[0], dim[1]);
  KD_CHECK(isFloatingType(A.dtype()), "linalg.matrix_norm: Expected a floating point or complex tensor as input. Got {}",
           scalarTypeName(A.dtype()));
  return dim;
}

// linalg.matrix_norm with a numeric ord, as ATen computes it: 1 / -1 the max / min over dim[1] of the
// column sums of |A| (the vector 1-norm over dim[0]); inf / -inf the same on the transpose; 2 / -2 the
// largest / smallest singular value.
Tensor matrixNormOrd(const Tensor& A, double ord, IntArray dim, bool keepdim, const IValue& dtype) {
  const double absOrd = std::abs(ord);
  KD_CHECK(absOrd == 2. || absOrd == 1. || absOrd == INFINITY, "linalg.matrix_norm: Order {} not supported.", ord);
  dim = matrixNormDims(A, std::move(dim));
  if (absOrd == 2.) {
    const Tensor x = dtype.isNone() ? A : A.to(static_cast<ScalarType>(dtype.toInt()));
    return singularValueNorm(x, dim, keepdim, ord > 0 ? SingularValues::Max : SingularValues::Min);
  }
  if (absOrd == INFINITY) std::swap(dim[0], dim[1]);
  if (!keepdim && dim[0] < dim[1]) --dim[1];
  const Tensor v = kVectorNorm(A, 1.0, intListIValue(IntArray{dim[0]}), keepdim, dtype);
  return ord > 0 ? kAmax(v, intListIValue(IntArray{dim[1]}), keepdim) : kAmin(v, intListIValue(IntArray{dim[1]}), keepdim);
}

// "fro": the 2-norm over both dims; "nuc": the sum of the singular values.
Tensor matrixNormStr(const Tensor& A, const std::string& ord, IntArray dim, bool keepdim, const IValue& dtype) {
  KD_CHECK(ord == "fro" || ord == "nuc", "linalg.matrix_norm: Order {} not supported.", ord);
  dim = matrixNormDims(A, std::move(dim));
  if (ord == "fro") return kVectorNorm(A, 2.0, intListIValue(dim), keepdim, dtype);
  const Tensor x = dtype.isNone() ? A : A.to(static_cast<ScalarType>(dtype.toInt()));
  return nuclearNorm(x, dim, keepdim);
}

// aten::linalg_matrix_norm(self, Scalar ord, int[] dim=[-2,-1], keepdim, *, dtype) and its str ord overload
void linalgMatrixNormK(Stack& s) {
  Args a(s, 5);
  a.ret(matrixNormOrd(a.tensor(0), a[1].toScalar().toDouble(), a.intList(2), a.toBool(3), a[4]));
}
void linalgMatrixNormStrK(Stack& s) {
  Args a(s, 5);
  a.ret(matrixNormStr(a.tensor(0), a[1].toStringRef(), a.intList(2), a.toBool(3), a[4]));
}

// linalg.norm's checks (ATen's): a given dim has 1 or 2 entries; without one, an ord needs a 1-D or 2-D input.
// The dims given, or none.
IntArray linalgNormDims(const Tensor& X, const IValue& dimArg, bool ordGiven) {
  if (dimArg.isNone()) {
    if (ordGiven)
      KD_CHECK(X.dim() == 1 || X.dim() == 2,
               "linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got {}D.", X.dim());
    return {};
  }
  IntArray dim = dimArg.toIntVector();
  KD_CHECK(dim.size() == 1 || dim.size() == 2, "linalg.norm: If dim is specified, it must be of length 1 or 2. Got {}",
           intListStr(dim));
  return dim;
}

// aten::linalg_norm(self, Scalar? ord, int[1]? dim, keepdim, *, dtype): ATen's dispatch — a numeric ord over
// two dims (or a 2-D input without dim) is a matrix norm, anything else the vector norm (ord None: 2)
void linalgNormK(Stack& s) {
  Args a(s, 5);
  const Tensor X = a.tensor(0);
  const bool hasDim = !a[2].isNone();
  const IntArray dim = linalgNormDims(X, a[2], !a[1].isNone());
  if (!a[1].isNone() && ((hasDim && dim.size() == 2) || (!hasDim && X.dim() == 2))) {
    a.ret(matrixNormOrd(X, a[1].toScalar().toDouble(), hasDim ? dim : IntArray{0, 1}, a.toBool(3), a[4]));
    return;
  }
  const IValue ord = a[1].isNone() ? IValue(2.0) : a[1];
  a.ret(kVectorNorm(X, ord, hasDim ? intListIValue(dim) : IValue(), a.toBool(3), a[4]));
}

// aten::linalg_norm.ord_str(self, str ord, int[1]? dim, keepdim, *, dtype): always a matrix norm
void linalgNormStrK(Stack& s) {
  Args a(s, 5);
  const Tensor X = a.tensor(0);
  const IntArray dim = linalgNormDims(X, a[2], true);
  a.ret(matrixNormStr(X, a[1].toStringRef(), a[2].isNone() ? IntArray{0, 1} : dim, a.toBool(3), a[4]));
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
  r.add("aten::linalg_norm(Tensor self, Scalar? ord=None, int[1]? dim=None, bool keepdim=False, *, ScalarType? "
        "dtype=None) -> Tensor",
        linalgNormK);
  r.add("aten::linalg_norm.ord_str(Tensor self, str ord, int[1]? dim=None, bool keepdim=False, *, ScalarType? "
        "dtype=None) -> Tensor",
        linalgNormStrK);
  r.add("aten::linalg_matrix_norm(Tensor self, Scalar ord, int[] dim=[-2,-1], bool keepdim=False, *, ScalarType? "
        "dtype=None) -> Tensor",
        linalgMatrixNormK);
  r.add("aten::linalg_matrix_norm.str_ord(Tensor self, str ord=\"fro\", int[] dim=[-2,-1], bool keepdim=False, *, "
        "ScalarType? dtype=None) -> Tensor",
        linalgMatrixNormStrK);
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
