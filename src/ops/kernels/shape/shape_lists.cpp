// Shape operators that return a Tensor[] and that TorchScript emits beyond split/chunk/unbind:
//   aten::where(Tensor condition) -> Tensor[]   torch.where(cond): the coordinates of the non-zero
//   aten::nonzero_numpy(Tensor self) -> Tensor[] elements, one 1-d int64 tensor per dimension
//                                                (nonzero(cond).unbind(1); a 0-dim condition counts as 1-d)
//   aten::meshgrid(Tensor[] tensors), aten::meshgrid.indexing(..., *, str indexing)
//                                                torch.meshgrid: 0-d/1-d inputs expanded to the grid;
//                                                "ij" (the default) or "xy" (first two dims swapped)
//   aten::unsafe_chunk, unsafe_split.Tensor, unsafe_split_with_sizes
//                                                chunk/split without view tracking in PyTorch: the same
//                                                values (traced LSTMCell/GRUCell emit them)
// The results are views, as PyTorch's are (meshgrid's are expanded views with zero strides).
#include <string>

#include "ops/registry/kernel_args.h"
#include "ops/registry/op_call.h"
#include "ops/registry/operator.h"

namespace kindling {

namespace {

IValue tensorListValue(std::vector<Tensor> ts) {
  std::vector<IValue> v;
  v.reserve(ts.size());
  for (auto& t : ts) v.emplace_back(std::move(t));
  return makeList(TensorType(), std::move(v));
}

// ---------------------------------------------------------------- where(condition) / nonzero_numpy

/// One int64 tensor per dimension of `cond` (of a 0-dim condition: one tensor), holding the coordinates of
/// its non-zero elements in row-major order, as PyTorch's nonzero_numpy.
std::vector<Tensor> nonzeroNumpy(const Tensor& cond) {
  static const OpHandle nonzero("aten::nonzero");
  const Tensor c = cond.dim() == 0 ? cond.unsqueeze(0) : cond;
  const Tensor idx = nonzero(c);  // (n, c.dim())
  std::vector<Tensor> out;
  out.reserve(static_cast<size_t>(c.dim()));
  for (int64_t d = 0; d < c.dim(); ++d) out.push_back(idx.select(1, d));
  return out;
}

void whereCondK(Stack& s) { Args a(s, 1); auto r = nonzeroNumpy(a.tensor(0)); a.ret(tensorListValue(std::move(r))); }

// ---------------------------------------------------------------- meshgrid

std::vector<Tensor> meshgrid(const std::vector<Tensor>& tensors, const std::string& indexing) {
  const size_t n = tensors.size();
  KD_CHECK(n > 0, "meshgrid expects a non-empty TensorList");
  for (size_t i = 0; i + 1 < n; ++i)
    KD_CHECK(tensors[i].dtype() == tensors[i + 1].dtype(), "meshgrid expects all tensors to have the same dtype");
  for (const Tensor& t : tensors)
    KD_CHECK(t.dim() <= 1, "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {}", t.repr());
  const bool xy = indexing == "xy";
  KD_CHECK(xy || indexing == "ij", "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: {}",
           indexing);
  // "xy" is "ij" with the first two inputs (and so the first two grid dimensions) swapped.
  const bool swap = xy && n >= 2;
  std::vector<const Tensor*> in(n);
  for (size_t i = 0; i < n; ++i) in[i] = &tensors[i];
  if (swap) std::swap(in[0], in[1]);
  IntArray grid(n);
  for (size_t i = 0; i < n; ++i) grid[i] = in[i]->numel();
  std::vector<Tensor> out(n);
  for (size_t i = 0; i < n; ++i) {
    IntArray shape(n, 1);
    shape[i] = -1;
    out[i] = in[i]->view(shape).expand(grid);
  }
  if (swap) std::swap(out[0], out[1]);
  return out;
}

void meshgridK(Stack& s) { Args a(s, 1); auto r = meshgrid(a.tensorList(0), "ij"); a.ret(tensorListValue(std::move(r))); }
void meshgridIndexingK(Stack& s) {
  Args a(s, 2);
  auto r = meshgrid(a.tensorList(0), a[1].toStringRef());
  a.ret(tensorListValue(std::move(r)));
}

// ---------------------------------------------------------------- unsafe_chunk / unsafe_split

/// Runs the view-returning operator `op` (same arguments): its results are the unsafe_* results.
template <const char* Name> void sameAs(Stack& s) {
  static const OpHandle op(Name);
  op.get().fn(s);
}
constexpr char kChunk[] = "aten::chunk";
constexpr char kSplit[] = "aten::split.Tensor";
constexpr char kSplitWithSizes[] = "aten::split_with_sizes";

}  // namespace

void registerShapeListOps(OperatorRegistry& r) {
  r.add("aten::where(Tensor condition) -> Tensor[]", whereCondK);
  r.add("aten::nonzero_numpy(Tensor self) -> Tensor[]", whereCondK);
  r.add("aten::meshgrid(Tensor[] tensors) -> Tensor[]", meshgridK);
  r.add("aten::meshgrid.indexing(Tensor[] tensors, *, str indexing) -> Tensor[]", meshgridIndexingK);
  r.add("aten::unsafe_chunk(Tensor self, int chunks, int dim=0) -> Tensor[]", sameAs<kChunk>);
  r.add("aten::unsafe_split.Tensor(Tensor self, int split_size, int dim=0) -> Tensor[]", sameAs<kSplit>);
  r.add("aten::unsafe_split_with_sizes(Tensor self, int[] split_sizes, int dim=0) -> Tensor[]",
        sameAs<kSplitWithSizes>);
}

}  // namespace kindling
