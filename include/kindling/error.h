// The exceptions the public API throws. Every function of Kindling's public headers reports failure
// with one of these (or std::bad_alloc when memory runs out); none lets another exception type escape.
//
//   Error          base class; what() is a one-line message naming what is wrong and where.
//   LoadError      the file, stream or buffer is not a readable TorchScript archive (missing, truncated,
//                  not a zip, a pickle global outside the allow-list, a format version Kindling does not
//                  know: the message names the archive's version and the highest Kindling reads).
//   CompileError   the archive's TorchScript code does not compile; what() ends with the source excerpt
//                  and TorchScript's "~~~ <--- HERE" marker.
//   RuntimeError   raised while running: wrong argument types or count for a method, wrong tensor
//                  shapes or dtypes in a kernel, a TorchScript `raise` or failed `assert`.
//                  python_class() is the Python exception PyTorch would raise ("builtins.ValueError").
//   UsageError     a Kindling function was called wrongly (a negative thread count, an unsupported device,
//                  data_ptr<float>() on an int64 tensor, toInt() on an IValue holding a string).
//   InternalError  a bug in Kindling, not in the caller's input (a broken IR invariant, an unexpected
//                  exception inside Kindling); what() starts "internal error in Kindling, please report it: ".
//
// As in libtorch, the messages follow PyTorch's wording where PyTorch has one.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include "kindling/export.h"

namespace kindling {
namespace api {

class KINDLING_API Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

class KINDLING_API LoadError : public Error {
 public:
  explicit LoadError(const std::string& message) : Error(message) {}
};

class KINDLING_API CompileError : public Error {
 public:
  explicit CompileError(const std::string& message) : Error(message) {}
};

class KINDLING_API RuntimeError : public Error {
 public:
  RuntimeError(const std::string& message, std::string pythonClass = "builtins.RuntimeError",
               std::vector<std::string> callStack = {})
      : Error(message), python_class_(std::move(pythonClass)), call_stack_(std::move(callStack)) {}
  /// The Python exception class PyTorch raises for this error: "builtins.RuntimeError",
  /// "builtins.ValueError", "builtins.AssertionError", "builtins.IndexError", ...
  const std::string& python_class() const { return python_class_; }
  /// TorchScript functions active when the error was raised, outermost first ("forward", ...).
  const std::vector<std::string>& call_stack() const { return call_stack_; }

 private:
  std::string python_class_;
  std::vector<std::string> call_stack_;
};

class KINDLING_API UsageError : public Error {
 public:
  explicit UsageError(const std::string& message) : Error(message) {}
};

class KINDLING_API InternalError : public Error {
 public:
  explicit InternalError(const std::string& message) : Error(message) {}
};

}  // namespace api
#if KINDLING_EXPOSE_PUBLIC_NAMES
using namespace api;
#endif
}  // namespace kindling
