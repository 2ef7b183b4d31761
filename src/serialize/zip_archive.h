// Zip containers as torch.jit.save and torch.save write them (caffe2 PyTorchStreamReader/Writer).
//
// Every record of an archive sits under one root folder ("m/", "archive/", the file's stem — never assume
// the name). ZipReader opens a file with libzip, finds that root and reads records by their name relative
// to it ("data.pkl", "data/0", "code/__torch__.py"). ZipWriter writes the same layout itself: stored
// (uncompressed) records whose data starts on a 64-byte boundary (as PyTorch aligns them, so a reader can
// map tensor data in place), ZIP64 when needed, read by torch.load / torch.jit.load.
//
// Errors: everything that is wrong with the file (missing, not a zip, truncated, a missing record) throws
// LoadError with a one-line message naming the file and the record.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "serialize/output_file.h"
#include "tensor/tensor.h"

struct zip;

namespace kindling {

/// The bytes of an archive a ZipReader maps tensors from: an mmap'ed file or a buffer in memory.
struct ZipReaderMapping;

/// A record's bytes in a 64-byte aligned buffer (so tensor data can be used in place).
class RecordBuffer {
 public:
  RecordBuffer() = default;
  explicit RecordBuffer(size_t n);
  const char* data() const { return static_cast<const char*>(storage_ ? storage_->data() : nullptr); }
  char* data() { return static_cast<char*>(storage_ ? storage_->data() : nullptr); }
  size_t size() const { return size_; }
  std::string str() const { return std::string(data() ? data() : "", size_); }
  /// The buffer as a tensor Storage (no copy).
  const Storage& storage() const { return storage_; }
 private:
  Storage storage_;
  size_t size_ = 0;
};

class ZipReader {
 public:
  /// Opens `path`. Throws LoadError: "cannot open 'x.pt': No such file or directory",
  /// "'x.pt' is not a zip archive", "'x.pt' is truncated or corrupt", "'x.pt' is an empty archive".
  explicit ZipReader(const std::string& path);
  /// Reads an archive held in memory (`bytes`, kept alive by the reader and by the tensors it maps);
  /// `name` stands for the file in messages ("<memory buffer>"). The same LoadErrors as from a file.
  ZipReader(Storage bytes, std::string name);
  ~ZipReader();
  ZipReader(const ZipReader&) = delete;
  ZipReader& operator=(const ZipReader&) = delete;

  const std::string& path() const { return path_; }
  /// Root folder name without the trailing '/': "m", "archive".
  const std::string& rootName() const { return root_; }
  /// Record names relative to the root, in archive order ("data.pkl", "data/0", ...).
  const std::vector<std::string>& records() const { return records_; }
  bool hasRecord(const std::string& name) const;
  /// Uncompressed size of a record; throws LoadError when it does not exist.
  size_t recordSize(const std::string& name) const;
  /// Reads a whole record. Throws LoadError "archive 'x.pt' has no record 'data/3'" or on a read error.
  RecordBuffer readRecord(const std::string& name) const;
  /// Reads a record into existing memory of exactly recordSize(name) bytes.
  void readRecordInto(const std::string& name, void* dst, size_t n) const;
  std::string readRecordString(const std::string& name) const { return readRecord(name).str(); }
  /// A record's bytes as a tensor Storage. Stored (uncompressed), 64-byte aligned records — all tensor
  /// data PyTorch writes — are mapped from the file without a copy (copy-on-write, kept alive by the
  /// storages that use them); their CRC is not checked (bounds are). Anything else is read and CRC-checked
  /// as readRecord does.
  Storage recordStorage(const std::string& name) const;
  /// The optional `byteorder` record (written by torch.save of PyTorch >= 1.13 and by archives of
  /// big-endian machines): true when it says "big", false when it is absent or says "little" (trailing
  /// whitespace ignored). Throws LoadError "archive 'x.pt': unknown byteorder record 'y'" otherwise.
  bool tensorDataIsBigEndian() const;

 private:
  int64_t indexOf(const std::string& name) const;  // -1 when absent
  void mapFile();
  void indexRecords();
  void indexDirect(std::shared_ptr<ZipReaderMapping> m);
  using Mapping = ZipReaderMapping;
  struct Direct {
    uint64_t offset;
    uint64_t size;
  };
  std::shared_ptr<Mapping> map_;
  Storage buffer_;  // the archive held in memory (second constructor): libzip's source reads it
  std::unordered_map<std::string, Direct> direct_;  // stored, aligned records by relative name
  std::string path_;
  std::string tmpPath_;
  std::string root_;
  int uncaughtAtStart_;
  std::vector<std::string> records_;
  std::vector<int64_t> indices_;  // libzip index of each record
  struct zip* za_ = nullptr;
};

/// Writes a PyTorch-style zip: all records stored, data 64-byte aligned, entries under `rootName/`.
/// Records are written as they are added; close() (or the destructor) writes the central directory.
class ZipWriter {
 public:
  /// Writes `path` as an OutputFile (serialize/output_file.h): a regular file is replaced on close() by a
  /// temporary file renamed over it, so `path` is never left truncated and may be an archive that is
  /// being read (mapped) right now; a device or FIFO is written in place; a symbolic link's target is
  /// written. Destroyed while an exception unwinds, the writer removes the partial file. Throws LoadError
  /// when the file cannot be created.
  ZipWriter(const std::string& path, std::string rootName);
  ~ZipWriter();
  ZipWriter(const ZipWriter&) = delete;
  ZipWriter& operator=(const ZipWriter&) = delete;
  /// Adds "rootName/name". Throws Error on a duplicate name or a write error.
  void writeRecord(const std::string& name, const void* data, size_t size);
  void writeRecord(const std::string& name, const std::string& s) { writeRecord(name, s.data(), s.size()); }
  /// Writes the central directory and closes the file (idempotent).
  void close();

 private:
  struct Entry {
    std::string name;
    uint32_t crc;
    uint64_t size;
    uint64_t offset;
  };
  void put(const void* p, size_t n);
  std::string path_;
  std::string root_;
  int uncaughtAtStart_;
  std::unique_ptr<OutputFile> out_;  // null once closed
  uint64_t pos_ = 0;
  std::vector<Entry> entries_;
};

/// CRC-32 (zip polynomial) of a buffer, continuing from `crc`.
uint32_t crc32Update(uint32_t crc, const void* data, size_t n);

}  // namespace kindling
