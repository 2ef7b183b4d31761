// The code printer (serialize/python_print.h): programs compiled by Kindling's frontend and printed, checked
// against the text PyTorch 1.13 prints for print(torch.jit.CompilationUnit(src).f.code) (each expected
// string below was produced that way), plus constants, dependencies and the version bump.
#include "serialize/python_print.h"

#include <gtest/gtest.h>

#include "frontend/compiler.h"
#include "runtime/compilation_unit.h"
#include "tensor/tensor.h"

namespace kindling {
namespace {

std::shared_ptr<CompilationUnit> compile(const std::string& src) {
  auto cu = std::make_shared<CompilationUnit>();
  CompileOptions o;
  compileSource(*cu, std::make_shared<Source>(src, "prog.py"), o);
  return cu;
}

std::string codeOf(const std::string& src, const std::string& fn = "f") {
  auto cu = compile(src);
  GraphFunction* f = cu->findGraphFunction("__torch__." + fn);
  EXPECT_NE(f, nullptr);
  return f ? pythonCodeOf(*f, false) : "";
}

TEST(PythonPrintTest, LoopsIfsAndInlining) {
  const char* src = R"(
from typing import List, Tuple
def f(x: torch.Tensor, n: int) -> Tuple[torch.Tensor, int]:
    y = x + 1
    s = 0
    for i in range(n):
        s += i
        if s > 10:
            s = s - 1
    while s < 100:
        s = s * 2
    l: List[int] = []
    l.append(s)
    d = {"a": 1.5, "b\n": 2.0}
    z = x.sum() * 0.1 + d["a"]
    if n > 3:
        q = y.relu()
    else:
        q = torch.zeros([2, 3])
    for e in l:
        s += e
    assert s > 0, "bad"
    return q + z, s + len(l)
)";
  const char* expected = R"(def f(x: Tensor,
    n: int) -> Tuple[Tensor, int]:
  y = torch.add(x, 1)
  s = 0
  for i in range(n):
    s0 = torch.add(s, i)
    if torch.gt(s0, 10):
      s1 = torch.sub(s0, 1)
    else:
      s1 = s0
    s = s1
  s2 = s
  _0 = torch.lt(s, 100)
  while _0:
    s3 = torch.mul(s2, 2)
    _0, s2 = torch.lt(s3, 100), s3
  l = annotate(List[int], [])
  _1 = torch.append(l, s2)
  d = {"a": 1.5, "b\n": 2.}
  _2 = torch.mul(torch.sum(x), 0.10000000000000001)
  z = torch.add(_2, d["a"])
  if torch.gt(n, 3):
    q = torch.relu(y)
  else:
    q = torch.zeros([2, 3])
  s4 = s2
  for _3 in range(torch.len(l)):
    e = l[_3]
    s4 = torch.add(s4, e)
  if torch.gt(s4, 0):
    pass
  else:
    ops.prim.RaiseException("AssertionError: bad")
  _4 = (torch.add(q, z), torch.add(s4, torch.len(l)))
  return _4
)";
  EXPECT_EQ(codeOf(src), expected);
}

TEST(PythonPrintTest, OptionalRefinementAndCasts) {
  const char* src = R"(
from typing import Optional
def f(x: Optional[int], t: torch.Tensor) -> str:
    if x is None:
        return "none"
    s = str(x) + "it's"
    u = t.view(-1)[0]
    return s + str(float(u.item()))
)";
  const char* expected = R"(def f(x: Optional[int],
    t: Tensor) -> str:
  if torch.__is__(x, None):
    _0 = "none"
  else:
    x0 = unchecked_cast(int, x)
    s = torch.add(str(x0), "it\'s")
    u = torch.select(torch.view(t, [-1]), 0, 0)
    _1 = torch.add(s, str(float(torch.item(u))))
    _0 = _1
  return _0
)";
  EXPECT_EQ(codeOf(src), expected);
}

TEST(PythonPrintTest, Constants) {
  std::vector<IValue> table;
  EXPECT_EQ(pythonConstantString(IValue(1.0), nullptr), "1.");
  EXPECT_EQ(pythonConstantString(IValue(0.1), nullptr), "0.10000000000000001");
  EXPECT_EQ(pythonConstantString(IValue(1e20), nullptr), "1e+20");
  EXPECT_EQ(pythonConstantString(IValue(-0.0), nullptr), "-0.");
  EXPECT_EQ(pythonConstantString(IValue(std::string("it's \"q\"\t\x01\\")), nullptr), "\"it\\'s \\\"q\\\"\\t\\001\\\\\"");
  EXPECT_EQ(pythonConstantString(makeIntList({}), nullptr), "annotate(List[int], [])");
  EXPECT_EQ(pythonConstantString(makeIntList({1, 2}), nullptr), "[1, 2]");
  EXPECT_EQ(pythonConstantString(makeTuple({IValue(int64_t(1))}), nullptr), "(1,)");
  EXPECT_EQ(pythonConstantString(IValue(Device::parse("cpu")), nullptr), "torch.device(\"cpu\")");
  // Tensors and non-ASCII strings go to the constant table; equal tensors share an entry.
  Tensor t = Tensor::fromVector<float>({1.f, 2.f}, ScalarType::Float);
  EXPECT_EQ(pythonConstantString(IValue(t), &table), "CONSTANTS.c0");
  EXPECT_EQ(pythonConstantString(IValue(std::string("\xc3\xa9")), &table), "CONSTANTS.c1");
  EXPECT_EQ(pythonConstantString(IValue(t.clone()), &table), "CONSTANTS.c0");
  EXPECT_EQ(table.size(), 2u);
  EXPECT_THROW(pythonConstantString(IValue(t), nullptr), Error);
}

TEST(PythonPrintTest, CallsDependenciesAndVersion) {
  const char* src = R"(
def h(x: int, k: int = 2) -> int:
    return x * k
def f(x: torch.Tensor, n: int) -> torch.Tensor:
    return torch.div(x, h(n))
)";
  auto cu = compile(src);
  GraphFunction* f = cu->findGraphFunction("__torch__.f");
  ASSERT_NE(f, nullptr);
  PythonPrinter p;
  p.printFunction(*f);
  // PyTorch names the callee __torch__.h when f is scripted from a module (h in a bare CompilationUnit).
  EXPECT_EQ(p.str(), "def f(x: Tensor,\n    n: int) -> Tensor:\n  return torch.div(x, __torch__.h(n, 2, ))\n");
  ASSERT_EQ(p.dependencies().size(), 1u);
  EXPECT_EQ(qualifiedNameOf(p.dependencies()[0]), "__torch__.h");
  EXPECT_EQ(p.minVersion(), 4u);  // aten::div changed at version 4
  uint64_t version = 0;
  auto files = printCodeFiles({std::make_shared<FunctionType>(f)}, nullptr, &version);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].path, "__torch__.py");
  EXPECT_EQ(files[0].text,
            "def f(x: Tensor,\n    n: int) -> Tensor:\n  return torch.div(x, __torch__.h(n, 2, ))\n"
            "def h(x: int,\n    k: int=2) -> int:\n  return torch.mul(x, k)\n");
  EXPECT_EQ(version, 4u);
}

}  // namespace
}  // namespace kindling
