// Dead code elimination: graph in → graph out.
#include "passes/canonicalize/dead_code_elimination.h"

#include <gtest/gtest.h>

#include "passes_test_util.h"

namespace kindling {
namespace {

using testing::canonicalNumbers;

std::string dce(const std::string& in) {
  auto g = parseIR(in);
  eliminateDeadCode(*g);
  return canonicalNumbers(g->toString());
}

TEST(DeadCodeEliminationTest, RemovesUnusedNodesAndIfOutputsKeepsSideEffects) {
  EXPECT_EQ(dce(R"IR(graph(%x : int,
      %c : bool):
  %one : int = prim::Constant[value=1]()
  %dead : int = aten::add(%x, %one)
  %r : int, %unused : int = prim::If(%c)
    block0():
      %a : int = aten::add(%x, %one)
      %b : int = aten::add(%a, %one)
      -> (%a, %b)
    block1():
      -> (%x, %x)
  %msg : str = prim::Constant[value="m"]()
   = prim::Print(%msg)
  %l : int[] = prim::ListConstruct(%x)
  %l2 : int[] = aten::append(%l, %one)
  return (%r)
)IR"),
            R"IR(graph(%x : int,
      %c : bool):
  %one : int = prim::Constant[value=1]()
  %r : int = prim::If(%c)
    block0():
      %a : int = aten::add(%x, %one)
      -> (%a)
    block1():
      -> (%x)
  %msg : str = prim::Constant[value="m"]()
   = prim::Print(%msg)
  %l : int[] = prim::ListConstruct(%x)
  %l2 : int[] = aten::append(%l, %one)
  return (%r)
)IR");
}

TEST(DeadCodeEliminationTest, RemovesUnusedLoopCarriedValues) {
  EXPECT_EQ(dce(R"IR(graph(%n : int):
  %true : bool = prim::Constant[value=1]()
  %zero : int = prim::Constant[value=0]()
  %s : int, %t : int = prim::Loop(%n, %true, %zero, %zero)
    block0(%i : int, %a : int, %b : int):
      %a2 : int = aten::add(%a, %i)
      %b2 : int = aten::add(%b, %a2)
      -> (%true, %a2, %b2)
  return (%s)
)IR"),
            R"IR(graph(%n : int):
  %true : bool = prim::Constant[value=1]()
  %zero : int = prim::Constant[value=0]()
  %s : int = prim::Loop(%n, %true, %zero)
    block0(%i : int, %a : int):
      %a2 : int = aten::add(%a, %i)
      -> (%true, %a2)
  return (%s)
)IR");
}

TEST(DeadCodeEliminationTest, KeepsLoopValuesThatFeedEachOther) {
  // %b feeds %a's next value: neither can go.
  std::string in = R"IR(graph(%n : int):
  %true : bool = prim::Constant[value=1]()
  %zero : int = prim::Constant[value=0]()
  %s : int, %t : int = prim::Loop(%n, %true, %zero, %zero)
    block0(%i : int, %a : int, %b : int):
      %a2 : int = aten::add(%a, %b)
      %b2 : int = aten::add(%b, %i)
      -> (%true, %a2, %b2)
  return (%s)
)IR";
  EXPECT_EQ(dce(in), in);
}

}  // namespace
}  // namespace kindling
