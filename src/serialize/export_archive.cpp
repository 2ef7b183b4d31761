// Re-saving archives. See export_archive.h.
#include "serialize/export_archive.h"

#include "serialize/pickler.h"
#include "serialize/zip_archive.h"

namespace kindling {

namespace {

std::string stemOf(const std::string& path) {
  size_t slash = path.find_last_of('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  size_t dot = base.find_last_of('.');
  if (dot != std::string::npos && dot > 0) base = base.substr(0, dot);
  return base.empty() ? "archive" : base;
}

void writePickle(ZipWriter& w, const std::string& name, const std::string& folder, const IValue& v) {
  Pickler p(Pickler::Mode::TorchScript);
  std::string bytes = p.pickle(v);
  for (const auto& s : p.storages()) w.writeRecord(folder + "/" + s.key, s.storage->data(), s.nbytes);
  w.writeRecord(name, bytes);
}

}  // namespace

void resaveArchive(const ImportedArchive& archive, const std::string& sourcePath, const std::string& outPath) {
  ZipReader src(sourcePath);
  ZipWriter w(outPath, stemOf(outPath));
  // Tensor data first, then the pickles, code and version, as torch.jit.save orders them.
  writePickle(w, "data.pkl", "data", IValue(archive.module.object()));
  for (const std::string& r : src.records()) {
    if (r.rfind("code/", 0) == 0 || r.rfind("extra/", 0) == 0) w.writeRecord(r, src.readRecordString(r));
  }
  writePickle(w, "constants.pkl", "constants", makeTuple(archive.constants));
  w.writeRecord("version", std::to_string(archive.version) + "\n");
  w.close();
}

}  // namespace kindling
