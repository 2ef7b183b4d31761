// Python's str in UTF-8: strings are std::string holding UTF-8 (lone surrogates, which Python's str may
// hold and pickle writes with 'surrogatepass', as their 3-byte forms). The str builtins count code
// points, not bytes, through these helpers: decoding, encoding, validation, and the character properties
// and case mappings of Python's str methods (isalpha, isspace, upper, title, ...) from the tables that
// scripts/gen_unicode_tables.py generates from Python's character database.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kindling::unicode {

/// Appends the UTF-8 form of `cp` (0 .. 0x10FFFF; surrogates as their 3-byte forms).
void appendUtf8(std::string& out, uint32_t cp);

/// One character of a UTF-8 string: its code point and its bytes. A byte that starts no valid sequence
/// is one character of its own (code point 0xDC00 + byte, as Python's 'surrogateescape' decodes it), so
/// counting, indexing and slicing never split a sequence and never fail.
struct Char {
  uint32_t cp;
  uint32_t size;  // bytes, 1..4
};

/// The character that starts at byte `i` of `s` (i < s.size()).
Char decodeAt(std::string_view s, size_t i);

/// The byte offset of every character of `s`, then s.size(): character k is bytes [off[k], off[k+1]).
std::vector<size_t> charOffsets(std::string_view s);

/// The code points of `s`.
std::vector<uint32_t> codePoints(std::string_view s);

/// The number of characters (code points) of `s`.
size_t length(std::string_view s);

/// True when `s` is UTF-8 as Python's 'surrogatepass' codec reads it (lone surrogates allowed).
bool isValidUtf8(std::string_view s);

/// The UTF-8 string of code points `cps`.
std::string encode(const std::vector<uint32_t>& cps);

/// Flags of Python's character predicates, one bit each.
enum Property : uint16_t {
  kAlpha = 1u << 0,          // ch.isalpha()
  kDecimal = 1u << 1,        // ch.isdecimal()
  kDigit = 1u << 2,          // ch.isdigit()
  kNumeric = 1u << 3,        // ch.isnumeric()
  kSpace = 1u << 4,          // ch.isspace()
  kPrintable = 1u << 5,      // ch.isprintable()
  kLower = 1u << 6,          // ch.islower()
  kUpper = 1u << 7,          // ch.isupper()
  kTitle = 1u << 8,          // category Lt
  kCased = 1u << 9,          // lowercase, uppercase or titlecase
  kCaseIgnorable = 1u << 10, // skipped by the final-sigma rule of str.lower()
  kXidStart = 1u << 11,      // may start an identifier
  kXidContinue = 1u << 12,   // may continue an identifier
};

/// The Property bits of code point `cp` (0 for anything above 0x10FFFF).
uint16_t properties(uint32_t cp);
inline bool has(uint32_t cp, unsigned mask) { return (properties(cp) & mask) != 0; }

/// Python's case methods of str, on every code point: lower(), upper() (full mappings: "ß" -> "SS"),
/// swapcase(), title() and capitalize() (titlecase of the first character), with str.lower()'s
/// final-sigma rule ("ΟΔΟΣ" -> "οδος" ending in 'ς'). Characters without a mapping keep their bytes.
enum class CaseOp { Lower, Upper, SwapCase, Title, Capitalize };
std::string mapCase(std::string_view s, CaseOp op);

}  // namespace kindling::unicode
