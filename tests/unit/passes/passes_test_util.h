// Helpers for graph-in / graph-out pass tests.
#pragma once
#include <map>
#include <regex>
#include <string>

#include "ir/irparser.h"

namespace kindling::testing {

/// Renumbers "%<digits>" names by order of first appearance so outputs compare independent of unique ids.
inline std::string canonicalNumbers(const std::string& text) {
  std::map<std::string, std::string> m;
  std::string out;
  std::regex re("%([0-9]+)\\b");
  size_t last = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it) {
    out += text.substr(last, it->position() - last);
    std::string k = (*it)[1];
    auto f = m.find(k);
    if (f == m.end()) f = m.emplace(k, std::to_string(m.size())).first;
    out += "%" + f->second;
    last = it->position() + it->length();
  }
  return out + text.substr(last);
}

}  // namespace kindling::testing
