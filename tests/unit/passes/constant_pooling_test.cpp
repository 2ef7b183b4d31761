// Constant pooling: same output as torch._C._jit_pass_constant_pooling (PyTorch 1.13).
#include "passes/canonicalize/constant_pooling.h"

#include <gtest/gtest.h>

#include "passes_test_util.h"

namespace kindling {
namespace {

using testing::canonicalNumbers;

TEST(ConstantPoolingTest, MergesAndHoistsAsPyTorch) {
  auto g = parseIR(R"IR(graph(%x : int):
  %1 : int = prim::Constant[value=1]()
  %2 : int = aten::add(%x, %1)
  %3 : int = prim::Constant[value=2]()
  %4 : int = aten::add(%2, %3)
  %5 : int = prim::Constant[value=3]()
  %6 : int = aten::add(%4, %5)
  %7 : int = prim::Constant[value=1]()
  %8 : int = aten::add(%6, %7)
  return (%8)
)IR");
  poolConstants(*g);
  EXPECT_EQ(canonicalNumbers(g->toString()), canonicalNumbers(R"IR(graph(%x : int):
  %5 : int = prim::Constant[value=3]()
  %3 : int = prim::Constant[value=2]()
  %1 : int = prim::Constant[value=1]()
  %2 : int = aten::add(%x, %1)
  %4 : int = aten::add(%2, %3)
  %6 : int = aten::add(%4, %5)
  %8 : int = aten::add(%6, %1)
  return (%8)
)IR"));
}

TEST(ConstantPoolingTest, KeepsDifferentTypesAndListsApartAndHoistsFromBlocks) {
  auto g = parseIR(R"IR(graph(%c : bool):
  %l1 : int[] = prim::Constant[value=[1]]()
  %l2 : int[] = prim::Constant[value=[1]]()
  %r : int = prim::If(%c)
    block0():
      %t : bool = prim::Constant[value=1]()
      %one : int = prim::Constant[value=1]()
      -> (%one)
    block1():
      %one2 : int = prim::Constant[value=1]()
      -> (%one2)
  %o : (int[], int[], int) = prim::TupleConstruct(%l1, %l2, %r)
  return (%o)
)IR");
  poolConstants(*g);
  EXPECT_EQ(g->toString(), R"IR(graph(%c : bool):
  %one : int = prim::Constant[value=1]()
  %t : bool = prim::Constant[value=1]()
  %l1 : int[] = prim::Constant[value=[1]]()
  %l2 : int[] = prim::Constant[value=[1]]()
  %r : int = prim::If(%c)
    block0():
      -> (%one)
    block1():
      -> (%one)
  %o : (int[], int[], int) = prim::TupleConstruct(%l1, %l2, %r)
  return (%o)
)IR");
}

}  // namespace
}  // namespace kindling
