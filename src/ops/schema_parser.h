// Parses PyTorch's schema syntax into a FunctionSchema:
//   "aten::conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0,
//                 int[2] dilation=1, int groups=1) -> Tensor"
// Types: Tensor, int, float, bool, str, Scalar (→ NumberType), ScalarType, Layout, Device, MemoryFormat,
// Generator, Storage, Any, t/t1 (type variables), T[] / T[N] lists, T? optionals, Dict(K, V), Future(T),
// (T1, T2) tuples, alias annotations "(a!)", "(a -> *)", "..." varargs. Defaults: None, True/False, ints,
// floats, strings, lists "[0, 1]", "contiguous_format"/"Mean"-style enum names mapped to ints as PyTorch.
#pragma once
#include <string>

#include "core/function_schema.h"

namespace kindling {

/// Throws Error naming the schema and the position on malformed input.
FunctionSchema parseSchema(const std::string& schema);
/// Parses a type as it appears in a schema ("int[]", "Tensor?", "Dict(str, Tensor)").
TypePtr parseSchemaType(const std::string& type);

}  // namespace kindling
