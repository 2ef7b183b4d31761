// Scalar arithmetic helpers and Python-compatible number printing.
#include "core/scalar.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstring>

namespace kindling {

Scalar Scalar::operator-() const {
  switch (kind_) {
    case Kind::Double: return Scalar(-v_.d);
    case Kind::Int: return Scalar(static_cast<int64_t>(0ULL - static_cast<uint64_t>(v_.i)));
    case Kind::Bool: return Scalar(-v_.i);  // -True == -1, an int, as in Python
  }
  return *this;
}

std::string Scalar::str() const {
  switch (kind_) {
    case Kind::Double: return pythonFloatRepr(v_.d);
    case Kind::Int: return std::to_string(v_.i);
    case Kind::Bool: return v_.i ? "True" : "False";
  }
  return "";
}

std::string pythonFloatRepr(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d < 0 ? "-inf" : "inf";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), d, std::chars_format::scientific);
  std::string sci(buf, res.ptr);
  // sci = [-]D[.DDD]e(+|-)XX
  bool neg = sci[0] == '-';
  if (neg) sci.erase(0, 1);
  auto epos = sci.find('e');
  int exp10 = std::stoi(sci.substr(epos + 1));
  std::string digits;
  for (size_t i = 0; i < epos; ++i)
    if (sci[i] != '.') digits += sci[i];
  std::string out = neg ? "-" : "";
  if (exp10 >= -4 && exp10 < 16) {
    if (exp10 >= 0) {
      size_t intDigits = static_cast<size_t>(exp10) + 1;
      if (digits.size() <= intDigits) {
        out += digits;
        out.append(intDigits - digits.size(), '0');
        out += ".0";
      } else {
        out.append(digits, 0, intDigits);
        out += '.';
        out.append(digits, intDigits, std::string::npos);
      }
    } else {
      out += "0.";
      out.append(static_cast<size_t>(-exp10 - 1), '0');
      out += digits;
    }
  } else {
    out += digits.substr(0, 1);
    if (digits.size() > 1) {
      out += '.';
      out.append(digits, 1, std::string::npos);
    }
    out += exp10 < 0 ? "e-" : "e+";
    int a = exp10 < 0 ? -exp10 : exp10;
    if (a < 10) out += "0";
    out += std::to_string(a);
  }
  return out;
}

std::string torchscriptFloatStr(double d) {
  int c = std::fpclassify(d);
  if ((c == FP_NORMAL || c == FP_ZERO) && std::fabs(d) < 9.2e18) {
    auto i = static_cast<int64_t>(d);
    if (static_cast<double>(i) == d) return std::to_string(i) + ".";
  }
  if (std::isnan(d)) return std::signbit(d) ? "-nan" : "nan";  // as std::ostream prints (inf - inf is -nan on x86)
  if (std::isinf(d)) return d < 0 ? "-inf" : "inf";
  return fmt::format("{:.17g}", d);
}

std::string graphFloatStr(double d) {
  int c = std::fpclassify(d);
  if ((c == FP_NORMAL || c == FP_ZERO) && std::fabs(d) < 1e10) {
    auto i = static_cast<int64_t>(d);
    if (static_cast<double>(i) == d) {
      std::string s = i == 0 && std::signbit(d) ? "-" : "";
      s += std::to_string(i);
      s += '.';
      return s;
    }
  }
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  return fmt::format("{:.17g}", d);
}

}  // namespace kindling
