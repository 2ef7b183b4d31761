// Scalar: a number passed to operators as `Scalar` in schemas (an int, float or bool; complex later).
// Follows c10::Scalar: the kind matters for type promotion (an int Scalar never promotes a float tensor).
#pragma once
#include <cstdint>
#include <string>

namespace kindling {

class Scalar {
 public:
  enum class Kind : uint8_t { Int, Double, Bool };
  Scalar() : kind_(Kind::Int) { v_.i = 0; }
  Scalar(int64_t i) : kind_(Kind::Int) { v_.i = i; }
  Scalar(int i) : kind_(Kind::Int) { v_.i = i; }
  Scalar(double d) : kind_(Kind::Double) { v_.d = d; }
  Scalar(bool b) : kind_(Kind::Bool) { v_.i = b; }
  Kind kind() const { return kind_; }
  bool isIntegral() const { return kind_ == Kind::Int; }
  bool isFloatingPoint() const { return kind_ == Kind::Double; }
  bool isBoolean() const { return kind_ == Kind::Bool; }
  int64_t toLong() const { return kind_ == Kind::Double ? static_cast<int64_t>(v_.d) : v_.i; }
  double toDouble() const { return kind_ == Kind::Double ? v_.d : static_cast<double>(v_.i); }
  bool toBool() const { return kind_ == Kind::Double ? v_.d != 0 : v_.i != 0; }
  template <class T> T to() const {
    if (kind_ == Kind::Double) return static_cast<T>(v_.d);
    return static_cast<T>(v_.i);
  }
  Scalar operator-() const;
  /// As Python's repr of the number: "1", "1.0", "1e-05", "True".
  std::string str() const;
 private:
  Kind kind_;
  union { int64_t i; double d; } v_;
};

/// Python's repr(float): shortest round-trip digits; "1.0", "0.1", "1e-05", "1e+16", "-0.0", "inf", "nan".
std::string pythonFloatRepr(double d);
/// A float as TorchScript's print()/str() writes it (c10 IValue printing): integral values as "1." / "0.",
/// others with 17 significant digits ("0.10000000000000001", "1e+20", "inf").
std::string torchscriptFloatStr(double d);
/// A float as graphs and schemas print it (c10's IValue printer): integral values below 1e10 as "1." /
/// "-0.", others with 17 significant digits ("1000000000000000", "0.10000000000000001"), "nan", "inf".
std::string graphFloatStr(double d);

}  // namespace kindling
