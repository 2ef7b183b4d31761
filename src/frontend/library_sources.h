// The TorchScript sources the frontend compiles from itself (torch.nn.functional, torch/functional.py),
// embedded at build time from src/frontend/library/**/*.py (library/embed_sources.cmake generates the
// definitions). Those .py files are the only copy: they read, diff and lint as TorchScript.
#pragma once
#include <optional>
#include <string_view>
#include <vector>

namespace kindling {

/// The text of library file `path`, relative to src/frontend/library/ ("torch/nn/functional.py"), or
/// nullopt when there is no such file. The view points at static storage.
std::optional<std::string_view> embeddedLibrarySource(std::string_view path);

/// Every embedded path, sorted.
std::vector<std::string_view> embeddedLibraryPaths();

}  // namespace kindling
