// String literals as c10::printQuotedString writes them: in graph listings (string constants and
// attributes), in printed code, and in schema default values ("a\"b\n"). One implementation, so all three
// agree byte for byte with PyTorch, including its octal escapes of bytes >= 0x80.
#pragma once
#include <string>

namespace kindling {

/// `s` in double quotes: \\ \' \" \a \b \f \n \r \t \v escaped, printable ASCII as is, any other byte as a
/// 3-digit octal escape computed on the signed char exactly as c10 does (so "\xc3" prints as "\0)+").
std::string quotedString(const std::string& s);

}  // namespace kindling
