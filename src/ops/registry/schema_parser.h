// Parses PyTorch's schema syntax into a FunctionSchema:
//   "aten::conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0,
//                 int[2] dilation=1, int groups=1) -> Tensor"
// Types: Tensor, int, float, bool, str, Scalar (→ NumberType), ScalarType, Layout, Device, MemoryFormat,
// Generator, Storage, Any, t/t1 (type variables), T[] / T[N] lists, T? optionals, Dict(K, V), Future(T),
// (T1, T2) tuples, alias annotations "(a!)", "(a -> *)", "..." varargs. Defaults: None, True/False, ints,
// floats, strings, lists "[0, 1]", "contiguous_format"/"Mean"-style enum names mapped to ints as PyTorch.
//
// Every one of PyTorch 1.13's 4165 schemas parses and prints back (FunctionSchema::str()) verbatim
// (tests/unit/ops/registry/schema_parser_test.cpp). As in PyTorch:
//   - "SymInt" is an int: Argument::type is IntType (lists/optionals of it likewise) and
//     Argument::realType keeps the spelling for printing;
//   - "ScalarType" / "Layout" / "MemoryFormat" keep their own types (ints at runtime);
//   - enum-name defaults are stored as ints and print as ints ("memory_format=0", "reduction=1"),
//     which is what str(schema) prints in PyTorch 1.13;
//   - doubles print with 17 significant digits, integral ones as "1." ("eps=1.0000000000000001e-05");
//   - "int[2] stride=1" stores [1, 1] and prints "1" again.
// Custom classes "__torch__.torch.classes.ns.Name" become (shared) ClassTypes; "RRef(t)" and
// "ConstQuantizerPtr" parse to opaque types (see core/schema_types.h).
#pragma once
#include <string>

#include "core/function_schema.h"

namespace kindling {

/// Throws Error naming the schema and the position on malformed input.
FunctionSchema parseSchema(const std::string& schema);
/// Parses a type as it appears in a schema ("int[]", "Tensor?", "Dict(str, Tensor)").
TypePtr parseSchemaType(const std::string& type);

}  // namespace kindling
