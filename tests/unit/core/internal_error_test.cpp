// InternalError (core/internal_error.h): the "please report" wording, its place in the hierarchy (an
// Error, never a RuntimeError a TorchScript except clause would catch) and KD_INTERNAL_ASSERT.
#include "core/internal_error.h"

#include <gtest/gtest.h>

namespace kindling {
namespace {

TEST(InternalErrorTest, WordingAndDetail) {
  InternalError e("stack underflow (1 values, the schema has 2)");
  EXPECT_EQ(std::string(e.what()), "internal error in Kindling, please report it: stack underflow (1 values, the schema has 2)");
  EXPECT_EQ(e.detail(), "stack underflow (1 values, the schema has 2)");
  const Error& base = e;
  EXPECT_EQ(dynamic_cast<const RuntimeError*>(&base), nullptr);
}

TEST(InternalErrorTest, AssertThrowsOnlyWhenFalse) {
  EXPECT_NO_THROW(KD_INTERNAL_ASSERT(1 + 1 == 2, "never"));
  try {
    KD_INTERNAL_ASSERT(2 < 1, "{} is not below {}", 2, 1);
    FAIL() << "KD_INTERNAL_ASSERT did not throw";
  } catch (const RuntimeError&) {
    FAIL() << "an internal error must not be a RuntimeError";
  } catch (const InternalError& e) {
    EXPECT_EQ(e.detail(), "2 is not below 1");
  }
}

}  // namespace
}  // namespace kindling
