// More indexing and comparison operators, with ATen 1.13's checks and messages:
//   index_add(_)(self, dim, index, source, alpha): self.select(dim, index[i]) += alpha * source.select(dim, i)
//   index_copy(_)(self, dim, index, source):       self.select(dim, index[i]) = source.select(dim, i)
//   take(self, index) / put(_)(self, index, source, accumulate): flat (row-major) element reads / writes
//   argwhere(self): nonzero(self)
//   isin(elements, test_elements, assume_unique, invert) (Tensor/Scalar overloads): membership by ==
//   isclose / allclose: ATen's composition |self - other| <= atol + |rtol * other| (or equal, NaN == NaN
//     with equal_nan), in the dtype of the operands
//   cross(self, other, dim=None): linalg_cross along dim (None: the first dim of size 3)
// The functional forms work on a copy. The arithmetic of index_add / isclose / cross goes through the
// elementwise operators so values follow their dtype rules.
#include <algorithm>
#include <cstring>
#include <numeric>

#include "ops/registry/kernel_args.h"
#include "ops/registry/op_call.h"
#include "ops/registry/operator.h"
#include "tensor/type_promotion.h"

namespace kindling {

namespace {

std::vector<int64_t> longValues(const Tensor& idx) {
  const Tensor c = idx.to(ScalarType::Long).contiguous();
  const int64_t* p = c.data_ptr<int64_t>();
  return std::vector<int64_t>(p, p + c.numel());
}

IntArray withoutDim(const IntArray& sizes, int64_t dim) {
  IntArray r = sizes;
  if (!r.empty()) r.erase(r.begin() + dim);
  return r;
}

// index_add: ATen's index_func_meta_impl checks, then slice-wise add_ (alpha) in index order
Tensor indexAdd(const Tensor& self, int64_t dimIn, const Tensor& index, const Tensor& source, const Scalar& alpha,
                bool inplace) {
  const int64_t dim = maybeWrapDim(dimIn, self.dim());
  const int64_t n = index.numel();
  KD_CHECK_INDEX(index.dim() <= 1, "index_add_(): Index is supposed to be a vector");
  KD_CHECK(index.dtype() == ScalarType::Long || index.dtype() == ScalarType::Int,
           "index_add_(): Expected dtype int32/int64 for index");
  KD_CHECK(self.dtype() == source.dtype(), "index_add_(): self ({}) and source ({}) must have the same scalar type",
           scalarTypeName(self.dtype()), scalarTypeName(source.dtype()));
  KD_CHECK(dim == 0 || dim < source.dim(), "index_add_(): Indexing dim {} is out of bounds of the source tensor with "
           "dim {}", dim, source.dim());
  const int64_t srcLen = source.dim() == 0 ? 1 : source.sizes()[dim];
  KD_CHECK(n == srcLen, "index_add_(): Number of indices ({}) should be equal to source.size(dim) ({})", n, srcLen);
  if (self.dim() != 0 && source.dim() != 0)
    KD_CHECK(withoutDim(self.sizes(), dim) == withoutDim(source.sizes(), dim), "source tensor shape must match self "
             "tensor shape, excluding the specified dimension. Got self.shape = {} source.shape = {}",
             self.sizesStr(), source.sizesStr());
  Tensor out = inplace ? self : self.clone();
  const std::vector<int64_t> idx = longValues(index);
  const int64_t len = self.dim() == 0 ? 1 : self.sizes()[dim];
  for (int64_t i : idx) KD_CHECK_INDEX(i >= 0 && i < len, "index out of range in self");
  static const OpHandle addInplace("aten::add_.Tensor");
  for (int64_t j = 0; j < n; ++j) {
    Tensor dst = self.dim() == 0 ? out : out.select(dim, idx[j]);
    const Tensor src = source.dim() == 0 ? source : source.select(dim, j);
    addInplace(dst, src, alpha);
  }
  return out;
}
template <bool Inplace>
void indexAddK(Stack& s) {
  Args a(s, 5);
  a.ret(indexAdd(a.tensor(0), a.toInt(1), a.tensor(2), a.tensor(3), a.scalar(4), Inplace));
}

Tensor indexCopy(const Tensor& self, int64_t dimIn, const Tensor& index, const Tensor& source, bool inplace) {
  const int64_t dim = maybeWrapDim(dimIn, self.dim());
  KD_CHECK_INDEX(index.dim() < 2, "index_copy_(): Index should have dimension 1 or 0 (got {})", index.dim());
  const int64_t n = index.numel();
  if (source.dim() == 0 && n != 1)
    KD_CHECK_INDEX(false, "index_copy_(): When source is scalar, index should have one element (got {})", n);
  if (source.dim() != self.dim() && source.dim() != 0 && self.dim() != 0)
    KD_CHECK_INDEX(false, "index_copy_(): When source and destination are not scalars, their dimensionality must "
                   "match. Source dimensionality ({}), destination dimensionality ({})", source.dim(), self.dim());
  KD_CHECK(index.dtype() == ScalarType::Long, "index_copy_(): Expected a long tensor for index, but got {}",
           scalarTypeName(index.dtype()));
  KD_CHECK(self.dtype() == source.dtype(), "index_copy_(): self and source expected to have the same dtype, but got "
           "(self) {} and (source) {}", scalarTypeName(self.dtype()), scalarTypeName(source.dtype()));
  const IntArray selfSlice = withoutDim(self.sizes(), dim), srcSlice = withoutDim(source.sizes(), dim);
  if (selfSlice != srcSlice) {
    auto join = [](const IntArray& v) {
      std::string r = "[";
      for (size_t i = 0; i < v.size(); ++i) r += (i ? ", " : "") + std::to_string(v[i]);
      return r + "]";
    };
    throw RuntimeError(fmt::format("index_copy_(): Source/destination tensor must have same slice shapes. "
                                   "Destination slice shape: {} at dimension {} and source slice shape: {} at "
                                   "dimension 0.", join(selfSlice), dim, join(srcSlice)));
  }
  KD_CHECK_INDEX(source.dim() == 0 || n == source.sizes()[dim], "index_copy_(): Number of indices ({}) should be "
                 "equal to source.size(dim) ({})", n, source.dim() == 0 ? 1 : source.sizes()[dim]);
  Tensor out = inplace ? self : self.clone();
  const std::vector<int64_t> idx = longValues(index);
  const int64_t len = self.dim() == 0 ? 1 : self.sizes()[dim];
  for (int64_t i : idx)
    KD_CHECK_INDEX(i >= 0 && i < len, "index_copy_(): index {} is out of bounds for size {}", i, len);
  for (int64_t j = 0; j < n; ++j) {
    Tensor dst = self.dim() == 0 ? out : out.select(dim, idx[j]);
    dst.copy_(source.dim() == 0 ? source : source.select(dim, j));
  }
  return out;
}
template <bool Inplace>
void indexCopyK(Stack& s) {
  Args a(s, 4);
  a.ret(indexCopy(a.tensor(0), a.toInt(1), a.tensor(2), a.tensor(3), Inplace));
}

// flat element offsets of a (possibly strided) tensor, in row-major order
std::vector<int64_t> flatOffsets(const Tensor& t) {
  std::vector<int64_t> off(static_cast<size_t>(t.numel()));
  IntArray pos(t.dim(), 0);
  for (int64_t e = 0; e < t.numel(); ++e) {
    int64_t o = 0;
    for (int64_t d = 0; d < t.dim(); ++d) o += pos[d] * t.strides()[d];
    off[e] = o;
    for (int64_t d = t.dim() - 1; d >= 0; --d) {
      if (++pos[d] < t.sizes()[d]) break;
      pos[d] = 0;
    }
  }
  return off;
}

void takeK(Stack& s) {
  Args a(s, 2);
  const Tensor self = a.tensor(0), index = a.tensor(1);
  KD_CHECK(index.dtype() == ScalarType::Long, "take(): Expected a long tensor for index, but got {}",
           scalarTypeName(index.dtype()));
  Tensor out = Tensor::empty(index.sizes(), self.dtype());
  if (index.numel() == 0) {
    a.ret(out);
    return;
  }
  KD_CHECK_INDEX(self.numel() > 0, "take(): tried to take from an empty tensor");
  const std::vector<int64_t> idx = longValues(index);
  const int64_t n = self.numel();
  for (int64_t i : idx)
    KD_CHECK_INDEX(i < n && i >= -n, "out of range: tried to access index {} on a tensor of {} elements.", i, n);
  const Tensor c = self.contiguous();
  const size_t es = self.element_size();
  const char* X = static_cast<const char*>(c.data_ptr());
  char* Y = static_cast<char*>(out.data_ptr());
  for (size_t j = 0; j < idx.size(); ++j) {
    const int64_t i = idx[j] < 0 ? idx[j] + n : idx[j];
    std::memcpy(Y + j * es, X + i * es, es);
  }
  a.ret(out);
}

Tensor put(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate, bool inplace) {
  KD_CHECK_INDEX(index.dtype() == ScalarType::Long, "put_(): Expected a long tensor for index, but got {}",
                 scalarTypeName(index.dtype()));
  KD_CHECK(self.dtype() == source.dtype(), "put_(): self and source expected to have the same dtype, but got "
           "self.dtype = {} and source.dtype = {}", scalarTypeName(self.dtype()), scalarTypeName(source.dtype()));
  KD_CHECK(source.numel() == index.numel(), "put_(): Expected source and index to have the same number of elements, "
           "but got source.numel() = {}, index.numel() = {}", source.numel(), index.numel());
  Tensor out = inplace ? self : self.clone();
  if (index.numel() == 0) return out;
  KD_CHECK_INDEX(self.numel() > 0, "put_(): Tried to put elements into an empty tensor");
  const std::vector<int64_t> idx = longValues(index);
  const int64_t n = self.numel();
  for (int64_t i : idx)
    KD_CHECK_INDEX(i < n && i >= -n, "out of range: tried to access index {} on a tensor of {} elements.", i, n);
  const std::vector<int64_t> off = flatOffsets(out);
  const Tensor src = source.contiguous();
  dispatchAllTypes(self.dtype(), "put_", [&](auto tag) {
    using T = decltype(tag);
    T* O = out.data_ptr<T>();
    const T* S = src.data_ptr<T>();
    for (size_t j = 0; j < idx.size(); ++j) {
      T& dst = O[off[idx[j] < 0 ? idx[j] + n : idx[j]]];
      if (!accumulate) dst = S[j];
      else if constexpr (std::is_same_v<T, bool>) dst = dst || S[j];
      else dst = static_cast<T>(dst + S[j]);
    }
  });
  return out;
}
template <bool Inplace>
void putK(Stack& s) {
  Args a(s, 4);
  a.ret(put(a.tensor(0), a.tensor(1), a.tensor(2), a.toBool(3), Inplace));
}

void argwhereK(Stack& s) {
  Args a(s, 1);
  static const OpHandle nonzero("aten::nonzero");
  a.ret(nonzero(a.tensor(0)));
}

// isin: elements.unsqueeze(-1) == test_elements.flatten(), any over the last dim (ATen's default path)
void checkIsinDtype(ScalarType t) {
  KD_CHECK(t != ScalarType::Bool && !isComplexType(t), "Unsupported input type encountered for isin(): {}",
           scalarTypeName(t));
}
Tensor isin(const Tensor& elements, const Tensor& test, bool invert) {
  checkIsinDtype(elements.dtype());
  checkIsinDtype(test.dtype());
  static const OpHandle eq("aten::eq.Tensor"), anyDim("aten::any.dim"), logicalNot("aten::logical_not");
  Tensor r = anyDim(eq(elements.unsqueeze(-1), test.reshape({-1})), int64_t(-1), false);
  return invert ? logicalNot(r) : r;
}
void isinTTK(Stack& s) { Args a(s, 4); a.ret(isin(a.tensor(0), a.tensor(1), a.toBool(3))); }
void isinTSK(Stack& s) {
  Args a(s, 4);
  const Tensor e = a.tensor(0);
  checkIsinDtype(e.dtype());
  static const OpHandle eq("aten::eq.Scalar"), ne("aten::ne.Scalar");
  a.ret(a.toBool(3) ? ne(e, a[1]) : eq(e, a[1]));
}
void isinSTK(Stack& s) {
  Args a(s, 4);
  const Tensor e = Tensor::scalarTensor(a.scalar(0));
  a.ret(isin(e, a.tensor(1), a.toBool(3)));
}

Tensor isclose(const Tensor& self, const Tensor& other, double rtol, double atol, bool equalNan) {
  KD_CHECK(self.dtype() == other.dtype(), "{} did not match {}", scalarTypeName(self.dtype()),
           scalarTypeName(other.dtype()));
  KD_CHECK(rtol >= 0, "rtol must be greater than or equal to zero, but got {}", rtol);
  KD_CHECK(atol >= 0, "atol must be greater than or equal to zero, but got {}", atol);
  static const OpHandle eq("aten::eq.Tensor"), isnan("aten::isnan"), iand("aten::__iand__.Tensor"),
      ior("aten::__ior__.Tensor"), mulS("aten::mul.Scalar"), abs("aten::abs"), addS("aten::add.Scalar"),
      sub("aten::sub.Tensor"), le("aten::le.Tensor"), isfinite("aten::isfinite");
  Tensor close = eq(self, other);
  if (equalNan && isFloatingType(self.dtype())) ior(close, iand(isnan(self), isnan(other)));
  if (rtol == 0 && atol == 0) return close;
  const Tensor cs = self.dtype() == ScalarType::Bool ? self.to(ScalarType::Float) : self;
  const Tensor co = other.dtype() == ScalarType::Bool ? other.to(ScalarType::Float) : other;
  const Tensor allowed = addS(abs(mulS(co, rtol)), atol, int64_t(1));
  const Tensor actual = abs(sub(cs, co, int64_t(1)));
  ior(close, iand(isfinite(actual), le(actual, allowed)));
  return close;
}
void iscloseK(Stack& s) {
  Args a(s, 5);
  a.ret(isclose(a.tensor(0), a.tensor(1), a.toDouble(2), a.toDouble(3), a.toBool(4)));
}
void allcloseK(Stack& s) {
  Args a(s, 5);
  static const OpHandle all("aten::all");
  a.ret(all(isclose(a.tensor(0), a.tensor(1), a.toDouble(2), a.toDouble(3), a.toBool(4))).item().toBool());
}

// cross: linalg_cross of the broadcast inputs along dim (None: the first dim of self of size 3)
void crossK(Stack& s) {
  Args a(s, 3);
  const Tensor x = a.tensor(0), y = a.tensor(1);
  int64_t dim = -1;
  if (auto d = a.optInt(2)) {
    dim = *d;
  } else {
    for (int64_t i = 0; i < x.dim() && dim < 0; ++i)
      if (x.sizes()[i] == 3) dim = i;
    KD_CHECK(dim >= 0, "no dimension of size 3 in input");
  }
  KD_CHECK(x.dim() == y.dim(), "linalg.cross: inputs must have the same number of dimensions.");
  dim = maybeWrapDim(dim, x.dim());
  KD_CHECK(x.sizes()[dim] == 3 && y.sizes()[dim] == 3, "linalg.cross: inputs dimension {} must have length 3. Got {} "
           "and {}", dim, x.sizes()[dim], y.sizes()[dim]);
  const IntArray shape = inferSize(x.sizes(), y.sizes());
  const Tensor xb = x.expand(shape), yb = y.expand(shape);
  static const OpHandle mul("aten::mul.Tensor"), sub("aten::sub.Tensor"), stack("aten::stack");
  auto comp = [&](int64_t i, int64_t j) {
    return sub(mul(xb.select(dim, i), yb.select(dim, j)), mul(xb.select(dim, j), yb.select(dim, i)), int64_t(1));
  };
  std::vector<IValue> parts{comp(1, 2), comp(2, 0), comp(0, 1)};
  a.ret(stack(IValue(makeIntrusive<ListValue>(TensorType(), std::move(parts))), dim));
}

}  // namespace

void registerIndexExtraOps(OperatorRegistry& r) {
  r.add("aten::index_add(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor", indexAddK<false>);
  r.add("aten::index_add_(Tensor(a!) self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor(a!)", indexAddK<true>);
  r.add("aten::index_copy(Tensor self, int dim, Tensor index, Tensor source) -> Tensor", indexCopyK<false>);
  r.add("aten::index_copy_(Tensor(a!) self, int dim, Tensor index, Tensor source) -> Tensor(a!)", indexCopyK<true>);
  r.add("aten::take(Tensor self, Tensor index) -> Tensor", takeK);
  r.add("aten::put(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor", putK<false>);
  r.add("aten::put_(Tensor(a!) self, Tensor index, Tensor source, bool accumulate=False) -> Tensor(a!)", putK<true>);
  r.add("aten::argwhere(Tensor self) -> Tensor", argwhereK);
  r.add("aten::isin.Tensor_Tensor(Tensor elements, Tensor test_elements, *, bool assume_unique=False, bool invert=False) -> Tensor", isinTTK);
  r.add("aten::isin.Tensor_Scalar(Tensor elements, Scalar test_element, *, bool assume_unique=False, bool invert=False) -> Tensor", isinTSK);
  r.add("aten::isin.Scalar_Tensor(Scalar element, Tensor test_elements, *, bool assume_unique=False, bool invert=False) -> Tensor", isinSTK);
  r.add("aten::isclose(Tensor self, Tensor other, float rtol=1.0000000000000001e-05, float atol=1e-08, bool equal_nan=False) -> Tensor", iscloseK);
  r.add("aten::allclose(Tensor self, Tensor other, float rtol=1.0000000000000001e-05, float atol=1e-08, bool equal_nan=False) -> bool", allcloseK);
  r.add("aten::cross(Tensor self, Tensor other, int? dim=None) -> Tensor", crossK);
}

}  // namespace kindling
