// Operator upgraders: PyTorch 1.13's version map, the registry with old schemas, and the replacement of old
// calls by the upgraders' bodies (end to end against PyTorch: tests/oracle/test_versions.py).
#include "passes/canonicalize/upgraders.h"

#include <gtest/gtest.h>

#include <set>

#include "frontend/compiler.h"
#include "ops/registry/operator.h"

namespace kindling {
namespace {

TEST(Upgraders, VersionMapAsPyTorch) {
  const auto& m = operatorVersionMap();
  ASSERT_EQ(m.size(), 19u);  // len(torch._C._get_operator_version_map())
  std::set<std::string> withBody;
  for (const auto& e : m)
    if (!upgraderSource(e.upgraderName).empty()) withBody.insert(e.overload);
  EXPECT_EQ(withBody.size(), 13u);  // the behaviour-changing ones
  EXPECT_EQ(minFileVersionForOperator("aten::div.Tensor"), 4u);
  EXPECT_EQ(minFileVersionForOperator("aten::div_.Scalar_mode"), 4u);
  EXPECT_EQ(minFileVersionForOperator("aten::full"), 5u);
  EXPECT_EQ(minFileVersionForOperator("aten::linspace.out"), 8u);
  EXPECT_EQ(minFileVersionForOperator("aten::logspace"), 9u);
  EXPECT_EQ(minFileVersionForOperator("aten::gelu"), 10u);
  EXPECT_EQ(minFileVersionForOperator("aten::div.int"), 0u);
  EXPECT_EQ(minFileVersionForOperator("aten::add.Tensor"), 0u);
}

TEST(Upgraders, RegistryForVersion) {
  const OperatorRegistry& g = OperatorRegistry::global();
  EXPECT_EQ(&operatorRegistryForVersion(10, g), &g);
  const OperatorRegistry& v7 = operatorRegistryForVersion(7, g);
  EXPECT_NE(&v7, &g);
  EXPECT_EQ(&operatorRegistryForVersion(7, g), &v7);  // cached
  EXPECT_EQ(v7.all().size(), g.all().size());
  ASSERT_NE(v7.find("aten::linspace"), nullptr);
  EXPECT_EQ(v7.find("aten::linspace")->schema.str(),
            "aten::linspace(Scalar start, Scalar end, int? steps=None, *, ScalarType? dtype=None, Layout? layout=None, "
            "Device? device=None, bool? pin_memory=None) -> Tensor");
  EXPECT_EQ(v7.find("aten::gelu")->schema.str(), "aten::gelu(Tensor self) -> Tensor");
  // Everything else keeps today's schema and kernel.
  for (const auto& op : g.all()) {
    if (minFileVersionForOperator(op->schema.qualifiedName()) > 7) continue;
    const Operator* o = v7.find(op->schema.qualifiedName());
    ASSERT_NE(o, nullptr) << op->schema.str();
    EXPECT_EQ(o->schema.str(), op->schema.str());
    EXPECT_EQ(o->fn, op->fn);
  }
}

// Emits `def f(...)` of `src` against the registry of `version`, then runs the pass.
std::shared_ptr<Graph> compileAt(const std::string& src, uint64_t version) {
  struct Target : CompilationTarget {
    std::vector<std::pair<std::string, std::function<void(Graph&)>>> fns;
    Function* defineFunction(const std::string& q, FunctionSchema, std::function<void(Graph&)> body) override {
      fns.emplace_back(q, std::move(body));
      return nullptr;
    }
    Function* findFunction(const std::string&) const override { return nullptr; }
    void addType(TypePtr) override {}
    TypePtr findType(const std::string&) const override { return nullptr; }
  } target;
  CompileOptions opts;
  opts.registry = &operatorRegistryForVersion(version, OperatorRegistry::global());
  opts.archiveMode = true;
  compileSource(target, std::make_shared<const Source>(src, "test.py"), opts);
  auto g = std::make_shared<Graph>();
  target.fns.at(0).second(*g);
  replaceOldOperatorsWithUpgraders(*g, version, OperatorRegistry::global());
  return g;
}

size_t countOps(const Block* b, const std::string& overload, bool& foreign) {
  size_t n = 0;
  for (const Node* node : *b) {
    if (node->op()) {
      if (node->op()->schema.qualifiedName() == overload) ++n;
      if (OperatorRegistry::global().find(node->op()->schema.qualifiedName()) != node->op()) foreign = true;
    }
    for (const Block* sb : node->blocks()) n += countOps(sb, overload, foreign);
  }
  return n;
}

TEST(Upgraders, DivAtVersion3BecomesTheTruncatingUpgrader) {
  const std::string src = "def f(a: Tensor, b: Tensor) -> Tensor:\n  return torch.div(a, b)\n";
  bool foreign = false;
  auto old = compileAt(src, 3);
  // Both branches of div_Tensor_0_3: true division and rounding_mode="trunc".
  EXPECT_EQ(countOps(old->block(), "aten::div.Tensor", foreign), 1u) << old->toString();
  EXPECT_EQ(countOps(old->block(), "aten::div.Tensor_mode", foreign), 1u) << old->toString();
  EXPECT_EQ(countOps(old->block(), "aten::is_floating_point", foreign), 2u) << old->toString();
  EXPECT_FALSE(foreign) << "nodes must point at today's operators";
  auto now = compileAt(src, 4);
  EXPECT_EQ(countOps(now->block(), "aten::div.Tensor_mode", foreign), 0u) << now->toString();
}

TEST(Upgraders, LinspaceWithoutStepsBefore8) {
  const std::string src = "def f(x: float) -> Tensor:\n  return torch.linspace(0.0, x)\n";
  bool foreign = false;
  auto g = compileAt(src, 7);
  EXPECT_EQ(countOps(g->block(), "aten::linspace", foreign), 2u) << g->toString();  // steps None -> 100, or steps
  EXPECT_FALSE(foreign);
  EXPECT_NE(g->toString().find("value=100"), std::string::npos) << g->toString();
  EXPECT_THROW(compileAt(src, 8), CompileError);  // steps is required from version 8 on
}

TEST(Upgraders, EachImplementedOperatorIsReplaced) {
  struct Case {
    const char* overload;
    uint64_t version;
    const char* src;
  };
  const Case cases[] = {
      {"aten::div.Scalar", 3, "def f(a: Tensor) -> Tensor:\n  return torch.div(a, 2)\n"},
      {"aten::div_.Tensor", 3, "def f(a: Tensor, b: Tensor) -> Tensor:\n  return torch.div_(a, b)\n"},
      {"aten::div_.Scalar", 2, "def f(a: Tensor) -> Tensor:\n  return torch.div_(a, 3)\n"},
      {"aten::full", 4, "def f(n: int) -> Tensor:\n  return torch.full([2], n)\n"},
      {"aten::gelu", 9, "def f(a: Tensor) -> Tensor:\n  return torch.gelu(a)\n"},
  };
  for (const Case& c : cases) {
    if (!OperatorRegistry::global().find(c.overload)) continue;
    bool foreign = false;
    auto g = compileAt(c.src, c.version);
    std::string text = g->toString();
    EXPECT_FALSE(foreign) << c.overload;
    // The call now sits inside the upgrader's body, which names the upgrader in its inlined frames.
    std::string shortName = std::string(c.overload).substr(6);
    EXPECT_NE(text.find("aten::"), std::string::npos) << text;
    bool sawUpgraderFrame = false;
    for (const Node* n : *g->block())
      if (n->inlinedCallStack() && n->inlinedCallStack()->frames()[0]->callee.find("_0_") != std::string::npos)
        sawUpgraderFrame = true;
    EXPECT_TRUE(sawUpgraderFrame) << c.overload << "\n" << text;
    auto current = compileAt(c.src, 10);
    for (const Node* n : *current->block())
      EXPECT_FALSE(n->inlinedCallStack()) << c.overload;
  }
}

}  // namespace
}  // namespace kindling
