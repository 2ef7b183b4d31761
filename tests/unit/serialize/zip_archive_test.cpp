// ZipReader / ZipWriter: root folder discovery, records, alignment, errors; Python's zipfile as the oracle.
#include "serialize/zip_archive.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace kindling {
namespace {

// Python helper: where a zip entry's data starts (local header + name + local extra field).
const std::string kDataOffset =
    "import zipfile, struct\n"
    "def data_offset(i):\n"
    "  h = open(z.filename, 'rb').read()[i.header_offset:i.header_offset + 30]\n"
    "  n, e = struct.unpack('<HH', h[26:30])\n"
    "  return i.header_offset + 30 + n + e\n";

using testing::runPython;
using testing::scratchPath;

TEST(ZipArchive, WriteThenReadAndPythonAgrees) {
  std::string path = scratchPath("w.zip");
  std::string big(100000, 'x');
  for (size_t i = 0; i < big.size(); ++i) big[i] = char(i * 31 % 251);
  {
    ZipWriter w(path, "mymodel");
    w.writeRecord("version", std::string("3\n"));
    w.writeRecord("data/0", big);
    w.writeRecord("empty", std::string());
    EXPECT_THROW(w.writeRecord("version", std::string("x")), Error);
  }
  ZipReader r(path);
  EXPECT_EQ(r.rootName(), "mymodel");
  EXPECT_EQ(r.records(), (std::vector<std::string>{"version", "data/0", "empty"}));
  EXPECT_EQ(r.readRecordString("version"), "3\n");
  RecordBuffer b = r.readRecord("data/0");
  EXPECT_EQ(b.str(), big);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b.data()) % 64, 0u);
  EXPECT_EQ(r.recordSize("empty"), 0u);
  EXPECT_FALSE(r.hasRecord("nope"));
  try {
    r.readRecord("data/3");
    FAIL();
  } catch (const LoadError& e) {
    EXPECT_EQ(std::string(e.what()), "archive '" + path + "' has no record 'data/3'");
  }
  std::string out;
  EXPECT_EQ(runPython(kDataOffset + "z = zipfile.ZipFile('w.zip')\nassert z.testzip() is None\n"
                      "for i in z.infolist():\n"
                      "  assert data_offset(i) % 64 == 0\n"
                      "print(sorted(z.namelist()))\n", &out), 0);
  EXPECT_EQ(out, "['mymodel/data/0', 'mymodel/empty', 'mymodel/version']\n");
}

TEST(ZipArchive, ReadsPythonZipsWithAnyRootAndDeflate) {
  ASSERT_EQ(runPython("import zipfile\n"
                      "with zipfile.ZipFile('py.zip', 'w', zipfile.ZIP_DEFLATED) as z:\n"
                      "  z.writestr('some_root/code/__torch__.py', 'x = 1\\n' * 1000)\n"
                      "  z.writestr('some_root/data.pkl', b'\\x80\\x02N.')\n"
                      "  z.writestr('other/ignored', b'')\n"),
            0);
  ZipReader r(scratchPath("py.zip"));
  EXPECT_EQ(r.rootName(), "some_root");
  EXPECT_EQ(r.records().size(), 2u);
  EXPECT_EQ(r.readRecordString("code/__torch__.py").size(), 6000u);
}

TEST(ZipArchive, CorruptDataIsDetected) {
  std::string path = scratchPath("c.zip");
  {
    ZipWriter w(path, "r");
    w.writeRecord("data/0", std::string(1000, 'a'));
  }
  std::string bytes = testing::readFile(path);
  size_t pos = bytes.find(std::string(100, 'a'));
  ASSERT_NE(pos, std::string::npos);
  bytes[pos + 10] = 'b';
  testing::writeFile(path, bytes);
  ZipReader r(path);
  EXPECT_THROW(r.readRecord("data/0"), LoadError);
}

TEST(ZipArchive, OpenErrors) {
  EXPECT_THROW(ZipReader(scratchPath("missing.zip")), LoadError);
  testing::writeFile(scratchPath("text.zip"), "hello");
  EXPECT_THROW(ZipReader(scratchPath("text.zip")), LoadError);
  // Truncated at many points: always LoadError (from open or from reading).
  std::string path = scratchPath("t.zip");
  {
    ZipWriter w(path, "r");
    w.writeRecord("a", std::string(300, 'a'));
    w.writeRecord("b", std::string(300, 'b'));
  }
  std::string bytes = testing::readFile(path);
  for (size_t k = 0; k < bytes.size(); k += 7) {
    testing::writeFile(scratchPath("tt.zip"), bytes.substr(0, k));
    try {
      ZipReader r(scratchPath("tt.zip"));
      r.readRecord("a");
      r.readRecord("b");
      ADD_FAILURE() << "no error at cut " << k;
    } catch (const LoadError&) {
    }
  }
}

}  // namespace
}  // namespace kindling

namespace kindling {
namespace {

TEST(ZipArchive, RecordStorageMapsAlignedStoredRecords) {
  std::string path = testing::scratchPath("map.zip");
  std::string big(3000, 'q');
  for (size_t i = 0; i < big.size(); ++i) big[i] = char(i % 253);
  {
    ZipWriter w(path, "r");
    w.writeRecord("data/0", big);
    w.writeRecord("data/1", std::string("xyz"));
  }
  Storage s;
  {
    ZipReader r(path);
    s = r.recordStorage("data/0");
    EXPECT_THROW(r.recordStorage("data/9"), LoadError);
  }  // the mapping outlives the reader
  ASSERT_EQ(s->nbytes(), big.size());
  EXPECT_EQ(std::string(static_cast<const char*>(s->data()), s->nbytes()), big);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(s->data()) % 64, 0u);
  static_cast<char*>(s->data())[0] = 'Z';  // copy-on-write: writable, the file is unchanged
  ZipReader r2(path);
  EXPECT_EQ(r2.readRecordString("data/0"), big);
  EXPECT_EQ(std::string(static_cast<const char*>(r2.recordStorage("data/1")->data()), 3), "xyz");
  // Deflated records (Python's zipfile) take the copying path.
  ASSERT_EQ(testing::runPython("import zipfile\n"
                               "with zipfile.ZipFile('defl.zip', 'w', zipfile.ZIP_DEFLATED) as z:\n"
                               "  z.writestr('r/data/0', b'abc' * 1000)\n"),
            0);
  ZipReader r3(testing::scratchPath("defl.zip"));
  Storage d = r3.recordStorage("data/0");
  ASSERT_EQ(d->nbytes(), 3000u);
  EXPECT_EQ(static_cast<const char*>(d->data())[2999], 'c');
}

}  // namespace
}  // namespace kindling
