// Indexing kernels: index_select, gather, scatter / scatter_add, embedding, nonzero, masked_select, one_hot,
// masked_fill(_), index.Tensor (advanced indexing with integer or
// boolean index tensors and None for untouched dims, as x[idx] in TorchScript), tril/triu.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>

#include "ops/kernels/index/advanced_index.h"
#include "ops/registry/kernel_args.h"
#include "ops/registry/operator.h"
#include "tensor/tensor_iterator.h"
#include "tensor/type_promotion.h"

namespace kindling {

namespace {

std::vector<int64_t> indexValues(const Tensor& idx, const char* op) {
  KD_CHECK(idx.dtype() == ScalarType::Long || idx.dtype() == ScalarType::Int,
           "{}(): Expected dtype int32/int64 for index but got: {}", op, scalarTypeName(idx.dtype()));
  const Tensor c = idx.to(ScalarType::Long).contiguous();
  const int64_t* p = c.data_ptr<int64_t>();
  return std::vector<int64_t>(p, p + c.numel());
}

/// Copies element `src` (byte pointer) to `dst`.
inline void copyElem(char* dst, const char* src, size_t es) { std::memcpy(dst, src, es); }

Tensor indexSelect(const Tensor& self, int64_t dim, const Tensor& index) {
  KD_CHECK_INDEX(index.dim() <= 1, "index_select(): Index is supposed to be a vector");
  const int64_t d = maybeWrapDim(dim, self.dim());
  const std::vector<int64_t> idx = indexValues(index, "index_select");
  const int64_t n = self.dim() == 0 ? 1 : self.sizes()[d];
  // Negative indices are out of range too. ATen checks dim 1 of a tensor with 2+ dims in another kernel,
  // with another error.
  for (int64_t i : idx) {
    if (i >= 0 && i < n) continue;
    if (self.dim() > 1 && d == 1) throw RuntimeError(fmt::format("INDICES element is out of DATA bounds, id={} axis_dim={}", i, n));
    KD_CHECK_INDEX(false, "index out of range in self");
  }
  IntArray outSizes = self.sizes();
  if (self.dim() > 0) outSizes[d] = static_cast<int64_t>(idx.size());
  Tensor out = Tensor::empty(outSizes, self.dtype());
  if (self.dim() == 0) {
    out.copy_(self);
    return out;
  }
  if (!self.is_contiguous()) {
    for (size_t j = 0; j < idx.size(); ++j) out.select(d, static_cast<int64_t>(j)).copy_(self.select(d, idx[j]));
    return out;
  }
  // Contiguous: out[o, j, :] = self[o, idx[j], :] as one memcpy of `inner` elements each.
  int64_t outer = 1, inner = 1;
  for (int64_t k = 0; k < d; ++k) outer *= self.sizes()[k];
  for (int64_t k = d + 1; k < self.dim(); ++k) inner *= self.sizes()[k];
  const size_t es = elementSize(self.dtype());
  const size_t rowBytes = static_cast<size_t>(inner) * es;
  const int64_t m = static_cast<int64_t>(idx.size());
  const char* src = static_cast<const char*>(self.data_ptr());
  char* dst = static_cast<char*>(out.data_ptr());
#pragma omp parallel for collapse(2) if (outer * m * inner > kGrainSize)
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < m; ++j)
      std::memcpy(dst + (o * m + j) * rowBytes, src + (o * n + idx[j]) * rowBytes, rowBytes);
  return out;
}
void indexSelectK(Stack& s) { Args a(s, 3); Tensor r = indexSelect(a.tensor(0), a.toInt(1), a.tensor(2)); a.ret(std::move(r)); }

Tensor gather(const Tensor& self, int64_t dim, const Tensor& index) {
  const int64_t d = maybeWrapDim(dim, self.dim());
  KD_CHECK(index.dim() == self.dim() || (index.dim() <= 1 && self.dim() <= 1),
           "Index tensor must have the same number of dimensions as input tensor");
  // ATen checks the index dtype and shapes only for a non-empty index
  if (index.numel() == 0) return Tensor::empty(index.sizes(), self.dtype());
  KD_CHECK(index.dtype() == ScalarType::Long, "gather(): Expected dtype int64 for index");
  for (int64_t k = 0; k < index.dim() && self.dim() > 0; ++k)
    if (k != d)
      KD_CHECK(index.sizes()[k] <= self.sizes()[k], "Size does not match at dimension {} expected index {} to be smaller than self {} apart from dimension {}",
               k, index.sizesStr(), self.sizesStr(), d);
  Tensor out = Tensor::empty(index.sizes(), self.dtype());
  const Tensor idx = index.contiguous();
  const int64_t* I = idx.data_ptr<int64_t>();
  const int64_t nd = index.dim(), n = index.numel();
  const size_t es = self.element_size();
  const char* src = static_cast<const char*>(self.data_ptr());
  char* dst = static_cast<char*>(out.data_ptr());
  const int64_t limit = self.dim() == 0 ? 1 : self.sizes()[d];
  IntArray pos(nd, 0);
  for (int64_t e = 0; e < n; ++e) {
    const int64_t v = I[e];
    KD_CHECK_INDEX(v >= -limit && v < limit, "index {} is out of bounds for dimension {} with size {}", v, d, limit);
    int64_t off = 0;
    if (self.dim() > 0)  // a 0-dim self (with a 0- or 1-element index) has the one element at offset 0
      for (int64_t k = 0; k < nd; ++k) off += (k == d ? (v < 0 ? v + limit : v) : pos[k]) * self.strides()[k];
    copyElem(dst + e * es, src + off * es, es);
    for (int64_t k = nd - 1; k >= 0; --k) {
      if (++pos[k] < index.sizes()[k]) break;
      pos[k] = 0;
    }
  }
  return out;
}
void gatherK(Stack& s) { Args a(s, 4); Tensor r = gather(a.tensor(0), a.toInt(1), a.tensor(2)); a.ret(std::move(r)); }

/// self where !mask, value where mask (mask broadcast to self; in-place writes self).
Tensor maskedFill(const Tensor& self, const Tensor& mask, const Scalar& value, bool inplace) {
  KD_CHECK(mask.dtype() == ScalarType::Bool, "masked_fill_ only supports boolean masks, but got mask with dtype {}",
           scalarTypeName(mask.dtype()));
  Tensor out = inplace ? self : Tensor();
  if (inplace) {
    const IntArray b = inferSize(self.sizes(), mask.sizes());
    KD_CHECK(b == self.sizes(), "output with shape {} doesn't match the broadcast shape {}", self.sizesStr(),
             Tensor::empty(b).sizesStr());
  }
  TensorIterator it;
  it.addOutput(out).addInput(self).addInputNoCast(mask).promoteInputsToCommonDtype(false).build();
  dispatchLoopTypes(it.loopComputeDtype(), "masked_fill", [&](auto tag) {
    using T = decltype(tag);
    const T v = value.to<T>();
    if constexpr (std::is_same_v<T, bool>) {
      const bool bv = value.toBool();
      cpuKernel(it, [bv](T x, bool m) -> T { return m ? bv : x; });
    } else {
      cpuKernel(it, [v](T x, bool m) -> T { return m ? v : x; });
    }
  });
  return it.output();
}
Scalar valueOf(const Tensor& v) {
  KD_CHECK(v.dim() == 0, "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with {} dimension(s).", v.dim());
  return v.item();
}
void maskedFillScalar(Stack& s) { Args a(s, 3); Tensor r = maskedFill(a.tensor(0), a.tensor(1), a.scalar(2), false); a.ret(std::move(r)); }
void maskedFillTensor(Stack& s) { Args a(s, 3); Tensor r = maskedFill(a.tensor(0), a.tensor(1), valueOf(a.tensor(2)), false); a.ret(std::move(r)); }
void maskedFillScalar_(Stack& s) { Args a(s, 3); Tensor self = a.tensor(0); maskedFill(self, a.tensor(1), a.scalar(2), true); a.ret(std::move(self)); }
void maskedFillTensor_(Stack& s) { Args a(s, 3); Tensor self = a.tensor(0); maskedFill(self, a.tensor(1), valueOf(a.tensor(2)), true); a.ret(std::move(self)); }

/// Advanced indexing x[i0, i1, ...] with index tensors (None = full slice). Boolean masks are converted to the
/// integer positions of their true elements. Indexed dims must be adjacent (PyTorch then keeps them in place;
/// non-adjacent indexed dims move the result dims to the front, which is supported too).
Tensor indexTensor(const Tensor& self, const std::vector<IValue>& indices) {
  const IndexedOffsets pos = indexedOffsets(self, indices);
  if (!pos.anyIndexed) return self.alias();
  Tensor out = Tensor::empty(pos.shape, self.dtype());
  const size_t es = self.element_size();
  const char* src = static_cast<const char*>(self.data_ptr());
  char* dst = static_cast<char*>(out.data_ptr());
  for (size_t e = 0; e < pos.offsets.size(); ++e) std::memcpy(dst + e * es, src + pos.offsets[e] * es, es);
  return out;
}
void indexK(Stack& s) {
  Args a(s, 2);
  const auto& l = a[1].toListRef();
  Tensor r = indexTensor(a.tensor(0), l.elements);
  a.ret(std::move(r));
}

template <bool Lower>
void trilTriu(Stack& s) {
  Args a(s, 2);
  const Tensor self = a.tensor(0);
  const int64_t diag = a.toInt(1);
  KD_CHECK(self.dim() >= 2, "{}: input tensor must have at least 2 dimensions", Lower ? "tril" : "triu");
  Tensor out = self.contiguous().clone();
  const int64_t R = self.sizes()[self.dim() - 2], C = self.sizes()[self.dim() - 1];
  const int64_t batch = R * C == 0 ? 0 : self.numel() / (R * C);
  const size_t es = self.element_size();
  char* p = static_cast<char*>(out.data_ptr());
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < R; ++i)
      for (int64_t j = 0; j < C; ++j) {
        const bool keep = Lower ? (j - i <= diag) : (j - i >= diag);
        if (!keep) std::memset(p + ((b * R + i) * C + j) * es, 0, es);
      }
  a.ret(std::move(out));
}


// embedding(weight [V, D], indices) -> [*indices.shape, D]
void embeddingK(Stack& s) {
  Args a(s, 5);
  const Tensor w = a.tensor(0), idx = a.tensor(1);
  KD_CHECK(w.dim() == 2, "'weight' must be 2-D");
  KD_CHECK(idx.dtype() == ScalarType::Long || idx.dtype() == ScalarType::Int,
           "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got {} instead (while checking arguments for embedding)",
           std::string("torch.") + scalarTypeName(idx.dtype()) + "Tensor");
  IntArray shape = idx.sizes();
  shape.push_back(w.sizes()[1]);
  Tensor r = indexSelect(w, 0, idx.reshape({-1})).view(shape);
  a.ret(std::move(r));
}

/// embedding_bag (ATen's _embedding_bag_cpu): bags of rows of `weight` given by `indices` and `offsets`,
/// reduced by sum (0), mean (1) or max (2); `per_sample_weights` scale rows (sum only); rows equal to
/// padding_idx are skipped (and not counted by mean); empty bags give zeros. Returns (output, offset2bag,
/// bag_size, max_indices) — offset2bag/bag_size/max_indices are the bag of each index, the index count of
/// each bag and the argmax rows (max mode), as the backward pass would use them.
void embeddingBagImpl(Stack& s, bool hasPaddingArg) {
  Args a(s, hasPaddingArg ? 9 : 8);
  const Tensor w = a.tensor(0), idxIn = a.tensor(1), offIn = a.tensor(2);
  const int64_t mode = a.toInt(4);
  const Tensor psw = a.optTensor(6);
  const bool includeLast = a.toBool(7);
  std::optional<int64_t> pad;
  if (hasPaddingArg) pad = a.optInt(8);
  KD_CHECK(w.dim() == 2, "weight has to be a 2D Tensor, but got Tensor of dimension {}", w.dim());
  KD_CHECK(idxIn.dtype() == ScalarType::Long || idxIn.dtype() == ScalarType::Int,
           "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got {} instead (while checking arguments for embedding_bag)",
           std::string("torch.") + scalarTypeName(idxIn.dtype()) + "Tensor");
  KD_CHECK(offIn.dtype() == ScalarType::Long || offIn.dtype() == ScalarType::Int,
           "Expected tensor for argument #1 'offsets' to have one of the following scalar types: Long, Int; but got {} instead (while checking arguments for embedding_bag)",
           std::string("torch.") + scalarTypeName(offIn.dtype()) + "Tensor");
  KD_CHECK(idxIn.dim() == 1, "input has to be a 1D or 2D Tensor, but got Tensor of dimension {}", idxIn.dim());
  KD_CHECK(offIn.dim() == 1, "offsets has to be a 1D Tensor, but got Tensor of dimension {}", offIn.dim());
  KD_CHECK(mode >= 0 && mode <= 2, "mode has to be one of sum, mean or max");
  KD_CHECK(isFloatingType(w.dtype()), "\"embedding_bag_cpu\" not implemented for '{}'", scalarTypeName(w.dtype()));
  const int64_t num = w.sizes()[0], dim = w.sizes()[1];
  int64_t padIdx = -1;
  if (pad.has_value()) {
    const int64_t p = pad.value_or(0);
    KD_CHECK(p >= -num && p < num, "padding_idx must be within the number of embeddings, -{} through {}, but got {}",
             num, num - 1, p);
    padIdx = p < 0 ? p + num : p;
  }
  if (psw.defined()) {
    KD_CHECK(mode == 0, "embedding_bag: per_sample_weights only supported with mode='sum'");
    KD_CHECK(psw.dim() == 1 && psw.numel() == idxIn.numel(), "embedding_bag: per_sample_weights has to be 1D with the same size as input");
  }
  const Tensor idx = idxIn.to(ScalarType::Long).contiguous(), off = offIn.to(ScalarType::Long).contiguous();
  const int64_t* I = idx.data_ptr<int64_t>();
  const int64_t* O = off.data_ptr<int64_t>();
  const int64_t n = idx.numel(), nOff = off.numel();
  const int64_t B = includeLast ? std::max<int64_t>(nOff - 1, 0) : nOff;
  if (nOff > 0) KD_CHECK(O[0] == 0, "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from position 0. However, got {}", O[0]);
  if (nOff > 0) KD_CHECK(O[nOff - 1] <= n, "offsets[-1] can not be greater than input's length {}, but got offsets[-1] of {}", n, O[nOff - 1]);
  const Tensor wc = w.contiguous();
  Tensor out = Tensor::zeros({B, dim}, w.dtype());
  Tensor offset2bag = Tensor::zeros({n}, ScalarType::Long), bagSize = Tensor::zeros({B}, ScalarType::Long);
  Tensor maxIdx = Tensor::zeros(mode == 2 ? IntArray{B, dim} : IntArray{B}, ScalarType::Long);
  const Tensor pw = psw.defined() ? psw.to(w.dtype()).contiguous() : Tensor();
  dispatchLoopFloating(w.dtype(), "embedding_bag", [&](auto tag) {
    using T = decltype(tag);
    const T* W = wc.data_ptr<T>();
    T* Y = out.data_ptr<T>();
    const T* P = pw.defined() ? pw.data_ptr<T>() : nullptr;
    int64_t* bag = offset2bag.data_ptr<int64_t>();
    int64_t* bs = bagSize.data_ptr<int64_t>();
    int64_t* mi = maxIdx.data_ptr<int64_t>();
    for (int64_t b = 0; b < B; ++b) {
      const int64_t start = O[b], end = (b + 1 < nOff) ? O[b + 1] : n;
      KD_CHECK(start <= end, "offsets must be non-decreasing");
      T* yb = Y + b * dim;
      int64_t count = 0;
      for (int64_t j = start; j < end; ++j) {
        const int64_t r = I[j];
        KD_CHECK_INDEX(r >= 0 && r < num, "index {} is out of bounds for dimension 0 with size {}", r, num);
        bag[j] = b;
        if (r == padIdx) continue;
        const T* row = W + r * dim;
        if (mode == 2) {
          for (int64_t k = 0; k < dim; ++k)
            if (count == 0 || row[k] > yb[k]) { yb[k] = row[k]; mi[b * dim + k] = r; }
        } else {
          const T scale = P ? P[j] : T(1);
          for (int64_t k = 0; k < dim; ++k) yb[k] += row[k] * scale;
        }
        ++count;
      }
      bs[b] = count;
      if (mode == 1 && count > 0)
        for (int64_t k = 0; k < dim; ++k) yb[k] /= static_cast<T>(count);
    }
  });
  a.ret(std::move(out), std::move(offset2bag), std::move(bagSize), std::move(maxIdx));
}
void embeddingBagK(Stack& s) { embeddingBagImpl(s, false); }
void embeddingBagPaddingK(Stack& s) { embeddingBagImpl(s, true); }

/// embedding_renorm_: rows of `self` referenced by `indices` whose p-norm exceeds max_norm are scaled to
/// max_norm / (norm + 1e-7) (ATen's embedding_renorm_cpu_).
void embeddingRenormK(Stack& s) {
  Args a(s, 4);
  Tensor self = a.tensor(0);
  const Tensor idx = a.tensor(1).to(ScalarType::Long).contiguous();
  const double maxNorm = a.toDouble(2), p = a.toDouble(3);
  KD_CHECK(self.dim() == 2, "'self' must be 2-D");
  KD_CHECK(isFloatingType(self.dtype()), "\"embedding_renorm_\" not implemented for '{}'", scalarTypeName(self.dtype()));
  std::vector<int64_t> rows(idx.data_ptr<int64_t>(), idx.data_ptr<int64_t>() + idx.numel());
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  for (int64_t r : rows) {
    KD_CHECK_INDEX(r >= 0 && r < self.sizes()[0], "index {} is out of bounds for dimension 0 with size {}", r, self.sizes()[0]);
    Tensor row = self.select(0, r);
    double norm = 0;
    for (int64_t k = 0; k < row.numel(); ++k) {
      const double v = std::abs(row.doubleAt(k));
      if (p == 1) norm += v;
      else if (p == 2) norm += v * v;
      else if (std::isinf(p)) norm = std::max(norm, v);
      else norm += std::pow(v, p);
    }
    if (p == 2) norm = std::sqrt(norm);
    else if (p != 1 && !std::isinf(p)) norm = std::pow(norm, 1.0 / p);
    if (norm > maxNorm) {
      const double scale = maxNorm / (norm + 1e-7);
      Tensor scaled = row.to(ScalarType::Double).clone();
      double* d = scaled.data_ptr<double>();
      for (int64_t k = 0; k < scaled.numel(); ++k) d[k] *= scale;
      row.copy_(scaled);
    }
  }
  a.ret(std::move(self));
}

std::vector<IntArray> nonzeroPositions(const Tensor& t) {
  const Tensor m = t.to(ScalarType::Bool).contiguous();
  std::vector<IntArray> out;
  IntArray pos(t.dim(), 0);
  const bool* p = m.data_ptr<bool>();
  for (int64_t e = 0; e < m.numel(); ++e) {
    if (p[e]) out.push_back(pos);
    for (int64_t k = t.dim() - 1; k >= 0; --k) {
      if (++pos[k] < t.sizes()[k]) break;
      pos[k] = 0;
    }
  }
  return out;
}
void nonzeroK(Stack& s) {
  Args a(s, 1);
  const Tensor t = a.tensor(0);
  const auto pos = nonzeroPositions(t);
  std::vector<int64_t> flat;
  for (const auto& p : pos) flat.insert(flat.end(), p.begin(), p.end());
  Tensor r = Tensor::fromVector<int64_t>(flat, ScalarType::Long).reshape({static_cast<int64_t>(pos.size()), t.dim()});
  a.ret(std::move(r));
}
void maskedSelectK(Stack& s) {
  Args a(s, 2);
  const Tensor self = a.tensor(0), mask = a.tensor(1);
  KD_CHECK(mask.dtype() == ScalarType::Bool, "masked_select: expected BoolTensor for mask");
  const IntArray shape = inferSize(self.sizes(), mask.sizes());
  const Tensor x = self.expand(shape).contiguous(), m = mask.expand(shape).contiguous();
  int64_t count = 0;
  for (int64_t e = 0; e < m.numel(); ++e) count += m.data_ptr<bool>()[e];
  Tensor out = Tensor::empty({count}, self.dtype());
  const size_t es = self.element_size();
  const char* X = static_cast<const char*>(x.data_ptr());
  char* Y = static_cast<char*>(out.data_ptr());
  int64_t j = 0;
  for (int64_t e = 0; e < m.numel(); ++e)
    if (m.data_ptr<bool>()[e]) std::memcpy(Y + (j++) * es, X + e * es, es);
  a.ret(std::move(out));
}
void oneHotK(Stack& s) {
  Args a(s, 2);
  const Tensor self = a.tensor(0);
  KD_CHECK(self.dtype() == ScalarType::Long, "one_hot is only applicable to index tensor.");
  const std::vector<int64_t> v = indexValues(self, "one_hot");
  int64_t nc = a.toInt(1);
  if (nc == -1) {
    KD_CHECK(!v.empty(), "Can not infer total number of classes from empty tensor.");
    nc = *std::max_element(v.begin(), v.end()) + 1;
  }
  for (int64_t x : v) {
    KD_CHECK(x >= 0, "Class values must be non-negative.");
    KD_CHECK(x < nc, "Class values must be smaller than num_classes.");
  }
  IntArray shape = self.sizes();
  shape.push_back(nc);
  Tensor out = Tensor::zeros(shape, ScalarType::Long);
  for (size_t i = 0; i < v.size(); ++i) out.data_ptr<int64_t>()[i * nc + v[i]] = 1;
  a.ret(std::move(out));
}

/// How scatter combines src into self: replace (scatter), sum (scatter_add, reduce="add"), product
/// (reduce="multiply").
enum class ScatterMode { Replace, Add, Multiply };

/// The `reduce` argument of scatter(..., reduce=): ATen's get_operator_enum (old options).
ScatterMode scatterReduceMode(const std::string& reduce) {
  if (reduce == "add") return ScatterMode::Add;
  if (reduce == "multiply") return ScatterMode::Multiply;
  throw RuntimeError("reduce argument must be either add or multiply.");
}

/// scatter / scatter_add / scatter(reduce=): out[... index[i] ...] (=|+=|*=) src[i] along dim, with out a
/// clone of self, or self itself for the in-place variants (inplace = true).
/// ATen's scatter_meta_impl checks (index dtype and shape, self/src dtype and shape); src undefined for the
/// Scalar value overloads.
void scatterChecks(const Tensor& self, int64_t d, const Tensor& index, const Tensor& src, bool value) {
  if (index.numel() != 0)
    KD_CHECK(index.dtype() == ScalarType::Long, "scatter(): Expected dtype int64 for index");
  if (!value) KD_CHECK(self.dtype() == src.dtype(), "scatter(): Expected self.dtype to be equal to src.dtype");
  KD_CHECK(index.dim() == self.dim() || index.numel() == 0, "Index tensor must have the same number of dimensions as self tensor");
  for (int64_t k = 0; k < index.dim() && index.numel() > 0; ++k) {
    if (k != d)
      KD_CHECK(index.sizes()[k] <= self.sizes()[k], "Expected index {} to be smaller than self {} apart from dimension {}",
               index.sizesStr(), self.sizesStr(), d);
    if (!value)
      KD_CHECK(src.dim() == index.dim() && index.sizes()[k] <= src.sizes()[k],
               "Expected index {} to be smaller than self {} apart from dimension {} and to be smaller size than src {}",
               index.sizesStr(), self.sizesStr(), d, src.sizesStr());
  }
}

Tensor scatterImpl(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, const Scalar* value,
                   ScatterMode mode, bool inplace = false) {
  const int64_t d = maybeWrapDim(dim, self.dim());
  scatterChecks(self, d, index, src, value != nullptr);
  Tensor out = inplace ? self : self.clone();
  if (index.numel() == 0) return out;
  const Tensor idx = index.contiguous();
  const Tensor sv = value ? Tensor::full({}, *value, self.dtype()) : src.to(self.dtype());
  const int64_t nd = index.dim();
  const int64_t limit = self.dim() == 0 ? 1 : self.sizes()[d];
  IntArray pos(nd, 0);
  dispatchLoopTypes(self.dtype() == ScalarType::Half || self.dtype() == ScalarType::BFloat16 ? ScalarType::Undefined : self.dtype(), "scatter", [&](auto tag) {
    using T = decltype(tag);
    T* O = out.data_ptr<T>();
    const T* S = sv.data_ptr<T>();
    for (int64_t e = 0; e < idx.numel(); ++e) {
      const int64_t v = idx.data_ptr<int64_t>()[e];
      KD_CHECK_INDEX(v >= -limit && v < limit, "index {} is out of bounds for dimension {} with size {}", v, d, limit);
      int64_t o = 0, so = 0;
      for (int64_t k = 0; k < nd; ++k) {
        o += (k == d ? (v < 0 ? v + limit : v) : pos[k]) * out.strides()[k];
        if (!value) so += pos[k] * sv.strides()[k];
      }
      if (mode == ScatterMode::Add) {
        if constexpr (std::is_same_v<T, bool>) O[o] = O[o] || S[so];
        else O[o] = static_cast<T>(O[o] + S[so]);
      } else if (mode == ScatterMode::Multiply) {
        if constexpr (std::is_same_v<T, bool>) O[o] = O[o] && S[so];
        else O[o] = static_cast<T>(O[o] * S[so]);
      } else {
        O[o] = S[so];
      }
      for (int64_t k = nd - 1; k >= 0; --k) {
        if (++pos[k] < index.sizes()[k]) break;
        pos[k] = 0;
      }
    }
  });
  return out;
}
/// scatter_reduce(self, dim, index, src, reduce, include_self) (ATen's scatter_reduce.two): out = self (or, when
/// not include_self, self with the scattered-to positions reset to the reduction's identity), then each
/// src[i] combined into out[... index[i] ...] by sum / prod / mean / amax / amin (NaN wins amax/amin); mean
/// divides by the number of contributions (self counted when included; floor division for integers).
Tensor scatterReduceTwo(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                        const std::string& reduce, bool includeSelf, bool inplace) {
  const int64_t d = maybeWrapDim(dim, self.dim());
  scatterChecks(self, d, index, src, false);
  enum { Sum, Prod, Mean, Max, Min } op;
  if (reduce == "sum") op = Sum;
  else if (reduce == "prod") op = Prod;
  else if (reduce == "mean") op = Mean;
  else if (reduce == "amax") op = Max;
  else if (reduce == "amin") op = Min;
  else throw RuntimeError(fmt::format("reduce argument must be either sum, prod, mean, amax or amin, got {}", reduce));
  Tensor out = inplace ? self : self.clone();
  if (index.numel() == 0) return out;
  const Tensor idx = index.contiguous();
  const int64_t nd = index.dim();
  const int64_t limit = self.dim() == 0 ? 1 : self.sizes()[d];
  // out element offsets of every index element, checked, in index order
  std::vector<int64_t> dst(static_cast<size_t>(idx.numel())), srcOff(dst.size());
  IntArray pos(nd, 0);
  for (int64_t e = 0; e < idx.numel(); ++e) {
    const int64_t v = idx.data_ptr<int64_t>()[e];
    KD_CHECK_INDEX(v >= -limit && v < limit, "index {} is out of bounds for dimension {} with size {}", v, d, limit);
    int64_t o = 0, so = 0;
    for (int64_t k = 0; k < nd; ++k) {
      o += (k == d ? (v < 0 ? v + limit : v) : pos[k]) * out.strides()[k];
      so += pos[k] * src.strides()[k];
    }
    dst[e] = o;
    srcOff[e] = so;
    for (int64_t k = nd - 1; k >= 0; --k) {
      if (++pos[k] < index.sizes()[k]) break;
      pos[k] = 0;
    }
  }
  dispatchLoopTypes(self.dtype(), "scatter_reduce_two_cpu", [&](auto tag) {
    using T = decltype(tag);
    T* O = out.data_ptr<T>();
    const T* S = src.data_ptr<T>();
    if (!includeSelf) {
      T init{};
      if (op == Prod) init = T(1);
      if (op == Max) init = std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                                 : std::numeric_limits<T>::lowest();
      if (op == Min) init = std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                                 : std::numeric_limits<T>::max();
      for (int64_t o : dst) O[o] = init;
    }
    std::unordered_map<int64_t, int64_t> count;  // contributions per scattered-to offset (mean)
    for (size_t e = 0; e < dst.size(); ++e) {
      T& y = O[dst[e]];
      const T x = S[srcOff[e]];
      if constexpr (std::is_same_v<T, bool>) {
        if (op == Sum || op == Mean || op == Max) y = y || x;
        else y = y && x;
      } else {
        bool xNan = false;
        if constexpr (std::is_floating_point_v<T>) xNan = std::isnan(x);
        switch (op) {
          case Sum: case Mean: y = static_cast<T>(y + x); break;
          case Prod: y = static_cast<T>(y * x); break;
          case Max: y = xNan ? x : std::max(y, x); break;
          case Min: y = xNan ? x : std::min(y, x); break;
        }
      }
      if (op == Mean) ++count[dst[e]];
    }
    // untouched positions divide by 1; scattered ones by their contributions (+1 for self when included)
    for (const auto& [o, n] : count) {
      const int64_t c = n + (includeSelf ? 1 : 0);
      if constexpr (std::is_floating_point_v<T>) {
        O[o] = O[o] / static_cast<T>(c);
      } else if constexpr (!std::is_same_v<T, bool>) {
        const T q = static_cast<T>(O[o] / c);
        O[o] = (O[o] % c != 0 && (O[o] < 0)) ? static_cast<T>(q - 1) : q;
      }
    }
  });
  return out;
}
template <bool Inplace>
void scatterReduceTwoK(Stack& s) {
  Args a(s, 6);
  a.ret(scatterReduceTwo(a.tensor(0), a.toInt(1), a.tensor(2), a.tensor(3), a[4].toStringRef(), a.toBool(5), Inplace));
}

// Kernels of scatter.src / .value / .reduce / .value_reduce, scatter_add and their in-place forms:
// (self, dim, index, src|value[, reduce]).
template <bool Value, bool Inplace>
void scatterK(Stack& s) {
  Args a(s, 4);
  const Scalar v = Value ? a.scalar(3) : Scalar(int64_t(0));
  Tensor r = scatterImpl(a.tensor(0), a.toInt(1), a.tensor(2), Value ? Tensor() : a.tensor(3), Value ? &v : nullptr,
                         ScatterMode::Replace, Inplace);
  a.ret(std::move(r));
}
template <bool Value, bool Inplace>
void scatterReduceK(Stack& s) {
  Args a(s, 5);
  const Scalar v = Value ? a.scalar(3) : Scalar(int64_t(0));
  const ScatterMode mode = scatterReduceMode(a[4].toStringRef());
  Tensor r = scatterImpl(a.tensor(0), a.toInt(1), a.tensor(2), Value ? Tensor() : a.tensor(3), Value ? &v : nullptr,
                         mode, Inplace);
  a.ret(std::move(r));
}
template <bool Inplace>
void scatterAddK(Stack& s) {
  Args a(s, 4);
  Tensor r = scatterImpl(a.tensor(0), a.toInt(1), a.tensor(2), a.tensor(3), nullptr, ScatterMode::Add, Inplace);
  a.ret(std::move(r));
}

}  // namespace

void registerIndexOps(OperatorRegistry& r) {
  r.add("aten::index_select(Tensor self, int dim, Tensor index) -> Tensor", indexSelectK);
  r.add("aten::gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor", gatherK);
  r.add("aten::masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor", maskedFillScalar);
  r.add("aten::masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor", maskedFillTensor);
  r.add("aten::masked_fill_.Scalar(Tensor(a!) self, Tensor mask, Scalar value) -> Tensor(a!)", maskedFillScalar_);
  r.add("aten::masked_fill_.Tensor(Tensor(a!) self, Tensor mask, Tensor value) -> Tensor(a!)", maskedFillTensor_);
  r.add("aten::index.Tensor(Tensor self, Tensor?[] indices) -> Tensor", indexK);
  r.add("aten::index.Tensor_hacked_twin(Tensor self, Tensor[] indices) -> Tensor", indexK);
  r.add("aten::embedding(Tensor weight, Tensor indices, int padding_idx=-1, bool scale_grad_by_freq=False, bool sparse=False) -> Tensor", embeddingK);
  r.add("aten::embedding_bag(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq=False, int mode=0, bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset=False) -> (Tensor, Tensor, Tensor, Tensor)", embeddingBagK);
  r.add("aten::embedding_bag.padding_idx(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq, int mode, bool sparse, Tensor? per_sample_weights, bool include_last_offset, int? padding_idx) -> (Tensor, Tensor, Tensor, Tensor)", embeddingBagPaddingK);
  r.add("aten::embedding_renorm_(Tensor(a!) self, Tensor indices, float max_norm, float norm_type) -> Tensor(a!)", embeddingRenormK);
  r.add("aten::nonzero(Tensor self) -> Tensor", nonzeroK);
  r.add("aten::masked_select(Tensor self, Tensor mask) -> Tensor", maskedSelectK);
  r.add("aten::one_hot(Tensor self, int num_classes=-1) -> Tensor", oneHotK);
  r.add("aten::scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor", scatterK<false, false>);
  r.add("aten::scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor", scatterK<true, false>);
  r.add("aten::scatter.reduce(Tensor self, int dim, Tensor index, Tensor src, *, str reduce) -> Tensor", scatterReduceK<false, false>);
  r.add("aten::scatter.value_reduce(Tensor self, int dim, Tensor index, Scalar value, *, str reduce) -> Tensor", scatterReduceK<true, false>);
  r.add("aten::scatter_.src(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)", scatterK<false, true>);
  r.add("aten::scatter_.value(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)", scatterK<true, true>);
  r.add("aten::scatter_.reduce(Tensor(a!) self, int dim, Tensor index, Tensor src, *, str reduce) -> Tensor(a!)", scatterReduceK<false, true>);
  r.add("aten::scatter_.value_reduce(Tensor(a!) self, int dim, Tensor index, Scalar value, *, str reduce) -> Tensor(a!)", scatterReduceK<true, true>);
  r.add("aten::scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor", scatterAddK<false>);
  r.add("aten::scatter_add_(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)", scatterAddK<true>);
  r.add("aten::scatter_reduce.two(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) -> Tensor", scatterReduceTwoK<false>);
  r.add("aten::scatter_reduce_.two(Tensor(a!) self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) -> Tensor(a!)", scatterReduceTwoK<true>);
  r.add("aten::tril(Tensor self, int diagonal=0) -> Tensor", trilTriu<true>);
  r.add("aten::triu(Tensor self, int diagonal=0) -> Tensor", trilTriu<false>);
}

}  // namespace kindling
