// Schema-only types and schema spelling. A few types appear in PyTorch's operator schemas but not in
// Kindling's type system proper: "SymInt" (an int everywhere except in how the schema spells it),
// "RRef(t)" and "ConstQuantizerPtr" (only in operators Kindling parses but never runs), and the custom
// C++ classes "__torch__.torch.classes.ns.Name". They are provided here so every 1.13 schema parses and
// prints back exactly (see ops/registry/schema_parser.h). Also: printing of types and default values in schema syntax.
#pragma once
#include <string>

#include "core/ivalue.h"
#include "core/quoted_string.h"
#include "core/type.h"

namespace kindling {
namespace schema_types {

/// "SymInt": kind Int (so it behaves as int), prints "SymInt". Only used as Argument::realType.
TypePtr SymInt();
/// "RRef(t)": opaque, prints "RRef(<elem>)".
TypePtr RRef(TypePtr elem);
/// "ConstQuantizerPtr": opaque.
TypePtr ConstQuantizerPtr();
/// The ClassType for a custom class "__torch__.torch.classes.quantized.Conv2dPackedParamsBase" (one
/// shared instance per name, no attributes or methods).
TypePtr customClass(const std::string& qualName);

/// A type in schema spelling: "int[]", "Tensor?", "Dict(str, t)", "(int, float)", "Scalar", "Future(t)".
std::string typeStr(const TypePtr& t);
/// A default value in schema spelling (c10's IValue printer): 1, 1., 1.0000000000000001e-05, True, None,
/// "str" (quoted and escaped), [0, 1].
std::string valueStr(const IValue& v);

}  // namespace schema_types
}  // namespace kindling
