// Archive export, first form: re-save a loaded archive (`kindling save ARCHIVE -o OUT.pt`). The code/
// records (and their .debug_pkl), extra/ files and the version record are copied from the source archive
// verbatim — the classes did not change — and data.pkl / constants.pkl are written anew from the module's
// current state with the pickler's TorchScript dialect (objects, type tags), tensors into data/<key> and
// constants/<key>, 64-byte aligned. torch.jit.load reads the result.
// Writing archives for programs compiled from source needs the code printer (issue 5).
#pragma once
#include <string>

#include "serialize/import_archive.h"

namespace kindling {

/// `archive` was loaded from `sourcePath` (its code/ is copied from there). The root folder of the new
/// archive is the output file's stem, as torch.jit.save names it. Throws LoadError on I/O errors and
/// Error for values that cannot be pickled.
void resaveArchive(const ImportedArchive& archive, const std::string& sourcePath, const std::string& outPath);

}  // namespace kindling
