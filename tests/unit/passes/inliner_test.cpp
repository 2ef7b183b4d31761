// Inliner: PyTorch 1.13's `inlined_graph` is the reference output.
#include "passes/canonicalize/inliner.h"

#include <gtest/gtest.h>

#include "passes_test_util.h"

namespace kindling {
namespace {

using testing::canonicalNumbers;

class GraphFn : public Function {
 public:
  GraphFn(std::string n, std::shared_ptr<Graph> g)
      : qualname_(n), name_(n.substr(n.find_last_of('.') + 1)), graph(std::move(g)) {}
  const std::string& qualname() const override { return qualname_; }
  const std::string& name() const override { return name_; }
  const FunctionSchema& getSchema() const override { return schema_; }
  void run(Stack&) override {}
  std::string qualname_, name_;
  std::shared_ptr<Graph> graph;
  FunctionSchema schema_;
};

TEST(InlinerTest, InlinesCallFunctionAsPyTorch) {
  // torch.jit.script(inc).graph and f.graph / f.inlined_graph from PyTorch 1.13 for
  //   def inc(a: int) -> int: b = a + 1; return b
  //   def f(x: int): y = inc(x); z = inc(y); return z
  GraphFn inc("__torch__.inc", parseIR(R"IR(graph(%a.1 : int):
  %2 : int = prim::Constant[value=1]()
  %b.1 : int = aten::add(%a.1, %2)
  return (%b.1)
)IR"));
  IRParserOptions o;
  o.resolveFunction = [&](const std::string& n) -> Function* { return n == "inc" ? &inc : nullptr; };
  auto f = parseIR(R"IR(graph(%x.1 : int):
  %2 : Function = prim::Constant[name="inc"]()
  %y.1 : int = prim::CallFunction(%2, %x.1)
  %z.1 : int = prim::CallFunction(%2, %y.1)
  return (%z.1)
)IR", o);
  inlineCalls(*f, [&](Function* fn) { return fn == &inc ? inc.graph : nullptr; });
  EXPECT_EQ(canonicalNumbers(f->toString()), canonicalNumbers(R"IR(graph(%x.1 : int):
  %1 : Function = prim::Constant[name="inc"]()
  %4 : int = prim::Constant[value=1]()
  %y.1 : int = aten::add(%x.1, %4)
  %6 : int = prim::Constant[value=1]()
  %z.1 : int = aten::add(%y.1, %6)
  return (%z.1)
)IR"));
}

TEST(InlinerTest, InlinesMethodsResolvedOnTheClassTypeAndKeepsOthers) {
  auto cls = ClassType::create("__torch__.M", true);
  GraphFn helper("__torch__.M.helper", parseIR(R"IR(graph(%self : __torch__.M, %x : int):
  %y : int = aten::neg(%x)
  return (%y)
)IR", [&] {
    IRParserOptions o;
    o.resolveType = [&](const std::string&) -> TypePtr { return cls; };
    return o;
  }()));
  cls->addMethod(&helper);
  IRParserOptions o;
  o.resolveType = [&](const std::string&) -> TypePtr { return cls; };
  auto g = parseIR(R"IR(graph(%self : __torch__.M, %x : int):
  %a : int = prim::CallMethod[name="helper"](%self, %x)
  %b : int = prim::CallMethod[name="other"](%self, %a)
  return (%b)
)IR", o);
  inlineCalls(*g, [&](Function* fn) { return fn == &helper ? helper.graph : nullptr; });
  EXPECT_EQ(g->toString(), R"IR(graph(%self : __torch__.M,
      %x : int):
  %a : int = aten::neg(%x)
  %b : int = prim::CallMethod[name="other"](%self, %a)
  return (%b)
)IR");
}

}  // namespace
}  // namespace kindling
