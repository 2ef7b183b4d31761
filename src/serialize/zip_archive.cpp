// Zip reading (libzip) and PyTorch-style zip writing. See zip_archive.h.
#include "serialize/zip_archive.h"

#include "core/echo_excerpt.h"

#include <cctype>

#include <exception>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <unordered_set>

namespace kindling {

RecordBuffer::RecordBuffer(size_t n) : storage_(makeIntrusive<StorageImpl>(n == 0 ? 1 : n)), size_(n) {}

namespace {

std::string libzipError(int code) {
  zip_error_t err;
  zip_error_init_with_code(&err, code);
  std::string s = zip_error_strerror(&err);
  zip_error_fini(&err);
  return s;
}

}  // namespace

struct ZipReaderMapping {
  void* base = nullptr;
  size_t size = 0;
  Storage owner;  // set for a buffer in memory; otherwise base is an mmap of the file
  ~ZipReaderMapping() {
    if (base && !owner) munmap(base, size);
  }
};

ZipReader::ZipReader(const std::string& path) : path_(path) {
  int code = 0;
  za_ = zip_open(path.c_str(), ZIP_RDONLY | ZIP_CHECKCONS, &code);
  if (!za_) {
    switch (code) {
      case ZIP_ER_NOENT:
        throw LoadError(fmt::format("cannot open '{}': No such file or directory", path));
      case ZIP_ER_OPEN:
      case ZIP_ER_READ:
        throw LoadError(fmt::format("cannot open '{}': {}", path, std::strerror(errno ? errno : EIO)));
      case ZIP_ER_NOZIP: {
        // Flatbuffer lite-interpreter models (_save_for_lite_interpreter(_use_flatbuffer=True), bytecode
        // version 9) carry the file identifier "PTMF" at byte 4.
        char head[8] = {};
        if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
          size_t n = std::fread(head, 1, sizeof head, f);
          std::fclose(f);
          if (n == sizeof head && std::memcmp(head + 4, "PTMF", 4) == 0)
            throw LoadError(fmt::format("'{}' is a flatbuffer lite-interpreter model, which Kindling does not read: save "
                                        "it with torch.jit.save or _save_for_lite_interpreter(path) (zip form)",
                                        path));
        }
        throw LoadError(fmt::format("'{}' is not a zip archive (a TorchScript archive or torch.save file)", path));
      }
      case ZIP_ER_INCONS:
      case ZIP_ER_EOF:
        throw LoadError(fmt::format("'{}' is truncated or corrupt (inconsistent zip archive)", path));
      case ZIP_ER_MEMORY:
        throw LoadError(fmt::format("out of memory opening '{}'", path));
      case ZIP_ER_EXISTS:  // two directory entries of one name: readers disagree on which one is meant
        throw LoadError(fmt::format("'{}' is corrupt: two records have the same name", path));
      default:
        throw LoadError(fmt::format("cannot read zip archive '{}': {}", path, libzipError(code)));
    }
  }
  indexRecords();
  mapFile();
}

ZipReader::ZipReader(Storage bytes, std::string name) : path_(std::move(name)) {
  const size_t size = bytes ? bytes->nbytes() : 0;
  if (size >= 8 && std::memcmp(static_cast<const char*>(bytes->data()) + 4, "PTMF", 4) == 0)
    throw LoadError(fmt::format("'{}' is a flatbuffer archive, not a zip archive", path_));
  zip_error_t err;
  zip_error_init(&err);
  zip_source_t* src = zip_source_buffer_create(size ? bytes->data() : "", size, 0, &err);
  if (src) za_ = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &err);
  if (!za_) {
    int code = zip_error_code_zip(&err);
    zip_error_fini(&err);
    if (src) zip_source_free(src);
    switch (code) {
      case ZIP_ER_NOZIP:
        throw LoadError(fmt::format("'{}' is not a zip archive (a TorchScript archive or torch.save file)", path_));
      case ZIP_ER_INCONS:
      case ZIP_ER_EOF:
        throw LoadError(fmt::format("'{}' is truncated or corrupt (inconsistent zip archive)", path_));
      case ZIP_ER_MEMORY:
        throw LoadError(fmt::format("out of memory opening '{}'", path_));
      case ZIP_ER_EXISTS:  // two directory entries of one name: readers disagree on which one is meant
        throw LoadError(fmt::format("'{}' is corrupt: two records have the same name", path_));
      default:
        throw LoadError(fmt::format("cannot read zip archive '{}': {}", path_, libzipError(code)));
    }
  }
  zip_error_fini(&err);
  buffer_ = bytes;  // libzip reads from it until zip_close, whether or not any record is mapped
  indexRecords();
  auto m = std::make_shared<Mapping>();
  m->base = bytes->data();
  m->size = size;
  m->owner = std::move(bytes);
  indexDirect(std::move(m));
}

void ZipReader::indexRecords() {
  const std::string& path = path_;
  zip_int64_t n = zip_get_num_entries(za_, 0);
  for (zip_int64_t i = 0; i < n; ++i) {
    const char* name = zip_get_name(za_, static_cast<zip_uint64_t>(i), ZIP_FL_ENC_RAW);
    if (!name) continue;
    std::string s(name);
    size_t slash = s.find('/');
    if (slash == std::string::npos) {
      if (root_.empty() && records_.empty()) {
        // A record outside any folder: PyTorch's writer never does this.
        zip_close(za_);
        za_ = nullptr;
        throw LoadError(fmt::format("'{}' is not a PyTorch archive: record '{}' is not under a root folder", path, s));
      }
      continue;
    }
    std::string root = s.substr(0, slash);
    if (root_.empty() && records_.empty()) root_ = root;
    if (root != root_) continue;  // PyTorch's reader ignores records outside the root folder
    std::string rel = s.substr(slash + 1);
    if (rel.empty() || rel.back() == '/') continue;  // directory entries
    records_.push_back(std::move(rel));
    indices_.push_back(i);
  }
  if (records_.empty()) {
    zip_close(za_);
    za_ = nullptr;
    throw LoadError(fmt::format("'{}' is an empty archive", path));
  }
}


namespace {
uint16_t rd16(const unsigned char* p) { return uint16_t(p[0] | p[1] << 8); }
uint32_t rd32(const unsigned char* p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24; }
uint64_t rd64(const unsigned char* p) { return uint64_t(rd32(p)) | uint64_t(rd32(p + 4)) << 32; }
}  // namespace

// Maps the file and indexes its stored, 64-byte aligned records from the central directory. Every read
// is bounds-checked; anything unexpected just leaves the record to the libzip path.
void ZipReader::mapFile() {
  int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  struct stat st;
  if (fstat(fd, &st) != 0 || st.st_size < 22) {
    ::close(fd);
    return;
  }
  size_t n = static_cast<size_t>(st.st_size);
  void* base = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (base == MAP_FAILED) return;
  auto m = std::make_shared<Mapping>();
  m->base = base;
  m->size = n;
  indexDirect(std::move(m));
}

void ZipReader::indexDirect(std::shared_ptr<Mapping> m) {
  const size_t n = m->size;
  if (n < 22) return;
  const unsigned char* f = static_cast<const unsigned char*>(m->base);
  // End of central directory record.
  size_t eocd = SIZE_MAX;
  size_t lowest = n > 22 + 65535 ? n - 22 - 65535 : 0;
  for (size_t i = n - 22 + 1; i-- > lowest;) {
    if (rd32(f + i) == 0x06054b50) { eocd = i; break; }
  }
  if (eocd == SIZE_MAX) return;
  // What libzip lets through but PyTorch's reader (miniz) rejects: parts of a multi-disk archive and
  // encrypted records. Kindling would otherwise read them, or map an encrypted record's bytes as tensor data.
  auto reject = [&](const std::string& what) {
    zip_discard(za_);
    za_ = nullptr;
    throw LoadError(fmt::format("'{}' is not a readable zip archive: {}", path_, what));
  };
  uint64_t entries = rd16(f + eocd + 10), cdSize = rd32(f + eocd + 12), cdOff = rd32(f + eocd + 16);
  if (entries == 0xFFFF || cdSize == 0xFFFFFFFFu || cdOff == 0xFFFFFFFFu) {
    if (eocd < 20 || rd32(f + eocd - 20) != 0x07064b50) return;
    if (rd32(f + eocd - 20 + 4) != 0 || rd32(f + eocd - 20 + 16) > 1) reject("a multi-disk archive (ZIP64 locator)");
    uint64_t z64 = rd64(f + eocd - 20 + 8);
    if (z64 > n - 56 || rd32(f + z64) != 0x06064b50) return;
    if (rd32(f + z64 + 16) != 0 || rd32(f + z64 + 20) != 0) reject("a multi-disk archive (ZIP64 end record)");
    entries = rd64(f + z64 + 32);
    cdSize = rd64(f + z64 + 40);
    cdOff = rd64(f + z64 + 48);
  }
  if (cdOff > n || cdSize > n - cdOff) return;
  std::string prefix = root_ + "/";
  uint64_t p = cdOff, end = cdOff + cdSize;
  for (uint64_t e = 0; e < entries; ++e) {
    if (p + 46 > end || rd32(f + p) != 0x02014b50) break;
    uint16_t method = rd16(f + p + 10);
    uint64_t csize = rd32(f + p + 20), usize = rd32(f + p + 24);
    uint16_t nameLen = rd16(f + p + 28), extraLen = rd16(f + p + 30), commentLen = rd16(f + p + 32);
    uint64_t local = rd32(f + p + 42);
    uint64_t next = p + 46 + nameLen + extraLen + commentLen;
    if (next > end) break;
    std::string name(reinterpret_cast<const char*>(f + p + 46), nameLen);
    if (rd16(f + p + 34) != 0) reject(fmt::format("record '{}' is on disk {} of a multi-disk archive", echoExcerpt(name), rd16(f + p + 34)));
    if (rd16(f + p + 8) & 1) reject(fmt::format("record '{}' is encrypted", echoExcerpt(name)));
    // ZIP64 extra field: the 0xFFFFFFFF fields in order usize, csize, offset.
    const unsigned char* x = f + p + 46 + nameLen;
    for (size_t k = 0; k + 4 <= extraLen;) {
      uint16_t id = rd16(x + k), len = rd16(x + k + 2);
      if (k + 4 + len > extraLen) break;
      if (id == 0x0001) {
        size_t q = k + 4, qe = k + 4 + len;
        if (usize == 0xFFFFFFFFu && q + 8 <= qe) { usize = rd64(x + q); q += 8; }
        if (csize == 0xFFFFFFFFu && q + 8 <= qe) { csize = rd64(x + q); q += 8; }
        if (local == 0xFFFFFFFFu && q + 8 <= qe) { local = rd64(x + q); q += 8; }
      }
      k += 4 + len;
    }
    p = next;
    if (method != 0 || csize != usize || usize == 0 || name.compare(0, prefix.size(), prefix) != 0) continue;
    if (local > n - 30 || rd32(f + local) != 0x04034b50) continue;
    uint64_t data = local + 30 + rd16(f + local + 26) + rd16(f + local + 28);
    if (data > n || usize > n - data || data % 64 != 0) continue;
    direct_.emplace(name.substr(prefix.size()), Direct{data, usize});
  }
  map_ = std::move(m);
}

Storage ZipReader::recordStorage(const std::string& name) const {
  auto it = direct_.find(name);
  if (it == direct_.end() || !map_) return readRecord(name).storage();
  if (static_cast<uint64_t>(recordSize(name)) != it->second.size) return readRecord(name).storage();
  std::shared_ptr<Mapping> keep = map_;
  void* p = static_cast<char*>(map_->base) + it->second.offset;
  Storage s = makeIntrusive<StorageImpl>(p, static_cast<size_t>(it->second.size), [keep](void*) mutable { keep.reset(); });
  if (!keep->owner) s->setFileMapped();  // an mmap of the file, not a buffer in memory
  return s;
}

ZipReader::~ZipReader() {
  if (za_) zip_discard(za_);
}

int64_t ZipReader::indexOf(const std::string& name) const {
  std::string full = root_ + "/" + name;
  zip_int64_t i = zip_name_locate(za_, full.c_str(), ZIP_FL_ENC_RAW);
  return i < 0 ? -1 : static_cast<int64_t>(i);
}

bool ZipReader::hasRecord(const std::string& name) const { return indexOf(name) >= 0; }

bool ZipReader::tensorDataIsBigEndian() const {
  if (!hasRecord("byteorder")) return false;
  std::string order = readRecordString("byteorder");
  while (!order.empty() && std::isspace(static_cast<unsigned char>(order.back()))) order.pop_back();
  if (order == "big") return true;
  if (order == "little") return false;
  throw LoadError(fmt::format("archive '{}': unknown byteorder record '{}'", path_, echoExcerpt(order, 40)));
}

size_t ZipReader::recordSize(const std::string& name) const {
  int64_t i = indexOf(name);
  if (i < 0) throw LoadError(fmt::format("archive '{}' has no record '{}'", path_, name));
  zip_stat_t st;
  zip_stat_init(&st);
  if (zip_stat_index(za_, static_cast<zip_uint64_t>(i), 0, &st) != 0 || !(st.valid & ZIP_STAT_SIZE))
    throw LoadError(fmt::format("archive '{}': cannot stat record '{}'", path_, name));
  // A directory entry's size is only a claim: it must be one the record's bytes can produce, so that an
  // archive of a few bytes cannot make a reader allocate gigabytes. Stored records hold exactly their
  // size; deflate expands at most 1032:1.
  if (st.valid & ZIP_STAT_COMP_SIZE) {
    const uint64_t archiveSize = map_ ? map_->size : (buffer_ ? buffer_->nbytes() : UINT64_MAX);
    const bool stored = (st.valid & ZIP_STAT_COMP_METHOD) && st.comp_method == ZIP_CM_STORE;
    const bool deflated = (st.valid & ZIP_STAT_COMP_METHOD) && st.comp_method == ZIP_CM_DEFLATE;
    if (st.comp_size > archiveSize || (stored && st.size != st.comp_size) ||
        (deflated && st.size / 1032 > st.comp_size + 1))
      throw LoadError(fmt::format("archive '{}' is truncated or corrupt: record '{}' claims {} bytes from {} "
                                  "stored bytes in an archive of {}",
                                  path_, name, st.size, st.comp_size,
                                  archiveSize == UINT64_MAX ? std::string("unknown size") : std::to_string(archiveSize)));
  }
  return static_cast<size_t>(st.size);
}

void ZipReader::readRecordInto(const std::string& name, void* dst, size_t n) const {
  int64_t i = indexOf(name);
  if (i < 0) throw LoadError(fmt::format("archive '{}' has no record '{}'", path_, name));
  zip_file_t* zf = zip_fopen_index(za_, static_cast<zip_uint64_t>(i), 0);
  if (!zf)
    throw LoadError(fmt::format("archive '{}': cannot read record '{}': {}", path_, name,
                                zip_error_strerror(zip_get_error(za_))));
  size_t done = 0;
  char* out = static_cast<char*>(dst);
  while (done < n) {
    zip_int64_t r = zip_fread(zf, out + done, n - done);
    if (r < 0) {
      std::string msg = zip_error_strerror(zip_file_get_error(zf));
      zip_fclose(zf);
      throw LoadError(fmt::format("archive '{}': cannot read record '{}' (truncated or corrupt): {}", path_, name, msg));
    }
    if (r == 0) break;
    done += static_cast<size_t>(r);
  }
  // Read to the end so that libzip checks the CRC of the whole record.
  char extra;
  zip_int64_t r = done == n ? zip_fread(zf, &extra, 1) : 0;
  std::string msg = r < 0 ? zip_error_strerror(zip_file_get_error(zf)) : "";
  int closeErr = zip_fclose(zf);
  if (r < 0 || closeErr != 0)
    throw LoadError(fmt::format("archive '{}': record '{}' is corrupt: {}", path_, name, msg.empty() ? "read error" : msg));
  if (done != n || r != 0)
    throw LoadError(fmt::format("archive '{}': record '{}' is {} than its directory entry says", path_, name,
                                done != n ? "shorter" : "longer"));
}

RecordBuffer ZipReader::readRecord(const std::string& name) const {
  size_t n = recordSize(name);
  RecordBuffer buf(n);
  readRecordInto(name, buf.data(), n);
  return buf;
}

// ---------------------------------------------------------------------------------------------------
// Writer

uint32_t crc32Update(uint32_t crc, const void* data, size_t n) {
  static uint32_t table[8][256];
  static bool init = [] {
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      table[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; ++i)
      for (int t = 1; t < 8; ++t) table[t][i] = (table[t - 1][i] >> 8) ^ table[0][table[t - 1][i] & 0xFF];
    return true;
  }();
  (void)init;
  const unsigned char* p = static_cast<const unsigned char*>(data);
  crc = ~crc;
  while (n >= 8) {  // slicing-by-8
    uint32_t a = crc ^ (uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24);
    crc = table[7][a & 0xFF] ^ table[6][(a >> 8) & 0xFF] ^ table[5][(a >> 16) & 0xFF] ^ table[4][a >> 24] ^
          table[3][p[4]] ^ table[2][p[5]] ^ table[1][p[6]] ^ table[0][p[7]];
    p += 8;
    n -= 8;
  }
  while (n--) crc = table[0][(crc ^ *p++) & 0xFF] ^ (crc >> 8);
  return ~crc;
}

namespace {

struct Bytes {
  std::string s;
  void u16(uint32_t v) { s.push_back(char(v & 0xFF)); s.push_back(char((v >> 8) & 0xFF)); }
  void u32(uint32_t v) { for (int i = 0; i < 4; ++i) s.push_back(char((v >> (8 * i)) & 0xFF)); }
  void u64(uint64_t v) { for (int i = 0; i < 8; ++i) s.push_back(char((v >> (8 * i)) & 0xFF)); }
  void str(const std::string& t) { s += t; }
};

constexpr uint32_t kMax32 = 0xFFFFFFFFu;
constexpr uint16_t kDosDate = (0 << 9) | (1 << 5) | 1;  // 1980-01-01, as PyTorch's writer (deterministic)

}  // namespace

ZipWriter::ZipWriter(const std::string& path, std::string rootName)
    : path_(path), root_(std::move(rootName)), uncaughtAtStart_(std::uncaught_exceptions()),
      out_(std::make_unique<OutputFile>(path)) {}

ZipWriter::~ZipWriter() {
  if (out_ && std::uncaught_exceptions() > uncaughtAtStart_) {
    // Unwinding from an error: never publish a half-written archive.
    out_->abort();
    out_.reset();
    return;
  }
  try {
    close();
  } catch (...) {
  }
}

void ZipWriter::put(const void* p, size_t n) {
  out_->write(p, n);
  pos_ += n;
}

void ZipWriter::writeRecord(const std::string& name, const void* data, size_t size) {
  if (!out_) throw Error(fmt::format("zip writer for '{}' is closed", path_));
  std::string full = root_ + "/" + name;
  for (const Entry& e : entries_)
    if (e.name == full) throw Error(fmt::format("duplicate record '{}' in '{}'", name, path_));
  uint32_t crc = crc32Update(0, data, size);
  bool zip64 = size >= kMax32 || pos_ >= kMax32;
  Bytes h;
  h.u32(0x04034b50);
  h.u16(zip64 ? 45 : 20);
  h.u16(0);  // flags
  h.u16(0);  // stored
  h.u16(0);  // time
  h.u16(kDosDate);
  h.u32(crc);
  h.u32(zip64 ? kMax32 : uint32_t(size));
  h.u32(zip64 ? kMax32 : uint32_t(size));
  h.u16(uint32_t(full.size()));
  size_t z64len = zip64 ? 20 : 0;
  size_t base = pos_ + 30 + full.size() + z64len + 4;
  size_t pad = (64 - base % 64) % 64;
  h.u16(uint32_t(z64len + 4 + pad));
  h.str(full);
  if (zip64) {
    h.u16(0x0001);
    h.u16(16);
    h.u64(size);
    h.u64(size);
  }
  h.u16(0x4246);  // "FB": PyTorch's alignment padding field
  h.u16(uint32_t(pad));
  h.s.append(pad, 'Z');
  uint64_t offset = pos_;
  put(h.s.data(), h.s.size());
  put(data, size);
  entries_.push_back({full, crc, size, offset});
}

void ZipWriter::close() {
  if (!out_) return;
  uint64_t cdStart = pos_;
  for (const Entry& e : entries_) {
    bool bigSize = e.size >= kMax32, bigOff = e.offset >= kMax32;
    Bytes x;
    if (bigSize || bigOff) {
      Bytes d;
      if (bigSize) { d.u64(e.size); d.u64(e.size); }
      if (bigOff) d.u64(e.offset);
      x.u16(0x0001);
      x.u16(uint32_t(d.s.size()));
      x.str(d.s);
    }
    Bytes c;
    c.u32(0x02014b50);
    c.u16(x.s.empty() ? 20 : 45);  // version made by
    c.u16(x.s.empty() ? 20 : 45);  // version needed
    c.u16(0);
    c.u16(0);
    c.u16(0);
    c.u16(kDosDate);
    c.u32(e.crc);
    c.u32(bigSize ? kMax32 : uint32_t(e.size));
    c.u32(bigSize ? kMax32 : uint32_t(e.size));
    c.u16(uint32_t(e.name.size()));
    c.u16(uint32_t(x.s.size()));
    c.u16(0);  // comment
    c.u16(0);  // disk
    c.u16(0);  // internal attrs
    c.u32(0);  // external attrs
    c.u32(bigOff ? kMax32 : uint32_t(e.offset));
    c.str(e.name);
    c.str(x.s);
    put(c.s.data(), c.s.size());
  }
  uint64_t cdSize = pos_ - cdStart;
  uint64_t n = entries_.size();
  bool zip64 = n >= 0xFFFF || cdStart >= kMax32 || cdSize >= kMax32;
  Bytes t;
  if (zip64) {
    uint64_t eocd64 = pos_;
    t.u32(0x06064b50);
    t.u64(44);
    t.u16(45);
    t.u16(45);
    t.u32(0);
    t.u32(0);
    t.u64(n);
    t.u64(n);
    t.u64(cdSize);
    t.u64(cdStart);
    t.u32(0x07064b50);  // locator
    t.u32(0);
    t.u64(eocd64);
    t.u32(1);
  }
  t.u32(0x06054b50);
  t.u16(0);
  t.u16(0);
  t.u16(zip64 ? 0xFFFF : uint32_t(n));
  t.u16(zip64 ? 0xFFFF : uint32_t(n));
  t.u32(zip64 ? kMax32 : uint32_t(cdSize));
  t.u32(zip64 ? kMax32 : uint32_t(cdStart));
  t.u16(0);
  put(t.s.data(), t.s.size());
  // Publish (a regular file by rename: a reader that has the old file mapped keeps its pages).
  std::unique_ptr<OutputFile> out = std::move(out_);
  out->commit();
}

}  // namespace kindling
