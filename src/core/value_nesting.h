// ValueNestingGuard: the bounds on recursive walks over nested IValues (printing, str(), ==, hashing,
// runtime types of tuples, conversion to and from Python). Values nest as deep as a program makes them
// (`x = [x]` in a loop through an `Any` variable), so each level of such a walk holds one guard; past
// kMaxValueNesting levels the walk raises RecursionError, as Python does past its recursion limit (1000),
// instead of overflowing the stack.
// Values may also share containers (`y = [x, x]`, or a pickle's memo): a walk that follows every reference
// visits a shared container once per path to it, 2^30 times for 30 levels that each hold the level below
// twice, from a value of 31 containers. Python's repr and == do the same and never finish; here a walk
// (everything below one outermost guard) visits at most kMaxValueWalkSteps containers, then raises
// RuntimeError saying so. Walks that can be linear in the shared structure are (the pickler memoizes).
#pragma once
#include <string>

#include "core/error.h"

namespace kindling {

/// Levels of nesting a recursive value walk accepts (Python's default recursion limit).
constexpr int kMaxValueNesting = 1000;
/// Containers one walk visits at most (2^24, about 16.8 million: printing that many takes a second or two).
constexpr long long kMaxValueWalkSteps = 1LL << 24;

class ValueNestingGuard {
 public:
  /// `what` names the walk in the error: "printing", "comparing", "hashing". `container`: the level is a
  /// container (counted against kMaxValueWalkSteps); false for a guard a walk holds on every value.
  explicit ValueNestingGuard(const char* what, bool container = true) {
    if (++depth() > kMaxValueNesting) {
      --depth();
      throw RuntimeError(std::string("maximum recursion depth exceeded while ") + what +
                             " a value nested more than " + std::to_string(kMaxValueNesting) + " levels deep",
                         "builtins.RecursionError");
    }
    if (depth() == 1) steps() = 0;
    if (container && ++steps() > kMaxValueWalkSteps) {
      --depth();
      throw RuntimeError(std::string("value too large: ") + what + " it visits more than " +
                             std::to_string(kMaxValueWalkSteps) +
                             " containers (a container shared within the value is visited once per reference to it)",
                         "builtins.RuntimeError");
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
  static long long& steps() {
    thread_local long long n = 0;
    return n;
  }
};

}  // namespace kindling
