// See core/echo_excerpt.h.
#include "core/echo_excerpt.h"

#include <fmt/format.h>

namespace kindling {

std::string echoExcerpt(std::string_view text, size_t max) {
  std::string out;
  const size_t n = std::min(text.size(), max);
  out.reserve(n + 32);
  for (size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) out += static_cast<char>(c);
    else out += fmt::format("\\x{:02x}", c);
  }
  if (text.size() > max) out += fmt::format("... ({} bytes)", text.size());
  return out;
}

}  // namespace kindling
