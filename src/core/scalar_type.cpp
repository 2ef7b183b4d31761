// ScalarType helpers: element sizes, names and PyTorch's type promotion table.
#include "core/scalar_type.h"

#include <fmt/format.h>

#include "core/error.h"

namespace kindling {

size_t elementSize(ScalarType t) {
  switch (t) {
    case ScalarType::Byte: case ScalarType::Char: case ScalarType::Bool:
    case ScalarType::QInt8: case ScalarType::QUInt8: return 1;
    case ScalarType::Short: case ScalarType::Half: case ScalarType::BFloat16: return 2;
    case ScalarType::Int: case ScalarType::Float: case ScalarType::ComplexHalf: case ScalarType::QInt32: return 4;
    case ScalarType::Long: case ScalarType::Double: case ScalarType::ComplexFloat: return 8;
    case ScalarType::ComplexDouble: return 16;
    default: break;
  }
  throw Error(fmt::format("elementSize: invalid dtype {}", static_cast<int>(t)));
}

const char* scalarTypeName(ScalarType t) {
  switch (t) {
    case ScalarType::Byte: return "Byte";
    case ScalarType::Char: return "Char";
    case ScalarType::Short: return "Short";
    case ScalarType::Int: return "Int";
    case ScalarType::Long: return "Long";
    case ScalarType::Half: return "Half";
    case ScalarType::Float: return "Float";
    case ScalarType::Double: return "Double";
    case ScalarType::ComplexHalf: return "ComplexHalf";
    case ScalarType::ComplexFloat: return "ComplexFloat";
    case ScalarType::ComplexDouble: return "ComplexDouble";
    case ScalarType::Bool: return "Bool";
    case ScalarType::QInt8: return "QInt8";
    case ScalarType::QUInt8: return "QUInt8";
    case ScalarType::QInt32: return "QInt32";
    case ScalarType::BFloat16: return "BFloat16";
    case ScalarType::Undefined: return "Undefined";
  }
  return "UNKNOWN_SCALAR";
}

static const char* pythonName(ScalarType t) {
  switch (t) {
    case ScalarType::Byte: return "uint8";
    case ScalarType::Char: return "int8";
    case ScalarType::Short: return "int16";
    case ScalarType::Int: return "int32";
    case ScalarType::Long: return "int64";
    case ScalarType::Half: return "float16";
    case ScalarType::Float: return "float32";
    case ScalarType::Double: return "float64";
    case ScalarType::ComplexHalf: return "complex32";
    case ScalarType::ComplexFloat: return "complex64";
    case ScalarType::ComplexDouble: return "complex128";
    case ScalarType::Bool: return "bool";
    case ScalarType::QInt8: return "qint8";
    case ScalarType::QUInt8: return "quint8";
    case ScalarType::QInt32: return "qint32";
    case ScalarType::BFloat16: return "bfloat16";
    case ScalarType::Undefined: break;
  }
  return nullptr;
}

std::string dtypeReprName(ScalarType t) {
  const char* n = pythonName(t);
  if (!n) throw Error(fmt::format("dtypeReprName: invalid dtype {}", static_cast<int>(t)));
  return std::string("torch.") + n;
}

bool scalarTypeFromPythonName(const std::string& nameIn, ScalarType& out) {
  std::string name = nameIn.rfind("torch.", 0) == 0 ? nameIn.substr(6) : nameIn;
  struct Alias { const char* name; ScalarType t; };
  static const Alias aliases[] = {
      {"uint8", ScalarType::Byte},        {"int8", ScalarType::Char},
      {"int16", ScalarType::Short},       {"short", ScalarType::Short},
      {"int32", ScalarType::Int},         {"int", ScalarType::Int},
      {"int64", ScalarType::Long},        {"long", ScalarType::Long},
      {"float16", ScalarType::Half},      {"half", ScalarType::Half},
      {"float32", ScalarType::Float},     {"float", ScalarType::Float},
      {"float64", ScalarType::Double},    {"double", ScalarType::Double},
      {"complex32", ScalarType::ComplexHalf}, {"chalf", ScalarType::ComplexHalf},
      {"complex64", ScalarType::ComplexFloat}, {"cfloat", ScalarType::ComplexFloat},
      {"complex128", ScalarType::ComplexDouble}, {"cdouble", ScalarType::ComplexDouble},
      {"bool", ScalarType::Bool},         {"qint8", ScalarType::QInt8},
      {"quint8", ScalarType::QUInt8},     {"qint32", ScalarType::QInt32},
      {"bfloat16", ScalarType::BFloat16},
  };
  for (const auto& a : aliases) {
    if (name == a.name) { out = a.t; return true; }
  }
  return false;
}

ScalarType promoteTypes(ScalarType a, ScalarType b) {
  if (a == b) return a;
  if (a == ScalarType::Undefined || b == ScalarType::Undefined) return ScalarType::Undefined;
  constexpr ScalarType u1 = ScalarType::Byte, i1 = ScalarType::Char, i2 = ScalarType::Short,
                       i4 = ScalarType::Int, i8 = ScalarType::Long, f2 = ScalarType::Half,
                       f4 = ScalarType::Float, f8 = ScalarType::Double, c2 = ScalarType::ComplexHalf,
                       c4 = ScalarType::ComplexFloat, c8 = ScalarType::ComplexDouble, b1 = ScalarType::Bool,
                       bf = ScalarType::BFloat16, ud = ScalarType::Undefined;
  // Generated from torch.promote_types in PyTorch 1.13 (rows/cols in ScalarType order).
  static constexpr ScalarType table[16][16] = {
      /* u1 */ {u1, i2, i2, i4, i8, f2, f4, f8, c2, c4, c8, u1, ud, ud, ud, bf},
      /* i1 */ {i2, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, i1, ud, ud, ud, bf},
      /* i2 */ {i2, i2, i2, i4, i8, f2, f4, f8, c2, c4, c8, i2, ud, ud, ud, bf},
      /* i4 */ {i4, i4, i4, i4, i8, f2, f4, f8, c2, c4, c8, i4, ud, ud, ud, bf},
      /* i8 */ {i8, i8, i8, i8, i8, f2, f4, f8, c2, c4, c8, i8, ud, ud, ud, bf},
      /* f2 */ {f2, f2, f2, f2, f2, f2, f4, f8, c2, c4, c8, f2, ud, ud, ud, f4},
      /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f8, c4, c4, c8, f4, ud, ud, ud, f4},
      /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, c8, c8, c8, f8, ud, ud, ud, f8},
      /* c2 */ {c2, c2, c2, c2, c2, c2, c4, c8, c2, c4, c8, c2, ud, ud, ud, c4},
      /* c4 */ {c4, c4, c4, c4, c4, c4, c4, c8, c4, c4, c8, c4, ud, ud, ud, c4},
      /* c8 */ {c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, ud, ud, ud, c8},
      /* b1 */ {u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, b1, ud, ud, ud, bf},
      /* q1 */ {ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud},
      /* q2 */ {ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud},
      /* q3 */ {ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud},
      /* bf */ {bf, bf, bf, bf, bf, f4, f4, f8, c4, c4, c8, bf, ud, ud, ud, bf},
  };
  int ia = static_cast<int>(a), ib = static_cast<int>(b);
  if (ia < 0 || ia >= 16 || ib < 0 || ib >= 16 || table[ia][ib] == ud) {
    throw RuntimeError(fmt::format("Promotion for {} and {} types is not supported", scalarTypeName(a),
                                   scalarTypeName(b)));
  }
  return table[ia][ib];
}

}  // namespace kindling
