// oneDNN plumbing shared by the conv / pool / linalg kernels:
//   * one process-wide CPU engine and a per-thread stream (oneDNN's OpenMP runtime follows
//     omp_set_num_threads, so Kindling's thread setting applies to its primitives too);
//   * describing a strided Kindling tensor as a dnnl::memory::desc (any strides, no copy);
//   * a primitive cache keyed by a small integer key (shapes, strides, attributes), so a model's
//     primitives are created once and then only executed;
//   * packed weights: constant operands (conv / linear weights) reordered into the layout the primitive
//     prefers (format_tag::any) and kept with the weight's own storage (StorageImpl's derived values,
//     tensor/tensor.h), filed by the view (offset and strides) and the layout, and valid only while the
//     storage's version counter is unchanged: a weight written in place is packed again, and a packed copy
//     dies with its weight, so another tensor can never see it. Frozen graphs have their constant weights
//     packed at load (passes/optimize/prepack_weights.h); libtorch re-packs conv weights on every call.
#pragma once
#include <dnnl.hpp>

#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "tensor/tensor.h"

namespace kindling::onednn {

dnnl::engine& engine();
/// A stream for the calling thread.
dnnl::stream& stream();

/// oneDNN data type of a Kindling dtype (f32, bf16, f16, s32, s8, u8); throws for others.
dnnl::memory::data_type dataType(ScalarType t);
/// Memory descriptor with the tensor's sizes and strides (elements). 0-stride/overlapping is not allowed.
dnnl::memory::desc descOf(const Tensor& t);
/// Memory descriptor of given dims in a plain layout tag.
dnnl::memory::desc descOf(const IntArray& dims, ScalarType t, dnnl::memory::format_tag tag);
/// A dnnl::memory wrapping the tensor's data (no copy).
dnnl::memory memoryOf(const Tensor& t, const dnnl::memory::desc& d);

/// A hashable key made of integers (shapes, strides, flags, bit-cast floats).
struct Key {
  std::vector<int64_t> v;
  Key& add(int64_t x) { v.push_back(x); return *this; }
  Key& add(const IntArray& a) { v.push_back(static_cast<int64_t>(a.size())); v.insert(v.end(), a.begin(), a.end()); return *this; }
  Key& addFloat(float f);
  bool operator==(const Key& o) const { return v == o.v; }
};
/// Appends the identifying fields of a memory descriptor to a key.
void addDesc(Key& k, const dnnl::memory::desc& d);
struct KeyHash {
  size_t operator()(const Key& k) const;
};

/// Runs f(), turning oneDNN's exceptions (dnnl::error: unsupported shapes, out of memory) into
/// kindling::RuntimeError so a bad input never escapes as a foreign exception.
template <class F>
decltype(auto) guarded(const char* what, F&& f) {
  try {
    return f();
  } catch (const dnnl::error& e) {
    throw RuntimeError(fmt::format("{}: oneDNN error: {}", what, e.what()));
  }
}

/// Thread-safe map Key → shared_ptr<T>; `make` runs (outside the lock) on a miss.
template <class T>
class Cache {
 public:
  std::shared_ptr<T> get(const Key& k, const std::function<std::shared_ptr<T>()>& make) {
    {
      std::lock_guard<std::mutex> g(mu_);
      auto it = map_.find(k);
      if (it != map_.end()) return it->second;
    }
    auto v = guarded("creating a oneDNN primitive", make);
    std::lock_guard<std::mutex> g(mu_);
    auto [it, inserted] = map_.emplace(k, v);
    return it->second;
  }
  void clear() {
    std::lock_guard<std::mutex> g(mu_);
    map_.clear();
  }
  size_t size() {
    std::lock_guard<std::mutex> g(mu_);
    return map_.size();
  }
 private:
  std::mutex mu_;
  std::unordered_map<Key, std::shared_ptr<T>, KeyHash> map_;
};

/// Returns `w` (described by `have`) reordered into `want` (the primitive's weights_desc). When `want` equals
/// `have`, wraps the tensor directly. Otherwise the packed copy kept with w's storage is returned, made on
/// first use and again after any in-place write (see the header comment); `tag` distinguishes different
/// derived forms of the same tensor.
dnnl::memory packedWeights(const Tensor& w, const dnnl::memory::desc& have, const dnnl::memory::desc& want,
                           int64_t tag = 0);

/// Gives back the memory of a weight's own bytes while `packed` (its copy in a primitive's layout, from
/// packedWeights with the source layout `have`) stands in for them. For a weight that only primitives read
/// through packedWeights, such as a convolution weight with a batch norm folded in, made at load and held by
/// nothing but the graph: its whole pages go back to the system (madvise MADV_DONTNEED) instead of staying
/// next to the packed copy. packedWeights writes the bytes back from the packed copy (a reorder) before it
/// packs the weight for another layout; any other read would see zeros, so callers must know there is none.
/// Only for a contiguous tensor spanning its whole storage, not mapped from a file, with a packed layout
/// different from its own; anything else is left as it is.
void releasePlainBytes(const Tensor& w, const dnnl::memory::desc& have, const dnnl::memory& packed);

/// Reorders between two memories (cached primitive), on the calling thread's stream.
void reorder(const dnnl::memory& src, const dnnl::memory& dst);

/// Attributes every Kindling primitive is created with: a user-managed scratchpad
/// (dnnl::scratchpad_mode::user). oneDNN's default library scratchpad is one buffer shared by all threads
/// unless oneDNN was built with DNNL_ENABLE_CONCURRENT_EXEC (Debian's is not), so two primitives executing
/// at the same time (forked calls: torch.jit.fork) overwrite each other's temporaries and give wrong
/// results. Pass `scratchpadFor(pd.scratchpad_desc())` as DNNL_ARG_SCRATCHPAD when executing.
dnnl::primitive_attr userScratchpadAttr();
/// Memory for a primitive's scratchpad from a per-thread buffer (grown, never shrunk; valid until the next
/// call on this thread). A zero-size desc gives an empty memory, which oneDNN accepts.
dnnl::memory scratchpadFor(const dnnl::memory::desc& desc);

/// A per-thread reusable buffer viewed with the given sizes/strides (for temporaries such as reordered
/// activations): slot 0..3; valid until the next call with the same slot on this thread. Reusing the memory
/// avoids page faults and cache misses of fresh allocations on every call.
Tensor scratch(int slot, const IntArray& sizes, const IntArray& strides, ScalarType dtype);

}  // namespace kindling::onednn
