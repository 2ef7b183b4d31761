// Archive import. See import_archive.h.
#include "serialize/import_archive.h"

#include "core/echo_excerpt.h"

#include <cctype>
#include <cstdio>
#include <unordered_set>

#include "passes/canonicalize/upgraders.h"
#include "runtime/graph_function.h"
#include "serialize/flatbuffer_import.h"
#include "serialize/import_source.h"
#include "serialize/unpickler.h"
#include "serialize/zip_archive.h"

namespace kindling {

namespace {

constexpr int64_t kMinVersion = kMinSupportedFileFormatVersion, kMaxVersion = kMaxSupportedFileFormatVersion;

int64_t readVersion(const ZipReader& zip) {
  std::string rec = zip.hasRecord(".data/version") ? ".data/version" : "version";
  if (!zip.hasRecord(rec)) {
    if (zip.hasRecord("model.json"))
      throw LoadError(fmt::format("'{}' is a legacy model.json archive (PyTorch <= 1.2), which is not supported (PyTorch "
                                  "1.13 cannot load it either: re-save it with PyTorch 1.3 to 1.13)", zip.path()));
    throw LoadError(fmt::format("archive '{}' has no record 'version' (not a TorchScript archive?)", zip.path()));
  }
  std::string s = zip.readRecordString(rec);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  // PyTorch reads it with stoull, which skips leading white space.
  size_t lead = 0;
  while (lead < s.size() && std::isspace(static_cast<unsigned char>(s[lead]))) ++lead;
  s.erase(0, lead);
  // at most 18 digits: the value fits in int64 (checked before any digit is accumulated)
  bool ok = !s.empty() && s.size() <= 18;
  for (size_t i = 0; ok && i < s.size(); ++i) ok = s[i] >= '0' && s[i] <= '9';
  if (!ok) throw LoadError(fmt::format("archive '{}': malformed version record '{}'", zip.path(), echoExcerpt(s, 40)));
  int64_t v = 0;
  for (char c : s) v = v * 10 + (c - '0');
  if (v < kMinVersion || v > kMaxVersion)
    throw LoadError(fmt::format("archive '{}' has file format version {}; Kindling supports versions {} to {}", zip.path(),
                                v, kMinVersion, kMaxVersion));
  // Versions 1 and 2 differ from 3 only in the pickles' container type tags, which the unpickler does
  // without; PyTorch 1.13 reads such archives when they hold data.pkl, and so does Kindling. The
  // model.json layout of PyTorch <= 1.2 is another format altogether (PyTorch 1.13 cannot read it either).
  if (zip.hasRecord("model.json") && !zip.hasRecord("data.pkl"))
    throw LoadError(fmt::format("'{}' is a legacy model.json archive (format version {}, PyTorch <= 1.2), which is not "
                                "supported (PyTorch 1.13 cannot load it either: re-save it with PyTorch 1.3 to 1.13)",
                                zip.path(), v));
  return v;
}

Unpickler::StorageLoader storageLoader(const ZipReader& zip, const std::string& folder) {
  return [&zip, folder](const std::string& key, size_t nbytes) -> Storage {
    std::string rec = folder + "/" + key;
    size_t size = zip.recordSize(rec);
    if (size < nbytes)
      throw LoadError(fmt::format("archive '{}': record '{}' has {} bytes, the tensor needs {}", zip.path(), rec, size, nbytes));
    return zip.recordStorage(rec);
  };
}

}  // namespace

void compileReachable(const IValue& root, bool compileRootMethods) {
  std::unordered_set<const ClassType*> seenTypes;
  CompileCheck check;
  const Object* rootObject = root.isObject() ? &root.toObjectRef() : nullptr;
  forEachReachableObject(root, [&](const Object& o) {
    if (!seenTypes.insert(o.type.get()).second) return;
    const bool compile = compileRootMethods && &o == rootObject;
    for (Function* f : o.type->methods()) {
      if (auto* gf = dynamic_cast<GraphFunction*>(f)) {
        gf->ensureDefined();
        if (compile) gf->code();
        else check.check(*gf);
      }
    }
  });
}

namespace {

// Shared: the importer reads code/ files lazily, possibly after this function returns.
ImportedArchive importFromZip(const std::shared_ptr<ZipReader>& zipPtr, const ImportOptions& options) {
  const ZipReader& zip = *zipPtr;
  const std::string& path = zip.path();
  ImportedArchive out;
  out.rootName = zip.rootName();
  out.records = zip.records();
  for (const std::string& r : out.records)
    if (r.rfind("extra/", 0) == 0 && r.size() > 6) out.extraFiles[r.substr(6)] = zip.readRecordString(r);
  out.version = readVersion(zip);
  // Tensor records of an archive written on a big-endian machine are byte-swapped as they are read (as
  // torch.load does); the pickles themselves are endian-independent.
  const bool bigEndian = zip.tensorDataIsBigEndian();
  if (!zip.hasRecord("data.pkl")) {
    if (zip.hasRecord("bytecode.pkl"))
      throw LoadError(fmt::format("'{}' is a mobile (lite interpreter) archive without data.pkl, which is not supported yet", path));
    throw LoadError(fmt::format("archive '{}' has no record 'data.pkl'", path));
  }
  auto cu = std::make_shared<CompilationUnit>();

  // constants.pkl first: the code refers to its tensors as CONSTANTS.c<N>. (It holds tensors only in
  // archives written by PyTorch; classes there would be an unknown-class LoadError.)
  if (zip.hasRecord("constants.pkl")) {
    RecordBuffer buf = zip.readRecord("constants.pkl");
    Unpickler u(buf.data(), buf.size(), "constants.pkl");
    u.setStorageLoader(storageLoader(zip, "constants"));
    u.setSwapTensorBytes(bigEndian);
    IValue c = u.parse();
    if (!c.isTuple()) throw LoadError(fmt::format("archive '{}': constants.pkl does not hold a tuple", path));
    out.constants = c.toTupleRef().elements;
  }

  SourceImporter importer(
      *cu,
      [zipPtr](const std::string& rec) -> std::optional<std::string> {
        if (!zipPtr->hasRecord(rec)) return std::nullopt;
        return zipPtr->readRecordString(rec);
      },
      out.constants, static_cast<uint64_t>(out.version));
  Unpickler::ClassResolver resolver = [&importer](const std::string& qualname) -> TypePtr {
    return importer.loadType(qualname);
  };

  RecordBuffer buf = zip.readRecord("data.pkl");
  Unpickler u(buf.data(), buf.size(), "data.pkl");
  u.setClassResolver(resolver);
  u.setStorageLoader(storageLoader(zip, "data"));
  u.setSwapTensorBytes(bigEndian);
  IValue root = u.parse();
  if (!root.isObject())
    throw LoadError(fmt::format("archive '{}': data.pkl holds a {}, not a module object", path, root.tagName()));
  out.module = Module(cu, root.toObject());
  compileReachable(root, options.compileRootMethods);
  return out;
}

}  // namespace

ImportedArchive importArchive(const std::string& path, const ImportOptions& options) {
  // Flatbuffer archives ("PTMF" at byte 4) are read whole; zip archives are mapped by ZipReader.
  char head[8] = {};
  size_t n = 0;
  if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
    n = std::fread(head, 1, sizeof head, f);
    if (isFlatbufferArchive(head, n)) {
      std::fseek(f, 0, SEEK_END);
      long size = std::ftell(f);
      std::fseek(f, 0, SEEK_SET);
      if (size < 0) {
        std::fclose(f);
        throw LoadError(fmt::format("cannot read '{}'", path));
      }
      auto bytes = makeIntrusive<StorageImpl>(static_cast<size_t>(size));
      size_t got = std::fread(bytes->data(), 1, static_cast<size_t>(size), f);
      std::fclose(f);
      if (got != static_cast<size_t>(size)) throw LoadError(fmt::format("cannot read '{}'", path));
      return importFlatbufferArchive(std::move(bytes), path, options);
    }
    std::fclose(f);
  }
  return importFromZip(std::make_shared<ZipReader>(path), options);
}

ImportedArchive importArchive(Storage bytes, const std::string& name, const ImportOptions& options) {
  if (isFlatbufferArchive(bytes->data(), bytes->nbytes())) return importFlatbufferArchive(std::move(bytes), name, options);
  return importFromZip(std::make_shared<ZipReader>(std::move(bytes), name), options);
}

Module loadArchive(const std::string& path) { return importArchive(path).module; }

}  // namespace kindling
