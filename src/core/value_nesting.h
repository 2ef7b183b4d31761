// ValueNestingGuard: the bound on recursive walks over nested IValues (printing, str(), ==, hashing,
// runtime types of tuples). Values nest as deep as a program makes them (`x = [x]` in a loop through an
// `Any` variable), so each level of such a walk holds one guard; past kMaxValueNesting levels the walk
// raises RecursionError, as Python does past its recursion limit (1000), instead of overflowing the stack.
#pragma once
#include <string>

#include "core/error.h"

namespace kindling {

/// Levels of nesting a recursive value walk accepts (Python's default recursion limit).
constexpr int kMaxValueNesting = 1000;

class ValueNestingGuard {
 public:
  /// `what` names the walk in the error: "printing", "comparing", "hashing".
  explicit ValueNestingGuard(const char* what) {
    if (++depth() > kMaxValueNesting) {
      --depth();
      throw RuntimeError(std::string("maximum recursion depth exceeded while ") + what +
                             " a value nested more than " + std::to_string(kMaxValueNesting) + " levels deep",
                         "builtins.RecursionError");
    }
  }
  ~ValueNestingGuard() { --depth(); }
  ValueNestingGuard(const ValueNestingGuard&) = delete;
  ValueNestingGuard& operator=(const ValueNestingGuard&) = delete;

 private:
  static int& depth() {
    thread_local int d = 0;
    return d;
  }
};

}  // namespace kindling
