// addmv, addr and addbmm: beta * self + alpha * (product), as ATen 1.13 computes them on CPU, with its checks:
//   addmv(self, mat, vec):   self (broadcast to [mat.size(0)]) and mv(mat, vec); beta == 0 ignores self
//   addr(self, vec1, vec2):  elementwise beta * self + alpha * vec1[i] * vec2[j] in the common dtype of the
//                            three (bool: (beta && self) || (alpha && vec1 && vec2)); beta == 0 ignores self
//   addbmm(self, b1, b2):    addmm_ of each batch into self's copy (beta on the first batch only)
#include "ops/registry/kernel_args.h"
#include "ops/registry/op_call.h"
#include "ops/registry/operator.h"
#include "tensor/tensor_iterator.h"
#include "tensor/type_promotion.h"

namespace kindling {

namespace {

bool isZero(const Scalar& s) { return s.toDouble() == 0.0; }

void addmvK(Stack& s) {
  Args a(s, 5);
  const Tensor self = a.tensor(0), mat = a.tensor(1), vec = a.tensor(2);
  Scalar beta = a.scalar(3), alpha = a.scalar(4);
  KD_CHECK(mat.dim() == 2 && vec.dim() == 1 && self.dim() <= 1, "vector + matrix @ vector expected, got {}, {}, {}",
           self.dim(), mat.dim(), vec.dim());
  KD_CHECK(mat.sizes()[1] == vec.sizes()[0] && (mat.sizes()[0] == self.numel() || self.numel() == 1),
           "size mismatch, got {}, {}x{},{}", self.dim() == 0 ? 1 : self.sizes()[0], mat.sizes()[0], mat.sizes()[1],
           vec.sizes()[0]);
  static const OpHandle mv("aten::mv"), mulS("aten::mul.Scalar"), add("aten::add.Tensor");
  Tensor r = mv(mat, vec);
  if (!isFloatingType(r.dtype())) {  // ATen's integer gemv takes alpha and beta converted to the dtype
    beta = Scalar(beta.toLong());
    alpha = Scalar(alpha.toLong());
  }
  if (alpha.toDouble() != 1.0) r = mulS(r, alpha);
  if (!isZero(beta)) {
    const Tensor b = self.expand({mat.sizes()[0]});
    r = add(beta.toDouble() == 1.0 ? b : mulS(b, beta), r, int64_t(1));
  }
  a.ret(r);
}

void checkAddrScalar(ScalarType dt, const IValue& v, const char* name) {
  KD_CHECK(!v.isBool() || dt == ScalarType::Bool, "Boolean {} only supported for Boolean results.", name);
  KD_CHECK(isFloatingType(dt) || !v.isDouble(), "For integral input tensors, argument {} must not be a floating point "
           "number.", name);
}

void addrK(Stack& s) {
  Args a(s, 5);
  const Tensor self = a.tensor(0), v1 = a.tensor(1), v2 = a.tensor(2);
  KD_CHECK(v1.dim() == 1, "addr: Expected 1-D argument vec1, but got {}-D", v1.dim());
  KD_CHECK(v2.dim() == 1, "addr: Expected 1-D argument vec2, but got {}-D", v2.dim());
  const Tensor b = self.expand({v1.sizes()[0], v2.sizes()[0]});
  TensorIterator it;
  it.addOutput(Tensor()).addInput(b).addInput(v1.reshape({v1.sizes()[0], 1})).addInput(v2).build();
  const ScalarType dt = it.loopComputeDtype();
  checkAddrScalar(dt, a[3], "beta");
  checkAddrScalar(dt, a[4], "alpha");
  const Scalar beta = a.scalar(3), alpha = a.scalar(4);
  if (dt == ScalarType::Bool) {
    const bool be = beta.toBool(), al = alpha.toBool();
    cpuKernel(it, [be, al](bool x, bool p, bool q) -> bool { return (be && x) || (al && p && q); });
    a.ret(it.output());
    return;
  }
  dispatchLoopTypesNoBool(dt, "addr_cpu", [&](auto tag) {
    using T = decltype(tag);
    const T be = static_cast<T>(std::is_floating_point_v<T> ? beta.toDouble() : beta.toLong());
    const T al = static_cast<T>(std::is_floating_point_v<T> ? alpha.toDouble() : alpha.toLong());
    if (be == T(0)) cpuKernel(it, [al](T, T p, T q) -> T { return static_cast<T>(al * p * q); });
    else cpuKernel(it, [be, al](T x, T p, T q) -> T { return static_cast<T>(be * x + al * p * q); });
  });
  a.ret(it.output());
}

void addbmmK(Stack& s) {
  Args a(s, 5);
  const Tensor self = a.tensor(0), b1 = a.tensor(1), b2 = a.tensor(2);
  KD_CHECK(b1.dim() == 3, "batch1 must be a 3D tensor");
  KD_CHECK(b2.dim() == 3, "batch2 must be a 3D tensor");
  const Tensor bself = self.expand({b1.sizes()[1], b2.sizes()[2]});
  KD_CHECK(b1.sizes()[0] == b2.sizes()[0], "batch1 and batch2 must have same number of batches, got {} and {}",
           b1.sizes()[0], b2.sizes()[0]);
  KD_CHECK(b1.sizes()[2] == b2.sizes()[1], "Incompatible matrix sizes for bmm ({}x{} and {}x{})", b1.sizes()[1],
           b1.sizes()[2], b2.sizes()[1], b2.sizes()[2]);
  const Scalar beta = a.scalar(3);
  static const OpHandle addmm("aten::addmm"), mulS("aten::mul.Scalar");
  Tensor r = bself.clone();
  const int64_t n = b1.sizes()[0];
  if (n == 0) {
    a.ret(isZero(beta) ? Tensor::zeros(r.sizes(), r.dtype()) : mulS(r, beta));
    return;
  }
  IValue be(beta);
  for (int64_t i = 0; i < n; ++i) {
    r = addmm(r, b1.select(0, i), b2.select(0, i), be, a[4]);
    be = IValue(int64_t(1));
  }
  a.ret(r);
}

}  // namespace

void registerAddmvAddrOps(OperatorRegistry& r) {
  r.add("aten::addmv(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor", addmvK);
  r.add("aten::addr(Tensor self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", addrK);
  r.add("aten::addbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", addbmmK);
}

}  // namespace kindling
