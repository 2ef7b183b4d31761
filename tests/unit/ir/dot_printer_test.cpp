// Graphviz printing of graphs: one DOT node per IR node, an edge per use, clusters for blocks, module
// paths on GetAttr / CallMethod, quoting of labels.
#include "ir/dot_printer.h"

#include <gtest/gtest.h>

#include <regex>

#include "ir/irparser.h"

namespace kindling {
namespace {

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

TEST(DotPrinterTest, NodesEdgesAndBlockClusters) {
  auto g = parseIR(R"IR(graph(%x : Tensor, %n : int):
  %one : int = prim::Constant[value=1]()
  %c : bool = aten::gt(%n, %one)
  %y : Tensor = prim::If(%c)
    block0():
      %a : Tensor = aten::neg(%x)
      -> (%a)
    block1():
      -> (%x)
  %t : bool = prim::Constant[value=1]()
  %z : Tensor = prim::Loop(%n, %t, %y)
    block0(%i : int, %acc : Tensor):
      %s : Tensor = aten::add(%acc, %x, %one)
      -> (%t, %s)
  return (%z)
)IR");
  std::string dot = graphToDot(*g, "f");
  EXPECT_EQ(dot.rfind("digraph \"f\" {", 0), 0u);
  EXPECT_EQ(dot.back(), '\n');
  EXPECT_EQ(count(dot, "subgraph cluster_"), 3u);
  EXPECT_EQ(count(dot, "label=\"prim::If: then\""), 1u);
  EXPECT_EQ(count(dot, "label=\"prim::If: else\""), 1u);
  EXPECT_EQ(count(dot, "label=\"prim::Loop: body\""), 1u);
  EXPECT_EQ(count(dot, "label=\"aten::add\""), 1u);
  EXPECT_EQ(count(dot, "label=\"aten::neg\""), 1u);
  // %x is used by neg, the else block's return and add: three edges from the input node.
  EXPECT_EQ(count(dot, "in0 -> "), 3u);
  // Block returns feed the node owning the block (dashed).
  EXPECT_EQ(count(dot, "[style=dashed, constraint=false, arrowhead=empty]"), 3u);
  // The loop body's inputs come from its param point.
  EXPECT_NE(dot.find("_param -> "), std::string::npos);
  EXPECT_NE(dot.find("label=\"%acc : Tensor\""), std::string::npos);
  EXPECT_EQ(graphToDot(*g, "f"), dot);  // deterministic
}

TEST(DotPrinterTest, ModulePathsAndQuoting) {
  IRParserOptions opts;
  std::unordered_map<std::string, TypePtr> classes;
  opts.resolveType = [&](const std::string& name) -> TypePtr {
    auto& t = classes[name];
    if (!t) t = ClassType::create(name, true);
    return t;
  };
  auto g = parseIR(R"IR(graph(%self : __torch__.Net, %x : Tensor):
  %layer : __torch__.torch.nn.modules.conv.Conv2d = prim::GetAttr[name="conv"](%self)
  %w : Tensor = prim::GetAttr[name="weight"](%layer)
  %s : str = prim::Constant[value="a\"b"]()
  %y : Tensor = aten::mul(%x, %w)
  return (%y)
)IR",
                   opts);
  std::string dot = graphToDot(*g, "quote\"d");
  EXPECT_NE(dot.find("digraph \"quote\\\"d\""), std::string::npos);
  EXPECT_NE(dot.find("self.conv (Conv2d)"), std::string::npos);
  EXPECT_NE(dot.find("self.conv.weight"), std::string::npos);
  EXPECT_NE(dot.find("label=\"'a\\\"b'\""), std::string::npos);  // the constant's repr, quote escaped
}

}  // namespace
}  // namespace kindling
