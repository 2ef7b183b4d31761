// The graph printer: Graph::toString() in exactly PyTorch's textual IR format (print(fn.graph)):
//
//   graph(%self : __torch__.M,
//         %x.1 : Tensor):
//     %3 : int = prim::Constant[value=1]() # file.py:12:20
//     %y.1 : Tensor = aten::add(%x.1, %x.1, %3) # file.py:12:8
//     %5 : Tensor = prim::If(%c)
//       block0():
//         -> (%y.1)
//       block1():
//         -> (%x.1)
//     return (%5)
//
// Attribute values print as c10's IValue operator<< does (not Python repr): floats with 17 significant
// digits and a trailing "." for integral values ("1.", "0.10000000000000001", "1e+20"), strings in double
// quotes, bools of a Constant's value as 1/0, tensors as "{1}" (one element), ATen's print on one line
// (" 1.5000  2.0000 [ CPUFloatType{2} ]", up to 10 elements) or "<Tensor>".
// ir/irparser.h reads the same format back.
#pragma once
#include <string>

#include "core/ivalue.h"
#include "core/quoted_string.h"

namespace kindling {

class Node;

/// An IValue as c10's operator<< prints it inside graph attributes: 1, 2.5, 1., "abc", [1, 2], (1, "a"),
/// True, None, {"a": 1}.
std::string graphValueString(const IValue& v);
/// One node (and its blocks) as it appears in a graph listing, at the given indent (in spaces).
std::string nodeToString(const Node* n, size_t indent = 0, bool printSourceLocations = true);

}  // namespace kindling
