// Fuzz target: the archive importer as a whole (serialize/import_archive.h): zip or flatbuffer, version
// and records, data.pkl / constants.pkl with their tensors, code/ compiled eagerly, as `kindling run`
// loads a model.
#include "fuzz_input.h"
#include "serialize/import_archive.h"

using namespace kindling;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::acceptCleanErrors([&] { ImportedArchive a = importArchive(fuzz::inputStorage(data, size), "<fuzz input>"); });
  return 0;
}
