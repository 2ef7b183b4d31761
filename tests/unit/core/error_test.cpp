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
