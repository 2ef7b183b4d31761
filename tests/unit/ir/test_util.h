// Helpers shared by the IR tests: reading data files and normalizing numbered value names.
#pragma once
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

namespace kindling::testing {

inline std::string readDataFile(const std::string& rel) {
  std::ifstream f(std::string(KINDLING_TEST_DATA_DIR) + "/" + rel);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

/// Renumbers "%<digits>" names by order of first appearance (%0, %1, ...), so graphs that differ only in
/// the unique ids of unnamed values compare equal.
inline std::string canonicalNumbers(const std::string& text) {
  std::map<std::string, std::string> m;
  std::string out;
  std::regex re("%([0-9]+)\\b");
  auto begin = std::sregex_iterator(text.begin(), text.end(), re);
  size_t last = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    out += text.substr(last, it->position() - last);
    std::string k = (*it)[1];
    auto f = m.find(k);
    if (f == m.end()) f = m.emplace(k, std::to_string(m.size())).first;
    out += "%" + f->second;
    last = it->position() + it->length();
  }
  out += text.substr(last);
  return out;
}

}  // namespace kindling::testing
