// Iteration over non-unrolled iterables (torch/csrc/jit/frontend/sugared_value.h's SugaredValue::iter,
// RangeValue, IterableTree): `for` loops and comprehensions over range(...), lists, strings, tensors,
// dicts (their keys), and enumerate(...)/zip(...) nested in any combination (`enumerate(zip(a, b))`,
// `zip(zip(a, b), range(3))`). The loop runs min(len(child)) times; the element of a zip/enumerate is
// a tuple of its children's elements (enumerate first yields the index plus `start`).
//
// planIteration runs before the loop (it emits what must be computed once, e.g. `aten::keys` of a
// dict); iterationTripCount and iterationElement are then emitted before and inside the loop body.
#pragma once
#include <vector>

#include "frontend/sugared_value.h"

namespace kindling {

struct IterPlan {
  enum class Kind { Range, Sequence, Tree } kind = Kind::Sequence;
  // Range: start and step null for range(n)
  Value* start = nullptr;
  Value* end = nullptr;
  Value* step = nullptr;
  // Sequence: a list, str or tensor value; for a dict, the list of its keys, with the dict and its size
  // when the loop started (Python raises if the size has changed at a later step)
  Value* seq = nullptr;
  Value* dict = nullptr;
  Value* dictSize = nullptr;
  // Tree: enumerate (index first, plus enumStart when given) or zip
  bool isEnumerate = false;
  Value* enumStart = nullptr;
  std::vector<IterPlan> children;
};

/// Throws CompileError "'<type>' object is not iterable" for values that cannot be iterated in a loop.
IterPlan planIteration(FunctionEmitter& m, const SourceRange& loc, const SugaredValuePtr& it);
/// The number of iterations (an int Value).
Value* iterationTripCount(FunctionEmitter& m, const SourceRange& loc, const IterPlan& p);
/// The element at loop index `idx` (emitted at the current insertion point, inside the loop body).
SugaredValuePtr iterationElement(FunctionEmitter& m, const SourceRange& loc, const IterPlan& p, Value* idx);

}  // namespace kindling
