// Shape operators that ATen composes from other operators (CompositeImplicit / CompositeExplicit kernels of
// TensorShape.cpp and friends): ravel, broadcast_to, fliplr/flipud, rot90, tile, atleast_{1,2,3}d,
// column_stack, dstack, tensor_split / hsplit / vsplit / dsplit, narrow_copy, select/slice/diagonal_scatter,
// diag_embed, unfold (the Tensor method: sliding windows as a view), sum_to_size, repeat_interleave,
// tril_indices / triu_indices, kron, cartesian_prod, block_diag, fill, conj / resolve_conj / resolve_neg / real,
// resize_ / resize_as_, as_strided, empty_strided / new_empty_strided. Each follows ATen's composition
// step by step (so values are those of the composed operators) with ATen's argument checks and messages.
#include <algorithm>
#include <cstdlib>

#include "ops/registry/kernel_args.h"
#include "ops/registry/op_call.h"
#include "ops/registry/operator.h"
#include "ops/kernels/common/out_variant.h"
#include "tensor/type_promotion.h"

namespace kindling {

namespace {

IValue tensorListValue(std::vector<Tensor> ts) {
  std::vector<IValue> out;
  out.reserve(ts.size());
  for (Tensor& t : ts) out.emplace_back(std::move(t));
  return IValue(makeIntrusive<ListValue>(TensorType(), std::move(out)));
}

IValue intListValue(const IntArray& v) {
  return IValue(makeIntrusive<ListValue>(IntType(), std::vector<IValue>(v.begin(), v.end())));
}

const OpHandle& flipOp() { static const OpHandle op("aten::flip"); return op; }
const OpHandle& sliceOp() { static const OpHandle op("aten::slice.Tensor"); return op; }
const OpHandle& catOp() { static const OpHandle op("aten::cat"); return op; }

Tensor flip(const Tensor& t, const IntArray& dims) { return flipOp()(t, intListValue(dims)); }
Tensor sliceAlong(const Tensor& t, int64_t dim, int64_t start, int64_t end) {
  return sliceOp()(t, dim, start, end, int64_t(1));
}

void ravelK(Stack& s) { Args a(s, 1); a.ret(a.tensor(0).contiguous().view({-1})); }
void broadcastToK(Stack& s) { Args a(s, 2); a.ret(a.tensor(0).expand(a.intList(1))); }

void fliplrK(Stack& s) {
  Args a(s, 1);
  KD_CHECK(a.tensor(0).dim() >= 2, "Input must be >= 2-d.");
  a.ret(flip(a.tensor(0), {1}));
}
void flipudK(Stack& s) {
  Args a(s, 1);
  KD_CHECK(a.tensor(0).dim() >= 1, "Input must be >= 1-d.");
  a.ret(flip(a.tensor(0), {0}));
}

void rot90K(Stack& s) {
  Args a(s, 3);
  const Tensor self = a.tensor(0);
  const IntArray dims = a.intList(2);
  const int64_t nd = self.dim(), nrot = static_cast<int64_t>(dims.size());
  KD_CHECK(nrot == 2, "expected total rotation dims == 2, but got dims = {}", nrot);
  KD_CHECK(nd >= 2, "expected total dims >= 2, but got total dims = {}", nd);
  KD_CHECK(dims[0] != dims[1] && std::abs(dims[0] - dims[1]) != nd,
           "expected rotation dims to be different, but got dim0 = {} and dim1 = {}", dims[0], dims[1]);
  KD_CHECK(dims[0] < nd && dims[0] >= -nd, "Rotation dim0 out of range, dim0 = {}", dims[0]);
  KD_CHECK(dims[1] < nd && dims[1] >= -nd, "Rotation dim1 out of range, dim1 = {}", dims[1]);
  const int64_t k = (4 + (a.toInt(1) % 4)) % 4;
  const int64_t d0 = maybeWrapDim(dims[0], nd), d1 = maybeWrapDim(dims[1], nd);
  switch (k) {
    case 1: a.ret(flip(self, {dims[1]}).transpose(d0, d1)); break;
    case 2: a.ret(flip(self, dims)); break;
    case 3: a.ret(flip(self, {dims[0]}).transpose(d0, d1)); break;
    default: a.ret(self.clone()); break;
  }
}

void tileK(Stack& s) {
  Args a(s, 2);
  const Tensor self = a.tensor(0);
  IntArray reps = a.intList(1);
  const int64_t diff = self.dim() - static_cast<int64_t>(reps.size());
  if (diff > 0) reps.insert(reps.begin(), diff, 1);
  static const OpHandle repeat("aten::repeat");
  a.ret(repeat(self, intListValue(reps)));
}

Tensor atleast(const Tensor& t, int n) {
  if (n == 1) return t.dim() == 0 ? t.reshape({1}) : t;
  if (n == 2) {
    if (t.dim() == 0) return t.reshape({1, 1});
    return t.dim() == 1 ? t.unsqueeze(0) : t;
  }
  if (t.dim() == 0) return t.reshape({1, 1, 1});
  if (t.dim() == 1) return t.unsqueeze(0).unsqueeze(-1);
  return t.dim() == 2 ? t.unsqueeze(-1) : t;
}
template <int N> void atleastK(Stack& s) { Args a(s, 1); a.ret(atleast(a.tensor(0), N)); }
template <int N> void atleastSeqK(Stack& s) {
  Args a(s, 1);
  std::vector<Tensor> ts = a.tensorList(0);
  for (Tensor& t : ts) t = atleast(t, N);
  a.ret(tensorListValue(std::move(ts)));
}

void columnStackK(Stack& s) {
  Args a(s, 1);
  std::vector<Tensor> ts = a.tensorList(0);
  KD_CHECK(!ts.empty(), "column_stack expects a non-empty TensorList");
  for (Tensor& t : ts)
    if (t.dim() <= 1) t = t.reshape({t.numel(), 1});
  static const OpHandle hstack("aten::hstack");
  a.ret(hstack(tensorListValue(std::move(ts))));
}

void dstackK(Stack& s) {
  Args a(s, 1);
  std::vector<Tensor> ts = a.tensorList(0);
  KD_CHECK(!ts.empty(), "dstack expects a non-empty TensorList");
  for (Tensor& t : ts) t = atleast(t, 3);
  a.ret(catOp()(tensorListValue(std::move(ts)), int64_t(2)));
}

// tensor_split: `sections` nearly equal parts (the first size % sections one longer), or cuts at `indices`
std::vector<Tensor> tensorSplitSections(const Tensor& self, int64_t sections, int64_t dimIn) {
  KD_CHECK(self.dim() > 0, "tensor_split expected at least a 1-dimensional tensor, but got a tensor with {} dims",
           self.dim());
  KD_CHECK(sections > 0, "number of sections must be larger than 0, got {}", sections);
  const int64_t dim = maybeWrapDim(dimIn, self.dim());
  const int64_t n = self.sizes()[dim], base = n / sections, extra = n % sections;
  std::vector<Tensor> out;
  int64_t start = 0;
  for (int64_t i = 0; i < sections; ++i) {
    const int64_t len = i < extra ? base + 1 : base;
    out.push_back(sliceAlong(self, dim, start, start + len));
    start += len;
  }
  return out;
}
std::vector<Tensor> tensorSplitIndices(const Tensor& self, const IntArray& indices, int64_t dimIn) {
  KD_CHECK(self.dim() > 0, "tensor_split expected at least a 1-dimensional tensor, but got a tensor with {} dims",
           self.dim());
  const int64_t dim = maybeWrapDim(dimIn, self.dim());
  std::vector<Tensor> out;
  int64_t start = 0;
  for (int64_t end : indices) {
    out.push_back(sliceAlong(self, dim, start, end));
    start = end;
  }
  out.push_back(sliceAlong(self, dim, start, self.sizes()[dim]));
  return out;
}
void tensorSplitSectionsK(Stack& s) { Args a(s, 3); a.ret(tensorListValue(tensorSplitSections(a.tensor(0), a.toInt(1), a.toInt(2)))); }
void tensorSplitIndicesK(Stack& s) { Args a(s, 3); a.ret(tensorListValue(tensorSplitIndices(a.tensor(0), a.intList(1), a.toInt(2)))); }
void tensorSplitTensorK(Stack& s) {
  Args a(s, 3);
  const Tensor self = a.tensor(0), t = a.tensor(1);
  KD_CHECK(self.dim() > 0, "tensor_split expected at least a 1-dimensional tensor, but got a tensor with {} dims",
           self.dim());
  KD_CHECK(t.dtype() == ScalarType::Long,
           "tensor_split expected tensor_indices_or_sections to have dtype of long, but got {}", scalarTypeName(t.dtype()));
  KD_CHECK(t.dim() <= 1, "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or one-dimensional "
           "tensor, but got a tensor with {} dims", t.dim());
  if (t.dim() == 0) {
    a.ret(tensorListValue(tensorSplitSections(self, t.item().toLong(), a.toInt(2))));
    return;
  }
  const Tensor c = t.contiguous();
  const IntArray idx(c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel());
  a.ret(tensorListValue(tensorSplitIndices(self, idx, a.toInt(2))));
}

// hsplit / vsplit / dsplit: tensor_split along dim 1 (0 for 1-d) / 0 / 2, the int form requiring divisibility
template <int Which, bool Sections>
void hvdSplitK(Stack& s) {
  Args a(s, 2);
  const Tensor self = a.tensor(0);
  const char* name = Which == 0 ? "hsplit" : (Which == 1 ? "vsplit" : "dsplit");
  const int64_t minDim = Which == 0 ? 1 : (Which == 1 ? 2 : 3);
  if (Which == 0)
    KD_CHECK(self.dim() >= 1, "torch.hsplit requires a tensor with at least 1 dimension, but got a tensor with {} "
             "dimensions!", self.dim());
  else
    KD_CHECK(self.dim() >= minDim, "torch.{} requires a tensor with at least {} dimension, but got a tensor with {} "
             "dimensions!", name, minDim, self.dim());
  const int64_t dim = Which == 0 ? (self.dim() == 1 ? 0 : 1) : (Which == 1 ? 0 : 2);
  if (Sections) {
    const int64_t n = a.toInt(1);
    KD_CHECK(n != 0 && self.sizes()[dim] % n == 0, "torch.{} attempted to split along dimension {}, but the size of "
             "the dimension {} is not divisible by the split_size {}!", name, dim, self.sizes()[dim], n);
    a.ret(tensorListValue(tensorSplitSections(self, n, dim)));
  } else {
    a.ret(tensorListValue(tensorSplitIndices(self, a.intList(1), dim)));
  }
}

void narrowCopyK(Stack& s) {
  Args a(s, 4);
  static const OpHandle narrow("aten::narrow");
  a.ret(narrow(a.tensor(0), a.toInt(1), a.toInt(2), a.toInt(3)).clone());
}

void checkScatterSlice(const Tensor& slice, const Tensor& src) {
  KD_CHECK(slice.sizes() == src.sizes(), "expected src to have a size equal to the slice of self. src size = {}, "
           "slice size = {}", src.sizesStr(), slice.sizesStr());
}
void selectScatterK(Stack& s) {
  Args a(s, 4);
  const Tensor out = a.tensor(0).clone(), src = a.tensor(1);
  static const OpHandle select("aten::select.int");
  Tensor slice = select(out, a.toInt(2), a.toInt(3));
  checkScatterSlice(slice, src);
  slice.copy_(src);
  a.ret(out);
}
void sliceScatterK(Stack& s) {
  Args a(s, 6);
  const Tensor out = a.tensor(0).clone(), src = a.tensor(1);
  Tensor slice = sliceOp()(out, a[2], a[3], a[4], a[5]);
  checkScatterSlice(slice, src);
  slice.copy_(src);
  a.ret(out);
}
void diagonalScatterK(Stack& s) {
  Args a(s, 5);
  const Tensor out = a.tensor(0).clone(), src = a.tensor(1);
  static const OpHandle diagonal("aten::diagonal");
  Tensor slice = diagonal(out, a.toInt(2), a.toInt(3), a.toInt(4));
  checkScatterSlice(slice, src);
  slice.copy_(src);
  a.ret(out);
}

void diagEmbedK(Stack& s) {
  Args a(s, 4);
  const Tensor self = a.tensor(0);
  const int64_t offset = a.toInt(1), nd = self.dim() + 1;
  const int64_t d1 = maybeWrapDim(a.toInt(2), nd), d2 = maybeWrapDim(a.toInt(3), nd);
  KD_CHECK(d1 != d2, "diagonal dimensions cannot be identical {}, {}", a.toInt(2), a.toInt(3));
  const int64_t len = std::abs(offset) + self.size(-1);
  IntArray sizes = self.sizes();
  sizes.pop_back();
  sizes.insert(sizes.begin() + std::min(d1, d2), len);
  sizes.insert(sizes.begin() + std::max(d1, d2), len);
  Tensor result = Tensor::zeros(sizes, self.dtype());
  static const OpHandle diagonal("aten::diagonal");
  Tensor diag = diagonal(result, offset, d1, d2);
  diag.copy_(self);
  a.ret(result);
}

// Tensor.unfold(dimension, size, step): windows of `size` every `step` along dimension, as a new last dim (view)
void unfoldK(Stack& s) {
  Args a(s, 4);
  const Tensor self = a.tensor(0);
  const int64_t size = a.toInt(2), step = a.toInt(3);
  const int64_t d = maybeWrapDim(a.toInt(1), self.dim());
  const int64_t maxSize = self.dim() == 0 ? 1 : self.sizes()[d];
  KD_CHECK(size <= maxSize, "maximum size for tensor at dimension {} is {} but size is {}", d, maxSize, size);
  KD_CHECK(step > 0, "step is {} but must be > 0", step);
  IntArray sizes = self.sizes(), strides = self.strides();
  sizes.push_back(size);
  strides.push_back(self.dim() == 0 ? 1 : self.strides()[d]);
  if (d < self.dim()) {
    sizes[d] = (self.sizes()[d] - size) / step + 1;
    strides[d] = step * self.strides()[d];
  }
  a.ret(self.as_strided(sizes, strides, self.storage_offset()));
}

// sum_to_size(size): sums the broadcast dims away (leading dims, and dims of size 1 in `size`)
void sumToSizeK(Stack& s) {
  Args a(s, 2);
  const Tensor self = a.tensor(0);
  const IntArray size = a.intList(1);
  const int64_t lead = self.dim() - static_cast<int64_t>(size.size());
  bool expandable = lead >= 0;
  for (size_t i = 0; expandable && i < size.size(); ++i) {
    const int64_t t = self.sizes()[lead + i];
    expandable = size[i] == t || size[i] == 1;
  }
  auto join = [](const IntArray& v) {
    std::string r;
    for (size_t i = 0; i < v.size(); ++i) r += (i ? ", " : "") + std::to_string(v[i]);
    return r;
  };
  KD_CHECK(expandable, "size {{{}}} is not expandable to size {{{}}}.", join(size), join(self.sizes()));
  static const OpHandle sumAll("aten::sum"), sum("aten::sum.dim_IntList");
  if (size.empty()) {  // ATen's sum_to: a full sum
    a.ret(sumAll(self, IValue()));
    return;
  }
  IntArray dims;
  for (int64_t i = 0; i < lead; ++i) dims.push_back(i);
  for (size_t i = 0; i < size.size(); ++i)
    if (size[i] == 1 && self.sizes()[lead + i] != 1) dims.push_back(lead + static_cast<int64_t>(i));
  Tensor r = dims.empty() ? self : sum(self, intListValue(dims), true, IValue());
  a.ret(lead > 0 ? r.view(size) : r);
}

// repeat_interleave(repeats): each index i repeated repeats[i] times (result in repeats' dtype)
Tensor repeatInterleaveIndices(const Tensor& repeats, std::optional<int64_t> outputSize) {
  KD_CHECK(repeats.dim() == 1, "repeat_interleave only accept 1D vector as repeat");
  KD_CHECK(repeats.dtype() == ScalarType::Long || repeats.dtype() == ScalarType::Int,
           "repeats has to be Long or Int tensor");
  if (repeats.sizes()[0] == 0) return Tensor::empty({0}, repeats.dtype());
  const Tensor r = repeats.to(ScalarType::Long).contiguous();
  const int64_t* R = r.data_ptr<int64_t>();
  int64_t total = 0;
  for (int64_t i = 0; i < r.numel(); ++i) total += R[i];
  if (outputSize) {
    total = *outputSize;
  } else {
    for (int64_t i = 0; i < r.numel(); ++i) KD_CHECK(R[i] >= 0, "repeats can not be negative");
  }
  Tensor out = Tensor::empty({total}, ScalarType::Long);
  int64_t* O = out.data_ptr<int64_t>();
  int64_t k = 0;
  for (int64_t i = 0; i < r.numel() && k < total; ++i)
    for (int64_t j = 0; j < R[i] && k < total; ++j) O[k++] = i;
  KD_CHECK(k == total, "allocated size does not match required size");
  return out.to(repeats.dtype());
}
Tensor repeatInterleave(const Tensor& self, const Tensor& repeats, std::optional<int64_t> dimIn,
                        std::optional<int64_t> outputSize) {
  Tensor input = self;
  int64_t dim = 0;
  if (!dimIn) {
    input = self.flatten();
  } else {
    dim = maybeWrapDim(*dimIn, self.dim());
  }
  const int64_t n = input.dim() == 0 ? 1 : input.sizes()[dim];
  Tensor reps = repeats;
  if (repeats.dim() == 0 || (repeats.dim() == 1 && repeats.sizes()[0] == 1)) {
    reps = repeats.reshape({1}).expand({n});
  } else if (repeats.dim() == 1) {
    KD_CHECK(repeats.sizes()[0] == n, "repeats must have the same size as input along dim");
  } else {
    throw RuntimeError("repeats must be 0-dim or 1-dim tensor");
  }
  static const OpHandle indexSelect("aten::index_select");
  return indexSelect(input, dim, repeatInterleaveIndices(reps, outputSize));
}
void repeatInterleaveTensorK(Stack& s) { Args a(s, 2); a.ret(repeatInterleaveIndices(a.tensor(0), a.optInt(1))); }
void repeatInterleaveSelfTensorK(Stack& s) {
  Args a(s, 4);
  a.ret(repeatInterleave(a.tensor(0), a.tensor(1), a.optInt(2), a.optInt(3)));
}
void repeatInterleaveSelfIntK(Stack& s) {
  Args a(s, 4);
  const Tensor reps = Tensor::scalarTensor(Scalar(a.toInt(1)), ScalarType::Long).reshape({1});
  a.ret(repeatInterleave(a.tensor(0), reps, a.optInt(2), a.optInt(3)));
}

// tril_indices / triu_indices(row, col, offset): the 2 x N (row, col) coordinates of the triangle, row-major
template <bool Lower>
void triIndicesK(Stack& s) {
  Args a(s, 7);
  const int64_t row = a.toInt(0), col = a.toInt(1), offset = a.toInt(2);
  const ScalarType dt = a.optDtype(3) == ScalarType::Undefined ? ScalarType::Long : a.optDtype(3);
  KD_CHECK(row >= 0, "row must be non-negative, got{}", row);
  KD_CHECK(col >= 0, "col must be non-negative, got{}", col);
  std::vector<int64_t> rs, cs;
  for (int64_t r = 0; r < row; ++r)
    for (int64_t c = 0; c < col; ++c)
      if (Lower ? c - r <= offset : c - r >= offset) {
        rs.push_back(r);
        cs.push_back(c);
      }
  const int64_t n = static_cast<int64_t>(rs.size());
  Tensor out = Tensor::empty({2, n}, ScalarType::Long);
  std::copy(rs.begin(), rs.end(), out.data_ptr<int64_t>());
  std::copy(cs.begin(), cs.end(), out.data_ptr<int64_t>() + n);
  a.ret(out.to(dt));
}

// kron(a, b): the broadcast product of a viewed as [a0, 1, a1, 1, ...] and b as [1, b0, 1, b1, ...]
void kronK(Stack& s) {
  Args a(s, 2);
  const Tensor x = a.tensor(0), y = a.tensor(1);
  const int64_t nd = std::max(x.dim(), y.dim());
  IntArray xs(nd - x.dim(), 1), ys(nd - y.dim(), 1);
  xs.insert(xs.end(), x.sizes().begin(), x.sizes().end());
  ys.insert(ys.end(), y.sizes().begin(), y.sizes().end());
  IntArray xv, yv, out;
  for (int64_t i = 0; i < nd; ++i) {
    xv.push_back(xs[i]);
    xv.push_back(1);
    yv.push_back(1);
    yv.push_back(ys[i]);
    out.push_back(xs[i] * ys[i]);
  }
  static const OpHandle mul("aten::mul.Tensor");
  a.ret(mul(x.reshape(xv), y.reshape(yv)).reshape(out));
}

void cartesianProdK(Stack& s) {
  Args a(s, 1);
  const std::vector<Tensor> ts = a.tensorList(0);
  for (const Tensor& t : ts) KD_CHECK(t.dim() == 1, "Expect a 1D vector, but got shape {}", t.sizesStr());
  if (ts.size() == 1) {
    a.ret(ts[0]);
    return;
  }
  IntArray shape;
  for (const Tensor& t : ts) shape.push_back(t.numel());
  std::vector<Tensor> cols;
  for (size_t i = 0; i < ts.size(); ++i) {
    IntArray v(ts.size(), 1);
    v[i] = -1;
    cols.push_back(ts[i].view(v).expand(shape).flatten());
  }
  static const OpHandle stack("aten::stack");
  a.ret(stack(tensorListValue(std::move(cols)), int64_t(1)));
}

void blockDiagK(Stack& s) {
  Args a(s, 1);
  const std::vector<Tensor> ts = a.tensorList(0);
  if (ts.empty()) {
    a.ret(Tensor::empty({1, 0}, ScalarType::Float));
    return;
  }
  ScalarType dt = ts[0].dtype();
  for (size_t i = 1; i < ts.size(); ++i) dt = promoteTypes(dt, ts[i].dtype());
  std::vector<Tensor> mats;
  int64_t rows = 0, cols = 0;
  for (size_t i = 0; i < ts.size(); ++i) {
    const Tensor& t = ts[i];
    KD_CHECK(t.dim() <= 2, "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {} has {} "
             "dimensions", i, t.dim());
    mats.push_back(t.dim() == 0 ? t.reshape({1, 1}) : (t.dim() == 1 ? t.reshape({1, t.numel()}) : t));
    rows += mats.back().sizes()[0];
    cols += mats.back().sizes()[1];
  }
  Tensor out = Tensor::zeros({rows, cols}, dt);
  int64_t r = 0, c = 0;
  for (const Tensor& m : mats) {
    const int64_t h = m.sizes()[0], w = m.sizes()[1];
    out.slice(0, r, r + h).slice(1, c, c + w).copy_(m);
    r += h;
    c += w;
  }
  a.ret(out);
}

// fill(self, value): a copy of self filled with value (fill.Tensor: a 0-dim value)
template <bool TensorValue>
void fillK(Stack& s) {
  Args a(s, 2);
  Tensor out = Tensor::empty(a.tensor(0).sizes(), a.tensor(0).dtype());
  static const OpHandle fillS("aten::fill_.Scalar"), fillT("aten::fill_.Tensor");
  if (TensorValue) fillT(out, a.tensor(1));
  else fillS(out, a[1]);
  a.ret(out);
}

// conj / conj_physical / resolve_conj / resolve_neg / real of a real tensor: the tensor itself (Kindling
// has no complex dtypes, so there is no conjugate or negative bit to resolve)
void selfK(Stack& s) { Args a(s, 1); a.ret(a.tensor(0)); }

// resize_(size) / resize_as_(template): ATen's resize_: a different shape makes self contiguous of that shape
// at its storage offset (storage grown when too small; new elements uninitialized); the same shape keeps
// self as is. Only the contiguous / preserve memory formats are supported.
void checkResizeFormat(const IValue& v) {
  KD_CHECK(v.isNone() || v.toInt() == 0 || v.toInt() == 1,
           "Kindling's resize_ supports only torch.contiguous_format / torch.preserve_format");
}
void resizeK(Stack& s) {
  Args a(s, 3);
  checkResizeFormat(a[2]);
  const Tensor self = a.tensor(0);
  const IntArray size = a.intList(1);
  for (int64_t v : size) KD_CHECK(v >= 0, "Trying to create tensor with negative dimension {}: {}", v, self.sizesStr());
  resizeOutput(self, size);
  a.ret(self);
}
void resizeAsK(Stack& s) {
  Args a(s, 3);
  checkResizeFormat(a[2]);
  const Tensor self = a.tensor(0);
  resizeOutput(self, a.tensor(1).sizes());
  a.ret(self);
}

// as_strided(size, stride, storage_offset=None): a view of self's storage (offset: self's when None), bounds
// checked as ATen's setStrided
void asStridedK(Stack& s) {
  Args a(s, 4);
  const Tensor self = a.tensor(0);
  const auto offset = a.optInt(3);
  a.ret(self.as_strided(a.intList(1), a.intList(2), offset ? *offset : self.storage_offset()));
}

// empty_strided / new_empty_strided: uninitialized memory with the given sizes and strides
void checkStridedArgs(const IntArray& size, const IntArray& stride, const IValue& layout, const IValue& device) {
  KD_CHECK(size.size() == stride.size(), "mismatch in length of strides and shape");
  KD_CHECK(layout.isNone() || layout.toInt() == 0, "Kindling supports only the strided layout");
  if (!device.isNone()) {
    const Device d = device.isString() ? Device::parse(device.toStringRef()) : device.toDevice();
    KD_CHECK(d.type == DeviceType::CPU, "Kindling runs on CPU only; cannot create a tensor on device '{}'", d.str());
  }
}
void emptyStridedK(Stack& s) {
  Args a(s, 6);
  const IntArray size = a.intList(0), stride = a.intList(1);
  checkStridedArgs(size, stride, a[3], a[4]);
  const ScalarType dt = a.optDtype(2) == ScalarType::Undefined ? ScalarType::Float : a.optDtype(2);
  a.ret(Tensor::emptyStrided(size, stride, dt));
}
void newEmptyStridedK(Stack& s) {
  Args a(s, 7);
  const IntArray size = a.intList(1), stride = a.intList(2);
  checkStridedArgs(size, stride, a[4], a[5]);
  const ScalarType dt = a.optDtype(3) == ScalarType::Undefined ? a.tensor(0).dtype() : a.optDtype(3);
  a.ret(Tensor::emptyStrided(size, stride, dt));
}

}  // namespace

void registerShapeExtraOps(OperatorRegistry& r) {
  r.add("aten::ravel(Tensor(a) self) -> Tensor(a)", ravelK);
  r.add("aten::broadcast_to(Tensor(a) self, int[] size) -> Tensor(a)", broadcastToK);
  r.add("aten::fliplr(Tensor self) -> Tensor", fliplrK);
  r.add("aten::flipud(Tensor self) -> Tensor", flipudK);
  r.add("aten::rot90(Tensor self, int k=1, int[] dims=[0, 1]) -> Tensor", rot90K);
  r.add("aten::tile(Tensor self, int[] dims) -> Tensor", tileK);
  r.add("aten::atleast_1d(Tensor self) -> Tensor", atleastK<1>);
  r.add("aten::atleast_1d.Sequence(Tensor[] tensors) -> Tensor[]", atleastSeqK<1>);
  r.add("aten::atleast_2d(Tensor self) -> Tensor", atleastK<2>);
  r.add("aten::atleast_2d.Sequence(Tensor[] tensors) -> Tensor[]", atleastSeqK<2>);
  r.add("aten::atleast_3d(Tensor self) -> Tensor", atleastK<3>);
  r.add("aten::atleast_3d.Sequence(Tensor[] tensors) -> Tensor[]", atleastSeqK<3>);
  r.add("aten::column_stack(Tensor[] tensors) -> Tensor", columnStackK);
  r.add("aten::dstack(Tensor[] tensors) -> Tensor", dstackK);
  r.add("aten::tensor_split.sections(Tensor(a -> *) self, int sections, int dim=0) -> Tensor(a)[]", tensorSplitSectionsK);
  r.add("aten::tensor_split.indices(Tensor(a -> *) self, int[] indices, int dim=0) -> Tensor(a)[]", tensorSplitIndicesK);
  r.add("aten::tensor_split.tensor_indices_or_sections(Tensor(a -> *) self, Tensor tensor_indices_or_sections, int dim=0) -> Tensor(a)[]", tensorSplitTensorK);
  r.add("aten::hsplit.int(Tensor(a -> *) self, int sections) -> Tensor(a)[]", hvdSplitK<0, true>);
  r.add("aten::hsplit.array(Tensor(a -> *) self, int[] indices) -> Tensor(a)[]", hvdSplitK<0, false>);
  r.add("aten::vsplit.int(Tensor(a -> *) self, int sections) -> Tensor(a)[]", hvdSplitK<1, true>);
  r.add("aten::vsplit.array(Tensor(a -> *) self, int[] indices) -> Tensor(a)[]", hvdSplitK<1, false>);
  r.add("aten::dsplit.int(Tensor(a -> *) self, int sections) -> Tensor(a)[]", hvdSplitK<2, true>);
  r.add("aten::dsplit.array(Tensor(a -> *) self, int[] indices) -> Tensor(a)[]", hvdSplitK<2, false>);
  r.add("aten::narrow_copy(Tensor self, int dim, SymInt start, SymInt length) -> Tensor", narrowCopyK);
  r.add("aten::select_scatter(Tensor self, Tensor src, int dim, int index) -> Tensor", selectScatterK);
  r.add("aten::slice_scatter(Tensor self, Tensor src, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor", sliceScatterK);
  r.add("aten::diagonal_scatter(Tensor self, Tensor src, int offset=0, int dim1=0, int dim2=1) -> Tensor", diagonalScatterK);
  r.add("aten::diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor", diagEmbedK);
  r.add("aten::unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)", unfoldK);
  r.add("aten::sum_to_size(Tensor self, int[] size) -> Tensor", sumToSizeK);
  r.add("aten::repeat_interleave.Tensor(Tensor repeats, *, int? output_size=None) -> Tensor", repeatInterleaveTensorK);
  r.add("aten::repeat_interleave.self_Tensor(Tensor self, Tensor repeats, int? dim=None, *, int? output_size=None) -> Tensor", repeatInterleaveSelfTensorK);
  r.add("aten::repeat_interleave.self_int(Tensor self, int repeats, int? dim=None, *, int? output_size=None) -> Tensor", repeatInterleaveSelfIntK);
  r.add("aten::tril_indices(int row, int col, int offset=0, *, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", triIndicesK<true>);
  r.add("aten::triu_indices(int row, int col, int offset=0, *, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", triIndicesK<false>);
  r.add("aten::kron(Tensor self, Tensor other) -> Tensor", kronK);
  r.add("aten::cartesian_prod(Tensor[] tensors) -> Tensor", cartesianProdK);
  r.add("aten::block_diag(Tensor[] tensors) -> Tensor", blockDiagK);
  r.add("aten::fill.Scalar(Tensor self, Scalar value) -> Tensor", fillK<false>);
  r.add("aten::fill.Tensor(Tensor self, Tensor value) -> Tensor", fillK<true>);
  r.add("aten::conj(Tensor(a) self) -> Tensor(a)", selfK);
  r.add("aten::conj_physical(Tensor self) -> Tensor", selfK);
  r.add("aten::conj_physical_(Tensor(a!) self) -> Tensor(a!)", selfK);
  r.add("aten::resolve_conj(Tensor(a) self) -> Tensor(a)", selfK);
  r.add("aten::resolve_neg(Tensor(a) self) -> Tensor(a)", selfK);
  r.add("aten::real(Tensor(a) self) -> Tensor(a)", selfK);
  r.add("aten::as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor(a)", asStridedK);
  r.add("aten::empty_strided(SymInt[] size, SymInt[] stride, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", emptyStridedK);
  r.add("aten::new_empty_strided(Tensor self, SymInt[] size, SymInt[] stride, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", newEmptyStridedK);
  r.add("aten::resize_(Tensor(a!) self, SymInt[] size, *, MemoryFormat? memory_format=None) -> Tensor(a!)", resizeK);
  r.add("aten::resize_as_(Tensor(a!) self, Tensor the_template, *, MemoryFormat? memory_format=None) -> Tensor(a!)", resizeAsK);
}

}  // namespace kindling
