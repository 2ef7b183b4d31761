// aten::bilinear(input1 (*, I), input2 (*, J), weight (O, I, J), bias (O)?) -> (*, O): nn.Bilinear's
// out[..., o] = sum_{i,j} input1[..., i] * weight[o, i, j] * input2[..., j] + bias[o], as ATen 1.13
// decomposes it (native/Linear.cpp): both inputs flattened to matrices (N, I) and (N, J), the trilinear
// contraction computed per output feature as (input1 @ weight[o]) * input2 summed over j, reshaped to
// input1's leading sizes plus O, bias added last. The inputs and weight must share one floating or
// integral dtype (as the matrix products ATen runs). Errors, PyTorch's wording: "bilinear(): input
// dimensions do not match: got 2 and 3", "bilinear(): input batch dimensions do not match at dim 0: got 2 and 4",
// "bilinear(): input1 size does not match weight size: got 3 but expected 4" (same for input2 / weight
// dim 2), "bilinear(): bias size does not match weight size: got 2 but expected 3".
#include <vector>

#include "ops/registry/kernel_args.h"
#include "ops/registry/list_args.h"
#include "ops/registry/op_call.h"
#include "ops/registry/operator.h"

namespace kindling {

namespace {

const OpHandle kMatmul("aten::matmul");
const OpHandle kMul("aten::mul.Tensor");
const OpHandle kAdd("aten::add.Tensor");
const OpHandle kSumDim("aten::sum.dim_IntList");

void bilinearK(Stack& s) {
  Args a(s, 4);
  const Tensor in1 = a.tensor(0), in2 = a.tensor(1), weight = a.tensor(2), bias = a.optTensor(3);
  KD_CHECK(in1.dim() == in2.dim(), "bilinear(): input dimensions do not match: got {} and {}", in1.dim(), in2.dim());
  KD_CHECK(in1.dim() >= 1, "bilinear(): expected inputs with at least one dimension");
  for (int64_t i = 0; i + 1 < in1.dim(); ++i)
    KD_CHECK(in1.size(i) == in2.size(i), "bilinear(): input batch dimensions do not match at dim {}: got {} and {}", i,
             in1.size(i), in2.size(i));
  KD_CHECK(weight.dim() == 3, "bilinear(): expected a weight of 3 dimensions (out, in1, in2), got {}", weight.dim());
  KD_CHECK(in1.size(-1) == weight.size(1), "bilinear(): input1 size does not match weight size: got {} but expected {}",
           in1.size(-1), weight.size(1));
  KD_CHECK(in2.size(-1) == weight.size(2), "bilinear(): input2 size does not match weight size: got {} but expected {}",
           in2.size(-1), weight.size(2));
  KD_CHECK(!bias.defined() || bias.size(0) == weight.size(0),
           "bilinear(): bias size does not match weight size: got {} but expected {}",
           bias.defined() ? bias.size(0) : 0, weight.size(0));
  const int64_t O = weight.size(0), I = weight.size(1), J = weight.size(2);
  IntArray outSizes(in1.sizes().begin(), in1.sizes().end() - 1);
  outSizes.push_back(O);
  const Tensor x1 = in1.reshape({-1, I});  // (N, I)
  const Tensor x2 = in2.reshape({-1, J});  // (N, J)
  const int64_t N = x1.size(0);
  // (N, I) @ (I, O*J) -> (N, O, J): input1 contracted with every weight[o] at once
  const Tensor w = weight.permute({1, 0, 2}).reshape({I, O * J});
  const Tensor t = kMatmul(x1, w).reshape({N, O, J});
  Tensor out = kSumDim(kMul(t, x2.reshape({N, 1, J})), intListIValue({2}), false, IValue());  // (N, O)
  out = out.reshape(outSizes);
  if (bias.defined()) out = kAdd(out, bias, IValue(int64_t{1}));
  a.ret(out);
}

}  // namespace

void registerBilinearOps(OperatorRegistry& r) {
  r.add("aten::bilinear(Tensor input1, Tensor input2, Tensor weight, Tensor? bias=None) -> Tensor", bilinearK);
}

}  // namespace kindling
