// ScalarType: the element types of tensors, numbered exactly as c10::ScalarType in PyTorch 1.13
// (torch.float32 is 6 at runtime: TorchScript passes dtypes as ints, archives store them as ints).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace kindling {

enum class ScalarType : int8_t {
  Byte = 0,      // uint8
  Char = 1,      // int8
  Short = 2,     // int16
  Int = 3,       // int32
  Long = 4,      // int64
  Half = 5,      // float16
  Float = 6,     // float32
  Double = 7,    // float64
  ComplexHalf = 8,
  ComplexFloat = 9,
  ComplexDouble = 10,
  Bool = 11,
  QInt8 = 12,
  QUInt8 = 13,
  QInt32 = 14,
  BFloat16 = 15,
  Undefined = -1,
};

/// Bytes per element; throws kindling::Error for Undefined.
size_t elementSize(ScalarType t);
/// c10 name: "Float", "Long", ... (used by storage globals "torch.FloatStorage" and error messages).
const char* scalarTypeName(ScalarType t);
/// Python name as PyTorch prints a dtype: "torch.float32", "torch.int64", ...
std::string dtypeReprName(ScalarType t);
/// Inverse of dtypeReprName for names without the "torch." prefix ("float32", "float", "int64", "long", ...).
bool scalarTypeFromPythonName(const std::string& name, ScalarType& out);

inline bool isFloatingType(ScalarType t) {
  return t == ScalarType::Float || t == ScalarType::Double || t == ScalarType::Half || t == ScalarType::BFloat16;
}
inline bool isComplexType(ScalarType t) {
  return t == ScalarType::ComplexHalf || t == ScalarType::ComplexFloat || t == ScalarType::ComplexDouble;
}
/// Integral types; Bool counts only when includeBool is true (as c10::isIntegralType).
inline bool isIntegralType(ScalarType t, bool includeBool) {
  switch (t) {
    case ScalarType::Byte: case ScalarType::Char: case ScalarType::Short:
    case ScalarType::Int: case ScalarType::Long: return true;
    case ScalarType::Bool: return includeBool;
    default: return false;
  }
}

/// PyTorch's promoteTypes table (c10/core/ScalarType.h) for the non-quantized types.
ScalarType promoteTypes(ScalarType a, ScalarType b);

}  // namespace kindling
