// Archive export: torch.jit.load reads what resaveArchive and exportModule write, with the same state and
// outputs; the version record follows the operators the code calls; extra files round-trip.
#include "serialize/export_archive.h"

#include <gtest/gtest.h>

#include "frontend/compiler.h"
#include "runtime/compilation_unit.h"
#include "serialize/zip_archive.h"
#include "tensor/tensor.h"
#include "test_util.h"

namespace kindling {
namespace {

using testing::runPython;
using testing::scratchPath;

TEST(ExportArchive, ResavedArchiveLoadsInPyTorch) {
  ASSERT_EQ(runPython(R"PY(
import torch
from typing import List, Dict, Tuple
@torch.jit.script
class Holder:
    def __init__(self, x: int):
        self.x = x
    def __getstate__(self) -> Tuple[int, int]:
        return (self.x - 7, 7)
    def __setstate__(self, s: Tuple[int, int]):
        self.x = s[0] + s[1]
class M(torch.nn.Module):
    def __init__(s):
        super().__init__()
        s.lin = torch.nn.Linear(3, 2)
        s.names: List[str] = ["a", "b"]
        s.d: Dict[str, float] = {"x": 1.5}
        s.t: Tuple[int, str] = (-70000, "t")
        s.dev = torch.device("cpu")
        s.h = Holder(3)
        s.big = 2**40
        s.register_buffer("buf", torch.arange(6.).reshape(2, 3)[:, 1])
    def forward(s, x):
        return s.lin(x) + s.buf[0] + s.h.x
torch.manual_seed(0)
torch.jit.save(torch.jit.script(M()), "exp_src.pt")
torch.jit.save(torch.jit.freeze(torch.jit.script(M()).eval()), "exp_frozen.pt")
)PY"),
            0);
  for (const char* name : {"exp_src", "exp_frozen"}) {
    std::string in = scratchPath(std::string(name) + ".pt"), out = scratchPath(std::string(name) + "_resaved.pt");
    ImportedArchive a = importArchive(in);
    if (std::string(name) == "exp_src") a.module.setattr("big", IValue(int64_t(1) << 41));  // state changes are saved
    resaveArchive(a, in, out);
    std::string reprinted = scratchPath(std::string(name) + "_reprinted.pt");
    resaveArchive(a, in, reprinted, {{"k.txt", "v"}}, /*reprint=*/true);
    for (const std::string& o : {out, reprinted}) {
    std::string script = "import torch\n"
                         "a = torch.jit.load('" + in + "')\n"
                         "b = torch.jit.load('" + o + "')\n"
                         "x = torch.randn(4, 3)\n"
                         "assert torch.equal(a(x), b(x))\n"
                         "if hasattr(b, 'names'):\n"
                         "  assert b.names == ['a', 'b'] and b.d == {'x': 1.5} and b.t == (-70000, 't')\n"
                         "  assert b.dev == torch.device('cpu') and b.big == 2**41\n"
                         "  assert b.buf.tolist() == [1.0, 4.0] and b.buf.stride() == (3,)\n"
                         "  assert b.lin.weight.requires_grad\n"
                         "print('ok')\n";
    std::string pyOut;
    EXPECT_EQ(runPython(script, &pyOut), 0) << name << ": " << pyOut;
    // And Kindling reads its own output.
    ImportedArchive back = importArchive(o);
    EXPECT_EQ(back.version, a.version);
    }
    EXPECT_EQ(importArchive(reprinted).extraFiles.at("k.txt"), "v");
  }
}

// A compiled source program (frontend only) standing in for `kindling save prog.py --function NAME`.
struct Prog {
  std::shared_ptr<CompilationUnit> cu = std::make_shared<CompilationUnit>();
  explicit Prog(const std::string& text) {
    compileSource(*cu, std::make_shared<const Source>(text, "prog.py"), CompileOptions{});
  }
  void save(const std::string& out, const std::string& fn, const ExtraFilesMap& extra) {
    GraphFunction* f = cu->findGraphFunction("__torch__." + fn);
    if (!f) throw Error("no function " + fn);
    exportModule(placeholderModuleFor(*f), out, extra);
  }
};

TEST(ExportArchive, SourceFunctionAsPlaceholderModule) {
  Prog p("import torch\n"
                                "def helper(x: torch.Tensor) -> torch.Tensor:\n"
                                "    return x * 3\n"
                                "def main(x: torch.Tensor, n: int) -> torch.Tensor:\n"
                                "    return helper(x) / n\n"
         "def plain(x: torch.Tensor) -> torch.Tensor:\n"
         "    return x + 1\n");
  std::string out = scratchPath("fn_saved.pt");
  p.save(out, "main", {{"meta", std::string("\0\1", 2)}});
  {
    ZipReader z(out);
    EXPECT_EQ(z.rootName(), "fn_saved");
    EXPECT_EQ(z.readRecordString("version"), "4\n");  // aten::div
    std::string code = z.readRecordString("code/__torch__.py");
    EXPECT_NE(code.find("class PlaceholderModule(Module):"), std::string::npos) << code;
    EXPECT_NE(code.find("def helper(x: Tensor) -> Tensor:"), std::string::npos) << code;
    EXPECT_EQ(z.readRecordString("extra/meta"), std::string("\0\1", 2));
  }
  ImportedArchive a = importArchive(out);
  EXPECT_EQ(a.module.type()->qualName(), "__torch__.PlaceholderModule");
  EXPECT_TRUE(a.module.attr("training").toBool());
  IValue y = a.module.forward({IValue(Tensor::full({2}, Scalar(6.0), ScalarType::Float)), IValue(int64_t(4))});
  EXPECT_EQ(y.toTensor().doubleAt(1), 4.5);
  std::string pyOut;
  EXPECT_EQ(runPython("import torch\n"
                      "files = {'meta': ''}\n"
                      "m = torch.jit.load('" + out + "', _extra_files=files)\n"
                      "assert files['meta'] == b'\\x00\\x01', files\n"
                      "assert m(torch.full([2], 6.0), 4).tolist() == [4.5, 4.5]\n",
                      &pyOut),
            0)
      << pyOut;
  // Without a div the archive declares the minimum version, 3.
  p.save(scratchPath("plain.pt"), "plain", {});
  EXPECT_EQ(ZipReader(scratchPath("plain.pt")).readRecordString("version"), "3\n");
  EXPECT_THROW(p.save(scratchPath("x.pt"), "nope", {}), Error);
  EXPECT_THROW(p.save(scratchPath("x.pt"), "main", {{"../evil", "x"}}), Error);
}

TEST(ExportArchive, FileVersionFollowsOperators) {
  Prog p("import torch\n"
                                "def f(x: torch.Tensor) -> torch.Tensor:\n"
         "    return torch.full([2], 1.5) + torch.linspace(0.0, 1.0, 2) + x\n");
  p.save(scratchPath("ver.pt"), "f", {});
  ZipReader z(scratchPath("ver.pt"));
  EXPECT_FALSE(z.hasRecord("version"));
  EXPECT_EQ(z.readRecordString(".data/version"), "8\n");  // linspace; written where PyTorch writes it from 6 on
}

}  // namespace
}  // namespace kindling
