// promoteTypes / names against PyTorch 1.13 (torch.promote_types, str(dtype)).
#include <gtest/gtest.h>

#include "core/error.h"
#include "core/scalar_type.h"

using namespace kindling;

TEST(ScalarType, PromoteTypesMatchesTorch) {
  using S = ScalarType;
  // torch.promote_types(torch.uint8, torch.int8) == torch.int16
  EXPECT_EQ(promoteTypes(S::Byte, S::Char), S::Short);
  // torch.promote_types(torch.bool, torch.uint8) == torch.uint8
  EXPECT_EQ(promoteTypes(S::Bool, S::Byte), S::Byte);
  // torch.promote_types(torch.int64, torch.float16) == torch.float16
  EXPECT_EQ(promoteTypes(S::Long, S::Half), S::Half);
  // torch.promote_types(torch.float16, torch.bfloat16) == torch.float32
  EXPECT_EQ(promoteTypes(S::Half, S::BFloat16), S::Float);
  // torch.promote_types(torch.bfloat16, torch.int32) == torch.bfloat16
  EXPECT_EQ(promoteTypes(S::BFloat16, S::Int), S::BFloat16);
  // torch.promote_types(torch.float32, torch.float64) == torch.float64
  EXPECT_EQ(promoteTypes(S::Float, S::Double), S::Double);
  // torch.promote_types(torch.int32, torch.int64) == torch.int64
  EXPECT_EQ(promoteTypes(S::Int, S::Long), S::Long);
  // torch.promote_types(torch.float32, torch.complex32) == torch.complex64
  EXPECT_EQ(promoteTypes(S::Float, S::ComplexHalf), S::ComplexFloat);
  EXPECT_EQ(promoteTypes(S::Bool, S::Bool), S::Bool);
  EXPECT_THROW(promoteTypes(S::QInt8, S::Float), RuntimeError);
  // symmetric for all non-quantized pairs
  for (int a = 0; a < 16; ++a)
    for (int b = 0; b < 16; ++b) {
      if ((a >= 12 && a <= 14) || (b >= 12 && b <= 14)) continue;
      EXPECT_EQ(promoteTypes(S(a), S(b)), promoteTypes(S(b), S(a)));
    }
}

TEST(ScalarType, Names) {
  EXPECT_EQ(dtypeReprName(ScalarType::Float), "torch.float32");
  EXPECT_EQ(dtypeReprName(ScalarType::Long), "torch.int64");
  EXPECT_EQ(dtypeReprName(ScalarType::BFloat16), "torch.bfloat16");
  EXPECT_STREQ(scalarTypeName(ScalarType::Half), "Half");
  EXPECT_EQ(elementSize(ScalarType::Double), 8u);
  EXPECT_EQ(elementSize(ScalarType::Bool), 1u);
  EXPECT_THROW(elementSize(ScalarType::Undefined), Error);
  ScalarType t;
  ASSERT_TRUE(scalarTypeFromPythonName("float16", t));
  EXPECT_EQ(t, ScalarType::Half);
  ASSERT_TRUE(scalarTypeFromPythonName("torch.long", t));
  EXPECT_EQ(t, ScalarType::Long);
  EXPECT_FALSE(scalarTypeFromPythonName("float128", t));
}
