// SourceRange::highlight and CompileError::what() against TorchScript's format (PyTorch 1.13).
#include <gtest/gtest.h>

#include "core/error.h"

using namespace kindling;

namespace {
SourceRange rangeOf(const std::shared_ptr<Source>& s, const std::string& needle) {
  size_t b = s->text.find(needle);
  return SourceRange(s, b, b + needle.size());
}
}  // namespace

TEST(SourceRange, HighlightMatchesTorchScript) {
  // torch.jit.CompilationUnit(src) with src below raised "undefined value foo:" followed by this excerpt.
  auto src = std::make_shared<Source>(
      "\ndef g(x: int):\n    a = 1\n    b = 2\n    c = 3\n    y = foo(x,\n            a)\n    return y\n", "<string>");
  SourceRange r = rangeOf(src, "foo");
  EXPECT_EQ(r.line(), 6u);
  EXPECT_EQ(r.column(), 8u);
  EXPECT_EQ(r.location(), "<string>:6:8");
  EXPECT_EQ(r.highlight(),
            "  File \"<string>\", line 6\n    b = 2\n    c = 3\n    y = foo(x,\n        ~~~ <--- HERE\n"
            "            a)\n    return y\n");
  CompileError e("undefined value foo", r);
  EXPECT_EQ(std::string(e.what()), "undefined value foo:\n" + r.highlight());
  EXPECT_EQ(e.message(), "undefined value foo");
}

TEST(SourceRange, HighlightAtStartOfFile) {
  // torch.jit.CompilationUnit("def h(x: int):\n    return bar(x)\n") → "undefined value bar:" + excerpt.
  auto src = std::make_shared<Source>("def h(x: int):\n    return bar(x)\n", "<string>");
  EXPECT_EQ(rangeOf(src, "bar").highlight(),
            "  File \"<string>\", line 2\ndef h(x: int):\n    return bar(x)\n           ~~~ <--- HERE\n");
}

TEST(SourceRange, StartingLineAndNoFilename) {
  auto src = std::make_shared<Source>("x = 1\ny = z\n", "f.py", 10);
  SourceRange r = rangeOf(src, "z");
  EXPECT_EQ(r.line(), 11u);
  EXPECT_EQ(r.highlight(), "  File \"f.py\", line 11\nx = 1\ny = z\n    ~ <--- HERE\n");
  auto anon = std::make_shared<Source>("y = z");
  EXPECT_EQ(rangeOf(anon, "z").highlight(), "y = z\n    ~ <--- HERE\n");
  EXPECT_EQ(rangeOf(anon, "z").location(), "");
}

TEST(SourceRange, MultiLineRangeMarksEachLine) {
  auto src = std::make_shared<Source>("a = f(1,\n      2)\nb = 3\n", "m.py");
  size_t b = src->text.find("f(");
  size_t e = src->text.find("2)") + 2;
  EXPECT_EQ(SourceRange(src, b, e).highlight(),
            "  File \"m.py\", line 1\na = f(1,\n    ~~~~\n      2)\n      ~~ <--- HERE\nb = 3\n");
}

TEST(SourceRange, InvalidRange) {
  SourceRange r;
  EXPECT_FALSE(r.valid());
  EXPECT_EQ(r.highlight(), "");
  CompileError e("boom", r);
  EXPECT_EQ(std::string(e.what()), "boom");
}

TEST(SourceRange, LongLinesShowAWindowAroundTheError) {
  // A 100,000-character line: the excerpt shows 200 characters around the error, not the whole line.
  std::string line = "y = " + std::string(60000, 'a') + " + undefined_name + " + std::string(40000, 'b');
  auto src = std::make_shared<Source>("x = 1\n" + line + "\nz = 2\n", "long.py");
  std::string h = rangeOf(src, "undefined_name").highlight();
  EXPECT_LT(h.size(), 1000u) << h.size();
  EXPECT_NE(h.find("undefined_name"), std::string::npos);
  EXPECT_NE(h.find("(line of " + std::to_string(line.size()) + " characters)"), std::string::npos) << h;
  EXPECT_NE(h.find("<--- HERE"), std::string::npos);
  // The marker stays under the name in the window.
  size_t lineAt = h.find("...aaa");
  ASSERT_NE(lineAt, std::string::npos) << h;
  size_t lineStart = h.rfind('\n', lineAt) + 1;
  size_t nameCol = h.find("undefined_name", lineStart) - lineStart;
  size_t markerStart = h.find('\n', lineStart) + 1;
  EXPECT_EQ(h.compare(markerStart + nameCol, 14, std::string(14, '~')), 0) << h;
  EXPECT_EQ(h[markerStart + nameCol - 1], ' ');
  // Context lines are cut too.
  auto ctx = std::make_shared<Source>(std::string(5000, 'c') + "\ny = q\n", "ctx.py");
  std::string hc = rangeOf(ctx, "q").highlight();
  EXPECT_LT(hc.size(), 500u) << hc;
  EXPECT_NE(hc.find("(line of 5000 characters)"), std::string::npos) << hc;
}

TEST(SourceRange, LongRangesAndWholeFilesAreCut) {
  std::string body;
  for (int i = 0; i < 5000; ++i) body += "    x" + std::to_string(i) + " = " + std::to_string(i) + "\n";
  auto src = std::make_shared<Source>("def f():\n" + body + "    return 1\n", "big.py");
  size_t b = src->text.find("def");
  size_t e = src->text.find("return 1") + 8;
  std::string h = SourceRange(src, b, e).highlight();
  EXPECT_LT(h.size(), 2000u) << h.size();
  EXPECT_NE(h.find("more lines)"), std::string::npos) << h;
  EXPECT_NE(h.find("return 1\n    ~~~~~~~~ <--- HERE"), std::string::npos) << h;
  std::string whole = SourceRange(src, 0, src->text.size()).highlight();
  EXPECT_LT(whole.size(), 2000u);
  EXPECT_NE(whole.find("... (4982 more lines)"), std::string::npos) << whole;
}
