// torch.save files: read what PyTorch writes, write what torch.load reads (checked with the oracle).
#include "serialize/torch_save.h"

#include <gtest/gtest.h>

#include "serialize/zip_archive.h"
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

TEST(TorchSave, ReadsWhatTorchSaveWrites) {
  ASSERT_EQ(runPython("import torch\n"
                      "x = torch.arange(12, dtype=torch.float64).reshape(3, 4)\n"
                      "p = torch.nn.Parameter(torch.ones(2))\n"
                      "torch.save((x.t(), 5, 1.5, 'a', None, [1, 2], {'k': torch.tensor([True, False])}, torch.int64,\n"
                      "            p, torch.zeros(0, 3), torch.tensor(3.5, dtype=torch.float16)), 'in.pt')\n"
                      "torch.save(torch.ones(1), 'single.pt')\n"),
            0);
  IValue v = loadTorchSave(scratchPath("in.pt"));
  ASSERT_TRUE(v.isTuple());
  const auto& e = v.toTupleRef().elements;
  ASSERT_EQ(e.size(), 11u);
  Tensor xt = e[0].toTensor();
  EXPECT_EQ(xt.sizes(), (IntArray{4, 3}));
  EXPECT_EQ(xt.strides(), (IntArray{1, 4}));
  EXPECT_EQ(xt.dtype(), ScalarType::Double);
  EXPECT_EQ(xt.contiguous().doubleAt(1), 4.0);  // xt[0][1] = x[1][0]
  EXPECT_EQ(e[1].toInt(), 5);
  EXPECT_EQ(e[2].toDouble(), 1.5);
  EXPECT_EQ(e[3].toStringRef(), "a");
  EXPECT_TRUE(e[4].isNone());
  EXPECT_EQ(e[5].toIntVector(), (std::vector<int64_t>{1, 2}));
  Tensor b = e[6].toDictRef().find(IValue("k"))->toTensor();
  EXPECT_EQ(b.dtype(), ScalarType::Bool);
  EXPECT_EQ(b.doubleAt(0), 1.0);
  EXPECT_EQ(e[7].toInt(), static_cast<int64_t>(ScalarType::Long));
  EXPECT_TRUE(e[8].toTensor().requires_grad());
  EXPECT_EQ(e[9].toTensor().numel(), 0);
  EXPECT_EQ(e[10].toTensor().dtype(), ScalarType::Half);
  EXPECT_EQ(e[10].toTensor().doubleAt(0), 3.5);
  EXPECT_TRUE(loadTorchSave(scratchPath("single.pt")).isTensor());
}

TEST(TorchSave, WritesWhatTorchLoadReads) {
  Tensor x = Tensor::empty({2, 3}, ScalarType::Float);
  for (int i = 0; i < 6; ++i) x.data_ptr<float>()[i] = 0.5f * i;
  Tensor l = Tensor::empty({3}, ScalarType::Long);
  for (int i = 0; i < 3; ++i) l.data_ptr<int64_t>()[i] = int64_t(1) << (40 + i);
  auto d = makeIntrusive<DictValue>(StringType(), TensorType());
  d->insertOrAssign(IValue("w"), IValue(l));
  IValue v = makeTuple({IValue(x), IValue(x.select(0, 1)), IValue(x.transpose(0, 1)), IValue(int64_t(-7)),
                        IValue(int64_t(1) << 50), IValue(2.25), IValue(true), IValue("s\xc3\xa9"), IValue(),
                        makeIntList({1, 2, 3}), IValue(d), IValue(Device{DeviceType::CPU, -1})});
  std::string out = scratchPath("out.pt");
  saveTorchSave(v, out);
  std::string script =
      kDataOffset + "import torch\n"
      "v = torch.load('out.pt')\n"
      "x = torch.arange(6.).reshape(2, 3) * 0.5\n"
      "assert isinstance(v, tuple) and len(v) == 12, v\n"
      "assert torch.equal(v[0], x), v[0]\n"
      "assert torch.equal(v[1], x[1]) and v[1].storage_offset() == 3\n"
      "assert v[1].untyped_storage().data_ptr() == v[0].untyped_storage().data_ptr() if hasattr(v[1], 'untyped_storage') else v[1].storage().data_ptr() == v[0].storage().data_ptr()\n"
      "assert torch.equal(v[2], x.t()) and v[2].stride() == (1, 3)\n"
      "assert v[3:9] == (-7, 2**50, 2.25, True, 's\\u00e9', None), v[3:9]\n"
      "assert v[9] == [1, 2, 3]\n"
      "assert list(v[10].keys()) == ['w'] and v[10]['w'].tolist() == [2**40, 2**41, 2**42]\n"
      "assert v[11] == torch.device('cpu')\n"
      "z = zipfile.ZipFile('out.pt')\n"
      "for i in z.infolist():\n"
      "  if '/data/' in i.filename:\n"
      "    assert data_offset(i) % 64 == 0, i\n"
      "print('ok')\n";
  std::string pyOut;
  EXPECT_EQ(runPython(script, &pyOut), 0) << pyOut;
  // And back in.
  IValue back = loadTorchSave(out);
  ASSERT_TRUE(back.isTuple());
  EXPECT_EQ(back.toTupleRef().elements.size(), 12u);
  EXPECT_EQ(back.toTupleRef().elements[2].toTensor().contiguous().doubleAt(1), 1.5);
}

TEST(TorchSave, BadFiles) {
  auto err = [](const std::string& path) {
    try {
      loadTorchSave(path);
    } catch (const LoadError& e) {
      return std::string(e.what());
    }
    return std::string("<no error>");
  };
  EXPECT_NE(err(scratchPath("does_not_exist.pt")).find("No such file"), std::string::npos);
  testing::writeFile(scratchPath("garbage.pt"), "this is not a zip file at all, just some text\n");
  EXPECT_NE(err(scratchPath("garbage.pt")).find("not a zip archive"), std::string::npos);
  ASSERT_EQ(runPython("import torch\n"
                      "torch.save(torch.ones(1000), 'big.pt')\n"
                      "d = open('big.pt','rb').read()\n"
                      "open('truncated.pt','wb').write(d[:len(d)//2])\n"
                      "torch.save(torch.ones(3), 'legacy.pt', _use_new_zipfile_serialization=False)\n"),
            0);
  std::string t = err(scratchPath("truncated.pt"));
  EXPECT_TRUE(t.find("not a zip") != std::string::npos || t.find("truncated") != std::string::npos) << t;
  EXPECT_NE(err(scratchPath("legacy.pt")).find("legacy"), std::string::npos);
  // A data record missing from the archive.
  {
    ZipWriter w(scratchPath("missing_record.pt"), "archive");
    ZipReader r(scratchPath("big.pt"));
    w.writeRecord("data.pkl", r.readRecordString("data.pkl"));
    w.writeRecord("version", std::string("3\n"));
  }
  EXPECT_EQ(err(scratchPath("missing_record.pt")),
            "archive '" + scratchPath("missing_record.pt") + "' has no record 'data/0'");
}

}  // namespace
}  // namespace kindling
