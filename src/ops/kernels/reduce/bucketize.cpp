// Binary search over sorted boundaries: aten::searchsorted (.Tensor, .Scalar) and aten::bucketize
// (.Tensor, .Scalar), as ATen 1.13's Bucketization.cpp:
//   - boundaries 1-d (shared by every value) or N-d whose first N-1 dims equal the values' (one row per
//     leading index); a 0-dim value only with 1-d boundaries; `sorter` (int64, boundaries' shape) gives
//     the sorted order of an unsorted row;
//   - side "left"/"right" or right=True: the first index whose boundary is >= value (left) or > value
//     (right), by ATen's comparisons (a NaN value goes past every boundary);
//   - boundaries and values of different dtypes are compared in their promoted dtype (a Scalar value is a
//     0-dim double/int64 tensor first); the result is int64, or int32 with out_int32;
//   - bucketize(input, boundaries) is searchsorted(boundaries, input) with 1-d boundaries only.
// Errors carry ATen's messages.
#include <algorithm>

#include "ops/registry/kernel_args.h"
#include "ops/registry/operator.h"

namespace kindling {

namespace {

std::string shapeStr(const Tensor& t) { return t.sizesStr(); }

template <class T, class R>
void searchRows(const Tensor& bd, const Tensor& vals, const Tensor& sorter, bool right, R* out) {
  const T* B = bd.data_ptr<T>();
  const T* V = vals.data_ptr<T>();
  const int64_t* S = sorter.defined() ? sorter.data_ptr<int64_t>() : nullptr;
  const int64_t rowLen = bd.sizes().back();
  const int64_t valsPerRow = vals.dim() == 0 ? 1 : vals.sizes().back();
  const bool shared = bd.dim() == 1;
  const int64_t n = vals.numel();
  for (int64_t i = 0; i < n; ++i) {
    const int64_t rowStart = shared ? 0 : (i / valsPerRow) * rowLen;
    const T v = V[i];
    int64_t lo = 0, hi = rowLen;
    while (lo < hi) {
      const int64_t mid = lo + ((hi - lo) >> 1);
      const T m = S ? B[S[rowStart + mid] + rowStart] : B[rowStart + mid];
      const bool goRight = right ? !(m > v) : !(m >= v);
      if (goRight) lo = mid + 1;
      else hi = mid;
    }
    out[i] = static_cast<R>(lo);
  }
}

Tensor searchsorted(const Tensor& boundaries, const Tensor& input, bool outInt32, bool right,
                    const std::optional<std::string>& side, const Tensor& sorter) {
  if (side) {
    KD_CHECK(*side == "left" || *side == "right",
             "torch.searchsorted(): side can only be 'left' or 'right' but got {}", *side);
    KD_CHECK(!right || *side == "right",
             "torch.searchsorted(): side and right can't be set to opposites, got side of {} while right was True",
             *side);
  }
  if (sorter.defined()) {
    KD_CHECK(sorter.dtype() == ScalarType::Long, "torch.searchsorted(): sorter must be a tensor of long dtype but got dtype {}",
             scalarTypeName(sorter.dtype()));
    KD_CHECK(sorter.sizes() == boundaries.sizes(),
             "torch.searchsorted(): boundary and sorter must have the same size, but got boundary tensor {}and got sorter tensor {}",
             shapeStr(boundaries), shapeStr(sorter));
  }
  KD_CHECK(input.dim() > 0 || (input.numel() == 1 && boundaries.dim() == 1),
           "torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension is 1, but we got "
           "boundaries tensor dim({}) and input value's dim({}) numel({})",
           boundaries.dim(), input.dim(), input.numel());
  KD_CHECK(boundaries.dim() != 0,
           "torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 dimension");
  bool leadingMatch = boundaries.dim() == input.dim();
  for (int64_t d = 0; leadingMatch && d + 1 < boundaries.dim(); ++d)
    leadingMatch = boundaries.sizes()[d] == input.sizes()[d];
  KD_CHECK(boundaries.dim() == 1 || leadingMatch,
           "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries "
           "tensor and input value tensor must match, but we got boundaries tensor {} and input value tensor {}",
           shapeStr(boundaries), shapeStr(input));
  if (sorter.defined()) {
    const int64_t len = boundaries.sizes().back();
    const Tensor sc = sorter.contiguous();
    const int64_t* S = sc.data_ptr<int64_t>();
    for (int64_t i = 0; i < sc.numel(); ++i)
      KD_CHECK(S[i] >= 0 && S[i] < len, "torch.searchsorted(): sorter index out of range");
  }
  Tensor out = Tensor::empty(input.sizes(), outInt32 ? ScalarType::Int : ScalarType::Long);
  if (input.numel() == 0) return out;
  const bool rightSide = side ? *side == "right" : right;
  const ScalarType common = promoteTypes(boundaries.dtype(), input.dtype());
  const Tensor bd = boundaries.to(common).contiguous(), vals = input.to(common).contiguous();
  const Tensor so = sorter.defined() ? sorter.contiguous() : Tensor();
  KD_CHECK(common != ScalarType::Bool && !isComplexType(common), "\"searchsorted_out_cpu\" not implemented for '{}'",
           scalarTypeName(common));
  dispatchAllTypes(common, "searchsorted_out_cpu", [&](auto tag) {
    using T = decltype(tag);
    if constexpr (!std::is_same_v<T, bool>) {
      if (outInt32) searchRows<T, int32_t>(bd, vals, so, rightSide, out.data_ptr<int32_t>());
      else searchRows<T, int64_t>(bd, vals, so, rightSide, out.data_ptr<int64_t>());
    }
  });
  return out;
}

/// A Scalar value as ATen's scalar_to_tensor: a 0-dim double, int64 or bool tensor.
Tensor scalarTensor(const Scalar& v) {
  const ScalarType dt = v.isBoolean() ? ScalarType::Bool : v.isIntegral() ? ScalarType::Long : ScalarType::Double;
  return Tensor::full({}, v, dt);
}

// searchsorted.Tensor(Tensor sorted_sequence, Tensor self, *, bool out_int32, bool right, str? side, Tensor? sorter)
void searchsortedTensorK(Stack& s) {
  Args a(s, 6);
  Tensor r = searchsorted(a.tensor(0), a.tensor(1), a.toBool(2), a.toBool(3), a.optString(4), a.optTensor(5));
  a.ret(std::move(r));
}
// searchsorted.Scalar(Tensor sorted_sequence, Scalar self, *, ...)
void searchsortedScalarK(Stack& s) {
  Args a(s, 6);
  Tensor r = searchsorted(a.tensor(0), scalarTensor(a.scalar(1)), a.toBool(2), a.toBool(3), a.optString(4),
                          a.optTensor(5));
  a.ret(std::move(r));
}

Tensor bucketize(const Tensor& input, const Tensor& boundaries, bool outInt32, bool right) {
  KD_CHECK(boundaries.dim() == 1, "boundaries tensor must be 1 dimension, but got dim({})", boundaries.dim());
  return searchsorted(boundaries, input, outInt32, right, std::nullopt, Tensor());
}
// bucketize.Tensor(Tensor self, Tensor boundaries, *, bool out_int32=False, bool right=False)
void bucketizeTensorK(Stack& s) {
  Args a(s, 4);
  Tensor r = bucketize(a.tensor(0), a.tensor(1), a.toBool(2), a.toBool(3));
  a.ret(std::move(r));
}
// bucketize.Scalar(Scalar self, Tensor boundaries, *, bool out_int32=False, bool right=False)
void bucketizeScalarK(Stack& s) {
  Args a(s, 4);
  Tensor r = bucketize(scalarTensor(a.scalar(0)), a.tensor(1), a.toBool(2), a.toBool(3));
  a.ret(std::move(r));
}

}  // namespace

void registerBucketizeOps(OperatorRegistry& r) {
  r.add("aten::searchsorted.Tensor(Tensor sorted_sequence, Tensor self, *, bool out_int32=False, bool right=False, "
        "str? side=None, Tensor? sorter=None) -> Tensor",
        searchsortedTensorK);
  r.add("aten::searchsorted.Scalar(Tensor sorted_sequence, Scalar self, *, bool out_int32=False, bool right=False, "
        "str? side=None, Tensor? sorter=None) -> Tensor",
        searchsortedScalarK);
  r.add("aten::bucketize.Tensor(Tensor self, Tensor boundaries, *, bool out_int32=False, bool right=False) -> Tensor",
        bucketizeTensorK);
  r.add("aten::bucketize.Scalar(Scalar self, Tensor boundaries, *, bool out_int32=False, bool right=False) -> Tensor",
        bucketizeScalarK);
}

}  // namespace kindling
