// Flatbuffer archives: the form torch.jit.save_jit_module_to_flatbuffer (and
// _save_for_lite_interpreter(_use_flatbuffer=True)) writes, file identifier "PTMF" at byte 4, schema
// serialize/mobile_bytecode.fbs, read with Debian's flatbuffers library.
//
// Such a file holds the module's TorchScript sources (jit_sources: one entry per code/ file), the module
// tree as a table of values (ivalues: objects, tensors, lists, ...), the tensor storages, and the mobile
// bytecode of the methods. Kindling reads the sources and the values and compiles the classes with its
// own frontend, exactly as for a zip archive; the bytecode is not used. The buffer is checked with the
// flatbuffers Verifier first, so a malformed or hostile file is a LoadError, never an out-of-bounds read.
#pragma once
#include <cstddef>
#include <string>

#include "serialize/import_archive.h"

namespace kindling {

/// True when `data` starts like a flatbuffer archive ("PTMF" at byte 4).
bool isFlatbufferArchive(const void* data, size_t size);

/// Highest flatbuffer bytecode version Kindling reads (PyTorch writes 9).
constexpr uint32_t kMaxFlatbufferBytecodeVersion = 9;

/// Loads a flatbuffer archive held in `bytes`; `name` names it in messages. The ImportedArchive has
/// rootName "" and records = the code/ paths of its sources; `version` is the file format version the
/// operators were written with (the operator_version field). Throws LoadError for a malformed file, a
/// bytecode or operator version newer than Kindling knows (naming both versions), a file without
/// TorchScript sources (mobile bytecode only), or values Kindling cannot represent (quantized or
/// complex tensors, custom classes); CompileError for bad sources.
ImportedArchive importFlatbufferArchive(Storage bytes, const std::string& name, const ImportOptions& options = {});

}  // namespace kindling
