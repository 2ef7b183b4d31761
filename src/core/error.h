// Errors: one exception hierarchy for the whole project.
//   Error            — base; what() is the one-line message the CLI prints.
//   CompileError     — bad TorchScript source (carries a SourceRange; message ends with the source excerpt
//                      and the "~~~ <--- HERE" marker as TorchScript prints it). CLI exit code 1.
//   LoadError        — malformed archive / pickle / file, disallowed global. CLI exit code 1.
//   RuntimeError     — raised while running a program: `raise`, failed assert, kernel argument checks
//                      (wrong shape, wrong dtype). Carries the Python exception class name and the
//                      TorchScript call stack. CLI exit code 2.
//   UsageError       — wrong command-line or API usage. CLI exit code 64.
//   InternalError    — (core/internal_error.h) a bug in Kindling, not in the input: a broken invariant.
//                      "please report" wording. CLI exit code 70.
// KD_CHECK(cond, fmt-args...) throws RuntimeError (the c10 TORCH_CHECK equivalent).
#pragma once
#include <fmt/format.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace kindling {

/// The text of one source file (user program or an archive's code/ file) with its name.
struct Source {
  Source(std::string text, std::string filename = "", size_t startingLine = 1);
  std::string text;
  std::string filename;
  size_t startingLine;
  /// 0-based line index of byte offset `offset`.
  size_t lineOf(size_t offset) const;
  size_t lineStart(size_t line) const { return lineStarts_[line]; }
  size_t lineEnd(size_t line) const;  // offset of the '\n' ending the line (or text.size())
 private:
  std::vector<size_t> lineStarts_;
};

/// A byte range [start, end) of a Source.
struct SourceRange {
  std::shared_ptr<const Source> source;
  size_t start = 0, end = 0;
  SourceRange() = default;
  SourceRange(std::shared_ptr<const Source> s, size_t b, size_t e) : source(std::move(s)), start(b), end(e) {}
  bool valid() const { return source != nullptr; }
  std::string text() const { return source ? source->text.substr(start, end - start) : std::string(); }
  /// 1-based line and column (as printed in graphs: "# file.py:12:4").
  size_t line() const;
  size_t column() const;
  /// "file.py:12:4" or "" when invalid.
  std::string location() const;
  /// TorchScript-style excerpt:
  ///   "  File \"f.py\", line 3\n    x = foo(y)\n        ~~~ <--- HERE\n"
  std::string highlight() const;
};

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& msg) : std::runtime_error(msg) {}
};

class CompileError : public Error {
 public:
  CompileError(const std::string& msg, SourceRange range);
  const SourceRange& range() const { return range_; }
  const std::string& message() const { return message_; }
 private:
  std::string message_;
  SourceRange range_;
};

class LoadError : public Error {
 public:
  explicit LoadError(const std::string& msg) : Error(msg) {}
};

class RuntimeError : public Error {
 public:
  /// pythonClass: e.g. "builtins.RuntimeError", "builtins.ValueError", "builtins.AssertionError".
  explicit RuntimeError(const std::string& msg, std::string pythonClass = "builtins.RuntimeError")
      : Error(msg), message_(msg), pythonClass_(std::move(pythonClass)) {}
  const std::string& message() const { return message_; }
  const std::string& pythonClass() const { return pythonClass_; }
  /// TorchScript frames, innermost last ("forward", "__torch__.M.helper", ...), added by the interpreter.
  std::vector<std::string> callStack;
 private:
  std::string message_;
  std::string pythonClass_;
};

/// Wrong command-line usage (CLI exit code 64).
class UsageError : public Error {
 public:
  explicit UsageError(const std::string& msg) : Error(msg) {}
};

}  // namespace kindling

#define KD_CHECK(cond, ...)                                                    \
  do {                                                                         \
    if (__builtin_expect(!(cond), 0))                                          \
      throw ::kindling::RuntimeError(::fmt::format(__VA_ARGS__));             \
  } while (0)

#define KD_CHECK_TYPE(cond, ...)                                               \
  do {                                                                         \
    if (__builtin_expect(!(cond), 0))                                          \
      throw ::kindling::RuntimeError(::fmt::format(__VA_ARGS__), "builtins.TypeError"); \
  } while (0)

#define KD_CHECK_INDEX(cond, ...)                                              \
  do {                                                                         \
    if (__builtin_expect(!(cond), 0))                                          \
      throw ::kindling::RuntimeError(::fmt::format(__VA_ARGS__), "builtins.IndexError"); \
  } while (0)
