// Constant propagation (torch/csrc/jit/passes/constant_propagation.h), restricted to what is safe without
// alias analysis:
//   - an operator node whose inputs are all constants is run at compile time and replaced by constants
//     when its schema mutates nothing, it has no side effects, and every output is an immutable value
//     (int, float, bool, str, None, Device, or tuples of those) — so no tensor or list is ever shared
//     between calls;
//   - prim::ListConstruct of constants becomes a list constant when every use passes it to an operator
//     argument without alias annotation (e.g. conv2d's `int[2] stride`), which cannot mutate or keep it;
//   - prim::TupleConstruct / TupleIndex / TupleUnpack / __is__ / __isnot__ / __not__ on constants fold;
//   - prim::If with a constant condition is replaced by the taken branch;
//   - prim::unchecked_cast to a type its input already has is removed;
//   - `x is None` / `x is not None` fold when x is a constant or its type excludes None.
// Kernels that throw at compile time are left to throw at run time.
#pragma once
#include "ir/ir.h"

namespace kindling {

/// `immutableTypesOnly` (PyTorch's ConstantPropagationImmutableTypes, run after emission so graphs print
/// as print(fn.graph)): only the operator, tuple and If folds — no list constants, no `is None` peephole
/// on non-constants, no unchecked_cast removal.
void propagateConstants(Graph& graph, bool immutableTypesOnly = false);

}  // namespace kindling
