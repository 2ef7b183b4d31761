// oneDNN engine, streams, descriptors, the reorder primitive cache and packed weights (see onednn_utils.h).
#include "ops/kernels/common/onednn_utils.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>

namespace kindling::onednn {

dnnl::engine& engine() {
  static dnnl::engine e(dnnl::engine::kind::cpu, 0);
  return e;
}

dnnl::stream& stream() {
  thread_local dnnl::stream s(engine());
  return s;
}

dnnl::memory::desc descOfImpl(const Tensor& t);

dnnl::memory::data_type dataType(ScalarType t) {
  using dt = dnnl::memory::data_type;
  switch (t) {
    case ScalarType::Float: return dt::f32;
    case ScalarType::BFloat16: return dt::bf16;
    case ScalarType::Half: return dt::f16;
    case ScalarType::Int: return dt::s32;
    case ScalarType::Char: return dt::s8;
    case ScalarType::Byte: return dt::u8;
    default: throw RuntimeError(fmt::format("oneDNN does not support dtype {}", scalarTypeName(t)));
  }
}

dnnl::memory::desc descOf(const Tensor& t) {
  return guarded("describing a tensor for oneDNN", [&] { return descOfImpl(t); });
}

dnnl::memory::desc descOfImpl(const Tensor& t) {
  dnnl::memory::dims dims(t.sizes().begin(), t.sizes().end());
  dnnl::memory::dims strides(t.strides().begin(), t.strides().end());
  // oneDNN rejects 0 strides; a size-1 dim's stride is irrelevant, give it a dense value.
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 1) {
      int64_t s = 1;
      for (size_t j = 0; j < dims.size(); ++j)
        if (strides[j] > 0 && dims[j] > 1 && strides[j] * dims[j] > s) s = strides[j] * dims[j];
      strides[i] = s;
    }
  }
  return dnnl::memory::desc(dims, dataType(t.dtype()), strides);
}

dnnl::memory::desc descOf(const IntArray& dims, ScalarType t, dnnl::memory::format_tag tag) {
  return dnnl::memory::desc(dnnl::memory::dims(dims.begin(), dims.end()), dataType(t), tag);
}

dnnl::memory memoryOf(const Tensor& t, const dnnl::memory::desc& d) {
  return dnnl::memory(d, engine(), t.data_ptr());
}

Key& Key::addFloat(float f) {
  int32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  v.push_back(bits);
  return *this;
}

size_t KeyHash::operator()(const Key& k) const {
  uint64_t h = 1469598103934665603ull;
  for (int64_t x : k.v) {
    h ^= static_cast<uint64_t>(x) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  }
  return static_cast<size_t>(h);
}

namespace {

/// A packed weight kept with its tensor's storage (StorageImpl::setDerived).
struct PackedWeight {
  dnnl::memory packed;
};

struct ReorderPrim {
  dnnl::reorder prim;
  dnnl::memory::desc scratchpad;
};

Cache<ReorderPrim>& reorderCache() {
  static Cache<ReorderPrim>* c = new Cache<ReorderPrim>();
  return *c;
}

/// Filed with a storage whose bytes releasePlainBytes gave back: the packed copy that can write them back.
struct ReleasedBytes {
  dnnl::memory packed;
  dnnl::memory::desc have;
};
const std::vector<int64_t> kReleasedKey{-1};  // packed weights' keys start with a tag >= 0

/// Serializes releasing and restoring bytes (load passes and first calls on several threads).
std::mutex& releasedMutex() {
  static std::mutex m;
  return m;
}

/// Writes back the bytes of a storage releasePlainBytes emptied, before anything reads them.
void restorePlainBytes(StorageImpl& storage) {
  std::lock_guard<std::mutex> g(releasedMutex());
  auto found = storage.findDerived(kReleasedKey);
  if (!found) return;
  const auto* r = static_cast<const ReleasedBytes*>(found.get());
  reorder(r->packed, dnnl::memory(r->have, engine(), storage.data()));
  storage.setDerived(kReleasedKey, storage.version(), nullptr);
}

}  // namespace

void releasePlainBytes(const Tensor& w, const dnnl::memory::desc& have, const dnnl::memory& packed) {
  if (!w.defined() || w.storage_offset() != 0 || !w.is_contiguous() || w.nbytes() != w.storage()->nbytes() ||
      w.storage()->isFileMapped() || packed.get_desc() == have || packed.get_desc().dims() != have.dims())
    return;
  StorageImpl& storage = *w.storage();
  static const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t begin = reinterpret_cast<uintptr_t>(storage.data());
  const uintptr_t first = (begin + page - 1) / page * page, last = (begin + storage.nbytes()) / page * page;
  if (last <= first) return;
  std::lock_guard<std::mutex> g(releasedMutex());
  auto r = std::make_shared<ReleasedBytes>();
  r->packed = packed;
  r->have = have;
  // Filed first: from here on every packing of this storage restores the bytes before reading them.
  storage.setDerived(kReleasedKey, storage.version(), std::move(r));
  if (madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED) != 0)
    storage.setDerived(kReleasedKey, storage.version(), nullptr);  // refused: the bytes are all still there
}

dnnl::memory packedWeightsImpl(const Tensor& w, const dnnl::memory::desc& have, const dnnl::memory::desc& want,
                               int64_t tag);

void addDesc(Key& k, const dnnl::memory::desc& d) {
  const dnnl_memory_desc_t& m = d.data;
  k.add(m.ndims).add(static_cast<int64_t>(m.data_type)).add(m.offset0).add(static_cast<int64_t>(m.format_kind));
  for (int i = 0; i < m.ndims; ++i) k.add(m.dims[i]).add(m.padded_dims[i]).add(m.padded_offsets[i]);
  if (m.format_kind == dnnl_blocked) {
    const auto& b = m.format_desc.blocking;
    for (int i = 0; i < m.ndims; ++i) k.add(b.strides[i]);
    k.add(b.inner_nblks);
    for (int i = 0; i < b.inner_nblks; ++i) k.add(b.inner_blks[i]).add(b.inner_idxs[i]);
  }
  k.add(static_cast<int64_t>(m.extra.flags));
}

dnnl::memory packedWeights(const Tensor& w, const dnnl::memory::desc& have, const dnnl::memory::desc& want,
                           int64_t tag) {
  if (have == want) return memoryOf(w, have);
  return guarded("packing weights", [&] { return packedWeightsImpl(w, have, want, tag); });
}

dnnl::memory packedWeightsImpl(const Tensor& w, const dnnl::memory::desc& have, const dnnl::memory::desc& want,
                               int64_t tag) {
  Key k;
  k.v.reserve(64);
  k.add(tag).add(w.storage_offset());
  addDesc(k, have);
  addDesc(k, want);
  StorageImpl& storage = *w.storage();
  if (auto found = storage.findDerived(k.v)) return static_cast<const PackedWeight*>(found.get())->packed;
  restorePlainBytes(storage);  // released at load (releasePlainBytes): written back before they are read
  const uint64_t version = storage.version();  // before reading the bytes: a write during the reorder shows
  auto p = std::make_shared<PackedWeight>();
  p->packed = dnnl::memory(want, engine());
  reorder(memoryOf(w, have), p->packed);
  dnnl::memory result = p->packed;
  storage.setDerived(std::move(k.v), version, std::move(p));
  // The packed copy replaces the weight on the primitive's path: a weight mapped from an archive gives its
  // pages back (still readable, from the file) instead of staying resident next to its copy.
  w.releaseResidentPages();
  return result;
}

void reorder(const dnnl::memory& src, const dnnl::memory& dst) {
  const auto sd = src.get_desc(), dd = dst.get_desc();
  Key k;
  addDesc(k, sd);
  addDesc(k, dd);
  auto prim = reorderCache().get(k, [&] {
    dnnl::reorder::primitive_desc pd(engine(), sd, engine(), dd, userScratchpadAttr());
    auto r = std::make_shared<ReorderPrim>();
    r->prim = dnnl::reorder(pd);
    r->scratchpad = pd.scratchpad_desc();
    return r;
  });
  guarded("reorder", [&] {
    prim->prim.execute(stream(), {{DNNL_ARG_FROM, const_cast<dnnl::memory&>(src)},
                                  {DNNL_ARG_TO, const_cast<dnnl::memory&>(dst)},
                                  {DNNL_ARG_SCRATCHPAD, scratchpadFor(prim->scratchpad)}});
  });
  stream().wait();
}

dnnl::primitive_attr userScratchpadAttr() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

dnnl::memory scratchpadFor(const dnnl::memory::desc& desc) {
  thread_local Storage buffer;
  const size_t need = desc.get_size();
  if (need == 0) return dnnl::memory(desc, engine(), nullptr);
  if (!buffer || buffer->nbytes() < need) buffer = makeIntrusive<StorageImpl>(std::max<size_t>(need, 4096));
  return dnnl::memory(desc, engine(), buffer->data());
}

Tensor scratch(int slot, const IntArray& sizes, const IntArray& strides, ScalarType dtype) {
  thread_local Storage buffers[4];
  KD_CHECK(slot >= 0 && slot < 4, "scratch: bad slot {}", slot);
  size_t need = elementSize(dtype);
  for (size_t i = 0; i < sizes.size(); ++i) need += static_cast<size_t>(sizes[i] - 1) * strides[i] * elementSize(dtype);
  for (int64_t s : sizes)
    if (s == 0) need = 0;
  Storage& b = buffers[slot];
  if (!b || b->nbytes() < need) b = makeIntrusive<StorageImpl>(std::max<size_t>(need, 64));
  return Tensor::fromStorage(b, dtype, sizes, strides, 0);
}

}  // namespace kindling::onednn
