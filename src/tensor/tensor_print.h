// Tensor text formats (tensor/tensor_print.cpp): Python's repr, ATen's C++ operator<<, and a reader of the
// latter as graph printing writes it for tensor constants.
#pragma once
#include <string>

#include "tensor/tensor.h"

namespace kindling {

class IValue;

/// Python's repr(tensor) (torch/_tensor_str.py of PyTorch 1.13, default print options). v holds a Tensor.
std::string tensorReprForIValue(const IValue& v);

/// ATen's operator<<(std::ostream&, const at::Tensor&) (aten/src/ATen/core/Formatting.cpp, line size 80):
/// what TorchScript's print() writes for a tensor, ending "[ CPUFloatType{2,3} ]". v holds a Tensor.
std::string tensorPrintForIValue(const IValue& v);

/// Reads the text tensorPrintForIValue writes, newlines optionally replaced by spaces (as PyTorch's graph
/// printer writes a tensor constant of 2 to 10 elements: " 1  2  3 [ CPUFloatType{3} ]"). It accepts the
/// "s *" scale lines, the "Columns a to b" chunks of wide matrices and the "(i,j,.,.) =" headers of tensors
/// of 3 or more dimensions. Values are only as exact as the text (4 decimals in fixed notation), so the
/// result prints to the same text but may differ from the tensor printed in the last digits.
/// Returns false and sets `error` (naming the offending token) when the text is not in that format.
bool parseAtenTensorPrint(const std::string& text, Tensor& out, std::string& error);

}  // namespace kindling
