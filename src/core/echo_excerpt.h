// echoExcerpt: how an error message quotes input it could not make sense of (names and strings read from a
// pickle, an archive's record names, type tags). A hostile or broken file may put a megabyte of binary
// where a name belongs; the message shows at most the first 200 characters, bytes that are not printable
// ASCII as \xNN, then "..." and the input's total length.
#pragma once
#include <string>
#include <string_view>

namespace kindling {

/// Characters of the input an excerpt keeps.
constexpr size_t kMaxEchoChars = 200;

/// `text` as an error message may echo it: printable ASCII as is, other bytes as \xNN, cut after `max`
/// bytes of input with "... (N bytes)" (N the full length).
std::string echoExcerpt(std::string_view text, size_t max = kMaxEchoChars);

}  // namespace kindling
