// Peephole: torch._C._jit_pass_peephole in PyTorch 1.13 folds eq/ne of a Value with itself for int, float
// and bool (checked: lt/le/gt/ge, str and Scalar operands are left alone).
#include "passes/canonicalize/peephole.h"

#include <gtest/gtest.h>

#include "passes/canonicalize/dead_code_elimination.h"
#include "passes_test_util.h"

namespace kindling {
namespace {

std::string peephole(const std::string& in, size_t expected) {
  auto g = parseIR(in);
  EXPECT_EQ(runPeephole(*g), expected) << in;
  eliminateDeadCode(*g);
  return testing::canonicalNumbers(g->toString());
}

TEST(PeepholeTest, SelfEqualityFoldsForIntFloatBool) {
  for (const char* ty : {"int", "float", "bool"}) {
    EXPECT_EQ(peephole(std::string("graph(%x : ") + ty + R"IR():
  %a : bool = aten::eq(%x, %x)
  %b : bool = aten::ne(%x, %x)
  %r : (bool, bool) = prim::TupleConstruct(%a, %b)
  return (%r)
)IR", 2),
              std::string("graph(%x : ") + ty + R"IR():
  %0 : bool = prim::Constant[value=1]()
  %1 : bool = prim::Constant[value=0]()
  %r : (bool, bool) = prim::TupleConstruct(%0, %1)
  return (%r)
)IR");
  }
}

TEST(PeepholeTest, LeavesOtherComparisonsAlone) {
  peephole(R"IR(graph(%x : float, %y : float):
  %a : bool = aten::eq(%x, %y)
  %b : bool = aten::lt(%x, %x)
  %c : bool = aten::le(%x, %x)
  %r : (bool, bool, bool) = prim::TupleConstruct(%a, %b, %c)
  return (%r)
)IR", 0);
  peephole(R"IR(graph(%s : str, %n : Scalar):
  %a : bool = aten::eq(%s, %s)
  %b : bool = aten::eq(%n, %n)
  %r : (bool, bool) = prim::TupleConstruct(%a, %b)
  return (%r)
)IR", 0);
}

}  // namespace
}  // namespace kindling
