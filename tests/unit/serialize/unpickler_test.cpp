// Unpickler: pickles written by CPython (all protocols), torch.save pickles, malformed and hostile input.
#include "serialize/unpickler.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace kindling {
namespace {

using namespace std::string_literals;

using testing::readFile;
using testing::runPython;
using testing::scratchPath;

IValue unpickleString(const std::string& s, const std::string& name = "test.pkl") {
  return unpickle(s.data(), s.size(), name);
}

std::string loadErrorOf(const std::string& s) {
  try {
    unpickleString(s);
  } catch (const LoadError& e) {
    return e.what();
  }
  return "<no error>";
}

// The Python value every protocol round-trips.
const char* kNestedValue =
    "{'ints': [0, 1, -1, 255, 256, 65535, 65536, -65536, 2**31 - 1, -2**31, 2**40, -2**40, 2**63 - 1, -2**63],"
    " 'floats': [0.0, -2.5, 1e300, 3.141592653589793],"
    " 'misc': (True, False, None, 'h\\u00e9llo \\\\ \\n \\u4e2d', ''),"
    " 'nested': [[1, 2], [], [[3]], ((4,), (5, 6), (7, 8, 9), (10, 11, 12, 13))],"
    " 'dict': {1: 'one', 2: 'two'}, 'empty': {}, 'bytes': b'ab\\x00\\xff'}";

void checkNested(const IValue& v, int protocol) {
  SCOPED_TRACE("protocol " + std::to_string(protocol));
  ASSERT_TRUE(v.isDict());
  const DictValue& d = v.toDictRef();
  ASSERT_EQ(d.size(), 7u);
  const IValue* ints = d.find(IValue("ints"));
  ASSERT_TRUE(ints && ints->isList());
  std::vector<int64_t> want = {0, 1, -1, 255, 256, 65535, 65536, -65536, INT32_MAX, INT32_MIN,
                               int64_t(1) << 40, -(int64_t(1) << 40), INT64_MAX, INT64_MIN};
  EXPECT_EQ(ints->toIntVector(), want);
  EXPECT_EQ(ints->toListRef().elementType->str(), "int");
  const IValue* floats = d.find(IValue("floats"));
  ASSERT_TRUE(floats && floats->isList());
  std::vector<double> wantF = {0.0, -2.5, 1e300, 3.141592653589793};
  EXPECT_EQ(floats->toDoubleVector(), wantF);
  const IValue* misc = d.find(IValue("misc"));
  ASSERT_TRUE(misc && misc->isTuple());
  const auto& m = misc->toTupleRef().elements;
  ASSERT_EQ(m.size(), 5u);
  EXPECT_TRUE(m[0].isBool() && m[0].toBool());
  EXPECT_TRUE(m[1].isBool() && !m[1].toBool());
  EXPECT_TRUE(m[2].isNone());
  ASSERT_TRUE(m[3].isString());
  EXPECT_EQ(m[3].toStringRef(), "h\xc3\xa9llo \\ \n \xe4\xb8\xad");
  EXPECT_EQ(m[4].toStringRef(), "");
  const IValue* nested = d.find(IValue("nested"));
  ASSERT_TRUE(nested && nested->isList());
  const auto& n = nested->toListRef().elements;
  ASSERT_EQ(n.size(), 4u);
  EXPECT_EQ(n[0].toIntVector(), (std::vector<int64_t>{1, 2}));
  EXPECT_TRUE(n[1].isList() && n[1].toListRef().elements.empty());
  EXPECT_EQ(n[2].toListRef().elements[0].toIntVector(), (std::vector<int64_t>{3}));
  const auto& tuples = n[3].toTupleRef().elements;
  ASSERT_EQ(tuples.size(), 4u);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(tuples[i].toTupleRef().elements.size(), i + 1);
  EXPECT_EQ(tuples[3].toTupleRef().elements[3].toInt(), 13);
  const IValue* dict = d.find(IValue("dict"));
  ASSERT_TRUE(dict && dict->isDict());
  const IValue* one = dict->toDictRef().find(IValue(int64_t(1)));
  ASSERT_TRUE(one);
  EXPECT_EQ(one->toStringRef(), "one");
  EXPECT_EQ(dict->toDictRef().keyType->str(), "int");
  EXPECT_EQ(dict->toDictRef().valueType->str(), "str");
  const IValue* empty = d.find(IValue("empty"));
  ASSERT_TRUE(empty && empty->isDict());
  EXPECT_EQ(empty->toDictRef().size(), 0u);
  const IValue* bytes = d.find(IValue("bytes"));
  ASSERT_TRUE(bytes && bytes->isString());
  EXPECT_EQ(bytes->toStringRef(), std::string("ab\0\xff", 4));
}

TEST(Unpickler, AllProtocolsFromCPython) {
  std::string script = "import pickle\nv = " + std::string(kNestedValue) +
                       "\nfor p in range(6):\n  open('nested_%d.pkl' % p, 'wb').write(pickle.dumps(v, protocol=p))\n";
  ASSERT_EQ(runPython(script), 0);
  for (int p = 0; p <= 5; ++p) {
    std::string data = readFile(scratchPath("nested_" + std::to_string(p) + ".pkl"));
    ASSERT_FALSE(data.empty());
    IValue v;
    try {
      v = unpickleString(data);
    } catch (const LoadError& e) {
      FAIL() << "protocol " << p << ": " << e.what();
    }
    checkNested(v, p);
  }
}

TEST(Unpickler, SharedReferencesKeepIdentity) {
  ASSERT_EQ(runPython("import pickle\nl = [1]\nopen('shared.pkl','wb').write(pickle.dumps((l, l), protocol=2))\n"), 0);
  IValue v = unpickleString(readFile(scratchPath("shared.pkl")));
  const auto& e = v.toTupleRef().elements;
  ASSERT_EQ(e.size(), 2u);
  EXPECT_TRUE(e[0].is(e[1]));
}

TEST(Unpickler, OrderedDictAndTorchDtypesAndDevice) {
  // Hand-written protocol-2 pickle as torch.save writes these globals.
  std::string p = "\x80\x02"s + "ccollections\nOrderedDict\n)R"s + "X\x01\x00\x00\x00"s + "a" +
                  "ctorch\nfloat32\n"s + "s" + "X\x01\x00\x00\x00"s + "b" + "ctorch\ndevice\nX\x03\x00\x00\x00"s + "cpu\x85R" + "s.";
  IValue v = unpickleString(p);
  ASSERT_TRUE(v.isDict());
  EXPECT_EQ(v.toDictRef().find(IValue("a"))->toInt(), static_cast<int64_t>(ScalarType::Float));
  EXPECT_TRUE(v.toDictRef().find(IValue("b"))->isDevice());
}

TEST(Unpickler, RestoreTypeTag) {
  std::string p = "\x80\x02"s + "ctorch.jit._pickle\nrestore_type_tag\n]"s + "X\x09\x00\x00\x00"s + "List[str]" +
                  "\x86R.";
  IValue v = unpickleString(p);
  ASSERT_TRUE(v.isList());
  EXPECT_EQ(v.toListRef().elementType->str(), "str");
  EXPECT_EQ(parseTypeTag("Dict[str, List[Optional[Tensor]]]", nullptr)->annotationStr(),
            "Dict[str, List[Optional[Tensor]]]");
  EXPECT_THROW(parseTypeTag("List[", nullptr), LoadError);
  EXPECT_THROW(parseTypeTag("Foo", nullptr), LoadError);
}

TEST(Unpickler, DisallowedGlobals) {
  EXPECT_EQ(loadErrorOf("\x80\x02"s + "cos\nsystem\nq\x00."s), "test.pkl: disallowed global 'os.system' at byte 2");
  ASSERT_EQ(runPython("import pickle, os\n"
                      "class E:\n  def __reduce__(self): return (os.system, ('echo pwned',))\n"
                      "for p in range(6): open('evil_%d.pkl' % p, 'wb').write(pickle.dumps(E(), protocol=p))\n"),
            0);
  for (int p = 0; p <= 5; ++p) {
    std::string err = loadErrorOf(readFile(scratchPath("evil_" + std::to_string(p) + ".pkl")));
    EXPECT_NE(err.find("disallowed global 'posix.system'"), std::string::npos) << err;
  }
  // A __torch__ class without a resolver is unknown, not constructed.
  EXPECT_NE(loadErrorOf(std::string("\x80\x02") + "c__torch__\nM\n)\x81}b.").find("unknown class '__torch__.M'"),
            std::string::npos);
  // INST/OBJ would construct arbitrary objects.
  EXPECT_NE(loadErrorOf("(ios\nsystem\n."), "<no error>");
}

TEST(Unpickler, MalformedInputsGiveLoadErrors) {
  EXPECT_EQ(loadErrorOf(""), "test.pkl: empty pickle at byte 0");
  EXPECT_EQ(loadErrorOf("\x80\x02\xff"), "test.pkl: unknown opcode 0xff at byte 2");
  EXPECT_EQ(loadErrorOf("\x80\x02h\x05."), "test.pkl: memo key 5 not found at byte 2");
  EXPECT_EQ(loadErrorOf("\x80\x02t."), "test.pkl: MARK expected but not found at byte 2");
  EXPECT_EQ(loadErrorOf("\x80\x02" "a."), "test.pkl: stack underflow at byte 2");
  EXPECT_EQ(loadErrorOf("\x80\x02."), "test.pkl: stack underflow at byte 2");
  EXPECT_EQ(loadErrorOf("\x80\x02X\xff\xff\xff\x7f"), "test.pkl: truncated pickle (unexpected end of data) at byte 2");
  EXPECT_EQ(loadErrorOf("\x80\x02K\x01r\xff\xff\xff\x7f."), "test.pkl: memo index 2147483647 out of range at byte 4");
  EXPECT_EQ(loadErrorOf("\x80\x09N."), "test.pkl: unsupported pickle protocol 9 at byte 0");
  EXPECT_NE(loadErrorOf("\x80\x02\x8f."), "<no error>");  // sets
  // Integers wider than 64 bits.
  EXPECT_EQ(loadErrorOf(std::string("\x80\x02\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x00\x01.", 14)),
            "test.pkl: integer does not fit in 64 bits at byte 2");
}

TEST(Unpickler, RecursiveAndDeepContainersAreRejected) {
  ASSERT_EQ(runPython("import pickle\nl = []\nl.append(l)\nopen('rec.pkl','wb').write(pickle.dumps(l, protocol=2))\n"), 0);
  EXPECT_NE(loadErrorOf(readFile(scratchPath("rec.pkl"))).find("recursive"), std::string::npos);
  // 200k nested lists: rejected without deep recursion (no stack overflow).
  size_t depth = 200000;
  std::string deep = "\x80\x02" + std::string(depth, ']') + std::string(depth - 1, 'a') + ".";
  EXPECT_NE(loadErrorOf(deep).find("nested deeper than 1000"), std::string::npos);
  // 500 levels is fine.
  std::string ok = "\x80\x02" + std::string(500, ']') + std::string(499, 'a') + ".";
  EXPECT_TRUE(unpickleString(ok).isList());
}

// A list that contains itself and a tensor from the tensor table: once the parse is over, nothing may
// hold the tensor but the test (a cycle left behind would keep it alive for good). Covers the list
// popped before STOP and the list rejected as the recursive result; no sanitizer needed.
TEST(Unpickler, SelfContainingListsAreFreed) {
  // The opcodes hold NUL bytes, so the string is built with its literal's full length.
  static const char kCyclic[] = "\x80\x02]q\x00h\x00" "a"                       // l = []; l.append(l)
                                "ctorch.jit._pickle\nbuild_tensor_from_id\nK\x00\x85R" "a";  // l.append(t)
  const std::string cyclic(kCyclic, sizeof(kCyclic) - 1);
  for (const std::string& tail : {std::string("0N."), std::string(".")}) {
    SCOPED_TRACE(tail == "." ? "returned (recursive)" : "popped");
    Tensor t = Tensor::zeros({2});
    ASSERT_EQ(t.use_count(), 1u);
    for (int i = 0; i < 3; ++i) {
      std::string data = cyclic + tail;
      Unpickler u(data.data(), data.size(), "cycle.pkl");
      u.setTensorTable({t});
      if (tail == ".") EXPECT_THROW(u.parse(), LoadError);
      else EXPECT_TRUE(u.parse().isNone());
    }
    EXPECT_EQ(t.use_count(), 1u) << "the cyclic list (and the tensor in it) outlived its parse";
  }
}

// A small pickle exercising many opcodes, truncated at every byte: every prefix is a LoadError.
TEST(Unpickler, TruncatedAtEveryOffset) {
  ASSERT_EQ(runPython("import pickle\nv = " + std::string(kNestedValue) +
                      "\nfor p in (0, 2, 4):\n  open('trunc_%d.pkl' % p, 'wb').write(pickle.dumps(v, protocol=p))\n"),
            0);
  for (int p : {0, 2, 4}) {
    std::string data = readFile(scratchPath("trunc_" + std::to_string(p) + ".pkl"));
    ASSERT_GT(data.size(), 50u);
    for (size_t k = 0; k < data.size(); ++k) {
      std::string cut = data.substr(0, k);
      EXPECT_THROW(unpickleString(cut), LoadError) << "protocol " << p << " cut at " << k;
    }
    EXPECT_NO_THROW(unpickleString(data));
  }
}

// Every single-byte corruption either still parses or gives a LoadError; nothing else escapes.
TEST(Unpickler, CorruptedBytesNeverCrash) {
  ASSERT_EQ(runPython("import pickle\nv = " + std::string(kNestedValue) +
                      "\nopen('fuzz.pkl', 'wb').write(pickle.dumps(v, protocol=2))\n"),
            0);
  std::string data = readFile(scratchPath("fuzz.pkl"));
  const unsigned char values[] = {0x00, 0x01, 0x7f, 0x80, 0xff, '(', ')', '.', 'a', 'e', 'h', 'q', 'u', 't', 'R', 'b', 'c'};
  size_t errors = 0;
  for (size_t i = 0; i < data.size(); ++i) {
    for (unsigned char b : values) {
      std::string c = data;
      c[i] = static_cast<char>(b);
      try {
        unpickleString(c);
      } catch (const LoadError&) {
        ++errors;
      } catch (const std::exception& e) {
        ADD_FAILURE() << "byte " << i << " = " << int(b) << ": non-LoadError exception: " << e.what();
      }
    }
  }
  EXPECT_GT(errors, 0u);
}

TEST(Unpickler, TensorsThroughPersistentIds) {
  // torch.save's data.pkl for (x, x[1]) with x = arange(6.).reshape(2, 3): both share storage '0'.
  std::string script =
      "import torch, zipfile\n"
      "x = torch.arange(6.).reshape(2, 3)\n"
      "torch.save((x, x[1], torch.tensor([7, 8])), 'pid.pt')\n"
      "z = zipfile.ZipFile('pid.pt')\n"
      "root = z.namelist()[0].split('/')[0]\n"
      "open('pid.pkl', 'wb').write(z.read(root + '/data.pkl'))\n"
      "open('pid_0.bin', 'wb').write(z.read(root + '/data/0'))\n"
      "open('pid_1.bin', 'wb').write(z.read(root + '/data/1'))\n";
  ASSERT_EQ(runPython(script), 0);
  std::string pkl = readFile(scratchPath("pid.pkl"));
  int loads = 0;
  IValue v = unpickle(pkl.data(), pkl.size(), "data.pkl", nullptr, [&](const std::string& key, size_t nbytes) {
    ++loads;
    std::string bytes = readFile(scratchPath("pid_" + key + ".bin"));
    EXPECT_GE(bytes.size(), nbytes);
    auto s = makeIntrusive<StorageImpl>(bytes.size());
    std::memcpy(s->data(), bytes.data(), bytes.size());
    return s;
  });
  EXPECT_EQ(loads, 2);
  const auto& e = v.toTupleRef().elements;
  ASSERT_EQ(e.size(), 3u);
  Tensor x = e[0].toTensor(), row = e[1].toTensor(), y = e[2].toTensor();
  EXPECT_EQ(x.sizes(), (IntArray{2, 3}));
  EXPECT_EQ(x.dtype(), ScalarType::Float);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(x.doubleAt(i), i);
  EXPECT_EQ(row.sizes(), (IntArray{3}));
  EXPECT_EQ(row.storage_offset(), 3);
  EXPECT_EQ(row.storage().get(), x.storage().get());
  EXPECT_EQ(row.doubleAt(0), 3.0);
  EXPECT_EQ(y.dtype(), ScalarType::Long);
  EXPECT_EQ(y.doubleAt(1), 8.0);
}

TEST(Unpickler, TensorViewOutsideStorageIsRejected) {
  // _rebuild_tensor_v2 with size (100,) over a 2-element storage.
  std::string p = std::string("\x80\x02") + "ctorch._utils\n_rebuild_tensor_v2\n(" +
                  "(X\x07\x00\x00\x00"s + "storagectorch\nFloatStorage\nX\x01\x00\x00\x00"s + "0X\x03\x00\x00\x00"s + "cpuK\x02tQ" +
                  "K\x00"s + "K\x64\x85K\x01\x85\x89" "ccollections\nOrderedDict\n)RtR.";
  std::string err;
  try {
    unpickle(p.data(), p.size(), "data.pkl", nullptr,
             [](const std::string&, size_t n) { return makeIntrusive<StorageImpl>(n); });
  } catch (const LoadError& e) {
    err = e.what();
  }
  EXPECT_NE(err.find("exceeds its storage of 2 elements"), std::string::npos) << err;
}

}  // namespace
}  // namespace kindling

namespace kindling {
namespace {

TEST(Unpickler, DeepTuplesInTypedPlacesDoNotRecurse) {
  // build_intlist([((((...)))),]) with 2M nested 1-tuples: a LoadError, no deep recursion.
  size_t depth = 2000000;
  std::string p = std::string("\x80\x02") + "ctorch.jit._pickle\nbuild_intlist\n]" + "N" +
                  std::string(depth, '\x85') + "a\x85R.";
  std::string err;
  try {
    unpickle(p.data(), p.size(), "t.pkl");
  } catch (const LoadError& e) {
    err = e.what();
  }
  EXPECT_NE(err.find("build_intlist"), std::string::npos) << err;
}

}  // namespace
}  // namespace kindling
