// Shape and view operators: view, reshape, flatten, unflatten, transpose, t, permute, movedim, squeeze,
// unsqueeze, expand, select, slice, narrow, chunk, split, unbind, cat, stack, contiguous, clone, detach,
// alias, to (dtype / device / other), type_as, repeat, flip, padding (constant / reflect / replicate /
// circular). The dropout family is in random.cpp.
// Views share storage (Tensor's view methods); cat/stack copy with PyTorch's type promotion and errors.
#include <cstring>

#include "ops/registry/kernel_args.h"
#include "ops/registry/operator.h"
#include "tensor/type_promotion.h"

namespace kindling {

namespace {

enum MemoryFormat : int64_t { kContiguousFormat = 0, kPreserveFormat = 1, kChannelsLast = 2, kChannelsLast3d = 3 };

IValue tensorList(std::vector<Tensor> ts) {
  std::vector<IValue> v;
  v.reserve(ts.size());
  for (auto& t : ts) v.emplace_back(std::move(t));
  return makeList(TensorType(), std::move(v));
}

IntArray channelsLastStrides(const IntArray& s) {
  if (s.size() == 4) return {s[1] * s[2] * s[3], 1, s[3] * s[1], s[1]};
  return {s[1] * s[2] * s[3] * s[4], 1, s[3] * s[4] * s[1], s[4] * s[1], s[1]};
}

bool isChannelsLast(const Tensor& t) {
  if (t.dim() != 4 && t.dim() != 5) return false;
  const IntArray want = channelsLastStrides(t.sizes());
  for (int64_t d = 0; d < t.dim(); ++d)
    if (t.sizes()[d] != 1 && t.strides()[d] != want[d]) return false;
  return true;
}

/// A copy of `t` in memory format `mf` (0 contiguous, 1 preserve, 2/3 channels_last).
Tensor copyWithFormat(const Tensor& t, int64_t mf, ScalarType dt) {
  if (mf == kPreserveFormat) mf = (isChannelsLast(t) && !t.is_contiguous()) ? (t.dim() == 4 ? kChannelsLast : kChannelsLast3d) : kContiguousFormat;
  Tensor out;
  if (mf == kChannelsLast || mf == kChannelsLast3d) {
    KD_CHECK(t.dim() == (mf == kChannelsLast ? 4 : 5), "required rank {} tensor to use channels_last{} format",
             mf == kChannelsLast ? 4 : 5, mf == kChannelsLast ? "" : "_3d");
    out = Tensor::emptyStrided(t.sizes(), channelsLastStrides(t.sizes()), dt);
  } else {
    out = Tensor::empty(t.sizes(), dt);
  }
  out.copy_(t);
  return out;
}

bool hasFormat(const Tensor& t, int64_t mf) {
  if (mf == kPreserveFormat) return true;
  if (mf == kChannelsLast || mf == kChannelsLast3d) return isChannelsLast(t);
  return t.is_contiguous();
}

// ---------------------------------------------------------------- views

void viewK(Stack& s) { Args a(s, 2); Tensor r = a.tensor(0).view(a.intList(1)); a.ret(std::move(r)); }
void viewAsK(Stack& s) { Args a(s, 2); Tensor r = a.tensor(0).view(a.tensor(1).sizes()); a.ret(std::move(r)); }
void reshapeK(Stack& s) { Args a(s, 2); Tensor r = a.tensor(0).reshape(a.intList(1)); a.ret(std::move(r)); }
void reshapeAsK(Stack& s) { Args a(s, 2); Tensor r = a.tensor(0).reshape(a.tensor(1).sizes()); a.ret(std::move(r)); }
void flattenK(Stack& s) { Args a(s, 3); Tensor r = a.tensor(0).flatten(a.toInt(1), a.toInt(2)); a.ret(std::move(r)); }
void unflattenK(Stack& s) {
  Args a(s, 3);
  const Tensor self = a.tensor(0);
  const int64_t d = maybeWrapDim(a.toInt(1), self.dim());
  IntArray sizes = a.intList(2);
  KD_CHECK(!sizes.empty(), "unflatten: sizes must be non-empty");
  int64_t known = 1, infer = -1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1) {
      KD_CHECK(infer < 0, "only one dimension can be inferred");
      infer = static_cast<int64_t>(i);
    } else {
      known *= sizes[i];
    }
  }
  if (infer >= 0) sizes[infer] = known == 0 ? 0 : self.sizes()[d] / known;
  int64_t prod = 1;
  for (int64_t x : sizes) prod *= x;
  KD_CHECK(prod == self.sizes()[d],
           "unflatten: Provided sizes {} don't multiply up to the size of dim {} ({}) in the input tensor",
           Tensor::empty({static_cast<int64_t>(sizes.size())}).sizesStr(), a.toInt(1), self.sizes()[d]);
  IntArray shape(self.sizes().begin(), self.sizes().begin() + d);
  shape.insert(shape.end(), sizes.begin(), sizes.end());
  shape.insert(shape.end(), self.sizes().begin() + d + 1, self.sizes().end());
  a.ret(self.view(shape));
}
void transposeK(Stack& s) { Args a(s, 3); Tensor r = a.tensor(0).transpose(a.toInt(1), a.toInt(2)); a.ret(std::move(r)); }
void transposeK_(Stack& s) {
  Args a(s, 3);
  Tensor self = a.tensor(0);
  const Tensor t = self.transpose(a.toInt(1), a.toInt(2));
  self.impl()->setSizesAndStrides(t.sizes(), t.strides());
  a.ret(std::move(self));
}
Tensor tOf(const Tensor& self) {
  KD_CHECK(self.dim() <= 2, "t() expects a tensor with <= 2 dimensions, but self is {}D", self.dim());
  return self.dim() < 2 ? self.alias() : self.transpose(0, 1);
}
void tK(Stack& s) { Args a(s, 1); Tensor r = tOf(a.tensor(0)); a.ret(std::move(r)); }
void tK_(Stack& s) {
  Args a(s, 1);
  Tensor self = a.tensor(0);
  const Tensor t = tOf(self);
  self.impl()->setSizesAndStrides(t.sizes(), t.strides());
  a.ret(std::move(self));
}
void permuteK(Stack& s) { Args a(s, 2); Tensor r = a.tensor(0).permute(a.intList(1)); a.ret(std::move(r)); }
Tensor movedim(const Tensor& self, IntArray src, IntArray dst) {
  const int64_t n = self.dim();
  KD_CHECK(src.size() == dst.size(), "movedim: Invalid source or destination dims: source ({} dims) should contain the same number of dims as destination ({} dims)",
           src.size(), dst.size());
  for (auto& d : src) d = maybeWrapDim(d, n);
  for (auto& d : dst) d = maybeWrapDim(d, n);
  IntArray order(n, -1);
  std::vector<bool> used(n, false);
  for (size_t i = 0; i < src.size(); ++i) {
    KD_CHECK(order[dst[i]] == -1, "movedim: repeated dim in `destination`");
    KD_CHECK(!used[src[i]], "movedim: repeated dim in `source`");
    order[dst[i]] = src[i];
    used[src[i]] = true;
  }
  int64_t next = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (order[i] != -1) continue;
    while (used[next]) ++next;
    order[i] = next;
    used[next] = true;
  }
  return self.permute(order);
}
void movedimInt(Stack& s) { Args a(s, 3); Tensor r = movedim(a.tensor(0), {a.toInt(1)}, {a.toInt(2)}); a.ret(std::move(r)); }
void movedimList(Stack& s) { Args a(s, 3); Tensor r = movedim(a.tensor(0), a.intList(1), a.intList(2)); a.ret(std::move(r)); }
void swapaxesK(Stack& s) { Args a(s, 3); Tensor r = a.tensor(0).transpose(a.toInt(1), a.toInt(2)); a.ret(std::move(r)); }
void squeezeK(Stack& s) { Args a(s, 1); Tensor r = a.tensor(0).squeeze(); a.ret(std::move(r)); }
void squeezeDimK(Stack& s) { Args a(s, 2); Tensor r = a.tensor(0).squeeze(a.toInt(1)); a.ret(std::move(r)); }
void squeezeK_(Stack& s) {
  Args a(s, 1);
  Tensor self = a.tensor(0);
  const Tensor t = self.squeeze();
  self.impl()->setSizesAndStrides(t.sizes(), t.strides());
  a.ret(std::move(self));
}
void squeezeDimK_(Stack& s) {
  Args a(s, 2);
  Tensor self = a.tensor(0);
  const Tensor t = self.squeeze(a.toInt(1));
  self.impl()->setSizesAndStrides(t.sizes(), t.strides());
  a.ret(std::move(self));
}
void unsqueezeK(Stack& s) { Args a(s, 2); Tensor r = a.tensor(0).unsqueeze(a.toInt(1)); a.ret(std::move(r)); }
void unsqueezeK_(Stack& s) {
  Args a(s, 2);
  Tensor self = a.tensor(0);
  const Tensor t = self.unsqueeze(a.toInt(1));
  self.impl()->setSizesAndStrides(t.sizes(), t.strides());
  a.ret(std::move(self));
}
void expandK(Stack& s) { Args a(s, 3); Tensor r = a.tensor(0).expand(a.intList(1)); a.ret(std::move(r)); }
void expandAsK(Stack& s) { Args a(s, 2); Tensor r = a.tensor(0).expand(a.tensor(1).sizes()); a.ret(std::move(r)); }
void selectK(Stack& s) { Args a(s, 3); Tensor r = a.tensor(0).select(a.toInt(1), a.toInt(2)); a.ret(std::move(r)); }
void sliceK(Stack& s) {
  Args a(s, 5);
  const Tensor self = a.tensor(0);
  const int64_t start = a.optInt(2).value_or(0);
  const int64_t end = a.optInt(3).value_or(INT64_MAX);
  Tensor r = self.slice(a.toInt(1), start, end, a.toInt(4));
  a.ret(std::move(r));
}
void narrowK(Stack& s) { Args a(s, 4); Tensor r = a.tensor(0).narrow(a.toInt(1), a.toInt(2), a.toInt(3)); a.ret(std::move(r)); }
void narrowTensorK(Stack& s) {
  Args a(s, 4);
  const Tensor st = a.tensor(2);
  KD_CHECK(st.dim() == 0 && isIntegralType(st.dtype(), false), "start must be an 0-dim integral Tensor.");
  Tensor r = a.tensor(0).narrow(a.toInt(1), st.item().toLong(), a.toInt(3));
  a.ret(std::move(r));
}
void aliasK(Stack& s) { Args a(s, 1); Tensor r = a.tensor(0).alias(); a.ret(std::move(r)); }
void detachK_(Stack& s) { Args a(s, 1); Tensor self = a.tensor(0); a.ret(std::move(self)); }

std::vector<Tensor> splitBySize(const Tensor& self, int64_t splitSize, int64_t dim) {
  KD_CHECK(self.dim() != 0, "split expects at least a 1-dimensional tensor");
  KD_CHECK(splitSize >= 0, "split expects split_size be non-negative, but got split_size={}", splitSize);
  const int64_t d = maybeWrapDim(dim, self.dim());
  const int64_t n = self.sizes()[d];
  KD_CHECK(splitSize != 0 || n == 0, "split_size can only be 0 if dimension size is 0, but got dimension size of {}", n);
  const int64_t chunks = splitSize == 0 ? 1 : std::max<int64_t>((n + splitSize - 1) / splitSize, 1);
  std::vector<Tensor> out;
  for (int64_t i = 0; i < chunks; ++i) {
    const int64_t start = i * splitSize;
    out.push_back(self.narrow(d, start, std::min(splitSize, n - start)));
  }
  return out;
}

std::vector<Tensor> splitWithSizes(const Tensor& self, const IntArray& sizes, int64_t dim) {
  KD_CHECK(self.dim() != 0, "split expects at least a 1-dimensional tensor");
  const int64_t d = maybeWrapDim(dim, self.dim());
  const int64_t n = self.sizes()[d];
  int64_t total = 0;
  for (int64_t x : sizes) {
    KD_CHECK(x >= 0, "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes={}",
             Tensor::empty({static_cast<int64_t>(sizes.size())}).sizesStr());
    total += x;
  }
  std::string list = "[";
  for (size_t i = 0; i < sizes.size(); ++i) list += (i ? ", " : "") + std::to_string(sizes[i]);
  list += "]";
  KD_CHECK(total == n, "split_with_sizes expects split_sizes to sum exactly to {} (input tensor's size at dimension {}), but got split_sizes={}",
           n, dim, list);
  std::vector<Tensor> out;
  int64_t start = 0;
  for (int64_t x : sizes) {
    out.push_back(self.narrow(d, start, x));
    start += x;
  }
  return out;
}

void splitTensorK(Stack& s) { Args a(s, 3); auto r = splitBySize(a.tensor(0), a.toInt(1), a.toInt(2)); a.ret(tensorList(std::move(r))); }
void splitSizesK(Stack& s) { Args a(s, 3); auto r = splitWithSizes(a.tensor(0), a.intList(1), a.toInt(2)); a.ret(tensorList(std::move(r))); }
void chunkK(Stack& s) {
  Args a(s, 3);
  const Tensor self = a.tensor(0);
  const int64_t chunks = a.toInt(1);
  KD_CHECK(self.dim() > 0, "chunk expects at least a 1-dimensional tensor");
  KD_CHECK(chunks > 0, "chunk expects `chunks` to be greater than 0, got: {}", chunks);
  const int64_t d = maybeWrapDim(a.toInt(2), self.dim());
  const int64_t n = self.sizes()[d];
  const int64_t splitSize = (n + chunks - 1) / chunks;
  std::vector<Tensor> r;
  if (splitSize == 0 && n == 0) {
    for (int64_t i = 0; i < chunks; ++i) r.push_back(self.narrow(d, 0, 0));
  } else {
    r = splitBySize(self, splitSize, d);
  }
  a.ret(tensorList(std::move(r)));
}
void unbindK(Stack& s) {
  Args a(s, 2);
  const Tensor self = a.tensor(0);
  KD_CHECK(self.dim() > 0, "Dimension specified as 0 but tensor has no dimensions");
  const int64_t d = maybeWrapDim(a.toInt(1), self.dim());
  std::vector<Tensor> r;
  for (int64_t i = 0; i < self.sizes()[d]; ++i) r.push_back(self.select(d, i));
  a.ret(tensorList(std::move(r)));
}

// ---------------------------------------------------------------- cat / stack

Tensor cat(const std::vector<Tensor>& tensors, int64_t dim) {
  KD_CHECK(!tensors.empty(), "torch.cat(): expected a non-empty list of Tensors");
  // Legacy behaviour: 1-d empty tensors are skipped.
  auto skipped = [](const Tensor& t) { return t.dim() == 1 && t.numel() == 0; };
  const Tensor* ref = nullptr;
  ResultTypeState rts;
  for (const auto& t : tensors) {
    rts.add(t);
    if (!ref && !skipped(t)) ref = &t;
  }
  const ScalarType dt = rts.result();
  if (!ref) return Tensor::empty({0}, dt);
  KD_CHECK(ref->dim() > 0, "zero-dimensional tensor (at position {}) cannot be concatenated", 0);
  const int64_t nd = ref->dim();
  const int64_t d = maybeWrapDim(dim, nd);
  // All inputs channels_last (as conv outputs may be): concatenate in NHWC order and return channels_last,
  // as PyTorch does, instead of transposing every input into an NCHW result.
  if (nd == 4) {
    bool allCl = true;
    for (const auto& t : tensors) allCl = allCl && t.dim() == 4 && !t.is_contiguous() && isChannelsLast(t);
    if (allCl) {
      std::vector<Tensor> perm;
      for (const auto& t : tensors) perm.push_back(t.permute({0, 2, 3, 1}));
      static const int64_t toNhwc[4] = {0, 3, 1, 2};  // NCHW dim -> NHWC dim
      return cat(perm, toNhwc[d]).permute({0, 3, 1, 2});
    }
  }
  IntArray outSizes = ref->sizes();
  int64_t total = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (skipped(t)) continue;
    KD_CHECK(t.dim() > 0, "zero-dimensional tensor (at position {}) cannot be concatenated", i);
    KD_CHECK(t.dim() == nd, "Tensors must have same number of dimensions: got {} and {}", nd, t.dim());
    for (int64_t k = 0; k < nd; ++k) {
      if (k == d) continue;
      KD_CHECK(t.sizes()[k] == outSizes[k],
               "Sizes of tensors must match except in dimension {}. Expected size {} but got size {} for tensor number {} in the list.",
               d, outSizes[k], t.sizes()[k], i);
    }
    total += t.sizes()[d];
  }
  outSizes[d] = total;
  Tensor out = Tensor::empty(outSizes, dt);
  if (out.numel() == 0) return out;
  int64_t outer = 1, inner = 1;
  for (int64_t k = 0; k < d; ++k) outer *= outSizes[k];
  for (int64_t k = d + 1; k < nd; ++k) inner *= outSizes[k];
  const size_t es = elementSize(dt);
  char* base = static_cast<char*>(out.data_ptr());
  const int64_t outRow = total * inner;
  int64_t offset = 0;
  for (const auto& t : tensors) {
    if (skipped(t)) continue;
    const int64_t n = t.sizes()[d];
    if (n == 0) continue;
    if (t.is_contiguous() && t.dtype() == dt) {
      const char* src = static_cast<const char*>(t.data_ptr());
      const int64_t row = n * inner;
      for (int64_t o = 0; o < outer; ++o)
        std::memcpy(base + (o * outRow + offset * inner) * es, src + o * row * es, row * es);
    } else {
      out.narrow(d, offset, n).copy_(t);
    }
    offset += n;
  }
  return out;
}
void catK(Stack& s) { Args a(s, 2); Tensor r = cat(a.tensorList(0), a.toInt(1)); a.ret(std::move(r)); }

Tensor stack(const std::vector<Tensor>& tensors, int64_t dim) {
  KD_CHECK(!tensors.empty(), "stack expects a non-empty TensorList");
  const int64_t d = maybeWrapDim(dim, tensors[0].dim() + 1);
  for (size_t i = 1; i < tensors.size(); ++i)
    KD_CHECK(tensors[i].sizes() == tensors[0].sizes(),
             "stack expects each tensor to be equal size, but got {} at entry 0 and {} at entry {}",
             tensors[0].sizesStr(), tensors[i].sizesStr(), i);
  std::vector<Tensor> us;
  for (const auto& t : tensors) us.push_back(t.unsqueeze(d));
  return cat(us, d);
}
void stackK(Stack& s) { Args a(s, 2); Tensor r = stack(a.tensorList(0), a.toInt(1)); a.ret(std::move(r)); }
void hstackK(Stack& s) {
  Args a(s, 1);
  auto ts = a.tensorList(0);
  KD_CHECK(!ts.empty(), "hstack expects a non-empty TensorList");
  for (auto& t : ts)
    if (t.dim() == 0) t = t.reshape({1});
  Tensor r = cat(ts, ts[0].dim() == 1 ? 0 : 1);
  a.ret(std::move(r));
}
void vstackK(Stack& s) {
  Args a(s, 1);
  auto ts = a.tensorList(0);
  KD_CHECK(!ts.empty(), "vstack expects a non-empty TensorList");
  for (auto& t : ts)
    if (t.dim() < 2) t = t.reshape({1, t.numel()});
  Tensor r = cat(ts, 0);
  a.ret(std::move(r));
}

// ---------------------------------------------------------------- copies / conversions

void contiguousK(Stack& s) {
  Args a(s, 2);
  const Tensor self = a.tensor(0);
  const int64_t mf = a[1].isNone() ? 0 : a.toInt(1);
  Tensor r = hasFormat(self, mf) ? self : copyWithFormat(self, mf, self.dtype());
  a.ret(std::move(r));
}
void cloneK(Stack& s) {
  Args a(s, 2);
  const Tensor self = a.tensor(0);
  const int64_t mf = a[1].isNone() ? kPreserveFormat : a.toInt(1);
  Tensor r = copyWithFormat(self, mf, self.dtype());
  a.ret(std::move(r));
}

void checkCpu(const IValue& dev) {
  if (dev.isNone()) return;
  const Device d = dev.isString() ? Device::parse(dev.toStringRef()) : dev.toDevice();
  KD_CHECK(d.type == DeviceType::CPU, "Kindling runs on CPU only; cannot move a tensor to device '{}'", d.str());
}

/// Common tail of the aten::to overloads.
Tensor toImpl(const Tensor& self, ScalarType dtype, bool copy, const IValue& memoryFormat) {
  const ScalarType dt = dtype == ScalarType::Undefined ? self.dtype() : dtype;
  const int64_t mf = memoryFormat.isNone() ? kPreserveFormat : memoryFormat.toInt();
  if (!copy && dt == self.dtype() && hasFormat(self, mf)) return self;
  return copyWithFormat(self, mf, dt);
}

// to.device(self, device, dtype, non_blocking, copy, memory_format)
void toDevice(Stack& s) {
  Args a(s, 6);
  checkCpu(a[1]);
  Tensor r = toImpl(a.tensor(0), a.optDtype(2), a.toBool(4), a[5]);
  a.ret(std::move(r));
}
// to.dtype(self, dtype, non_blocking, copy, memory_format)
void toDtype(Stack& s) {
  Args a(s, 5);
  Tensor r = toImpl(a.tensor(0), a.optDtype(1), a.toBool(3), a[4]);
  a.ret(std::move(r));
}
// to.dtype_layout(self, dtype, layout, device, pin_memory, non_blocking, copy, memory_format)
void toDtypeLayout(Stack& s) {
  Args a(s, 8);
  checkCpu(a[3]);
  Tensor r = toImpl(a.tensor(0), a.optDtype(1), a.toBool(6), a[7]);
  a.ret(std::move(r));
}
// to.other(self, other, non_blocking, copy, memory_format)
void toOther(Stack& s) {
  Args a(s, 5);
  Tensor r = toImpl(a.tensor(0), a.tensor(1).dtype(), a.toBool(3), a[4]);
  a.ret(std::move(r));
}
// to.prim_Device(self, device?, dtype?, non_blocking, copy)
void toPrimDevice(Stack& s) {
  Args a(s, 5);
  checkCpu(a[1]);
  Tensor r = toImpl(a.tensor(0), a.optDtype(2), a.toBool(4), IValue());
  a.ret(std::move(r));
}
// to.prim_dtype(self, dtype?, non_blocking, copy)
void toPrimDtype(Stack& s) {
  Args a(s, 4);
  Tensor r = toImpl(a.tensor(0), a.optDtype(1), a.toBool(3), IValue());
  a.ret(std::move(r));
}
// to.prim_other(self, non_blocking, copy)
void toPrimOther(Stack& s) {
  Args a(s, 3);
  Tensor r = toImpl(a.tensor(0), ScalarType::Undefined, a.toBool(2), IValue());
  a.ret(std::move(r));
}
void typeAsK(Stack& s) {
  Args a(s, 2);
  Tensor r = toImpl(a.tensor(0), a.tensor(1).dtype(), false, IValue());
  a.ret(std::move(r));
}
void viewDtypeK(Stack& s) {
  Args a(s, 2);
  const Tensor self = a.tensor(0);
  const ScalarType dt = a.optDtype(1);
  KD_CHECK(elementSize(dt) == self.element_size(),
           "Viewing a tensor as a new dtype with a different number of bytes per element is not supported.");
  a.ret(Tensor::fromStorage(self.storage(), dt, self.sizes(), self.strides(), self.storage_offset()));
}

void repeatK(Stack& s) {
  Args a(s, 2);
  const Tensor self = a.tensor(0);
  const IntArray reps = a.intList(1);
  KD_CHECK(static_cast<int64_t>(reps.size()) >= self.dim(),
           "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  const int64_t pad = static_cast<int64_t>(reps.size()) - self.dim();
  IntArray padded(pad, 1);
  padded.insert(padded.end(), self.sizes().begin(), self.sizes().end());
  const Tensor x = self.reshape(padded);
  // out viewed as [r0, s0, r1, s1, ...] = x expanded
  IntArray outSizes, expandSizes, viewSizes;
  for (size_t i = 0; i < reps.size(); ++i) {
    KD_CHECK(reps[i] >= 0, "Trying to create tensor with negative dimension {}: {}", reps[i], reps[i]);
    outSizes.push_back(reps[i] * padded[i]);
    expandSizes.push_back(reps[i]);
    expandSizes.push_back(padded[i]);
    viewSizes.push_back(1);
    viewSizes.push_back(padded[i]);
  }
  Tensor out = Tensor::empty(outSizes, self.dtype());
  if (out.numel() > 0) out.view(expandSizes).copy_(x.reshape(viewSizes).expand(expandSizes));
  a.ret(std::move(out));
}

void flipK(Stack& s) {
  Args a(s, 2);
  const Tensor self = a.tensor(0);
  IntArray dims = a.intList(1);
  std::vector<bool> flip(self.dim(), false);
  for (int64_t d : dims) {
    const int64_t w = maybeWrapDim(d, self.dim());
    KD_CHECK(!flip[w], "dims has duplicates, original flip dims size={}, but unique flip dims size={}", dims.size(), dims.size() - 1);
    flip[w] = true;
  }
  Tensor out = Tensor::empty(self.sizes(), self.dtype());
  const int64_t nd = self.dim(), n = self.numel();
  const size_t es = self.element_size();
  const char* src = static_cast<const char*>(self.data_ptr());
  char* dst = static_cast<char*>(out.data_ptr());
  IntArray idx(nd, 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t off = 0;
    for (int64_t d = 0; d < nd; ++d) off += (flip[d] ? self.sizes()[d] - 1 - idx[d] : idx[d]) * self.strides()[d];
    std::memcpy(dst + i * es, src + off * es, es);
    for (int64_t d = nd - 1; d >= 0; --d) {
      if (++idx[d] < self.sizes()[d]) break;
      idx[d] = 0;
    }
  }
  a.ret(std::move(out));
}

// ---------------------------------------------------------------- padding

Tensor constantPad(const Tensor& self, const IntArray& pad, const Scalar& value) {
  KD_CHECK(pad.size() % 2 == 0, "Length of pad must be even but instead it equals {}", pad.size());
  const int64_t np = static_cast<int64_t>(pad.size()) / 2;
  KD_CHECK(np <= self.dim(), "Length of pad should be no more than twice the number of dimensions of the input. Pad length is {} while the input has {} dimensions.",
           pad.size(), self.dim());
  IntArray outSizes = self.sizes();
  for (int64_t i = 0; i < np; ++i) {
    const int64_t d = self.dim() - 1 - i;
    const int64_t n = self.sizes()[d] + pad[2 * i] + pad[2 * i + 1];
    KD_CHECK(n >= 0, "The input size {}, plus negative padding {} and {} resulted in a negative output size, which is invalid. Check dimension {} of your input.",
             self.sizes()[d], pad[2 * i], pad[2 * i + 1], d);
    outSizes[d] = n;
  }
  Tensor out = Tensor::full(outSizes, value, self.dtype());
  Tensor dst = out, src = self;
  for (int64_t i = 0; i < np; ++i) {
    const int64_t d = self.dim() - 1 - i;
    const int64_t l = pad[2 * i], r = pad[2 * i + 1];
    const int64_t keep = self.sizes()[d] + std::min<int64_t>(l, 0) + std::min<int64_t>(r, 0);
    if (keep <= 0) return out;
    dst = dst.narrow(d, std::max<int64_t>(l, 0), keep);
    src = src.narrow(d, std::max<int64_t>(-l, 0), keep);
  }
  if (dst.numel() > 0) dst.copy_(src);
  return out;
}
void constantPadK(Stack& s) { Args a(s, 3); Tensor r = constantPad(a.tensor(0), a.intList(1), a.scalar(2)); a.ret(std::move(r)); }

/// reflect / replicate / circular padding of the last pad.size()/2 dims (element loop).
Tensor indexPad(const Tensor& self, const IntArray& pad, const std::string& mode) {
  KD_CHECK(pad.size() % 2 == 0, "Length of pad must be even but instead it equals {}", pad.size());
  const int64_t np = static_cast<int64_t>(pad.size()) / 2;
  KD_CHECK(np <= self.dim() - 1, "Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now");
  IntArray outSizes = self.sizes();
  for (int64_t i = 0; i < np; ++i) {
    const int64_t d = self.dim() - 1 - i;
    if (mode == "reflect")
      KD_CHECK(pad[2 * i] < self.sizes()[d] && pad[2 * i + 1] < self.sizes()[d],
               "Argument #4: Padding size should be less than the corresponding input dimension, but got: padding ({}, {}) at dimension {} of input {}",
               pad[2 * i], pad[2 * i + 1], d, self.sizesStr());
    KD_CHECK(self.sizes()[d] > 0, "{} padding: input dimension {} must be non-empty (input {})", mode, d, self.sizesStr());
    outSizes[d] = self.sizes()[d] + pad[2 * i] + pad[2 * i + 1];
    KD_CHECK(outSizes[d] >= 0, "negative output size {} for padding of dimension {}", outSizes[d], d);
    if (mode == "circular")
      KD_CHECK(pad[2 * i] <= self.sizes()[d] && pad[2 * i + 1] <= self.sizes()[d],
               "Padding value causes wrapping around more than once.");
  }
  Tensor out = Tensor::empty(outSizes, self.dtype());
  const int64_t nd = self.dim(), n = out.numel();
  const size_t es = self.element_size();
  const char* X = static_cast<const char*>(self.data_ptr());
  char* Y = static_cast<char*>(out.data_ptr());
  IntArray pos(nd, 0);
  for (int64_t e = 0; e < n; ++e) {
    int64_t off = 0;
    for (int64_t d = 0; d < nd; ++d) {
      int64_t i = pos[d];
      const int64_t k = nd - 1 - d;
      if (k < np) {
        const int64_t size = self.sizes()[d];
        i -= pad[2 * k];
        if (mode == "reflect") {
          if (i < 0) i = -i;
          if (i >= size) i = 2 * (size - 1) - i;
        } else if (mode == "replicate") {
          i = std::clamp<int64_t>(i, 0, size - 1);
        } else {
          i = ((i % size) + size) % size;
        }
      }
      off += i * self.strides()[d];
    }
    std::memcpy(Y + e * es, X + off * es, es);
    for (int64_t d = nd - 1; d >= 0; --d) {
      if (++pos[d] < outSizes[d]) break;
      pos[d] = 0;
    }
  }
  return out;
}
void padK(Stack& s) {
  Args a(s, 4);
  const std::string mode = a[2].toStringRef();
  Tensor r;
  if (mode == "constant") {
    r = constantPad(a.tensor(0), a.intList(1), Scalar(a.optDouble(3).value_or(0.0)));
  } else {
    KD_CHECK(mode == "reflect" || mode == "replicate" || mode == "circular",
             "Unrecognised padding mode {}", mode);
    KD_CHECK(a[3].isNone() || a.toDouble(3) == 0.0,
             "Padding mode \"{}\" doesn't take in value argument", mode);
    const IntArray pad = a.intList(1);
    const Tensor self = a.tensor(0);
    const int64_t nd = self.dim();
    const size_t np = pad.size();
    KD_CHECK((np == 2 && (nd == 2 || nd == 3)) || (np == 4 && (nd == 3 || nd == 4)) || (np == 6 && (nd == 4 || nd == 5)),
             "Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now");
    r = indexPad(self, pad, mode);
  }
  a.ret(std::move(r));
}
template <int Mode>
void padNd(Stack& s) {
  Args a(s, 2);
  Tensor r = indexPad(a.tensor(0), a.intList(1), Mode == 0 ? "reflect" : "replicate");
  a.ret(std::move(r));
}

}  // namespace

void registerShapeOps(OperatorRegistry& r) {
  r.add("aten::view(Tensor(a) self, SymInt[] size) -> Tensor(a)", viewK);
  r.add("aten::view.dtype(Tensor(a) self, ScalarType dtype) -> Tensor(a)", viewDtypeK);
  r.add("aten::view_as(Tensor(a) self, Tensor other) -> Tensor(a)", viewAsK);
  r.add("aten::reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)", reshapeK);
  r.add("aten::reshape_as(Tensor(a) self, Tensor other) -> Tensor(a)", reshapeAsK);
  r.add("aten::flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)", flattenK);
  r.add("aten::unflatten.int(Tensor(a) self, int dim, int[] sizes) -> Tensor(a)", unflattenK);
  r.add("aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)", transposeK);
  r.add("aten::transpose_(Tensor(a!) self, int dim0, int dim1) -> Tensor(a!)", transposeK_);
  r.add("aten::swapaxes(Tensor(a) self, int axis0, int axis1) -> Tensor(a)", swapaxesK);
  r.add("aten::t(Tensor(a) self) -> Tensor(a)", tK);
  r.add("aten::t_(Tensor(a!) self) -> Tensor(a!)", tK_);
  r.add("aten::permute(Tensor(a) self, int[] dims) -> Tensor(a)", permuteK);
  r.add("aten::movedim.int(Tensor(a) self, int source, int destination) -> Tensor(a)", movedimInt);
  r.add("aten::movedim.intlist(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)", movedimList);
  r.add("aten::squeeze(Tensor(a) self) -> Tensor(a)", squeezeK);
  r.add("aten::squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)", squeezeDimK);
  r.add("aten::squeeze_(Tensor(a!) self) -> Tensor(a!)", squeezeK_);
  r.add("aten::squeeze_.dim(Tensor(a!) self, int dim) -> Tensor(a!)", squeezeDimK_);
  r.add("aten::unsqueeze(Tensor(a) self, int dim) -> Tensor(a)", unsqueezeK);
  r.add("aten::unsqueeze_(Tensor(a!) self, int dim) -> Tensor(a!)", unsqueezeK_);
  r.add("aten::expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)", expandK);
  r.add("aten::expand_as(Tensor(a) self, Tensor other) -> Tensor(a)", expandAsK);
  r.add("aten::select.int(Tensor(a) self, int dim, int index) -> Tensor(a)", selectK);
  r.add("aten::slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor(a)", sliceK);
  r.add("aten::narrow(Tensor(a) self, int dim, int start, int length) -> Tensor(a)", narrowK);
  r.add("aten::narrow.Tensor(Tensor(a) self, int dim, Tensor start, int length) -> Tensor(a)", narrowTensorK);
  r.add("aten::alias(Tensor(a) self) -> Tensor(a)", aliasK);
  r.add("aten::detach(Tensor(a) self) -> Tensor(a)", aliasK);
  r.add("aten::detach_(Tensor(a!) self) -> Tensor(a!)", detachK_);
  r.add("aten::split.Tensor(Tensor(a -> *) self, int split_size, int dim=0) -> Tensor(a)[]", splitTensorK);
  r.add("aten::split(Tensor(a -> *) self, int[] split_sizes, int dim=0) -> Tensor(a)[]", splitSizesK);
  r.add("aten::split.sizes(Tensor(a -> *) self, int[] split_size, int dim=0) -> Tensor(a)[]", splitSizesK);
  r.add("aten::split_with_sizes(Tensor(a -> *) self, int[] split_sizes, int dim=0) -> Tensor(a)[]", splitSizesK);
  r.add("aten::chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]", chunkK);
  r.add("aten::unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]", unbindK);
  r.add("aten::cat(Tensor[] tensors, int dim=0) -> Tensor", catK);
  r.add("aten::concat(Tensor[] tensors, int dim=0) -> Tensor", catK);
  r.add("aten::concatenate(Tensor[] tensors, int dim=0) -> Tensor", catK);
  r.add("aten::stack(Tensor[] tensors, int dim=0) -> Tensor", stackK);
  r.add("aten::hstack(Tensor[] tensors) -> Tensor", hstackK);
  r.add("aten::vstack(Tensor[] tensors) -> Tensor", vstackK);
  r.add("aten::contiguous(Tensor(a) self, *, MemoryFormat memory_format=0) -> Tensor(a)", contiguousK);
  r.add("aten::clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor", cloneK);
  r.add("aten::to.device(Tensor(a) self, Device device, ScalarType dtype, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)", toDevice);
  r.add("aten::to.dtype(Tensor(a) self, ScalarType dtype, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)", toDtype);
  r.add("aten::to.dtype_layout(Tensor(a) self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)", toDtypeLayout);
  r.add("aten::to.other(Tensor(a) self, Tensor other, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)", toOther);
  r.add("aten::to.prim_Device(Tensor(a) self, Device? device, int? dtype=None, bool non_blocking=False, bool copy=False) -> Tensor(b|a)", toPrimDevice);
  r.add("aten::to.prim_dtype(Tensor(a) self, int? dtype=None, bool non_blocking=False, bool copy=False) -> Tensor(b|a)", toPrimDtype);
  r.add("aten::to.prim_other(Tensor(a) self, bool non_blocking=False, bool copy=False) -> Tensor(b|a)", toPrimOther);
  r.add("aten::type_as(Tensor self, Tensor other) -> Tensor", typeAsK);
  r.add("aten::repeat(Tensor self, SymInt[] repeats) -> Tensor", repeatK);
  r.add("aten::flip(Tensor self, int[] dims) -> Tensor", flipK);
  r.add("aten::constant_pad_nd(Tensor self, int[] pad, Scalar value=0) -> Tensor", constantPadK);
  r.add("aten::pad(Tensor self, int[] pad, str mode=\"constant\", float? value=None) -> Tensor", padK);
  r.add("aten::reflection_pad2d(Tensor self, int[4] padding) -> Tensor", padNd<0>);
  r.add("aten::replication_pad2d(Tensor self, int[4] padding) -> Tensor", padNd<1>);
}

}  // namespace kindling
