// See core/unicode.h. Case methods follow CPython's Objects/unicodeobject.c (do_lower, do_upper,
// do_swapcase, do_title, do_capitalize, handle_capital_sigma).
#include "core/unicode.h"

#include <algorithm>

#include "core/unicode_tables.h"

namespace kindling::unicode {

void appendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

Char decodeAt(std::string_view s, size_t i) {
  auto b = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
  uint8_t c = b(i);
  if (c < 0x80) return {c, 1};
  auto cont = [&](size_t k) { return k < s.size() && (b(k) & 0xC0) == 0x80; };
  const Char invalid{0xDC00u + c, 1};
  if (c >= 0xC2 && c <= 0xDF) {
    if (!cont(i + 1)) return invalid;
    return {(uint32_t(c & 0x1F) << 6) | (b(i + 1) & 0x3F), 2};
  }
  if (c >= 0xE0 && c <= 0xEF) {
    if (!cont(i + 1) || !cont(i + 2)) return invalid;
    uint32_t cp = (uint32_t(c & 0x0F) << 12) | (uint32_t(b(i + 1) & 0x3F) << 6) | (b(i + 2) & 0x3F);
    if (cp < 0x800) return invalid;  // overlong
    return {cp, 3};
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (!cont(i + 1) || !cont(i + 2) || !cont(i + 3)) return invalid;
    uint32_t cp = (uint32_t(c & 0x07) << 18) | (uint32_t(b(i + 1) & 0x3F) << 12) |
                  (uint32_t(b(i + 2) & 0x3F) << 6) | (b(i + 3) & 0x3F);
    if (cp < 0x10000 || cp > 0x10FFFF) return invalid;
    return {cp, 4};
  }
  return invalid;
}

std::vector<size_t> charOffsets(std::string_view s) {
  std::vector<size_t> off;
  off.reserve(s.size() + 1);
  for (size_t i = 0; i < s.size(); i += decodeAt(s, i).size) off.push_back(i);
  off.push_back(s.size());
  return off;
}

std::vector<uint32_t> codePoints(std::string_view s) {
  std::vector<uint32_t> cps;
  cps.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    Char c = decodeAt(s, i);
    cps.push_back(c.cp);
    i += c.size;
  }
  return cps;
}

size_t length(std::string_view s) {
  size_t n = 0;
  for (size_t i = 0; i < s.size(); i += decodeAt(s, i).size) ++n;
  return n;
}

bool isValidUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    uint8_t c = static_cast<uint8_t>(s[i]);
    Char ch = decodeAt(s, i);
    if (ch.size == 1 && c >= 0x80) return false;
    i += ch.size;
  }
  return true;
}

std::string encode(const std::vector<uint32_t>& cps) {
  std::string out;
  out.reserve(cps.size());
  for (uint32_t cp : cps) appendUtf8(out, cp);
  return out;
}

uint16_t properties(uint32_t cp) {
  if (cp > 0x10FFFF) return 0;
  const auto* begin = tables::kPropertyRuns;
  const auto* end = begin + tables::kPropertyRunCount;
  const auto* it = std::upper_bound(begin, end, cp, [](uint32_t v, const tables::PropertyRun& r) { return v < r.first; });
  return (it - 1)->flags;
}

namespace {

const tables::CaseMapping* caseMapping(uint32_t cp) {
  const auto* begin = tables::kCaseMappings;
  const auto* end = begin + tables::kCaseMappingCount;
  const auto* it = std::lower_bound(begin, end, cp, [](const tables::CaseMapping& m, uint32_t v) { return m.cp < v; });
  return it != end && it->cp == cp ? it : nullptr;
}

void appendMapped(std::string& out, const uint32_t (&mapped)[3]) {
  for (uint32_t m : mapped) {
    if (!m) break;
    appendUtf8(out, m);
  }
}

enum class Which { Lower, Upper, Title };

/// Appends the mapping of character k (its original bytes when it has none).
void appendMapping(std::string& out, std::string_view s, const std::vector<size_t>& off,
                   const std::vector<uint32_t>& cps, size_t k, Which which) {
  uint32_t cp = cps[k];
  if (which == Which::Lower && cp == 0x3A3) {  // handle_capital_sigma
    size_t j = k;
    uint32_t c = 0;
    bool found = false;
    while (j > 0) {
      c = cps[--j];
      if (!has(c, kCaseIgnorable)) { found = true; break; }
    }
    bool finalSigma = found && has(c, kCased);
    if (finalSigma) {
      size_t i = k + 1;
      while (i < cps.size() && has(cps[i], kCaseIgnorable)) ++i;
      finalSigma = i == cps.size() || !has(cps[i], kCased);
    }
    appendUtf8(out, finalSigma ? 0x3C2 : 0x3C3);
    return;
  }
  const tables::CaseMapping* m = cp < 0x80 && !((cp | 0x20) >= 'a' && (cp | 0x20) <= 'z') ? nullptr : caseMapping(cp);
  if (m) {
    const uint32_t(&mapped)[3] = which == Which::Lower ? m->lower : which == Which::Upper ? m->upper : m->title;
    if (!(mapped[0] == cp && mapped[1] == 0)) {
      appendMapped(out, mapped);
      return;
    }
  }
  out.append(s.substr(off[k], off[k + 1] - off[k]));
}

}  // namespace

std::string mapCase(std::string_view s, CaseOp op) {
  std::vector<size_t> off = charOffsets(s);
  std::vector<uint32_t> cps;
  cps.reserve(off.size());
  for (size_t k = 0; k + 1 < off.size(); ++k) cps.push_back(decodeAt(s, off[k]).cp);
  std::string out;
  out.reserve(s.size());
  bool previousCased = false;
  for (size_t k = 0; k < cps.size(); ++k) {
    uint32_t c = cps[k];
    switch (op) {
      case CaseOp::Lower: appendMapping(out, s, off, cps, k, Which::Lower); break;
      case CaseOp::Upper: appendMapping(out, s, off, cps, k, Which::Upper); break;
      case CaseOp::SwapCase:
        if (has(c, kUpper)) appendMapping(out, s, off, cps, k, Which::Lower);
        else if (has(c, kLower)) appendMapping(out, s, off, cps, k, Which::Upper);
        else out.append(s.substr(off[k], off[k + 1] - off[k]));
        break;
      case CaseOp::Title:
        appendMapping(out, s, off, cps, k, previousCased ? Which::Lower : Which::Title);
        previousCased = has(c, kCased);
        break;
      case CaseOp::Capitalize:
        appendMapping(out, s, off, cps, k, k == 0 ? Which::Title : Which::Lower);
        break;
    }
  }
  return out;
}

}  // namespace kindling::unicode
