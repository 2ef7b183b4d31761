// Archive export: a Module → a zip torch.jit.load reads (torch::jit::ExportModule /
// ScriptModuleSerializer in PyTorch 1.13), and the `_extra_files` of archives.
//
// What exportModule writes, in PyTorch's record order, under the root folder named after the output
// file's stem (as torch.jit.save names it):
//   extra/<name>        the caller's extra files, verbatim
//   data/<key>          every tensor storage of the module tree (stored, 64-byte aligned)
//   data.pkl            the root object: objects as GLOBAL __torch__.<class> + NEWOBJ + attribute dict +
//                       BUILD (or the class's __getstate__ result), containers with type tags
//   code/<qualifier>.py the classes and functions the module needs, printed by the code printer
//                       (serialize/python_print.h), one file per qualified-name prefix, each with one
//                       printer as PyTorch uses one PythonPrint per file (so temporaries _0, _1, ... count
//                       across the classes of a file); no .debug_pkl (PyTorch loads archives without it)
//   constants/<key>     storages of the printer's constant table
//   constants.pkl       that table as a tuple (CONSTANTS.c0, c1, ...)
//   version             the smallest file format version covering the operators the code calls
//                       (3, or 4 with aten::div, ... 10 with aten::gelu: passes/canonicalize/upgraders.h),
//                       written as `.data/version` from 6 on, as PyTorch's writer does
//
// resaveArchive re-saves a loaded archive: by default its code/ records (with .debug_pkl) and version are
// copied verbatim — its classes did not change — and the state is written anew; with `reprint` the code
// is printed from the compiled classes like exportModule does.
//
// Errors: LoadError when the file cannot be written; Error for values that cannot be pickled or graphs
// the printer cannot write as source.
#pragma once
#include <map>
#include <string>

#include "runtime/graph_function.h"
#include "runtime/module.h"
#include "serialize/import_archive.h"

namespace kindling {

/// Extra files by name (`extra/<name>` records), as libtorch's ExtraFilesMap.
using ExtraFilesMap = std::map<std::string, std::string>;

/// Writes `module` (any module: compiled from source, or loaded) as a TorchScript archive.
void exportModule(const Module& module, const std::string& outPath, const ExtraFilesMap& extraFiles = {});

/// Re-saves `archive`, loaded from `sourcePath`. `extraFiles` replace or add to the source's extra/ files.
void resaveArchive(const ImportedArchive& archive, const std::string& sourcePath, const std::string& outPath,
                   const ExtraFilesMap& extraFiles = {}, bool reprint = false);

/// What torch.jit.script(fn).save() saves for a free function (ScriptFunction.save in 1.13): a module of
/// class `__torch__.PlaceholderModule` with one attribute `training: bool = True` and the function's graph
/// as its `forward` (self added as first input). The class and method live in a new CompilationUnit;
/// functions `fn` calls stay in theirs and are printed as dependencies.
Module placeholderModuleFor(GraphFunction& fn);

/// The file format version to declare for code whose graphs are `graphs` (max of
/// kMinProducedFileFormatVersion and every called operator's minFileVersionForOperator).
uint64_t fileVersionFor(const std::vector<std::shared_ptr<Graph>>& graphs);

}  // namespace kindling
