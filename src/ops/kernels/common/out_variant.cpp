// out= helpers (see out_variant.h): ATen's MemoryOverlap checks, resize_output, the structured dtype check.
#include "ops/kernels/common/out_variant.h"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace kindling {

namespace {

// TensorImpl::is_non_overlapping_and_dense: the strides, sorted, are those of a contiguous tensor of
// some permutation of the sizes (size-1 dims ignored).
bool nonOverlappingAndDense(const Tensor& t) {
  if (t.is_contiguous()) return true;
  const IntArray& sz = t.sizes();
  const IntArray& st = t.strides();
  std::vector<int64_t> perm(sz.size());
  std::iota(perm.begin(), perm.end(), 0);
  std::sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
    if (sz[a] < 2 || sz[b] < 2) return sz[a] >= 2 && sz[b] < 2;  // size-1 dims last
    return st[a] < st[b];
  });
  int64_t expected = 1;
  for (int64_t d : perm) {
    if (sz[d] == 1) continue;
    if (st[d] != expected) return false;
    expected *= sz[d];
  }
  return true;
}

enum class Overlap { No, Full, Partial, TooHard };

Overlap overlapStatus(const Tensor& a, const Tensor& b) {
  if (a.is_same(b)) return Overlap::Full;
  if (a.numel() == 0 || b.numel() == 0) return Overlap::No;
  if (!nonOverlappingAndDense(a) || !nonOverlappingAndDense(b)) return Overlap::TooHard;
  if (a.storage().get() != b.storage().get()) return Overlap::No;
  const char* aBegin = static_cast<const char*>(a.data_ptr());
  const char* aEnd = aBegin + a.nbytes();
  const char* bBegin = static_cast<const char*>(b.data_ptr());
  const char* bEnd = bBegin + b.nbytes();
  if (aBegin == bBegin && aEnd == bEnd) return a.strides() == b.strides() ? Overlap::Full : Overlap::Partial;
  if (aBegin < bEnd && bBegin < aEnd) return Overlap::Partial;
  return Overlap::No;
}

constexpr const char* kSharedMemory =
    "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory "
    "location. Please clone() the tensor before performing the operation.";

}  // namespace

const char* typeMetaName(ScalarType t) {
  switch (t) {
    case ScalarType::Float: return "float";
    case ScalarType::Double: return "double";
    case ScalarType::Half: return "c10::Half";
    case ScalarType::BFloat16: return "c10::BFloat16";
    case ScalarType::Long: return "long int";
    case ScalarType::Int: return "int";
    case ScalarType::Short: return "short int";
    case ScalarType::Char: return "signed char";
    case ScalarType::Byte: return "unsigned char";
    case ScalarType::Bool: return "bool";
    default: return scalarTypeName(t);
  }
}

void assertNoInternalOverlap(const Tensor& t) {
  if (nonOverlappingAndDense(t)) return;
  for (int64_t d = 0; d < t.dim(); ++d)
    KD_CHECK(!(t.strides()[d] == 0 && t.sizes()[d] > 1),
             "unsupported operation: more than one element of the written-to tensor refers to a single memory "
             "location. Please clone() the tensor before performing the operation.");
}

void assertNoOverlap(const Tensor& out, const Tensor& input) {
  const Overlap o = overlapStatus(out, input);
  KD_CHECK(o != Overlap::Full && o != Overlap::Partial, "{}", kSharedMemory);
}

void assertNoPartialOverlap(const Tensor& out, const Tensor& input) {
  KD_CHECK(overlapStatus(out, input) != Overlap::Partial, "{}", kSharedMemory);
}

void resizeOutput(const Tensor& out, const IntArray& shape) {
  if (out.sizes() == shape) return;
  IntArray strides(shape.size(), 1);
  int64_t n = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = n;
    n *= shape[i];
  }
  TensorImpl* impl = out.impl();
  const size_t need = static_cast<size_t>(impl->storageOffset + n) * out.element_size();
  if (need > impl->storage->nbytes()) {  // resize_ grows the storage, keeping its bytes
    Storage grown = makeIntrusive<StorageImpl>(need);
    if (impl->storage->nbytes() > 0) std::memcpy(grown->data(), impl->storage->data(), impl->storage->nbytes());
    impl->storage = std::move(grown);
  }
  impl->setSizesAndStrides(shape, strides);
}

void checkOutDtype(const Tensor& out, ScalarType expected) {
  KD_CHECK(out.dtype() == expected, "Expected out tensor to have dtype {}, but got {} instead", typeMetaName(expected),
           typeMetaName(out.dtype()));
}

void writeOut(const Tensor& out, const Tensor& result) {
  resizeOutput(out, result.sizes());
  Tensor o = out;
  o.copy_(result);
}

}  // namespace kindling
