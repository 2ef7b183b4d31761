// Constant propagation: graph in → graph out, compared with PyTorch 1.13's
// torch._C._jit_pass_constant_propagation where it applies.
#include "passes/canonicalize/constant_propagation.h"

#include <gtest/gtest.h>

#include "passes/canonicalize/dead_code_elimination.h"
#include "passes_test_util.h"

namespace kindling {
namespace {

using testing::canonicalNumbers;

std::string fold(const std::string& in) {
  auto g = parseIR(in);
  propagateConstants(*g);
  eliminateDeadCode(*g);
  return canonicalNumbers(g->toString());
}

TEST(ConstantPropagationTest, FoldsScalarOpsAndIfLikePyTorch) {
  // Output of torch._C._jit_pass_constant_propagation on the same graph (PyTorch 1.13).
  EXPECT_EQ(fold(R"IR(graph(%x : int):
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %a : int = aten::add(%one, %two)
  %b : int = aten::mul(%a, %x)
  %c : bool = aten::lt(%a, %two)
  %r : int = prim::If(%c)
    block0():
      -> (%b)
    block1():
      -> (%a)
  return (%r)
)IR"),
            R"IR(graph(%x : int):
  %0 : int = prim::Constant[value=3]()
  return (%0)
)IR");
}

TEST(ConstantPropagationTest, ListsFoldOnlyWhenNoUseMayMutateThem) {
  EXPECT_EQ(fold(R"IR(graph(%x : int):
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %l : int[] = prim::ListConstruct(%one, %two)
  %n : int = aten::len(%l)
  %m : int[] = prim::ListConstruct(%one, %two)
  %m2 : int[] = aten::append(%m, %x)
  %r : (int, int[]) = prim::TupleConstruct(%n, %m2)
  return (%r)
)IR"),
            R"IR(graph(%x : int):
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %0 : int = prim::Constant[value=2]()
  %m : int[] = prim::ListConstruct(%one, %two)
  %m2 : int[] = aten::append(%m, %x)
  %r : (int, int[]) = prim::TupleConstruct(%0, %m2)
  return (%r)
)IR");
}

TEST(ConstantPropagationTest, KernelErrorsAreLeftForRunTime) {
  std::string in = R"IR(graph():
  %one : int = prim::Constant[value=1]()
  %zero : int = prim::Constant[value=0]()
  %d : int = aten::floordiv(%one, %zero)
  return (%d)
)IR";
  EXPECT_EQ(fold(in), in);
}

TEST(ConstantPropagationTest, TuplesAndIsNone) {
  EXPECT_EQ(fold(R"IR(graph(%x : int):
  %one : int = prim::Constant[value=1]()
  %none : NoneType = prim::Constant()
  %t : (int, int) = prim::TupleConstruct(%one, %one)
  %e : int = prim::TupleIndex(%t, %one)
  %isn : bool = aten::__is__(%e, %none)
  %r : (int, bool) = prim::TupleConstruct(%e, %isn)
  return (%r)
)IR"),
            R"IR(graph(%x : int):
  %0 : (int, bool) = prim::Constant[value=(1, False)]()
  return (%0)
)IR");
}

}  // namespace
}  // namespace kindling
