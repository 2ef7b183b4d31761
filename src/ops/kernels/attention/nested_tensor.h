// The nested tensors of nn.TransformerEncoder's no-grad fast path (attention.cpp): a Capsule IValue, not a
// Tensor. Shared with the metadata queries (ops/kernels/prim/tensor.cpp) that TorchScript code makes of one.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "core/ivalue.h"
#include "tensor/tensor.h"

namespace kindling {

/// A nested tensor of B sequences (L_b, D): `padded` is (B, L, D) with sequence b in padded[b, :L_b] (the rest
/// is unspecified), `lengths` the L_b. PyTorch's nested tensors hold the sequences packed; the padded form
/// computes the same values with the attention's key padding mask.
struct NestedTensor : IntrusiveTarget {
  Tensor padded;
  std::vector<int64_t> lengths;
};

/// The nested tensor `v` holds, or null when it holds none.
inline NestedTensor* asNested(const IValue& v) {
  if (v.tag() != IValue::Tag::Capsule) return nullptr;
  return dynamic_cast<NestedTensor*>(v.rawPtr());
}

inline IValue makeNested(Tensor padded, std::vector<int64_t> lengths) {
  auto* n = new NestedTensor();
  n->padded = std::move(padded);
  n->lengths = std::move(lengths);
  return IValue::fromPtr(IValue::Tag::Capsule, n);
}

}  // namespace kindling
