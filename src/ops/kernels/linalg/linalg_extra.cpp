// Linear-algebra style operators without a oneDNN primitive (linalg.cpp holds mm/bmm/matmul/linear):
// einsum (any equation of PyTorch 1.13's grammar: implicit and explicit output, ellipsis, repeated labels
// as diagonals, size-1 broadcasting), cosine_similarity, pairwise_distance, dist, outer, vdot, inner,
// trace, diag, diagonal; and the pixel/shape rearrangers roll, pixel_shuffle, pixel_unshuffle.
// einsum evaluates the sum of products directly over the label space (accumulating in double for
// floating types), one output element at a time.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <type_traits>

#include "ops/registry/kernel_args.h"
#include "ops/registry/operator.h"
#include "tensor/tensor_iterator.h"
#include "tensor/type_promotion.h"

namespace kindling {

namespace {

template <class T> constexpr bool isFloat = std::is_floating_point_v<T>;

// ---------------------------------------------------------------- einsum

int labelIndex(char c) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= 'A' && c <= 'Z') return 26 + (c - 'A');
  return -1;
}

struct Term {
  std::vector<int> labels;  // label ids; -1 marks the ellipsis position
  bool ellipsis = false;
};

Term parseTerm(const std::string& s) {
  Term t;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == ' ') continue;
    if (c == '.') {
      KD_CHECK(i + 2 < s.size() && s[i + 1] == '.' && s[i + 2] == '.',
               "einsum(): found '.' for operand that is not part of any ellipsis");
      KD_CHECK(!t.ellipsis, "einsum(): found '.' for operand that is not part of any ellipsis");
      t.ellipsis = true;
      t.labels.push_back(-1);
      i += 2;
      continue;
    }
    const int l = labelIndex(c);
    KD_CHECK(l >= 0, "einsum(): invalid subscript given at index {} in the equation string, subscripts must be in [a-zA-Z]", i);
    t.labels.push_back(l);
  }
  return t;
}

Tensor einsum(const std::string& eqIn, const std::vector<Tensor>& ops) {
  KD_CHECK(!ops.empty(), "einsum(): must provide at least one operand");
  const size_t arrow = eqIn.find("->");
  const std::string lhs = eqIn.substr(0, arrow);
  std::vector<Term> terms;
  {
    size_t start = 0;
    while (true) {
      const size_t comma = lhs.find(',', start);
      terms.push_back(parseTerm(lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  KD_CHECK(terms.size() == ops.size(), "einsum(): more operands were provided than specified in the equation");
  // ellipsis width: the widest operand's
  int64_t ellDims = 0;
  for (size_t k = 0; k < ops.size(); ++k) {
    const int64_t named = static_cast<int64_t>(terms[k].labels.size()) - (terms[k].ellipsis ? 1 : 0);
    if (terms[k].ellipsis) {
      KD_CHECK(ops[k].dim() >= named, "einsum(): the number of subscripts in the equation ({}) is more than the number of dimensions ({}) for operand {}",
               named, ops[k].dim(), k);
      ellDims = std::max(ellDims, ops[k].dim() - named);
    } else {
      KD_CHECK(ops[k].dim() == named, "einsum(): the number of subscripts in the equation ({}) does not match the number of dimensions ({}) for operand {} and no ellipsis was given",
               named, ops[k].dim(), k);
    }
  }
  // label ids: 0..51 letters, 52.. ellipsis dims
  const int E0 = 52;
  const int nLabels = E0 + static_cast<int>(ellDims);
  std::vector<int64_t> size(static_cast<size_t>(nLabels), -1);
  std::vector<int> count(static_cast<size_t>(nLabels), 0);
  // per operand: the label of each dim
  std::vector<std::vector<int>> dimLabels(ops.size());
  for (size_t k = 0; k < ops.size(); ++k) {
    const int64_t named = static_cast<int64_t>(terms[k].labels.size()) - (terms[k].ellipsis ? 1 : 0);
    const int64_t myEll = terms[k].ellipsis ? ops[k].dim() - named : 0;
    for (int l : terms[k].labels) {
      if (l == -1) {
        for (int64_t e = 0; e < myEll; ++e) dimLabels[k].push_back(E0 + static_cast<int>(ellDims - myEll + e));
      } else {
        dimLabels[k].push_back(l);
      }
    }
    for (size_t d = 0; d < dimLabels[k].size(); ++d) {
      const int l = dimLabels[k][d];
      const int64_t s = ops[k].sizes()[d];
      if (l < E0 && std::count(dimLabels[k].begin(), dimLabels[k].begin() + static_cast<long>(d), l) == 0) ++count[l];
      if (size[l] == -1 || size[l] == 1) size[l] = s;
      else KD_CHECK(s == 1 || s == size[l], "einsum(): operands do not broadcast with remapped shapes (original->remapped)");
    }
  }
  // output labels
  std::vector<int> outLabels;
  if (arrow == std::string::npos) {
    for (int e = 0; e < ellDims; ++e) outLabels.push_back(E0 + e);
    for (int l = 0; l < E0; ++l)
      if (count[l] == 1) outLabels.push_back(l);
  } else {
    Term out = parseTerm(eqIn.substr(arrow + 2));
    for (int l : out.labels) {
      if (l == -1) {
        for (int e = 0; e < ellDims; ++e) outLabels.push_back(E0 + e);
        continue;
      }
      KD_CHECK(size[l] != -1, "einsum(): output subscript {} does not appear in the equation for any input operand",
               static_cast<char>(l < 26 ? 'a' + l : 'A' + l - 26));
      KD_CHECK(std::count(outLabels.begin(), outLabels.end(), l) == 0,
               "einsum(): output subscript {} appears more than once in the output",
               static_cast<char>(l < 26 ? 'a' + l : 'A' + l - 26));
      outLabels.push_back(l);
    }
    // ellipsis dims not named in the output are summed over
  }
  std::vector<int> sumLabels;
  for (int l = 0; l < nLabels; ++l)
    if (size[l] != -1 && std::find(outLabels.begin(), outLabels.end(), l) == outLabels.end()) sumLabels.push_back(l);
  // dtype: the operands' common type
  ScalarType dt = ops[0].dtype();
  for (size_t k = 1; k < ops.size(); ++k) {
    KD_CHECK(ops[k].dtype() == dt, "expected scalar type {} but found {}", scalarTypeName(dt), scalarTypeName(ops[k].dtype()));
  }
  IntArray outShape;
  for (int l : outLabels) outShape.push_back(size[l]);
  Tensor out = Tensor::empty(outShape, dt);
  // per operand, per label: the element stride (0 for broadcast), summing strides of repeated labels
  std::vector<std::vector<int64_t>> strideOf(ops.size(), std::vector<int64_t>(static_cast<size_t>(nLabels), 0));
  for (size_t k = 0; k < ops.size(); ++k)
    for (size_t d = 0; d < dimLabels[k].size(); ++d)
      if (ops[k].sizes()[d] != 1) strideOf[k][dimLabels[k][d]] += ops[k].strides()[d];
  int64_t outN = 1, sumN = 1;
  for (int l : outLabels) outN *= size[l];
  for (int l : sumLabels) sumN *= size[l];
  dispatchLoopTypes(dt, "einsum", [&](auto tag) {
    using T = decltype(tag);
    using Acc = std::conditional_t<isFloat<T>, double, std::conditional_t<std::is_same_v<T, bool>, bool, int64_t>>;
    std::vector<const T*> base;
    for (auto& t : ops) base.push_back(t.template data_ptr<T>());
    T* Y = out.template data_ptr<T>();
    std::vector<int64_t> oIdx(outLabels.size(), 0), sIdx(sumLabels.size(), 0);
    std::vector<int64_t> off(ops.size());
    for (int64_t o = 0; o < outN; ++o) {
      for (size_t k = 0; k < ops.size(); ++k) {
        off[k] = 0;
        for (size_t i = 0; i < outLabels.size(); ++i) off[k] += oIdx[i] * strideOf[k][outLabels[i]];
      }
      Acc acc = Acc(0);
      std::fill(sIdx.begin(), sIdx.end(), 0);
      for (int64_t si = 0; si < sumN; ++si) {
        Acc prod = Acc(1);
        for (size_t k = 0; k < ops.size(); ++k) {
          int64_t e = off[k];
          for (size_t i = 0; i < sumLabels.size(); ++i) e += sIdx[i] * strideOf[k][sumLabels[i]];
          if constexpr (std::is_same_v<Acc, bool>) prod = prod && base[k][e];
          else prod = static_cast<Acc>(prod * static_cast<Acc>(base[k][e]));
        }
        if constexpr (std::is_same_v<Acc, bool>) acc = acc || prod;
        else acc = static_cast<Acc>(acc + prod);
        for (int64_t i = static_cast<int64_t>(sumLabels.size()) - 1; i >= 0; --i) {
          if (++sIdx[i] < size[sumLabels[i]]) break;
          sIdx[i] = 0;
        }
      }
      Y[o] = static_cast<T>(acc);
      for (int64_t i = static_cast<int64_t>(outLabels.size()) - 1; i >= 0; --i) {
        if (++oIdx[i] < size[outLabels[i]]) break;
        oIdx[i] = 0;
      }
    }
  });
  return out;
}

void einsumK(Stack& s) {
  Args a(s, 3);
  Tensor r = einsum(a[0].toStringRef(), a.tensorList(1));
  a.ret(std::move(r));
}

// ---------------------------------------------------------------- distances

// Rows along `dim` of the broadcast pair (both as [outer, L] contiguous, same dtype).
struct PairRows {
  Tensor a, b;
  int64_t outer, L;
  IntArray outShape;
};

PairRows pairRows(const Tensor& x1, const Tensor& x2, int64_t dimIn, bool keepdim, ScalarType dt) {
  const IntArray shape = inferSize(x1.sizes(), x2.sizes());
  const int64_t nd = static_cast<int64_t>(shape.size());
  const int64_t dim = maybeWrapDim(dimIn, nd);
  IntArray perm;
  PairRows r;
  for (int64_t d = 0; d < nd; ++d)
    if (d != dim) {
      perm.push_back(d);
      r.outShape.push_back(shape[d]);
    } else if (keepdim) {
      r.outShape.push_back(1);
    }
  if (nd > 0) perm.push_back(dim);
  const Tensor e1 = x1.to(dt).expand(shape), e2 = x2.to(dt).expand(shape);
  r.a = nd > 0 ? e1.permute(perm).contiguous() : e1.reshape({1});
  r.b = nd > 0 ? e2.permute(perm).contiguous() : e2.reshape({1});
  r.L = nd > 0 ? shape[dim] : 1;
  r.outer = r.L == 0 ? 0 : r.a.numel() / r.L;
  return r;
}

void cosineSimilarityK(Stack& s) {
  Args a(s, 4);
  const Tensor x1 = a.tensor(0), x2 = a.tensor(1);
  const double eps = a.toDouble(3);
  const ScalarType dt = resultType(x1, x2);
  KD_CHECK(isFloatingType(dt), "expected common dtype to be floating point, yet common dtype is {}", scalarTypeName(dt));
  PairRows r = pairRows(x1, x2, a.toInt(2), false, dt);
  Tensor out = Tensor::empty(r.outShape, dt);
  dispatchLoopFloating(dt, "cosine_similarity", [&](auto tag) {
    using T = decltype(tag);
    const T* A = r.a.template data_ptr<T>();
    const T* B = r.b.template data_ptr<T>();
    T* Y = out.template data_ptr<T>();
    const T e2 = static_cast<T>(eps * eps);
    for (int64_t o = 0; o < r.outer; ++o) {
      T n1 = 0, n2 = 0;
      for (int64_t i = 0; i < r.L; ++i) {
        n1 += A[o * r.L + i] * A[o * r.L + i];
        n2 += B[o * r.L + i] * B[o * r.L + i];
      }
      n1 = std::max(n1, e2);
      n2 = std::max(n2, e2);
      const T denom = T(1) / std::sqrt(n1 * n2);
      T sum = 0;
      for (int64_t i = 0; i < r.L; ++i) sum += A[o * r.L + i] * B[o * r.L + i] * denom;
      Y[o] = sum;
    }
  });
  a.ret(std::move(out));
}

template <class T>
T pNorm(const T* d, int64_t n, double p, T add) {
  if (p == 0) {
    T c = 0;
    for (int64_t i = 0; i < n; ++i) c += (d[i] + add) != T(0);
    return c;
  }
  if (std::isinf(p)) {
    T m = p > 0 ? T(0) : std::numeric_limits<T>::infinity();
    for (int64_t i = 0; i < n; ++i) {
      const T v = std::abs(d[i] + add);
      if (std::isnan(v)) return v;
      m = p > 0 ? std::max(m, v) : std::min(m, v);
    }
    return m;
  }
  T acc = 0;
  for (int64_t i = 0; i < n; ++i) {
    const T v = std::abs(d[i] + add);
    acc += p == 1 ? v : (p == 2 ? v * v : static_cast<T>(std::pow(v, static_cast<T>(p))));
  }
  if (p == 1) return acc;
  if (p == 2) return std::sqrt(acc);
  return static_cast<T>(std::pow(acc, static_cast<T>(1.0 / p)));
}

void pairwiseDistanceK(Stack& s) {
  Args a(s, 5);
  const Tensor x1 = a.tensor(0), x2 = a.tensor(1);
  const double p = a.toDouble(2), eps = a.toDouble(3);
  const bool keepdim = a.toBool(4);
  const int64_t outDim = std::max(x1.dim(), x2.dim());
  // x1 - x2 + eps: an integral difference becomes the default float dtype through the float eps
  ScalarType dt = resultType(x1, x2);
  if (!isFloatingType(dt)) dt = ScalarType::Float;
  if (outDim == 0) {
    // 0-dim inputs: |x1 - x2 + eps| under the p-norm of one element
    PairRows r = pairRows(x1.reshape({1}), x2.reshape({1}), 0, false, dt);
    Tensor out = Tensor::empty({}, dt);
    dispatchLoopFloating(dt, "pairwise_distance", [&](auto tag) {
      using T = decltype(tag);
      T d = r.a.template data_ptr<T>()[0] - r.b.template data_ptr<T>()[0];
      out.template data_ptr<T>()[0] = pNorm<T>(&d, 1, p, static_cast<T>(eps));
    });
    a.ret(std::move(out));
    return;
  }
  PairRows r = pairRows(x1, x2, outDim - 1, keepdim, dt);
  Tensor out = Tensor::empty(r.outShape, dt);
  dispatchLoopFloating(dt, "pairwise_distance", [&](auto tag) {
    using T = decltype(tag);
    const T* A = r.a.template data_ptr<T>();
    const T* B = r.b.template data_ptr<T>();
    T* Y = out.template data_ptr<T>();
    std::vector<T> d(static_cast<size_t>(r.L));
    for (int64_t o = 0; o < r.outer; ++o) {
      for (int64_t i = 0; i < r.L; ++i) d[i] = A[o * r.L + i] - B[o * r.L + i];
      Y[o] = pNorm<T>(d.data(), r.L, p, static_cast<T>(eps));
    }
  });
  a.ret(std::move(out));
}

void distK(Stack& s) {
  Args a(s, 3);
  const Tensor x1 = a.tensor(0), x2 = a.tensor(1);
  const double p = a.scalar(2).toDouble();
  const ScalarType dt = resultType(x1, x2);
  KD_CHECK(isFloatingType(dt), "dist only supports floating-point dtypes, but got: {}", scalarTypeName(dt));
  const IntArray shape = inferSize(x1.sizes(), x2.sizes());
  const Tensor a1 = x1.to(dt).expand(shape).contiguous(), a2 = x2.to(dt).expand(shape).contiguous();
  Tensor out = Tensor::empty({}, dt);
  dispatchLoopFloating(dt, "dist", [&](auto tag) {
    using T = decltype(tag);
    std::vector<T> d(static_cast<size_t>(a1.numel()));
    for (int64_t i = 0; i < a1.numel(); ++i) d[i] = a1.template data_ptr<T>()[i] - a2.template data_ptr<T>()[i];
    out.template data_ptr<T>()[0] = pNorm<T>(d.data(), a1.numel(), p, T(0));
  });
  a.ret(std::move(out));
}

// ---------------------------------------------------------------- products

void outerK(Stack& s) {
  Args a(s, 2);
  const Tensor x = a.tensor(0), y = a.tensor(1);
  KD_CHECK(x.dim() == 1 && y.dim() == 1, "outer: Expected 1-D argument self, but got {}-D", x.dim() != 1 ? x.dim() : y.dim());
  const ScalarType dt = resultType(x, y);
  const Tensor xc = x.to(dt).contiguous(), yc = y.to(dt).contiguous();
  Tensor out = Tensor::empty({x.numel(), y.numel()}, dt);
  dispatchLoopTypes(dt, "outer", [&](auto tag) {
    using T = decltype(tag);
    const T* X = xc.template data_ptr<T>();
    const T* Y = yc.template data_ptr<T>();
    T* O = out.template data_ptr<T>();
    for (int64_t i = 0; i < xc.numel(); ++i)
      for (int64_t j = 0; j < yc.numel(); ++j) {
        if constexpr (std::is_same_v<T, bool>) O[i * yc.numel() + j] = X[i] && Y[j];
        else O[i * yc.numel() + j] = static_cast<T>(X[i] * Y[j]);
      }
  });
  a.ret(std::move(out));
}

void vdotK(Stack& s) {
  Args a(s, 2);
  const Tensor x = a.tensor(0), y = a.tensor(1);
  KD_CHECK(x.dim() == 1 && y.dim() == 1, "1D tensors expected, but got {}D and {}D tensors", x.dim(), y.dim());
  KD_CHECK(x.dtype() == y.dtype(), "dot : expected both vectors to have same dtype, but found {} and {}",
           scalarTypeName(x.dtype()), scalarTypeName(y.dtype()));
  KD_CHECK(x.numel() == y.numel(), "inconsistent tensor size, expected tensor [{}] and src [{}] to have the same number of elements, but got {} and {} elements respectively",
           x.numel(), y.numel(), x.numel(), y.numel());
  a.ret(einsum("i,i->", {x, y}));
}

void innerK(Stack& s) {
  Args a(s, 2);
  const Tensor x = a.tensor(0), y = a.tensor(1);
  if (x.dim() == 0 || y.dim() == 0) {
    TensorIterator it;
    it.addOutput(Tensor()).addInput(x).addInput(y).build();
    dispatchLoopTypes(it.loopComputeDtype(), "inner", [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_same_v<T, bool>) cpuKernel(it, [](T p, T q) -> T { return p && q; });
      else cpuKernel(it, [](T p, T q) -> T { return static_cast<T>(p * q); });
    });
    a.ret(it.output());
    return;
  }
  KD_CHECK(x.sizes().back() == y.sizes().back(), "inner() the last dimension must match on both input tensors but got shapes {} and {}",
           x.sizesStr(), y.sizesStr());
  std::string l1, l2, o;
  for (int64_t i = 0; i + 1 < x.dim(); ++i) l1 += static_cast<char>('a' + i);
  for (int64_t i = 0; i + 1 < y.dim(); ++i) l2 += static_cast<char>('m' + i);
  a.ret(einsum(l1 + "z," + l2 + "z->" + l1 + l2, {x, y}));
}

Tensor diagonalView(const Tensor& x, int64_t offset, int64_t d1In, int64_t d2In);

void traceK(Stack& s) {
  Args a(s, 1);
  const Tensor x = a.tensor(0);
  KD_CHECK(x.dim() == 2, "trace: expected a matrix, but got tensor with dim {}", x.dim());
  // Any 2-d matrix: the sum of its main diagonal (min(rows, cols) elements), as ATen's trace_cpu.
  KD_CHECK(x.dtype() != ScalarType::Bool, "\"trace\" not implemented for 'Bool'");
  const ScalarType dt = isIntegralType(x.dtype(), true) ? ScalarType::Long : x.dtype();
  a.ret(einsum("i->", {diagonalView(x, 0, 0, 1).to(dt)}));
}

// diagonal (a view): the elements (i, i + offset) of dims dim1, dim2, as the last dim.
Tensor diagonalView(const Tensor& x, int64_t offset, int64_t d1In, int64_t d2In) {
  const int64_t nd = x.dim();
  const int64_t d1 = maybeWrapDim(d1In, nd), d2 = maybeWrapDim(d2In, nd);
  KD_CHECK(d1 != d2, "diagonal dimensions cannot be identical {}, {}", d1In, d2In);
  int64_t len, off = x.storage_offset();
  if (offset >= 0) {
    len = std::max<int64_t>(std::min(x.sizes()[d1], x.sizes()[d2] - offset), 0);
    if (len > 0) off += offset * x.strides()[d2];
  } else {
    len = std::max<int64_t>(std::min(x.sizes()[d1] + offset, x.sizes()[d2]), 0);
    if (len > 0) off -= offset * x.strides()[d1];
  }
  IntArray sizes, strides;
  for (int64_t d = 0; d < nd; ++d)
    if (d != d1 && d != d2) {
      sizes.push_back(x.sizes()[d]);
      strides.push_back(x.strides()[d]);
    }
  sizes.push_back(len);
  strides.push_back(x.strides()[d1] + x.strides()[d2]);
  return x.as_strided(sizes, strides, off);
}

void diagonalK(Stack& s) {
  Args a(s, 4);
  a.ret(diagonalView(a.tensor(0), a.toInt(1), a.toInt(2), a.toInt(3)));
}

void diagK(Stack& s) {
  Args a(s, 2);
  const Tensor x = a.tensor(0);
  const int64_t k = a.toInt(1);
  KD_CHECK(x.dim() == 1 || x.dim() == 2, "diag(): Supports 1D or 2D tensors. Got {}D", x.dim());
  if (x.dim() == 2) {
    a.ret(diagonalView(x, k, 0, 1).clone());
    return;
  }
  const int64_t n = x.numel() + std::abs(k);
  Tensor out = Tensor::zeros({n, n}, x.dtype());
  Tensor d = diagonalView(out, k, 0, 1);
  d.copy_(x);
  a.ret(std::move(out));
}

// ---------------------------------------------------------------- rearrangers

void rollK(Stack& s) {
  Args a(s, 3);
  const Tensor x = a.tensor(0);
  const IntArray shifts = a.intList(1), dims = a.intList(2);
  KD_CHECK(!shifts.empty(), "`shifts` required");
  if (dims.empty()) {
    KD_CHECK(shifts.size() == 1, "shifts and dimensions must align. shifts: {}, dims:{}", shifts.size(), dims.size());
    const Tensor flat = x.contiguous().reshape({-1});
    const int64_t n = flat.numel();
    Tensor out = Tensor::empty({n}, x.dtype());
    if (n > 0) {
      int64_t sh = shifts[0] % n;
      if (sh < 0) sh += n;
      out.narrow(0, sh, n - sh).copy_(flat.narrow(0, 0, n - sh));
      if (sh > 0) out.narrow(0, 0, sh).copy_(flat.narrow(0, n - sh, sh));
    }
    a.ret(out.view(x.sizes()));
    return;
  }
  KD_CHECK(shifts.size() == dims.size(), "shifts and dimensions must align. shifts: {}, dims:{}", shifts.size(), dims.size());
  Tensor cur = x.contiguous();
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t d = maybeWrapDim(dims[i], x.dim());
    const int64_t n = cur.sizes()[d];
    Tensor next = Tensor::empty(cur.sizes(), cur.dtype());
    if (n > 0) {
      int64_t sh = shifts[i] % n;
      if (sh < 0) sh += n;
      next.narrow(d, sh, n - sh).copy_(cur.narrow(d, 0, n - sh));
      if (sh > 0) next.narrow(d, 0, sh).copy_(cur.narrow(d, n - sh, sh));
    }
    cur = next;
  }
  a.ret(std::move(cur));
}

void pixelShuffleK(Stack& s) {
  Args a(s, 2);
  const Tensor x = a.tensor(0);
  const int64_t r = a.toInt(1);
  KD_CHECK(x.dim() >= 3, "pixel_shuffle expects input to have at least 3 dimensions, but got input with {} dimension(s)", x.dim());
  KD_CHECK(r > 0, "pixel_shuffle expects a positive upscale_factor, but got {}", r);
  const int64_t nd = x.dim(), C = x.sizes()[nd - 3], H = x.sizes()[nd - 2], W = x.sizes()[nd - 1];
  KD_CHECK(C % (r * r) == 0, "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, but input.size(-3)={} is not divisible by {}",
           C, r * r);
  IntArray lead(x.sizes().begin(), x.sizes().end() - 3);
  IntArray v = lead;
  v.insert(v.end(), {C / (r * r), r, r, H, W});
  IntArray perm;
  const int64_t L = static_cast<int64_t>(lead.size());
  for (int64_t i = 0; i < L; ++i) perm.push_back(i);
  perm.insert(perm.end(), {L, L + 3, L + 1, L + 4, L + 2});
  IntArray outShape = lead;
  outShape.insert(outShape.end(), {C / (r * r), H * r, W * r});
  a.ret(x.reshape(v).permute(perm).contiguous().view(outShape));
}

void pixelUnshuffleK(Stack& s) {
  Args a(s, 2);
  const Tensor x = a.tensor(0);
  const int64_t r = a.toInt(1);
  KD_CHECK(x.dim() >= 3, "pixel_unshuffle expects input to have at least 3 dimensions, but got input with {} dimension(s)", x.dim());
  KD_CHECK(r > 0, "pixel_unshuffle expects a positive downscale_factor, but got {}", r);
  const int64_t nd = x.dim(), C = x.sizes()[nd - 3], H = x.sizes()[nd - 2], W = x.sizes()[nd - 1];
  KD_CHECK(H % r == 0, "pixel_unshuffle expects height to be divisible by downscale_factor, but input.size(-2)={} is not divisible by {}", H, r);
  KD_CHECK(W % r == 0, "pixel_unshuffle expects width to be divisible by downscale_factor, but input.size(-1)={} is not divisible by {}", W, r);
  IntArray lead(x.sizes().begin(), x.sizes().end() - 3);
  IntArray v = lead;
  v.insert(v.end(), {C, H / r, r, W / r, r});
  IntArray perm;
  const int64_t L = static_cast<int64_t>(lead.size());
  for (int64_t i = 0; i < L; ++i) perm.push_back(i);
  perm.insert(perm.end(), {L, L + 2, L + 4, L + 1, L + 3});
  IntArray outShape = lead;
  outShape.insert(outShape.end(), {C * r * r, H / r, W / r});
  a.ret(x.reshape(v).permute(perm).contiguous().view(outShape));
}

}  // namespace

void registerLinalgExtraOps(OperatorRegistry& r) {
  r.add("aten::einsum(str equation, Tensor[] tensors, *, int[]? path=None) -> Tensor", einsumK);
  r.add("aten::cosine_similarity(Tensor x1, Tensor x2, int dim=1, float eps=1e-08) -> Tensor", cosineSimilarityK);
  r.add("aten::pairwise_distance(Tensor x1, Tensor x2, float p=2., float eps=1e-06, bool keepdim=False) -> Tensor", pairwiseDistanceK);
  r.add("aten::dist(Tensor self, Tensor other, Scalar p=2) -> Tensor", distK);
  r.add("aten::outer(Tensor self, Tensor vec2) -> Tensor", outerK);
  r.add("aten::vdot(Tensor self, Tensor other) -> Tensor", vdotK);
  r.add("aten::inner(Tensor self, Tensor other) -> Tensor", innerK);
  r.add("aten::trace(Tensor self) -> Tensor", traceK);
  r.add("aten::diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)", diagonalK);
  r.add("aten::diag(Tensor self, int diagonal=0) -> Tensor", diagK);
  r.add("aten::roll(Tensor self, int[1] shifts, int[1] dims=[]) -> Tensor", rollK);
  r.add("aten::pixel_shuffle(Tensor self, int upscale_factor) -> Tensor", pixelShuffleK);
  r.add("aten::pixel_unshuffle(Tensor self, int downscale_factor) -> Tensor", pixelUnshuffleK);
}

}  // namespace kindling
