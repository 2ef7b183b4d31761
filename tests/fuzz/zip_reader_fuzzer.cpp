// Fuzz target: the zip reader (serialize/zip_archive.h) on an archive held in memory. Every record is
// read whole and as a Storage, so the central directory, local headers, sizes, CRCs and the mapped
// (stored, aligned) fast path are all exercised.
#include "fuzz_input.h"
#include "serialize/zip_archive.h"

using namespace kindling;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::acceptCleanErrors([&] {
    ZipReader zip(fuzz::inputStorage(data, size), "<fuzz input>");
    for (const std::string& name : zip.records()) {
      fuzz::acceptCleanErrors([&] {
        size_t n = zip.recordSize(name);
        RecordBuffer b = zip.readRecord(name);
        if (b.size() != n) KD_INTERNAL_ASSERT(false, "readRecord size differs from recordSize");
        Storage s = zip.recordStorage(name);
        if (s->nbytes() < n) KD_INTERNAL_ASSERT(false, "recordStorage is shorter than recordSize");
      });
    }
    fuzz::acceptCleanErrors([&] { zip.tensorDataIsBigEndian(); });
  });
  return 0;
}
