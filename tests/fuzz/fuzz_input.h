// What every fuzz target shares: the input as a Storage, and the rule for exceptions.
//
// A target returns normally when Kindling accepts the input or rejects it with a kindling::Error (the
// clean errors the CLI turns into exit codes 1-3). Anything else is a finding and must reach libFuzzer:
// an InternalError (a broken invariant, KD_INTERNAL_ASSERT), any other exception (std::bad_alloc,
// std::length_error, ...: a size taken from the input without a bound) and, of course, a crash.
#pragma once
#include <cstdint>
#include <cstring>
#include <exception>
#include <string>

#include "core/error.h"
#include "core/internal_error.h"
#include "tensor/tensor.h"

namespace kindling::fuzz {

/// The input copied into a 64-byte aligned Storage (what ZipReader and the importers read from memory).
inline Storage inputStorage(const uint8_t* data, size_t size) {
  Storage s = makeIntrusive<StorageImpl>(size);
  if (size) std::memcpy(s->data(), data, size);
  return s;
}

/// Runs `body`; kindling::Error other than InternalError is a clean rejection and is swallowed.
template <class F>
void acceptCleanErrors(F&& body) {
  try {
    body();
  } catch (const InternalError&) {
    throw;
  } catch (const Error&) {
  }
}

}  // namespace kindling::fuzz
