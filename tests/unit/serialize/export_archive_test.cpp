// Re-saving archives: torch.jit.load reads what resaveArchive writes, with the same state and outputs.
#include "serialize/export_archive.h"

#include <gtest/gtest.h>

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
    std::string script = "import torch\n"
                         "a = torch.jit.load('" + in + "')\n"
                         "b = torch.jit.load('" + out + "')\n"
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
    ImportedArchive back = importArchive(out);
    EXPECT_EQ(back.version, a.version);
  }
}

}  // namespace
}  // namespace kindling
