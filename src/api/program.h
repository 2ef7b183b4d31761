// Program: what the CLI (and embedders) run — a TorchScript archive or a TorchScript source file (.py),
// and the method or function chosen in it (Callable). Also the textual summaries the CLI prints
// (`kindling inspect`, `kindling code` for archives).
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/ivalue.h"
#include "runtime/compilation_unit.h"
#include "runtime/graph_function.h"
#include "runtime/module.h"
#include "serialize/export_archive.h"
#include "serialize/import_archive.h"

namespace kindling {

/// A chosen method (with its module) or free function.
struct Callable {
  GraphFunction* function = nullptr;
  std::optional<Module> self;  // set for methods
  /// Checks the arguments against the schema (checkArguments in api.h), then runs.
  /// Throws RuntimeError for wrong arguments or errors raised by the program.
  IValue call(std::vector<IValue> args) const;
};

class Program {
 public:
  /// Files ending in ".py" are TorchScript source, anything else an archive. Throws LoadError /
  /// CompileError.
  static Program open(const std::string& path);

  /// --method NAME (archive methods; default "forward") or --function NAME (functions of a source file,
  /// or qualified/unqualified functions of an archive). Source files without --function: the only
  /// function, else `forward`, else UsageError. Unknown names throw Error (CLI exit 1).
  /// With `forInference`, an archive method is first specialized to the loaded module
  /// (Module::freezeMethod: never-written attributes become constants, conv+batch_norm folded), once,
  /// here at load time; results are unchanged. `run` and `bench` use it; `graph` and `code` do not.
  Callable select(const std::string& method, const std::string& function, bool forInference = false);

  /// The TorchScript source of a callable, as fn.code prints it where possible: for archives the
  /// method's definition from code/ (with `self` unannotated, dedented); for source files the `def`.
  std::string sourceOf(const Callable& c) const;

  /// `kindling save`: writes this program as a TorchScript archive. An archive is re-saved
  /// (serialize/export_archive.h resaveArchive: code/ copied, or printed anew with `reprint`); a source
  /// program's function — `function`, or the one select() would pick — is saved as
  /// torch.jit.script(fn).save() saves it: a `__torch__.PlaceholderModule` whose forward is the function,
  /// code printed by the code printer. `extraFiles` become extra/<name> records.
  void save(const std::string& outPath, const std::string& function, const ExtraFilesMap& extraFiles,
            bool reprint = false);

  const std::string& path() const { return path_; }
  bool isArchive() const { return archive_.has_value(); }
  const ImportedArchive& archive() const { return *archive_; }
  const std::shared_ptr<CompilationUnit>& compilationUnit() const { return cu_; }

 private:
  std::string path_;
  std::optional<ImportedArchive> archive_;
  std::shared_ptr<CompilationUnit> cu_;
  std::string sourceText_;  // source programs
};

/// `kindling inspect`: version, root folder and records, extra files with sizes, classes with
/// attributes/constants/methods (full schemas), parameters and buffers with shapes and dtypes, the module
/// tree, and the values of every module's plain attributes.
std::string describeArchive(const ImportedArchive& a);
/// `kindling inspect --json`: the same facts for tools, one JSON object: format ("zip" or
/// "flatbuffer"), root, version,
/// lite_interpreter, records, extra_files {name: {bytes}}, constants (count), module (tree: name, type,
/// attributes [{name, type, value | tensor}], children), classes [{name, kind, attributes [{name, type,
/// role}], constants, methods [{name, schema}]}], parameters and buffers [{name, shape, dtype, numel}],
/// parameter_count. Strings that are not UTF-8 have the bad bytes replaced.
std::string describeArchiveJson(const ImportedArchive& a);

/// Compiles a TorchScript source program (top-level defs and classes, DESIGN.md's import rules) into a
/// new CompilationUnit. Throws CompileError.
std::shared_ptr<CompilationUnit> compileSourceFile(const std::string& path, const std::string& text);

}  // namespace kindling
