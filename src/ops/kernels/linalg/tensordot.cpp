// aten::tensordot(self, other, dims_self, dims_other): the contraction torch.tensordot's TorchScript body
// (torch/functional.py) ends in, as ATen 1.13 computes it: a contracted dimension of size 1 on one side is
// summed away on the other side first; then both operands are permuted (free dims first for self, last for
// other), reshaped to (free, contracted) / (contracted, free) matrices and multiplied with aten::mm; the
// result has self's free sizes followed by other's. Errors: "both dimension lists should have same length",
// "contracted dimensions need to match, but first has size 3 in dim 1 and second has size 4 in dim 0",
// "dim 1 appears multiple times in the list of dims".
#include <vector>

#include "ops/registry/kernel_args.h"
#include "ops/registry/list_args.h"
#include "ops/registry/op_call.h"
#include "ops/registry/operator.h"
#include "ops/kernels/common/out_variant.h"
#include "tensor/type_promotion.h"

namespace kindling {

namespace {

const OpHandle kMm("aten::mm");
const OpHandle kSumDim("aten::sum.dim_IntList");

/// The dims as a membership mask of a rank-`ndim` tensor (ATen's dim_list_to_bitset).
std::vector<bool> dimMask(const IntArray& dims, int64_t ndim) {
  std::vector<bool> mask(static_cast<size_t>(ndim), false);
  for (int64_t d : dims) {
    const int64_t w = maybeWrapDim(d, ndim);
    KD_CHECK(!mask[static_cast<size_t>(w)], "dim {} appears multiple times in the list of dims", w);
    mask[static_cast<size_t>(w)] = true;
  }
  return mask;
}

void tensordotK(Stack& s) {
  Args a(s, 4);
  const Tensor in1 = a.tensor(0), in2 = a.tensor(1);
  const IntArray dims1 = a.intList(2), dims2 = a.intList(3);
  KD_CHECK(dims1.size() == dims2.size(), "both dimension lists should have same length");
  Tensor t1 = in1, t2 = in2;
  int64_t csize = 1;
  for (size_t i = 0; i < dims1.size(); ++i) {
    const int64_t s1 = in1.size(dims1[i]), s2 = in2.size(dims2[i]);
    auto sumKeep = [](const Tensor& t, int64_t d) {
      return kSumDim(t, intListIValue({d}), true, IValue());
    };
    if (s2 == 1) {
      t1 = sumKeep(t1, dims1[i]);
    } else if (s1 == 1) {
      t2 = sumKeep(t2, dims2[i]);
    } else {
      KD_CHECK(s1 == s2, "contracted dimensions need to match, but first has size {} in dim {} and second has size "
               "{} in dim {}", s1, dims1[i], s2, dims2[i]);
      csize *= s1;
    }
  }
  const std::vector<bool> c1 = dimMask(dims1, in1.dim()), c2 = dimMask(dims2, in2.dim());
  IntArray p1, p2, rsizes;
  int64_t size1 = 1, size2 = 1;
  for (int64_t i = 0; i < in1.dim(); ++i)
    if (!c1[static_cast<size_t>(i)]) {
      p1.push_back(i);
      size1 *= t1.size(i);
      rsizes.push_back(t1.size(i));
    }
  for (int64_t d : dims1) p1.push_back(maybeWrapDim(d, in1.dim()));
  for (int64_t d : dims2) p2.push_back(maybeWrapDim(d, in2.dim()));
  for (int64_t i = 0; i < in2.dim(); ++i)
    if (!c2[static_cast<size_t>(i)]) {
      p2.push_back(i);
      size2 *= t2.size(i);
      rsizes.push_back(t2.size(i));
    }
  const Tensor m1 = t1.permute(p1).reshape({size1, csize});
  const Tensor m2 = t2.permute(p2).reshape({csize, size2});
  a.ret(kMm(m1, m2).reshape(rsizes));
}

void tensordotOutK(Stack& s) {
  const IValue out = s.back();
  s.pop_back();
  tensordotK(s);
  writeOut(out.toTensor(), s.back().toTensor());
  s.back() = out;
}

}  // namespace

void registerTensordotOps(OperatorRegistry& r) {
  r.add("aten::tensordot(Tensor self, Tensor other, int[] dims_self, int[] dims_other) -> Tensor", tensordotK);
  r.add("aten::tensordot.out(Tensor self, Tensor other, int[] dims_self, int[] dims_other, *, Tensor(a!) out) -> "
        "Tensor(a!)",
        tensordotOutK);
}

}  // namespace kindling
