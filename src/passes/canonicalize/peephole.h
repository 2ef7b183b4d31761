// Peephole rewrites of PyTorch's executor (torch/csrc/jit/passes/peephole.cpp, peephole_non_tensor.cpp)
// that change observable values, so Kindling must make them too.
//
// `aten::eq(x, x)` / `aten::ne(x, x)` on the same int, float or bool Value fold to True / False. For a NaN
// float this differs from IEEE comparison: in PyTorch 1.13 a scripted `x == x` is True when both operands
// are the same SSA value, even for NaN (and `x == y` with two NaN values is False). Scalar (number), str and
// other types are left alone, as PyTorch leaves them.
#pragma once
#include "ir/ir.h"

namespace kindling {

/// Applies the rewrites to `graph` and its nested blocks; returns the number of nodes replaced.
size_t runPeephole(Graph& graph);

}  // namespace kindling
