// IR parser: round trips of graphs printed by PyTorch 1.13 (parse → print gives the same text, up to the
// numbering of unnamed values), types, constants and errors.
#include "ir/irparser.h"

#include <gtest/gtest.h>

#include <unordered_map>

#include "test_util.h"

namespace kindling {
namespace {

using testing::canonicalNumbers;
using testing::readDataFile;

class DummyFunction : public Function {
 public:
  explicit DummyFunction(std::string n) : name_(std::move(n)) {}
  const std::string& qualname() const override { return name_; }
  const std::string& name() const override { return name_; }
  const FunctionSchema& getSchema() const override { return schema_; }
  void run(Stack&) override {}
 private:
  std::string name_;
  FunctionSchema schema_;
};

struct Classes {
  std::unordered_map<std::string, TypePtr> types;
  DummyFunction helper{"helper"};
  IRParserOptions options() {
    IRParserOptions o;
    o.resolveType = [this](const std::string& n) -> TypePtr {
      auto it = types.find(n);
      if (it != types.end()) return it->second;
      if (n.rfind("__torch__.", 0) == 0) return types[n] = ClassType::create(n, true);
      return nullptr;
    };
    o.resolveFunction = [this](const std::string& n) -> Function* { return n == "helper" ? &helper : nullptr; };
    return o;
  }
};

void expectRoundTrip(const std::string& file) {
  Classes c;
  std::string text = readDataFile(file);
  ASSERT_FALSE(text.empty()) << file;
  auto g = parseIR(text, c.options());
  EXPECT_EQ(canonicalNumbers(g->toString()), canonicalNumbers(text)) << file;
}

TEST(IrParserTest, RoundTripConstants) { expectRoundTrip("ir/constants.graph"); }
TEST(IrParserTest, RoundTripLoops) { expectRoundTrip("ir/loops.graph"); }
TEST(IrParserTest, RoundTripModule) { expectRoundTrip("ir/module.graph"); }
TEST(IrParserTest, RoundTripInlinedModule) { expectRoundTrip("ir/module_inlined.graph"); }

TEST(IrParserTest, ConstantsTakeTheOutputType) {
  auto g = parseIR(R"IR(graph():
  %b : bool = prim::Constant[value=1]()
  %f : float = prim::Constant[value=2]()
  %d : Device = prim::Constant[value="cpu"]()
  %l : float[] = prim::Constant[value=[1, 2.5]]()
  %t : (int, float, str) = prim::Constant[value=(1, 2., "s")]()
  %n : NoneType = prim::Constant()
  return (%b, %f, %d, %l, %t, %n)
)IR");
  const auto& outs = g->outputs();
  EXPECT_TRUE(outs[0]->constantValue()->toBool());
  EXPECT_EQ(outs[1]->constantValue()->toDouble(), 2.0);
  EXPECT_TRUE(outs[2]->constantValue()->isDevice());
  auto l = outs[3]->constantValue()->toDoubleVector();
  ASSERT_EQ(l.size(), 2u);
  EXPECT_EQ(l[0], 1.0);
  EXPECT_EQ(outs[4]->constantValue()->toTupleRef().elements[1].toDouble(), 2.0);
  EXPECT_TRUE(outs[5]->constantValue()->isNone());
}

TEST(IrParserTest, Types) {
  EXPECT_EQ(parseIRType("int[]")->str(), "int[]");
  EXPECT_EQ(parseIRType("Tensor?")->str(), "Tensor?");
  EXPECT_EQ(parseIRType("(int, float, str)")->str(), "(int, float, str)");
  EXPECT_EQ(parseIRType("Dict(str, int)")->str(), "Dict(str, int)");
  EXPECT_EQ(parseIRType("List[int]")->str(), "int[]");
  EXPECT_EQ(parseIRType("Optional[List[Tensor]]")->str(), "Tensor[]?");
  EXPECT_EQ(parseIRType("Tuple[int, Tensor]")->str(), "(int, Tensor)");
  EXPECT_EQ(parseIRType("Dict[str, Tensor]")->str(), "Dict(str, Tensor)");
  EXPECT_EQ(parseIRType("Float(1, 3, strides=[3, 1], requires_grad=0, device=cpu)")->str(), "Tensor");
  EXPECT_THROW(parseIRType("Frobnicate"), Error);
}

TEST(IrParserTest, Errors) {
  try {
    parseIR("graph(%x : Tensor):\n  %y : Tensor = aten::neg(%z)\n  return (%y)\n");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("%z"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parseIR("graph(%x : Tensor):\n  return (%x"), Error);
  EXPECT_THROW(parseIR("graph(%x : Tensor, %x : Tensor):\n  return (%x)\n"), Error);
  EXPECT_THROW(parseIR("graph():\n  %a : int = prim::Constant[value=\"unterminated]()\n  return (%a)\n"), Error);
}

TEST(IrParserTest, FunctionConstantsResolveTheCallee) {
  Classes c;
  auto g = parseIR(R"IR(graph(%a : int):
  %f : Function = prim::Constant[name="helper"]()
  %r : int = prim::CallFunction(%f, %a)
  return (%r)
)IR", c.options());
  Node* call = g->outputs()[0]->node();
  EXPECT_EQ(call->callee(), &c.helper);
  EXPECT_EQ(call->input(0)->type()->kind(), TypeKind::Function);
}

}  // namespace
}  // namespace kindling

namespace kindling {
namespace {

// From print(torch.jit.script(f).graph) in PyTorch 1.13 for `def f(c: Color) -> bool: return c == Color.RED`
// (class Color(Enum): RED = 1): enum types print as Enum<qualified name>, enum constants as qualname.NAME.
TEST(IrParserTest, EnumTypesAndConstants) {
  const std::string text =
      "graph(%c.1 : Enum<__torch__.Color>):\n"
      "  %1 : Enum<__torch__.Color> = prim::Constant[value=__torch__.Color.RED]()\n"
      "  %2 : bool = aten::eq(%c.1, %1)\n"
      "  return (%2)\n";
  auto g = parseIR(text);
  EXPECT_EQ(canonicalNumbers(g->toString()), canonicalNumbers(text));
  std::optional<IValue> v = (*g->block()->begin())->output()->constantValue();
  ASSERT_TRUE(v && v->isEnum());
  EXPECT_EQ(v->toEnum()->name, "RED");
  EXPECT_EQ(g->inputs()[0]->type()->annotationStr(), "__torch__.Color");
}

}  // namespace
}  // namespace kindling

namespace kindling {
namespace {

// print(torch.jit.script(f).graph) in PyTorch 1.13 for `fut = torch.jit.fork(helper, x, 2); return
// torch.jit.wait(fut) + x` (source locations dropped): the forked call's subgraph follows the graph.
TEST(IrParserTest, ForkSubgraphs) {
  const std::string text =
      "graph(%x.1 : Tensor):\n"
      "  %2 : int = prim::Constant[value=2]()\n"
      "  %8 : int = prim::Constant[value=1]()\n"
      "  %fut.1 : Future[Tensor] = prim::fork_0(%x.1, %2)\n"
      "  %12 : Tensor = aten::wait(%fut.1)\n"
      "  %15 : Tensor = aten::add(%12, %x.1, %8)\n"
      "  return (%15)\n"
      "with prim::fork_0 = graph(%x.1 : Tensor,\n"
      "      %6 : int):\n"
      "  %1 : Function = prim::Constant[name=\"helper\"]()\n"
      "  %4 : Tensor = prim::CallFunction(%1, %x.1, %6)\n"
      "  return (%4)\n";
  Classes c;
  auto g = parseIR(text, c.options());
  // Each graph numbers its values on its own: compare the sections one by one.
  auto sections = [](const std::string& t) {
    std::vector<std::string> out;
    size_t b = 0;
    for (size_t w; (w = t.find("\nwith ", b)) != std::string::npos; b = w + 1) out.push_back(canonicalNumbers(t.substr(b, w + 1 - b)));
    out.push_back(canonicalNumbers(t.substr(b)));
    return out;
  };
  EXPECT_EQ(sections(g->toString()), sections(text));
  EXPECT_THROW(parseIR("graph(%x : Tensor):\n  %f : Future[Tensor] = prim::fork_0(%x)\n  return (%x)\n"), Error);
}

std::string errorOfIR(const std::string& text, bool typeOnly = false) {
  try {
    if (typeOnly) parseIRType(text);
    else parseIR(text);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::string repeat(const std::string& s, int n) {
  std::string r;
  for (int i = 0; i < n; ++i) r += s;
  return r;
}

TEST(IrParserTest, DeepNestingIsAnErrorNotACrash) {
  const int n = 100000;
  EXPECT_NE(errorOfIR("int" + repeat("[]", n), true).find("type nested too deeply"), std::string::npos);
  EXPECT_NE(errorOfIR("int" + repeat("?", n), true).find("type nested too deeply"), std::string::npos);
  EXPECT_NE(errorOfIR(repeat("(", n) + "int" + repeat(")", n), true).find("nested too deeply"), std::string::npos);
  EXPECT_NE(errorOfIR(repeat("List[", n) + "int" + repeat("]", n), true).find("nested too deeply"), std::string::npos);
  // Suffixes and brackets add up: 150 levels of tuples, each with 150 list suffixes.
  std::string mixed = "int";
  for (int i = 0; i < 150; ++i) mixed = "(" + mixed + ")" + repeat("[]", 150);
  EXPECT_NE(errorOfIR(mixed, true).find("type nested too deeply"), std::string::npos);
  EXPECT_NE(errorOfIR("graph():\n  %c : int[] = prim::Constant[value=" + repeat("[", n) + "1" + repeat("]", n) +
                      "]()\n  return (%c)\n").find("constant nested too deeply"),
            std::string::npos);
  std::string blocks = "graph(%c : bool):\n";
  for (int i = 0; i < 50000; ++i) blocks += "  %r" + std::to_string(i) + " : int = prim::If(%c)\n    block0():\n";
  EXPECT_NE(errorOfIR(blocks).find("blocks nested too deeply"), std::string::npos);
  // Within the bound, nesting still parses.
  EXPECT_EQ(parseIRType("int" + repeat("[]", 150))->str(), "int" + repeat("[]", 150));
  EXPECT_EQ(parseIRType("Tuple[Tuple[int[], str]?, float]")->str(), "((int[], str)?, float)");
}

}  // namespace
}  // namespace kindling
