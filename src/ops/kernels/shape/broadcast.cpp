// Broadcasting operators torch.functional and torch.nn.functional call from their TorchScript bodies:
//   aten::broadcast_tensors(Tensor[] tensors) -> Tensor[]: every tensor expanded (a view) to the common
//       broadcast shape (torch.broadcast_tensors; F.l1_loss/mse_loss/smooth_l1_loss/huber_loss call it);
//   aten::_infer_size(int[] a, int[] b) -> int[]: the broadcast shape of two shapes (F.binary_cross_entropy
//       expands its weight with it). Mismatches raise PyTorch's "The size of tensor a (3) must match ..." error.
#include "ops/registry/kernel_args.h"
#include "ops/registry/list_args.h"
#include "ops/registry/operator.h"
#include "tensor/type_promotion.h"

namespace kindling {

namespace {

void broadcastTensorsK(Stack& s) {
  Args a(s, 1);
  std::vector<Tensor> ts = a.tensorList(0);
  std::vector<const IntArray*> shapes;
  shapes.reserve(ts.size());
  for (const Tensor& t : ts) shapes.push_back(&t.sizes());
  const IntArray shape = ts.empty() ? IntArray{} : inferSizeN(shapes);
  std::vector<Tensor> out;
  out.reserve(ts.size());
  for (const Tensor& t : ts) out.push_back(t.sizes() == shape ? t : t.expand(shape));
  a.ret(tensorListIValue(out));
}

void inferSizeK(Stack& s) {
  Args a(s, 2);
  a.ret(intListIValue(inferSize(a.intList(0), a.intList(1))));
}

}  // namespace

void registerBroadcastOps(OperatorRegistry& r) {
  r.add("aten::broadcast_tensors(Tensor[] tensors) -> Tensor[]", broadcastTensorsK);
  r.add("aten::_infer_size(int[] a, int[] b) -> int[]", inferSizeK);
}

}  // namespace kindling
