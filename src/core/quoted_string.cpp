// See core/quoted_string.h.
#include "core/quoted_string.h"

namespace kindling {

std::string quotedString(const std::string& s) {
  // As c10::printQuotedString: the escapes below, printable ASCII as is, anything else as a 3-digit octal
  // escape computed on the (signed) char exactly as c10 computes it, so bytes >= 0x80 print as PyTorch
  // prints them (e.g. "\xc3" -> "\\0)+").
  std::string out = "\"";
  for (char ch : s) {
    switch (ch) {
      case '\\': out += "\\\\"; break;
      case '\'': out += "\\'"; break;
      case '"': out += "\\\""; break;
      case '\a': out += "\\a"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\v': out += "\\v"; break;
      default:
        if (ch > 0x1f && ch < 0x7f) {
          out += ch;
        } else {
          int c = static_cast<signed char>(ch);
          char buf[4] = "000";
          buf[2] = static_cast<char>(buf[2] + c % 8);
          c /= 8;
          buf[1] = static_cast<char>(buf[1] + c % 8);
          c /= 8;
          buf[0] = static_cast<char>(buf[0] + c);
          out += "\\";
          out += buf;
        }
    }
  }
  out += "\"";
  return out;
}

}  // namespace kindling
