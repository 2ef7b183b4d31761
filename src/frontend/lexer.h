// Lexer: TorchScript (Python) source text → tokens, with Python's layout rules: NEWLINE at the end of
// each logical line, INDENT/DEDENT from indentation, implicit line joining inside (), [] and {},
// backslash continuation; blank and comment-only lines produce nothing.
//
// Literals are decoded here: integers (decimal, 0x, 0o, 0b, underscores) as int64, floats (1e-05, 1.,
// .5) as double, strings (single, double, triple quotes; r/b/u/f prefixes; \n \t \xhh \uXXXX \ooo
// escapes) as their value. Adjacent string literals are concatenated by the parser, not here.
// `# type: ...` comments are kept: the NEWLINE token ending the line carries their text (the parser
// reads function type comments from it); other comments are dropped.
// Errors are CompileError with the offending range (messages as Python/TorchScript print them).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"

namespace kindling {

enum class TokenKind : uint8_t {
  Name,      // identifiers and keywords (the parser decides which)
  Int,       // ival
  Float,     // dval (imaginary literals are not supported: CompileError)
  String,    // sval (decoded); isFString for f"..."
  Op,        // operators and delimiters: "(", "**=", "->", ...; text in sval
  Newline,   // end of a logical line; sval holds a `# type:` comment's text if the line had one
  Indent,
  Dedent,
  Eof,
};

const char* tokenKindName(TokenKind k);

struct Token {
  TokenKind kind = TokenKind::Eof;
  size_t start = 0, end = 0;  // byte range in the source
  std::string sval;
  int64_t ival = 0;
  double dval = 0;
  /// Decimal literal 9223372036854775808 (2**63): valid only as the operand of unary minus, where it spells
  /// INT64_MIN (PyTorch's code printer writes that constant as -9223372036854775808); ival is INT64_MIN.
  bool isInt64MinMagnitude = false;
  bool isFString = false;
  bool isBytes = false;
  /// Text after `# type:` of a comment that follows this token inside brackets (a parameter's own type
  /// comment: `def f(a,  # type: int`), else empty.
  std::string typeComment;
  /// Text as written (for error messages): the source slice, or "<newline>"/"<indent>"/... for layout tokens.
  std::string text(const Source& src) const;
};

/// Tokenizes the whole source eagerly. Throws CompileError on a malformed literal, an unterminated
/// string or bracket, an inconsistent dedent, or a stray character.
std::vector<Token> tokenize(const std::shared_ptr<const Source>& source);

}  // namespace kindling
