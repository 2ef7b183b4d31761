// The tables behind core/unicode.h, generated from Python's own character database by
// scripts/gen_unicode_tables.py (src/core/unicode_tables.cpp): one property run per range of code points
// that share the same flags, and the full lower/upper/title mappings of every code point that has one.
#pragma once
#include <cstddef>
#include <cstdint>

namespace kindling::unicode::tables {

/// Code points from `first` up to the next run's `first` have the flags `flags` (core/unicode.h's
/// Property bits). Sorted by `first`; the first run starts at 0.
struct PropertyRun {
  uint32_t first;
  uint16_t flags;
};

/// Python's ch.lower(), ch.upper(), ch.title() of one code point: up to 3 code points each, 0-terminated.
/// Sorted by `cp`.
struct CaseMapping {
  uint32_t cp;
  uint32_t lower[3];
  uint32_t upper[3];
  uint32_t title[3];
};

extern const PropertyRun kPropertyRuns[];
extern const size_t kPropertyRunCount;
extern const CaseMapping kCaseMappings[];
extern const size_t kCaseMappingCount;

}  // namespace kindling::unicode::tables
