// Program (what the CLI runs): source programs, archive methods, fn.code-style source, inspect summary.
#include "api/program.h"

#include <gtest/gtest.h>

#include "api/api.h"
#include "test_util.h"

namespace kindling {
namespace {

using testing::runPython;
using testing::scratchPath;
using testing::writeFile;

TEST(Program, SourceFileFunctions) {
  std::string path = scratchPath("prog.py");
  writeFile(path,
            "import torch\nfrom typing import List\n\n"
            "def add_one(x: torch.Tensor, n: int = 1) -> torch.Tensor:\n    return x + n\n\n"
            "def total(xs: List[int]) -> int:\n    s = 0\n    for v in xs:\n        s += v\n    return s\n");
  Program p = Program::open(path);
  EXPECT_FALSE(p.isArchive());
  Callable total = p.select("", "total");
  EXPECT_EQ(total.call({makeIntList({1, 2, 3})}).toInt(), 6);
  // An untagged list as torch.save produces it is accepted for List[int].
  IValue untyped(makeIntrusive<ListValue>(AnyType(), std::vector<IValue>{IValue(int64_t(4)), IValue(int64_t(5))}));
  EXPECT_EQ(total.call({untyped}).toInt(), 9);
  Callable add = p.select("", "add_one");
  Tensor x = Tensor::zeros({2});
  Tensor y = add.call({IValue(x)}).toTensor();  // default n = 1
  EXPECT_EQ(y.doubleAt(1), 1.0);
  EXPECT_THROW(add.call({IValue(int64_t(1))}), RuntimeError);
  EXPECT_THROW(p.select("", "missing"), Error);
  EXPECT_THROW(p.select("", ""), UsageError);        // two functions, none chosen
  EXPECT_THROW(p.select("forward", ""), UsageError);  // --method on a source program
  EXPECT_EQ(p.sourceOf(total), "def total(xs: List[int]) -> int:\n    s = 0\n    for v in xs:\n        s += v\n    return s\n");
}

TEST(Program, SourceCompileErrorsSurfaceAtOpen) {
  std::string path = scratchPath("bad.py");
  writeFile(path, "def f(x: int) -> int:\n    return x +\n");
  EXPECT_THROW(Program::open(path), CompileError);
  EXPECT_THROW(Program::open(scratchPath("no_such.py")), LoadError);
}

TEST(Program, ArchiveMethodCodeAndInspect) {
  ASSERT_EQ(runPython("import torch\n"
                      "class M(torch.nn.Module):\n"
                      "  def __init__(s):\n"
                      "    super().__init__(); s.lin = torch.nn.Linear(3, 2); s.k = 3\n"
                      "  def forward(s, x):\n"
                      "    return s.lin(x) + s.k\n"
                      "  @torch.jit.export\n"
                      "  def twice(s, x: int) -> int:\n"
                      "    return 2 * x\n"
                      "m = torch.jit.script(M())\n"
                      "torch.jit.save(m, 'pm.pt')\n"
                      "open('pm_code.txt', 'w').write(m.code)\n"
                      "open('pm_twice.txt', 'w').write(m.twice.code)\n"),
            0);
  Program p = Program::open(scratchPath("pm.pt"));
  ASSERT_TRUE(p.isArchive());
  Callable fwd = p.select("", "");
  EXPECT_TRUE(fwd.self.has_value());
  EXPECT_EQ(fwd.function->name(), "forward");
  // Exactly fn.code as PyTorch 1.13 gives it.
  std::string want = testing::readFile(scratchPath("pm_code.txt"));
  EXPECT_EQ(p.sourceOf(fwd), want);
  Callable twice = p.select("twice", "");
  EXPECT_EQ(twice.call({IValue(int64_t(21))}).toInt(), 42);
  EXPECT_EQ(p.sourceOf(twice), testing::readFile(scratchPath("pm_twice.txt")));
  EXPECT_THROW(p.select("nope", ""), Error);
  std::string desc = describeArchive(p.archive());
  for (const char* word : {"__torch__.M", "lin.weight: [2, 3] torch.float32", "def forward", "def twice", "k = 3",
                           "format version"})
    EXPECT_NE(desc.find(word), std::string::npos) << word << "\n" << desc;
}

}  // namespace
}  // namespace kindling
