// Freezing (torch.jit.freeze, torch/csrc/jit/passes/freeze_module.h): specializes a method's graph to one
// module object by replacing attribute reads on `self` (and on submodules reached through GetAttr chains)
// with constants, so later passes can fold conv + batch_norm, drop `if self.training:` branches, etc.
//
// Only attributes that the graph cannot change are frozen:
//   - an attribute written by any prim::SetAttr in the graph stays an attribute (nothing is frozen when a
//     SetAttr writes an object that cannot be traced to `self`, or when a call was not inlined — e.g. a
//     method called through an interface — since it may write anything);
//   - tensors and lists stay attributes when some use may mutate them (an operator argument annotated
//     as written, e.g. `Tensor(a!)`, directly or through views and containers), or when they flow into a
//     call that was not inlined;
//   - submodule objects stay as values (their own attributes are frozen through the chain).
// Run it on an inlined graph (GraphFunction::optimizedGraph()); follow with constant propagation and DCE.
#pragma once
#include "core/ivalue.h"
#include "ir/ir.h"

namespace kindling {

/// Freezes attribute reads of `self` (the graph's first input, which must be an object of the same class)
/// into constants. Returns the number of GetAttr nodes replaced.
size_t freezeModuleAttributes(Graph& graph, const IValue& self);

}  // namespace kindling
