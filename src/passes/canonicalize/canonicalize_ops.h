// Scalar canonicalization of binary arithmetic (PyTorch's CanonicalizeOps,
// torch/csrc/jit/passes/canonicalize_graph_fuser_ops.cpp, which the 1.13 graph executor runs on every
// optimized graph before constant propagation).
//
// `aten::add/sub(Tensor self, Tensor other, *, Scalar alpha)` and `aten::mul/div(Tensor self, Tensor other)`
// whose `other` is a 0-dim tensor prim::Constant are rewritten to the `.Scalar` overloads with the constant's
// value as an int or float constant. This is observable: a Python number a traced model multiplied with is
// saved as a 0-dim float64 tensor constant, and `int_tensor * constant` gives float32 in PyTorch (the
// scalar is a wrapped number, it does not promote to float64) where the Tensor overload would give float64.
// Only constants present before constant propagation count (PyTorch's order), so runInferencePasses runs
// this right after inlining.
#pragma once
#include "ir/ir.h"

namespace kindling {

/// Rewrites the matching nodes in `graph` and the blocks nested in it. Boolean 0-dim constants are left as
/// tensors (bool is not a `Scalar` in TorchScript's type system, so PyTorch's rewrite would not resolve).
/// Returns the number of nodes rewritten.
size_t canonicalizeScalarOperands(Graph& graph);

}  // namespace kindling
