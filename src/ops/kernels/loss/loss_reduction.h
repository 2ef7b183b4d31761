// The reduction step of ATen's loss operators (apply_loss_reduction): reduction is the enum of
// torch.nn._reduction.get_enum — 0 none (the elementwise losses), 1 mean, 2 sum (0-dim results).
#pragma once
#include "ops/registry/op_call.h"

namespace kindling {

inline Tensor applyLossReduction(const Tensor& loss, int64_t reduction) {
  static const OpHandle mean("aten::mean"), sum("aten::sum");
  if (reduction == 1) return mean(loss, IValue());
  if (reduction == 2) return sum(loss, IValue());
  return loss;
}

}  // namespace kindling
