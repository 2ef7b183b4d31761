// InternalError: a broken invariant inside Kindling (a bug in Kindling, never in the user's input).
//
// The second of the two kinds of failure users see (core/error.h has the first: their file, source,
// archive or tensors are wrong). what() reads
//   "internal error in Kindling, please report it: <detail>"
// and the CLI exits with code 70 (EX_SOFTWARE) for it, distinct from 1 (load/compile) and 2 (runtime).
// InternalError derives from Error but not from RuntimeError, so a TorchScript `try/except` in the
// program does not catch it: a Kindling bug is not an exception the program raised.
//
// KD_INTERNAL_ASSERT(cond, fmt-args...) throws it when cond is false (c10's TORCH_INTERNAL_ASSERT).
// Use it for conditions only a Kindling bug can make false (stack depth of the interpreter, IR
// invariants, a kernel called with fewer arguments than its schema has); input checks stay KD_CHECK.
#pragma once
#include <fmt/format.h>

#include <string>

#include "core/error.h"

namespace kindling {

class InternalError : public Error {
 public:
  /// `detail`: what invariant failed and where (one line, or a first line followed by context lines).
  explicit InternalError(const std::string& detail) : Error(kPrefix + detail), detail_(detail) {}
  /// The message without the "internal error in Kindling, please report it: " prefix.
  const std::string& detail() const { return detail_; }
  static constexpr const char* kPrefix = "internal error in Kindling, please report it: ";

 private:
  std::string detail_;
};

}  // namespace kindling

#define KD_INTERNAL_ASSERT(cond, ...)                                          \
  do {                                                                         \
    if (__builtin_expect(!(cond), 0))                                          \
      throw ::kindling::InternalError(::fmt::format(__VA_ARGS__));            \
  } while (0)
