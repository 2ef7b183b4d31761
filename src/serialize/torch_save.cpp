// torch.save-format reading and writing. See torch_save.h.
#include "serialize/torch_save.h"

#include <cstdio>

#include "serialize/pickler.h"
#include "serialize/unpickler.h"
#include "serialize/zip_archive.h"

namespace kindling {

namespace {

/// Legacy torch.save files start with a protocol-2 pickle of a magic number.
bool looksLikeLegacyTorchSave(const unsigned char* b, size_t n) {
  return n >= 3 && b[0] == 0x80 && b[1] <= 5 && b[2] == 0x8a;
}

bool fileLooksLikeLegacyTorchSave(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  unsigned char b[3] = {0, 0, 0};
  size_t n = std::fread(b, 1, 3, f);
  std::fclose(f);
  return looksLikeLegacyTorchSave(b, n);
}

LoadError legacyFormatError(const std::string& name) {
  return LoadError(fmt::format("'{}' uses the legacy (pre-1.6, non-zip) torch.save format, which is not supported; "
                               "re-save it with a current torch.save", name));
}

IValue readTorchSave(const ZipReader& z) {
  const std::string& name = z.path();
  if (!z.hasRecord("data.pkl"))
    throw LoadError(fmt::format("archive '{}' has no record 'data.pkl' (not a torch.save file)", name));
  if (z.hasRecord("constants.pkl"))
    throw LoadError(fmt::format("'{}' is a TorchScript archive (torch.jit.save), not a torch.save file of values", name));
  RecordBuffer pkl = z.readRecord("data.pkl");
  Unpickler u(pkl.data(), pkl.size(), "data.pkl");
  u.setStorageLoader([&z](const std::string& key, size_t nbytes) -> Storage {
    std::string rec = "data/" + key;
    size_t size = z.recordSize(rec);
    if (size < nbytes)
      throw LoadError(fmt::format("archive '{}': record '{}' has {} bytes, the tensor needs {}", z.path(), rec, size, nbytes));
    return z.recordStorage(rec);
  });
  u.setSwapTensorBytes(z.tensorDataIsBigEndian());
  u.setClassResolver([](const std::string&) -> TypePtr { return nullptr; });
  return u.parse();
}

}  // namespace

IValue loadTorchSave(const std::string& path) {
  std::unique_ptr<ZipReader> zip;
  try {
    zip = std::make_unique<ZipReader>(path);
  } catch (const LoadError&) {
    if (fileLooksLikeLegacyTorchSave(path)) throw legacyFormatError(path);
    throw;
  }
  return readTorchSave(*zip);
}

IValue loadTorchSave(Storage bytes, const std::string& name) {
  std::unique_ptr<ZipReader> zip;
  const auto* b = static_cast<const unsigned char*>(bytes ? bytes->data() : nullptr);
  size_t n = bytes ? bytes->nbytes() : 0;
  try {
    zip = std::make_unique<ZipReader>(bytes, name);
  } catch (const LoadError&) {
    if (looksLikeLegacyTorchSave(b, n)) throw legacyFormatError(name);
    throw;
  }
  return readTorchSave(*zip);
}

void saveTorchSave(const IValue& value, const std::string& path) {
  Pickler p(Pickler::Mode::TorchSave);
  std::string pkl = p.pickle(value);
  ZipWriter w(path, "archive");
  w.writeRecord("data.pkl", pkl);
  w.writeRecord("byteorder", std::string("little"));
  for (const auto& s : p.storages()) w.writeRecord("data/" + s.key, s.storage->data(), s.nbytes);
  w.writeRecord("version", std::string("3\n"));
  w.close();
}

}  // namespace kindling
