// Transpose properties of tensors TorchScript compiles `x.mT`, `x.mH`, `x.T`, `x.H`, `x.adjoint()` to:
// aten::mT, mH, adjoint (the last two dims swapped, matrices or batches of them; a 0-dim tensor as is), numpy_T (all dims
// reversed), matrix_H (2-d only; a 0-dim tensor is returned as is). Real dtypes only, so the conjugating
// forms are transposes. Views, with ATen's messages.
#include "ops/registry/kernel_args.h"
#include "ops/registry/operator.h"

namespace kindling {

namespace {

template <int Which> void lastTwoK(Stack& s) {
  static const char* names[] = {"tensor.mT", "tensor.mH", "tensor.adjoint()"};
  Args a(s, 1);
  const Tensor self = a.tensor(0);
  if (self.dim() == 0) {  // PyTorch 1.13 returns a 0-dim tensor as is
    a.ret(self.alias());
    return;
  }
  KD_CHECK(self.dim() >= 2, "{} is only supported on matrices or batches of matrices. Got {}-D tensor.", names[Which],
           self.dim());
  a.ret(self.transpose(-2, -1));
}

void numpyTK(Stack& s) {
  Args a(s, 1);
  const Tensor self = a.tensor(0);
  IntArray dims;
  for (int64_t d = self.dim() - 1; d >= 0; --d) dims.push_back(d);
  a.ret(self.permute(dims));
}

void matrixHK(Stack& s) {
  Args a(s, 1);
  const Tensor self = a.tensor(0);
  const int64_t n = self.dim();
  KD_CHECK(n == 2 || n == 0, "tensor.H is only supported on matrices (2-D tensors). Got {}-D tensor.{}", n,
           n != 2 ? " For batches of matrices, consider using tensor.mH" : "");
  a.ret(n == 0 ? self.alias() : self.transpose(-2, -1));
}

}  // namespace

void registerMatrixTransposeOps(OperatorRegistry& r) {
  r.add("aten::mT(Tensor(a) self) -> Tensor(a)", lastTwoK<0>);
  r.add("aten::mT.a(Tensor(a) self) -> Tensor(a)", lastTwoK<0>);
  r.add("aten::mH(Tensor(a) self) -> Tensor(a)", lastTwoK<1>);
  r.add("aten::mH.a(Tensor(a) self) -> Tensor(a)", lastTwoK<1>);
  r.add("aten::adjoint(Tensor(a) self) -> Tensor(a)", lastTwoK<2>);
  r.add("aten::numpy_T(Tensor(a) self) -> Tensor(a)", numpyTK);
  r.add("aten::numpy_T.a(Tensor(a) self) -> Tensor(a)", numpyTK);
  r.add("aten::matrix_H(Tensor(a) self) -> Tensor(a)", matrixHK);
  r.add("aten::matrix_H.a(Tensor(a) self) -> Tensor(a)", matrixHK);
}

}  // namespace kindling
