// Storage, TensorImpl and the Tensor methods declared in tensor/tensor.h: creation, views (with ATen's
// viewability rules and error messages), copies with dtype conversion and broadcasting, fill, item.
#include "tensor/tensor.h"
#include "tensor/tensor_print.h"

#include <cpuid.h>
#include <immintrin.h>
#include <omp.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <new>

namespace kindling {

namespace {

// Installs tensor printing into core's IValue printer (see core/ivalue.h). Lives here, not in
// tensor_print.cpp, because every program that makes tensors links this object file.
struct RegisterTensorPrinters {
  RegisterTensorPrinters() { setTensorPrinters(&tensorReprForIValue, &tensorPrintForIValue); }
} gRegisterTensorPrinters;

int64_t wrapDim(int64_t dim, int64_t ndim) {
  int64_t n = ndim <= 0 ? 1 : ndim;  // a 0-dim tensor accepts dims -1 and 0
  int64_t lo = -n, hi = n - 1;
  if (dim < lo || dim > hi) {
    throw RuntimeError(fmt::format("Dimension out of range (expected to be in range of [{}, {}], but got {})", lo, hi, dim),
                       "builtins.IndexError");
  }
  return dim < 0 ? dim + n : dim;
}

std::string arrayStr(const IntArray& a) {
  std::string s = "[";
  for (size_t i = 0; i < a.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(a[i]);
  }
  s += "]";
  return s;
}

IntArray contiguousStrides(const IntArray& sizes) {
  IntArray strides(sizes.size());
  int64_t s = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = s;
    s *= std::max<int64_t>(sizes[i], 1);
  }
  return strides;
}

int64_t checkedNumel(const IntArray& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) {
    if (s < 0) throw RuntimeError(fmt::format("Trying to create tensor with negative dimension {}: {}", s, arrayStr(sizes)));
    if (s != 0 && n > std::numeric_limits<int64_t>::max() / s)
      throw RuntimeError(fmt::format("numel: integer multiplication overflow for sizes {}", arrayStr(sizes)));
    n *= s;
  }
  return n;
}

// Bytes needed to hold a strided view (0 when it has no elements). Throws on int64 overflow: sizes and
// strides may come from an untrusted archive, and a wrapped-around result would pass the bounds check.
int64_t requiredBytes(const IntArray& sizes, const IntArray& strides, int64_t offset, size_t itemsize) {
  int64_t maxIndex = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == 0) return 0;
  }
  bool overflow = false;
  for (size_t i = 0; i < sizes.size(); ++i) {
    int64_t term;
    overflow |= __builtin_mul_overflow(sizes[i] - 1, strides[i], &term);
    overflow |= __builtin_add_overflow(maxIndex, term, &maxIndex);
  }
  int64_t total;
  overflow |= __builtin_add_overflow(offset, maxIndex, &total);
  overflow |= __builtin_add_overflow(total, int64_t(1), &total);
  overflow |= __builtin_mul_overflow(total, static_cast<int64_t>(itemsize), &total);
  if (overflow)
    throw RuntimeError(fmt::format("Storage size calculation overflowed with sizes={} and strides={}", arrayStr(sizes),
                                   arrayStr(strides)));
  return total;
}

void checkInBounds(const Storage& storage, ScalarType dtype, const IntArray& sizes, const IntArray& strides,
                   int64_t offset) {
  KD_CHECK(sizes.size() == strides.size(), "mismatch in length of strides and shape");
  KD_CHECK(offset >= 0, "Tensor: invalid storage offset {}", offset);
  for (int64_t s : strides) KD_CHECK(s >= 0, "as_strided: Negative strides are not supported at the moment, got strides: {}", arrayStr(strides));
  checkedNumel(sizes);  // negative sizes, numel overflow
  int64_t need = requiredBytes(sizes, strides, offset, elementSize(dtype));
  KD_CHECK(need <= static_cast<int64_t>(storage->nbytes()),
           "setStorage: sizes {}, strides {}, storage offset {}, and itemsize {} requiring a storage size of {} are "
           "out of bounds for storage of size {}",
           arrayStr(sizes), arrayStr(strides), offset, elementSize(dtype), need, storage->nbytes());
}

// ATen's computeStride (TensorUtils.cpp): strides for viewing (oldSizes, oldStrides) as newSizes without
// copying, or nullopt when a dimension would span two non-contiguous chunks.
std::optional<IntArray> computeStride(const IntArray& oldSizes, const IntArray& oldStrides, const IntArray& newSizes) {
  if (oldSizes.empty()) return IntArray(newSizes.size(), 1);
  int64_t numel = 1;
  for (int64_t s : oldSizes) numel *= s;
  IntArray newStrides(newSizes.size());
  if (numel == 0 && oldSizes == newSizes) return oldStrides;
  if (numel == 0) {
    // Any strides work for an empty tensor; use contiguous ones.
    for (int64_t i = static_cast<int64_t>(newSizes.size()) - 1; i >= 0; --i) {
      if (i == static_cast<int64_t>(newSizes.size()) - 1) newStrides[i] = 1;
      else newStrides[i] = std::max<int64_t>(newSizes[i + 1], 1) * newStrides[i + 1];
    }
    return newStrides;
  }
  int64_t viewD = static_cast<int64_t>(newSizes.size()) - 1;
  int64_t chunkBaseStride = oldStrides.back();
  int64_t tensorNumel = 1, viewNumel = 1;
  for (int64_t tensorD = static_cast<int64_t>(oldSizes.size()) - 1; tensorD >= 0; --tensorD) {
    tensorNumel *= oldSizes[tensorD];
    if (tensorD == 0 || (oldSizes[tensorD - 1] != 1 && oldStrides[tensorD - 1] != tensorNumel * chunkBaseStride)) {
      while (viewD >= 0 && (viewNumel < tensorNumel || newSizes[viewD] == 1)) {
        newStrides[viewD] = viewNumel * chunkBaseStride;
        viewNumel *= newSizes[viewD];
        --viewD;
      }
      if (viewNumel != tensorNumel) return std::nullopt;
      if (tensorD > 0) {
        chunkBaseStride = oldStrides[tensorD - 1];
        tensorNumel = 1;
        viewNumel = 1;
      }
    }
  }
  if (viewD != -1) return std::nullopt;
  return newStrides;
}

// Resolves one -1 in a view/reshape shape (ATen's infer_size).
IntArray inferViewShape(const IntArray& shape, int64_t numel) {
  IntArray res = shape;
  int64_t newSize = 1;
  std::optional<size_t> inferDim;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == -1) {
      KD_CHECK(!inferDim, "only one dimension can be inferred");
      inferDim = d;
    } else {
      KD_CHECK(shape[d] >= 0, "invalid shape dimension {}", shape[d]);
      newSize *= shape[d];
    }
  }
  bool ok = numel == newSize || (inferDim && newSize > 0 && numel % newSize == 0);
  KD_CHECK(ok, "shape '{}' is invalid for input of size {}", arrayStr(shape), numel);
  if (inferDim) {
    KD_CHECK(newSize != 0,
             "cannot reshape tensor of 0 elements into shape {} because the unspecified dimension size -1 can be "
             "any value and is ambiguous",
             arrayStr(shape));
    res[*inferDim] = numel / newSize;
  }
  return res;
}

// ---------------------------------------------------------------- element conversion

template <class To, class From>
inline To convertValue(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (std::is_same_v<To, bool>) {
    if constexpr (std::is_same_v<From, Half> || std::is_same_v<From, BFloat16>) return static_cast<float>(v) != 0.0f;
    else return v != From(0);
  } else if constexpr (std::is_same_v<To, Half> || std::is_same_v<To, BFloat16>) {
    return To(static_cast<float>(v));
  } else if constexpr (std::is_same_v<From, Half> || std::is_same_v<From, BFloat16>) {
    return convertValue<To, float>(static_cast<float>(v));
  } else if constexpr (std::is_same_v<To, uint8_t> && std::is_floating_point_v<From>) {
    // As c10::static_cast_with_inter_type: negative floats wrap around through int64.
    return static_cast<uint8_t>(static_cast<int64_t>(v));
  } else {
    return static_cast<To>(v);
  }
}

// Dimensions of two equally shaped strided views with size-1 dims dropped and neighbouring dims merged
// where both views are contiguous across them (row-major order kept). Empty when every size is 1.
struct Coalesced {
  IntArray sizes, ds, ss;
};
Coalesced coalesce(const IntArray& sizesIn, const IntArray& dsIn, const IntArray& ssIn) {
  Coalesced c;
  for (size_t i = sizesIn.size(); i-- > 0;) {
    if (sizesIn[i] == 1) continue;
    if (!c.sizes.empty() && dsIn[i] == c.ds.front() * c.sizes.front() && ssIn[i] == c.ss.front() * c.sizes.front()) {
      c.sizes.front() *= sizesIn[i];
    } else {
      c.sizes.insert(c.sizes.begin(), sizesIn[i]);
      c.ds.insert(c.ds.begin(), dsIn[i]);
      c.ss.insert(c.ss.begin(), ssIn[i]);
    }
  }
  return c;
}

// Walks two equally shaped strided views (dst, src) calling body(dstPtr, srcPtr, n, dstStride, srcStride)
// on inner rows. Dimensions are coalesced first; rows are split over OpenMP threads when large.
template <class Body>
void forEachRow(const IntArray& sizesIn, const IntArray& dstStridesIn, const IntArray& srcStridesIn, char* dst,
                const char* src, size_t dstItem, size_t srcItem, Body body) {
  Coalesced c = coalesce(sizesIn, dstStridesIn, srcStridesIn);
  if (c.sizes.empty()) {
    body(dst, src, 1, 0, 0);
    return;
  }
  const IntArray& cs = c.sizes;
  const IntArray& cds = c.ds;
  const IntArray& css = c.ss;
  const int64_t ndim = static_cast<int64_t>(cs.size());
  const int64_t inner = cs.back();
  const int64_t innerDs = cds.back(), innerSs = css.back();
  int64_t rows = 1;
  for (int64_t d = 0; d + 1 < ndim; ++d) rows *= cs[d];
  const int64_t total = rows * inner;
  auto runRows = [&](int64_t begin, int64_t end) {
    IntArray idx(ndim > 1 ? ndim - 1 : 0);
    int64_t r = begin;
    for (int64_t d = ndim - 2; d >= 0; --d) {
      idx[d] = r % cs[d];
      r /= cs[d];
    }
    for (int64_t row = begin; row < end; ++row) {
      int64_t doff = 0, soff = 0;
      for (int64_t d = 0; d + 1 < ndim; ++d) {
        doff += idx[d] * cds[d];
        soff += idx[d] * css[d];
      }
      body(dst + doff * static_cast<int64_t>(dstItem), src + soff * static_cast<int64_t>(srcItem), inner, innerDs, innerSs);
      for (int64_t d = ndim - 2; d >= 0; --d) {
        if (++idx[d] < cs[d]) break;
        idx[d] = 0;
      }
    }
  };
  if (total < 32768 || rows == 1 || omp_get_max_threads() == 1 || omp_in_parallel()) {
    if (rows == 1 && total >= 65536 && omp_get_max_threads() > 1 && !omp_in_parallel()) {
      // One long row: split it into chunks.
#pragma omp parallel
      {
        int nt = omp_get_num_threads(), t = omp_get_thread_num();
        int64_t chunk = (inner + nt - 1) / nt;
        int64_t b = std::min<int64_t>(inner, chunk * t), e = std::min<int64_t>(inner, b + chunk);
        if (b < e)
          body(dst + b * innerDs * static_cast<int64_t>(dstItem), src + b * innerSs * static_cast<int64_t>(srcItem),
               e - b, innerDs, innerSs);
      }
      return;
    }
    runRows(0, rows);
    return;
  }
#pragma omp parallel
  {
    int nt = omp_get_num_threads(), t = omp_get_thread_num();
    int64_t chunk = (rows + nt - 1) / nt;
    int64_t b = std::min<int64_t>(rows, chunk * t), e = std::min<int64_t>(rows, b + chunk);
    if (b < e) runRows(b, e);
  }
}

// float <-> half with the F16C instructions when the CPU has them (chosen at run time; no global -m flags).
__attribute__((target("avx,f16c"))) void floatToHalfF16C(const float* s, Half* d, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(s + i), _MM_FROUND_TO_NEAREST_INT);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i), h);
  }
  for (; i < n; ++i) d[i] = Half(s[i]);
}
__attribute__((target("avx,f16c"))) void halfToFloatF16C(const Half* s, float* d, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(d + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i))));
  for (; i < n; ++i) d[i] = static_cast<float>(s[i]);
}
// CPUID leaf 1: AVX (ECX bit 28) and F16C (bit 29), with the OS saving YMM state (OSXSAVE, bit 27, and
// XCR0 bits 1-2). Read directly: clang's __builtin_cpu_supports knows no "f16c".
bool hasF16C() {
  static const bool ok = [] {
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
    const unsigned need = (1u << 27) | (1u << 28) | (1u << 29);
    if ((c & need) != need) return false;
    unsigned lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (lo & 6u) == 6u;
  }();
  return ok;
}

template <class D, class S>
inline void convertRow(D* d, const S* s, int64_t n) {
  if constexpr (std::is_same_v<D, S>) {
    std::memcpy(d, s, static_cast<size_t>(n) * sizeof(D));
  } else if constexpr (std::is_same_v<D, Half> && std::is_same_v<S, float>) {
    if (hasF16C()) floatToHalfF16C(s, d, n);
    else for (int64_t i = 0; i < n; ++i) d[i] = Half(s[i]);
  } else if constexpr (std::is_same_v<D, float> && std::is_same_v<S, Half>) {
    if (hasF16C()) halfToFloatF16C(s, d, n);
    else for (int64_t i = 0; i < n; ++i) d[i] = static_cast<float>(s[i]);
  } else {
    for (int64_t i = 0; i < n; ++i) d[i] = convertValue<D, S>(s[i]);
  }
}

// Copies where the destination is contiguous along the last dim and the source along the one before
// (x.transpose(-1, -2).contiguous(), NCHW <-> NHWC) in 64x64 tiles of 8x8 blocks, so both sides stay in cache.
// Returns false when the layout is not of that kind.
template <class D, class S>
bool tiledTransposeCopy(const Tensor& dst, const Tensor& src) {
  Coalesced c = coalesce(dst.sizes(), dst.strides(), src.strides());
  size_t n = c.sizes.size();
  if (n < 2) return false;
  const int64_t A = c.sizes[n - 2], B = c.sizes[n - 1];
  const int64_t dA = c.ds[n - 2], dB = c.ds[n - 1], sA = c.ss[n - 2], sB = c.ss[n - 1];
  if (dB != 1 || sA != 1 || sB <= 1 || A < 16 || B < 16) return false;
  constexpr int64_t kTile = 64, kMicro = 8;
  int64_t outer = 1;
  for (size_t i = 0; i + 2 < n; ++i) outer *= c.sizes[i];
  const int64_t aTiles = (A + kTile - 1) / kTile;
  const int64_t tasks = outer * aTiles;
  D* dbase = static_cast<D*>(dst.data_ptr());
  const S* sbase = static_cast<const S*>(src.data_ptr());
  auto run = [&](int64_t task) {
    int64_t o = task / aTiles, at = task % aTiles;
    int64_t doff = 0, soff = 0, r = o;
    for (size_t i = n - 2; i-- > 0;) {
      int64_t idx = r % c.sizes[i];
      r /= c.sizes[i];
      doff += idx * c.ds[i];
      soff += idx * c.ss[i];
    }
    const int64_t a0 = at * kTile, a1 = std::min(A, a0 + kTile);
    for (int64_t b0 = 0; b0 < B; b0 += kTile) {
      const int64_t b1 = std::min(B, b0 + kTile);
      // 8x8 micro-blocks: few cache lines per set even when the strides are powers of two.
      for (int64_t am = a0; am < a1; am += kMicro) {
        const int64_t ae = std::min(a1, am + kMicro);
        for (int64_t bm = b0; bm < b1; bm += kMicro) {
          const int64_t be = std::min(b1, bm + kMicro);
          for (int64_t a = am; a < ae; ++a) {
            D* d = dbase + doff + a * dA;
            const S* s = sbase + soff + a;
            for (int64_t b = bm; b < be; ++b) d[b] = convertValue<D, S>(s[b * sB]);
          }
        }
      }
    }
  };
  const int64_t total = outer * A * B;
  if (total >= 32768 && tasks > 1 && omp_get_max_threads() > 1 && !omp_in_parallel()) {
#pragma omp parallel for schedule(static)
    for (int64_t t = 0; t < tasks; ++t) run(t);
  } else {
    for (int64_t t = 0; t < tasks; ++t) run(t);
  }
  return true;
}

void copyStrided(const Tensor& dst, const Tensor& src) {
  // src already has dst's shape (broadcast strides may be 0).
  dispatchAllTypes(dst.dtype(), "copy_", [&](auto dtag) {
    using D = decltype(dtag);
    dispatchAllTypes(src.dtype(), "copy_", [&](auto stag) {
      using S = decltype(stag);
      if (tiledTransposeCopy<D, S>(dst, src)) return;
      forEachRow(dst.sizes(), dst.strides(), src.strides(), static_cast<char*>(dst.data_ptr()),
                 static_cast<const char*>(src.data_ptr()), sizeof(D), sizeof(S),
                 [](char* dp, const char* sp, int64_t n, int64_t dstr, int64_t sstr) {
                   D* d = reinterpret_cast<D*>(dp);
                   const S* s = reinterpret_cast<const S*>(sp);
                   if (dstr == 1 && sstr == 1) {
                     convertRow(d, s, n);
                   } else if (sstr == 0) {
                     D v = convertValue<D, S>(s[0]);
                     for (int64_t i = 0; i < n; ++i) d[i * dstr] = v;
                   } else {
                     for (int64_t i = 0; i < n; ++i) d[i * dstr] = convertValue<D, S>(s[i * sstr]);
                   }
                 });
    });
  });
}

}  // namespace

// ---------------------------------------------------------------- Storage / TensorImpl

StorageImpl::StorageImpl(size_t nbytes) : nbytes_(nbytes) {
  size_t rounded = (std::max<size_t>(nbytes, 1) + 63) / 64 * 64;
  data_ = std::aligned_alloc(64, rounded);
  if (!data_)
    throw RuntimeError(fmt::format("DefaultCPUAllocator: not enough memory: you tried to allocate {} bytes.", nbytes));
}

StorageImpl::StorageImpl(void* data, size_t nbytes, std::function<void(void*)> deleter)
    : data_(data), nbytes_(nbytes), deleter_(std::move(deleter)), owned_(false) {}

StorageImpl::~StorageImpl() {
  if (deleter_) deleter_(data_);
  else if (owned_) std::free(data_);
}

void StorageImpl::releaseResidentPages(size_t offset, size_t n) const {
#ifndef MADV_PAGEOUT
  constexpr int MADV_PAGEOUT = 21;  // Linux 5.4; older kernels answer EINVAL, which is ignored
#endif
  if (!fileMapped_ || offset >= nbytes_) return;
  n = std::min(n, nbytes_ - offset);
  static const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t begin = reinterpret_cast<uintptr_t>(data_) + offset;
  const uintptr_t first = (begin + page - 1) / page * page, last = (begin + n) / page * page;
  if (last > first) (void)madvise(reinterpret_cast<void*>(first), last - first, MADV_PAGEOUT);
}

void Tensor::releaseResidentPages() const {
  if (!defined() || !storage() || !storage()->isFileMapped() || numel() == 0) return;
  int64_t extent = 1;  // elements from the first to one past the last (non-negative strides)
  for (size_t d = 0; d < sizes().size(); ++d) {
    if (strides()[d] < 0) return;
    extent += (sizes()[d] - 1) * strides()[d];
  }
  storage()->releaseResidentPages(static_cast<size_t>(storage_offset()) * element_size(),
                                  static_cast<size_t>(extent) * element_size());
}

std::shared_ptr<const void> StorageImpl::findDerived(const std::vector<int64_t>& key) const {
  const uint64_t now = version();
  std::lock_guard<std::mutex> g(derivedMu_);
  for (const Derived& d : derived_)
    if (d.key == key) return d.version == now ? d.value : nullptr;
  return nullptr;
}

void StorageImpl::setDerived(std::vector<int64_t> key, uint64_t version, std::shared_ptr<const void> value) {
  std::lock_guard<std::mutex> g(derivedMu_);
  for (Derived& d : derived_)
    if (d.key == key) {
      d.version = version;
      d.value = std::move(value);
      return;
    }
  if (derived_.size() >= kMaxDerived) derived_.erase(derived_.begin());
  derived_.push_back(Derived{std::move(key), version, std::move(value)});
}

size_t StorageImpl::derivedCount() const {
  std::lock_guard<std::mutex> g(derivedMu_);
  return derived_.size();
}

TensorImpl::TensorImpl(Storage s, ScalarType t, IntArray sz, IntArray st, int64_t offset)
    : storage(std::move(s)), dtype(t), sizes(std::move(sz)), strides(std::move(st)), storageOffset(offset) {
  refreshMetadata();
}

void TensorImpl::setSizesAndStrides(IntArray sz, IntArray st) {
  sizes = std::move(sz);
  strides = std::move(st);
  refreshMetadata();
}

void TensorImpl::refreshMetadata() {
  numel = 1;
  for (int64_t s : sizes) numel *= s;
  // c10's compute_contiguous: size-1 dims may have any stride; empty tensors are contiguous.
  isContiguous = true;
  if (numel == 0) return;
  int64_t expected = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    if (sizes[i] == 1) continue;
    if (strides[i] != expected) {
      isContiguous = false;
      return;
    }
    expected *= sizes[i];
  }
}

// ---------------------------------------------------------------- creation

Tensor Tensor::empty(const IntArray& sizes, ScalarType dtype) {
  int64_t n = checkedNumel(sizes);
  size_t item = elementSize(dtype);
  KD_CHECK(n <= std::numeric_limits<int64_t>::max() / static_cast<int64_t>(item), "numel overflow for sizes {}", arrayStr(sizes));
  auto storage = makeIntrusive<StorageImpl>(static_cast<size_t>(n) * item);
  return Tensor(makeIntrusive<TensorImpl>(std::move(storage), dtype, sizes, contiguousStrides(sizes), 0));
}

Tensor Tensor::emptyStrided(const IntArray& sizes, const IntArray& strides, ScalarType dtype) {
  KD_CHECK(sizes.size() == strides.size(), "mismatch in length of strides and shape");
  checkedNumel(sizes);
  for (int64_t s : strides) KD_CHECK(s >= 0, "as_strided: Negative strides are not supported at the moment, got strides: {}", arrayStr(strides));
  int64_t bytes = requiredBytes(sizes, strides, 0, elementSize(dtype));
  auto storage = makeIntrusive<StorageImpl>(static_cast<size_t>(bytes));
  return Tensor(makeIntrusive<TensorImpl>(std::move(storage), dtype, sizes, strides, 0));
}

Tensor Tensor::zeros(const IntArray& sizes, ScalarType dtype) {
  Tensor t = empty(sizes, dtype);
  std::memset(t.data_ptr(), 0, t.nbytes());
  return t;
}

Tensor Tensor::full(const IntArray& sizes, const Scalar& value, ScalarType dtype) {
  Tensor t = empty(sizes, dtype);
  t.fill_(value);
  return t;
}

Tensor Tensor::scalarTensor(const Scalar& s, ScalarType dtype) {
  if (dtype == ScalarType::Undefined) {
    dtype = s.isFloatingPoint() ? ScalarType::Float : s.isBoolean() ? ScalarType::Bool : ScalarType::Long;
  }
  Tensor t = empty({}, dtype);
  t.fill_(s);
  return t;
}

template <class T>
Tensor Tensor::fromVector(const std::vector<T>& values, ScalarType dtype) {
  constexpr ScalarType src = scalarTypeOf<T>();
  Tensor t = empty({static_cast<int64_t>(values.size())}, src);
  T* p = t.data_ptr<T>();
  for (size_t i = 0; i < values.size(); ++i) p[i] = values[i];
  return dtype == src || dtype == ScalarType::Undefined ? t : t.to(dtype);
}
template Tensor Tensor::fromVector<float>(const std::vector<float>&, ScalarType);
template Tensor Tensor::fromVector<double>(const std::vector<double>&, ScalarType);
template Tensor Tensor::fromVector<Half>(const std::vector<Half>&, ScalarType);
template Tensor Tensor::fromVector<BFloat16>(const std::vector<BFloat16>&, ScalarType);
template Tensor Tensor::fromVector<int64_t>(const std::vector<int64_t>&, ScalarType);
template Tensor Tensor::fromVector<int32_t>(const std::vector<int32_t>&, ScalarType);
template Tensor Tensor::fromVector<int16_t>(const std::vector<int16_t>&, ScalarType);
template Tensor Tensor::fromVector<int8_t>(const std::vector<int8_t>&, ScalarType);
template Tensor Tensor::fromVector<uint8_t>(const std::vector<uint8_t>&, ScalarType);
template Tensor Tensor::fromVector<bool>(const std::vector<bool>&, ScalarType);

Tensor Tensor::fromStorage(Storage storage, ScalarType dtype, IntArray sizes, IntArray strides, int64_t offset) {
  KD_CHECK(storage, "fromStorage: null storage");
  elementSize(dtype);  // rejects Undefined
  checkInBounds(storage, dtype, sizes, strides, offset);
  return Tensor(makeIntrusive<TensorImpl>(std::move(storage), dtype, std::move(sizes), std::move(strides), offset));
}

// ---------------------------------------------------------------- metadata

int64_t Tensor::size(int64_t d) const {
  if (dim() == 0)
    throw RuntimeError(fmt::format("Dimension specified as {} but tensor has no dimensions", d), "builtins.IndexError");
  return impl_->sizes[static_cast<size_t>(wrapDim(d, dim()))];
}

int64_t Tensor::stride(int64_t d) const {
  if (dim() == 0)
    throw RuntimeError(fmt::format("Dimension specified as {} but tensor has no dimensions", d), "builtins.IndexError");
  return impl_->strides[static_cast<size_t>(wrapDim(d, dim()))];
}

std::string Tensor::sizesStr() const { return arrayStr(sizes()); }

// ---------------------------------------------------------------- views

Tensor Tensor::as_strided(const IntArray& sizes, const IntArray& strides, int64_t offset) const {
  checkInBounds(impl_->storage, dtype(), sizes, strides, offset);
  auto impl = makeIntrusive<TensorImpl>(impl_->storage, dtype(), sizes, strides, offset);
  impl->requiresGrad = impl_->requiresGrad;
  return Tensor(std::move(impl));
}

Tensor Tensor::alias() const {
  auto impl = makeIntrusive<TensorImpl>(impl_->storage, dtype(), sizes(), strides(), storage_offset());
  return Tensor(std::move(impl));
}

Tensor Tensor::view(const IntArray& shapeIn) const {
  IntArray shape = inferViewShape(shapeIn, numel());
  auto strides = computeStride(sizes(), this->strides(), shape);
  KD_CHECK(strides.has_value(),
           "view size is not compatible with input tensor's size and stride (at least one dimension spans across "
           "two contiguous subspaces). Use .reshape(...) instead.");
  return Tensor(makeIntrusive<TensorImpl>(impl_->storage, dtype(), std::move(shape), std::move(*strides), storage_offset()));
}

Tensor Tensor::reshape(const IntArray& shapeIn) const {
  IntArray shape = inferViewShape(shapeIn, numel());
  if (auto strides = computeStride(sizes(), this->strides(), shape)) {
    return Tensor(makeIntrusive<TensorImpl>(impl_->storage, dtype(), std::move(shape), std::move(*strides), storage_offset()));
  }
  return clone().view(shape);
}

Tensor Tensor::select(int64_t d, int64_t index) const {
  KD_CHECK_INDEX(dim() > 0, "select() cannot be applied to a 0-dim tensor.");
  d = wrapDim(d, dim());
  int64_t size = sizes()[d];
  KD_CHECK_INDEX(index >= -size && index < size, "select(): index {} out of range for tensor of size {} at dimension {}",
                 index, sizesStr(), d);
  if (index < 0) index += size;
  IntArray sz = sizes(), st = strides();
  int64_t offset = storage_offset() + index * st[d];
  sz.erase(sz.begin() + d);
  st.erase(st.begin() + d);
  return Tensor(makeIntrusive<TensorImpl>(impl_->storage, dtype(), std::move(sz), std::move(st), offset));
}

Tensor Tensor::slice(int64_t d, int64_t start, int64_t end, int64_t step) const {
  KD_CHECK_INDEX(dim() > 0, "slice() cannot be applied to a 0-dim tensor.");
  d = wrapDim(d, dim());
  KD_CHECK(step > 0, "slice step must be positive");
  int64_t size = sizes()[d];
  if (start < 0) start += size;
  if (end < 0) end += size;
  start = std::clamp<int64_t>(start, 0, size);
  end = std::clamp<int64_t>(end, 0, size);
  if (end < start) end = start;
  IntArray sz = sizes(), st = strides();
  int64_t offset = storage_offset() + start * st[d];
  sz[d] = (end - start + step - 1) / step;
  st[d] *= step;
  return Tensor(makeIntrusive<TensorImpl>(impl_->storage, dtype(), std::move(sz), std::move(st), offset));
}

Tensor Tensor::narrow(int64_t d, int64_t start, int64_t length) const {
  KD_CHECK(dim() > 0, "narrow() cannot be applied to a 0-dim tensor.");
  d = wrapDim(d, dim());
  int64_t size = sizes()[d];
  if (start != size) start = wrapDim(start, size);  // start == size (an empty tail) is allowed
  KD_CHECK(length >= 0 && start <= size - length, "start ({}) + length ({}) exceeds dimension size ({}).", start, length,
           size);
  return slice(d, start, start + length, 1);
}

Tensor Tensor::transpose(int64_t d0, int64_t d1) const {
  int64_t n = dim();
  d0 = wrapDim(d0, n);
  d1 = wrapDim(d1, n);
  if (n == 0) return alias();
  IntArray sz = sizes(), st = strides();
  std::swap(sz[d0], sz[d1]);
  std::swap(st[d0], st[d1]);
  return Tensor(makeIntrusive<TensorImpl>(impl_->storage, dtype(), std::move(sz), std::move(st), storage_offset()));
}

Tensor Tensor::permute(const IntArray& dims) const {
  int64_t n = dim();
  KD_CHECK(static_cast<int64_t>(dims.size()) == n,
           "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired "
           "ordering of dimensions i.e. input.dim() = {} is not equal to len(dims) = {}",
           n, dims.size());
  IntArray sz(n), st(n);
  std::vector<bool> seen(n, false);
  for (int64_t i = 0; i < n; ++i) {
    int64_t d = wrapDim(dims[i], n);
    KD_CHECK(!seen[d], "permute(): duplicate dims are not allowed.");
    seen[d] = true;
    sz[i] = sizes()[d];
    st[i] = strides()[d];
  }
  return Tensor(makeIntrusive<TensorImpl>(impl_->storage, dtype(), std::move(sz), std::move(st), storage_offset()));
}

Tensor Tensor::unsqueeze(int64_t d) const {
  d = wrapDim(d, dim() + 1);
  IntArray sz = sizes(), st = strides();
  int64_t newStride = d >= dim() ? 1 : sz[d] * st[d];
  sz.insert(sz.begin() + d, 1);
  st.insert(st.begin() + d, newStride);
  return Tensor(makeIntrusive<TensorImpl>(impl_->storage, dtype(), std::move(sz), std::move(st), storage_offset()));
}

Tensor Tensor::squeeze(int64_t d) const {
  d = wrapDim(d, dim());
  if (dim() == 0 || sizes()[d] != 1) return alias();
  IntArray sz = sizes(), st = strides();
  sz.erase(sz.begin() + d);
  st.erase(st.begin() + d);
  return Tensor(makeIntrusive<TensorImpl>(impl_->storage, dtype(), std::move(sz), std::move(st), storage_offset()));
}

Tensor Tensor::squeeze() const {
  IntArray sz, st;
  for (int64_t i = 0; i < dim(); ++i) {
    if (sizes()[i] == 1) continue;
    sz.push_back(sizes()[i]);
    st.push_back(strides()[i]);
  }
  return Tensor(makeIntrusive<TensorImpl>(impl_->storage, dtype(), std::move(sz), std::move(st), storage_offset()));
}

Tensor Tensor::expand(const IntArray& target) const {
  int64_t n = dim();
  int64_t m = static_cast<int64_t>(target.size());
  KD_CHECK(m >= n,
           "expand({}Tensor{{{}}}, size={}): the number of sizes provided ({}) must be greater or equal to the number of "
           "dimensions in the tensor ({})",
           std::string("torch.") + scalarTypeName(dtype()), sizesStr(), arrayStr(target), m, n);
  IntArray sz(m), st(m);
  for (int64_t i = m - 1; i >= 0; --i) {
    int64_t offset = n - m + i;
    int64_t size = offset >= 0 ? sizes()[offset] : 1;
    int64_t stride = offset >= 0 ? strides()[offset] : (i + 1 < m ? sz[i + 1] * st[i + 1] : 1);
    int64_t t = target[i];
    if (t == -1) {
      KD_CHECK(offset >= 0, "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension {}", i);
      t = size;
    }
    if (size != t) {
      KD_CHECK(size == 1,
               "The expanded size of the tensor ({}) must match the existing size ({}) at non-singleton dimension {}.  "
               "Target sizes: {}.  Tensor sizes: {}",
               t, size, i, arrayStr(target), sizesStr());
      KD_CHECK(t >= 0, "Trying to create tensor with negative dimension {}: {}", t, arrayStr(target));
      stride = 0;
    }
    sz[i] = t;
    st[i] = stride;
  }
  return Tensor(makeIntrusive<TensorImpl>(impl_->storage, dtype(), std::move(sz), std::move(st), storage_offset()));
}

Tensor Tensor::flatten(int64_t startDim, int64_t endDim) const {
  if (dim() == 0) return reshape({1});
  startDim = wrapDim(startDim, dim());
  endDim = wrapDim(endDim, dim());
  KD_CHECK(startDim <= endDim, "flatten() has invalid args: start_dim cannot come after end_dim");
  if (startDim == endDim) return *this;
  IntArray shape;
  for (int64_t i = 0; i < startDim; ++i) shape.push_back(sizes()[i]);
  int64_t prod = 1;
  for (int64_t i = startDim; i <= endDim; ++i) prod *= sizes()[i];
  shape.push_back(prod);
  for (int64_t i = endDim + 1; i < dim(); ++i) shape.push_back(sizes()[i]);
  return reshape(shape);
}

// ---------------------------------------------------------------- copies

Tensor Tensor::contiguous() const { return is_contiguous() ? *this : clone(); }

Tensor Tensor::clone() const {
  Tensor out = empty(sizes(), dtype());
  out.copy_(*this);
  return out;
}

Tensor Tensor::to(ScalarType t, bool copy) const {
  if (t == dtype() && !copy) return *this;
  Tensor out = empty(sizes(), t);
  out.copy_(*this);
  return out;
}

Tensor& Tensor::copy_(const Tensor& src) {
  KD_CHECK(defined() && src.defined(), "copy_(): expected defined tensors");
  if (is_same(src)) return *this;
  if (numel() == 0) return *this;
  if (sizes() == src.sizes() && dtype() == src.dtype() && is_contiguous() && src.is_contiguous()) {
    char* d = static_cast<char*>(data_ptr());
    const char* s = static_cast<const char*>(src.data_ptr());
    size_t n = nbytes();
    if (d == s) return *this;
    storage()->bumpVersion();
    if (n >= (1u << 20) && omp_get_max_threads() > 1 && !omp_in_parallel()) {
#pragma omp parallel
      {
        size_t nt = static_cast<size_t>(omp_get_num_threads()), t = static_cast<size_t>(omp_get_thread_num());
        size_t chunk = (n + nt - 1) / nt;
        size_t b = std::min(n, chunk * t), e = std::min(n, b + chunk);
        if (b < e) std::memcpy(d + b, s + b, e - b);
      }
    } else {
      std::memmove(d, s, n);
    }
    return *this;
  }
  Tensor s = src.sizes() == sizes() ? src : src.expand(sizes());
  // Overlapping storage (e.g. x.copy_(x.t())): copy through a temporary.
  if (s.storage().get() == storage().get()) s = s.clone();
  storage()->bumpVersion();
  copyStrided(*this, s);
  return *this;
}

namespace {
// The C++ type names c10 uses in "value cannot be converted to type X without overflow".
const char* cTypeName(ScalarType t) {
  switch (t) {
    case ScalarType::Byte: return "uint8_t";
    case ScalarType::Char: return "int8_t";
    case ScalarType::Short: return "int16_t";
    case ScalarType::Int: return "int";
    case ScalarType::Long: return "int64_t";
    case ScalarType::Half: return "at::Half";
    case ScalarType::Float: return "float";
    case ScalarType::Double: return "double";
    case ScalarType::BFloat16: return "at::BFloat16";
    default: return "bool";
  }
}

// c10::checked_convert: the Scalar converted to T, or RuntimeError when it does not fit (c10::overflows rules:
// infinities fit floating types; unsigned types accept negative ints down to -max, as in C).
template <class T>
T checkedConvert(const Scalar& value, ScalarType dtype) {
  auto fail = [&] {
    throw RuntimeError(fmt::format("value cannot be converted to type {} without overflow", cTypeName(dtype)));
  };
  if constexpr (std::is_same_v<T, bool>) {
    return value.toBool();
  } else if constexpr (std::is_integral_v<T>) {
    using L = std::numeric_limits<T>;
    if (value.isFloatingPoint()) {
      double d = value.toDouble();
      if (std::isnan(d) || std::isinf(d) || d < static_cast<double>(L::lowest()) || d > static_cast<double>(L::max())) fail();
      return static_cast<T>(d);
    }
    int64_t i = value.toLong();
    if constexpr (std::is_unsigned_v<T>) {
      if (i > static_cast<int64_t>(L::max()) || (i < 0 && -i > static_cast<int64_t>(L::max()))) fail();
    } else if constexpr (!std::is_same_v<T, int64_t>) {
      if (i < static_cast<int64_t>(L::lowest()) || i > static_cast<int64_t>(L::max())) fail();
    }
    return static_cast<T>(i);
  } else {
    double d = value.isFloatingPoint() ? value.toDouble() : static_cast<double>(value.toLong());
    double maxv = std::is_same_v<T, Half> ? 65504.0
                  : std::is_same_v<T, BFloat16> ? 3.3895313892515355e38
                  : static_cast<double>(std::numeric_limits<std::conditional_t<std::is_same_v<T, double>, double, float>>::max());
    if (std::isfinite(d) && std::fabs(d) > maxv) fail();
    return T(d);
  }
}
}  // namespace

Tensor& Tensor::fill_(const Scalar& value) {
  dispatchAllTypes(dtype(), "fill_", [&](auto tag) {
    using T = decltype(tag);
    T v = checkedConvert<T>(value, dtype());
    if (numel() == 0) return;
    storage()->bumpVersion();
    forEachRow(sizes(), strides(), IntArray(sizes().size(), 0), static_cast<char*>(data_ptr()),
               reinterpret_cast<const char*>(&v), sizeof(T), sizeof(T),
               [](char* dp, const char* sp, int64_t n, int64_t dstr, int64_t) {
                 T* d = reinterpret_cast<T*>(dp);
                 T x = *reinterpret_cast<const T*>(sp);
                 if (dstr == 1) std::fill(d, d + n, x);
                 else for (int64_t i = 0; i < n; ++i) d[i * dstr] = x;
               });
  });
  return *this;
}

Scalar Tensor::item() const {
  KD_CHECK(numel() == 1, "a Tensor with {} elements cannot be converted to Scalar", numel());
  return dispatchAllTypes(dtype(), "item", [&](auto tag) -> Scalar {
    using T = decltype(tag);
    T v = *data_ptr<T>();
    if constexpr (std::is_same_v<T, bool>) return Scalar(v);
    else if constexpr (std::is_integral_v<T>) return Scalar(static_cast<int64_t>(v));
    else return Scalar(static_cast<double>(v));
  });
}

double Tensor::doubleAt(int64_t flatIndex) const {
  KD_CHECK_INDEX(flatIndex >= 0 && flatIndex < numel(), "index {} is out of bounds for a tensor with {} elements", flatIndex, numel());
  int64_t offset = 0, r = flatIndex;
  for (int64_t d = dim() - 1; d >= 0; --d) {
    offset += (r % sizes()[d]) * strides()[d];
    r /= sizes()[d];
  }
  return dispatchAllTypes(dtype(), "doubleAt", [&](auto tag) -> double {
    using T = decltype(tag);
    const T* p = static_cast<const T*>(data_ptr());
    if constexpr (std::is_same_v<T, bool>) return p[offset] ? 1.0 : 0.0;
    else return static_cast<double>(p[offset]);
  });
}

// ---------------------------------------------------------------- IValue helpers

std::vector<Tensor> IValue::toTensorVector() const {
  const auto& l = toListRef();
  std::vector<Tensor> out;
  out.reserve(l.elements.size());
  for (const auto& e : l.elements) out.push_back(e.toTensor());
  return out;
}

}  // namespace kindling
