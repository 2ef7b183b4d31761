// Archive import: a zip written by torch.jit.save (or Kindling), or a flatbuffer archive
// (serialize/flatbuffer_import.h), → Module (torch::jit::import_ir_module).
//
// Order, as libtorch: check the version record (".data/version", else "version"; 1..10 accepted, format
// versions 1–2 are the legacy model.json layout and are rejected with a clear LoadError), unpickle
// constants.pkl (tensor tuple; storages in constants/<key>), then data.pkl (module tree; storages in
// data/<key>) with `__torch__.*` classes compiled on demand from code/ by serialize/import_source.h.
// Finally every method of every module class reachable from the root is emitted and checked now, so
// compile errors surface at load; the root module's methods are also optimized and compiled to interpreter
// code (the first call costs no more than later ones), the other classes' methods at their first call
// (they are mostly inlined into the root's: their own optimized graphs would hold their callees again).
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime/module.h"
#include "tensor/tensor.h"

namespace kindling {

struct ImportedArchive {
  Module module;
  std::string format = "zip";          // "zip", or "flatbuffer" (serialize/flatbuffer_import.h)
  int64_t version = 0;                 // file format version from the version record
  std::string rootName;                // zip root folder
  std::vector<std::string> records;    // record names relative to the root
  std::vector<IValue> constants;       // constants.pkl
  std::map<std::string, std::string> extraFiles;  // extra/<name> records (torch.jit.load's _extra_files)
};

struct ImportOptions {
  /// Every method of every class reachable from the module is emitted and checked at load in any case
  /// (CompileCheck: compile errors surface at load). With compileRootMethods the root module's methods are
  /// also optimized and compiled to interpreter code (no first-call cliff); callers that compile the
  /// method they run themselves (Program::select, the C++ API's frozen forward) turn it off.
  bool compileRootMethods = true;
};

/// Tensor records of an archive whose `byteorder` record says "big" are byte-swapped while read.
/// Throws LoadError for file/zip/pickle/version problems (also an unknown `byteorder`), CompileError for
/// code/ that does not compile.
ImportedArchive importArchive(const std::string& path, const ImportOptions& options = {});
/// The same from an archive in memory (copied into `bytes` by the caller; tensors map it without another
/// copy). `name` stands for the file in messages ("<memory buffer>", "<stream>").
ImportedArchive importArchive(Storage bytes, const std::string& name, const ImportOptions& options = {});

/// Emits and checks (CompileCheck) every method of every class of the objects reachable from `root`,
/// each class once, and with `compileRootMethods` compiles the root object's methods to interpreter code:
/// what the end of a load does (ImportOptions).
void compileReachable(const IValue& root, bool compileRootMethods = true);

/// importArchive(path).module.
Module loadArchive(const std::string& path);

}  // namespace kindling
