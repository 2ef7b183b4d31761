// core/unicode.h: UTF-8 decoding and validation, Python's character properties and case methods.
#include "core/unicode.h"

#include <gtest/gtest.h>

namespace kindling::unicode {

TEST(Unicode, DecodeEncodeAndLength) {
  const std::string s = "a\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80";  // a é 中 😀
  EXPECT_EQ(length(s), 4u);
  EXPECT_EQ(codePoints(s), (std::vector<uint32_t>{'a', 0xE9, 0x4E2D, 0x1F600}));
  EXPECT_EQ(charOffsets(s), (std::vector<size_t>{0, 1, 3, 6, 10}));
  EXPECT_EQ(encode(codePoints(s)), s);
  std::string out;
  appendUtf8(out, 0x10FFFF);
  EXPECT_EQ(out, "\xf4\x8f\xbf\xbf");
}

TEST(Unicode, InvalidBytesAreOneCharacterEach) {
  const std::string bad = "a\xc3(\xff\xe4\xb8";  // truncated and stray bytes
  EXPECT_FALSE(isValidUtf8(bad));
  EXPECT_EQ(length(bad), 6u);
  EXPECT_EQ(decodeAt(bad, 1).cp, 0xDCC3u);
  EXPECT_FALSE(isValidUtf8("\xc0\xaf"));      // overlong
  EXPECT_FALSE(isValidUtf8("\xf4\x90\x80\x80"));  // above 0x10FFFF
  EXPECT_TRUE(isValidUtf8("\xed\xa0\x80"));  // a lone surrogate, as 'surrogatepass' writes it
  EXPECT_TRUE(isValidUtf8("plain ascii"));
}

TEST(Unicode, PropertiesAsPython) {
  EXPECT_TRUE(has(0xE9, kAlpha));            // é
  EXPECT_TRUE(has(0x0663, kDecimal));        // ARABIC-INDIC DIGIT THREE
  EXPECT_TRUE(has(0x00B2, kDigit));          // ² is a digit, not a decimal
  EXPECT_FALSE(has(0x00B2, kDecimal));
  EXPECT_TRUE(has(0x00BD, kNumeric));        // ½
  EXPECT_FALSE(has(0x00BD, kDigit));
  EXPECT_TRUE(has(0x3000, kSpace));          // IDEOGRAPHIC SPACE
  EXPECT_TRUE(has(0x1C, kSpace));            // Python: \x1c is whitespace
  EXPECT_FALSE(has(0x2028, kPrintable));
  EXPECT_TRUE(has(0x01C5, kTitle));          // ǅ
  EXPECT_TRUE(has(0x10400, kUpper));         // 𐐀
  EXPECT_TRUE(has(0x0301, kCaseIgnorable));  // combining acute accent
  EXPECT_EQ(properties(0x110000), 0);
}

TEST(Unicode, CaseMethodsAsPython) {
  EXPECT_EQ(mapCase("stra\xc3\x9f" "e", CaseOp::Upper), "STRASSE");             // ß → SS
  EXPECT_EQ(mapCase("\xce\x9f\xce\x94\xce\x9f\xce\xa3", CaseOp::Lower),          // ΟΔΟΣ → οδος
            "\xce\xbf\xce\xb4\xce\xbf\xcf\x82");
  EXPECT_EQ(mapCase("\xce\xa3", CaseOp::Lower), "\xcf\x83");                     // Σ alone → σ
  EXPECT_EQ(mapCase("\xc7\x84" "emal", CaseOp::Title), "\xc7\x85" "emal");       // Ǆemal → ǅemal
  EXPECT_EQ(mapCase("\xc3\xa9T\xc3\xa9", CaseOp::SwapCase), "\xc3\x89t\xc3\x89");  // éTé → ÉtÉ
  EXPECT_EQ(mapCase("\xef\xac\x81ne", CaseOp::Capitalize), "Fine");              // ﬁne → Fine
  EXPECT_EQ(mapCase("a\xff" "B", CaseOp::Lower), "a\xff" "b");                      // invalid bytes kept
}

}  // namespace kindling::unicode
