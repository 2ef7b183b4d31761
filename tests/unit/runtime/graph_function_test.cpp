// GraphFunction's lazy optimization and CompileCheck (runtime/graph_function.h): the check raises what
// compiling raises (recursion found while inlining, nesting too deep once calls are inlined) without
// building optimized graphs, and optimizedGraphCopy builds a graph it does not keep.
#include "runtime/graph_function.h"

#include <gtest/gtest.h>

#include <mutex>

#include "ir/irparser.h"
#include "runtime_test_util.h"
#include "passes/pipeline.h"
#include "runtime/compilation_unit.h"
#include "runtime/interpreter.h"
#include "runtime/module.h"

namespace kindling {
namespace {

void registerTestOps() {
  static std::once_flag once;
  std::call_once(once, [] {
    auto& r = OperatorRegistry::global();
    r.add("gftest::add(int a, int b) -> int", [](Stack& s) {
      int64_t b = pop(s).toInt(), a = pop(s).toInt();
      push(s, a + b);
    });
    r.add("gftest::lt(int a, int b) -> bool", [](Stack& s) {
      int64_t b = pop(s).toInt(), a = pop(s).toInt();
      push(s, a < b);
    });
  });
}

using Env = testing::IRNames;

// A class M with methods emitted from IR on demand (as an archive's methods are).
struct ClassM {
  Env env;
  std::shared_ptr<ClassType> cls = ClassType::create("__torch__.M", true);
  std::shared_ptr<CompilationUnit> cu = std::make_shared<CompilationUnit>();
  ClassM() {
    registerTestOps();
    env.types["__torch__.M"] = cls;
    cu->addType(cls);
  }
  GraphFunction* method(const std::string& name, const std::string& ir) {
    GraphFunction* f = cu->addFunction(std::make_unique<GraphFunction>(
        "__torch__.M." + name, nullptr, [this, ir](GraphFunction& self) { parseIR(ir, *self.graphUnchecked(), env.options()); }));
    cls->addMethod(f);
    return f;
  }
};

std::string compileErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

TEST(CompileCheckTest, PassesWithoutBuildingOptimizedGraphs) {
  ClassM m;
  GraphFunction* step = m.method("step", R"IR(graph(%self : __torch__.M, %x : int):
  %one : int = prim::Constant[value=1]()
  %r : int = gftest::add(%x, %one)
  return (%r)
)IR");
  GraphFunction* fwd = m.method("forward", R"IR(graph(%self : __torch__.M, %x : int):
  %a : int = prim::CallMethod[name="step"](%self, %x)
  %b : int = prim::CallMethod[name="step"](%self, %a)
  return (%b)
)IR");
  CompileCheck check;
  check.check(*fwd);
  check.check(*step);
  EXPECT_TRUE(fwd->isDefined());
  EXPECT_TRUE(step->isDefined());  // emitted on the way, as inlining emits callees
  EXPECT_FALSE(fwd->hasOptimizedGraph());
  EXPECT_FALSE(step->hasOptimizedGraph());
  // A copy for freezing is built, not kept.
  std::shared_ptr<Graph> copy = fwd->optimizedGraphCopy();
  EXPECT_EQ(copy->toString().find("CallMethod"), std::string::npos);
  EXPECT_FALSE(fwd->hasOptimizedGraph());
  // The first run compiles.
  Module mod(m.cu, makeIntrusive<Object>(m.cls, 0));
  EXPECT_EQ(mod.forward({IValue(int64_t(5))}).toInt(), 7);
  EXPECT_TRUE(fwd->hasOptimizedGraph());
}

TEST(CompileCheckTest, MutualRecursionRaisesAsCompilingDoes) {
  ClassM m;
  const char* a = R"IR(graph(%self : __torch__.M, %x : int):
  %r : int = prim::CallMethod[name="b"](%self, %x)
  return (%r)
)IR";
  const char* b = R"IR(graph(%self : __torch__.M, %x : int):
  %zero : int = prim::Constant[value=0]()
  %c : bool = gftest::lt(%x, %zero)
  %r : int = prim::If(%c)
    block0():
      -> (%x)
    block1():
      %y : int = prim::CallMethod[name="a"](%self, %x)
      -> (%y)
  return (%r)
)IR";
  GraphFunction* fa = m.method("a", a);
  GraphFunction* fb = m.method("b", b);
  const std::string expected = compileErrorOf([&] { (void)fa->code(); });
  ASSERT_NE(expected.find("recursive calls are not supported"), std::string::npos) << expected;
  ClassM fresh;  // the same class again, nothing compiled
  GraphFunction* ga = fresh.method("a", a);
  fresh.method("b", b);
  CompileCheck check;
  EXPECT_EQ(compileErrorOf([&] { check.check(*ga); }), expected);
  EXPECT_FALSE(ga->hasOptimizedGraph());
  // The other function of the cycle too, with the message compiling it gives.
  const std::string expectedB = compileErrorOf([&] { (void)fb->code(); });
  ClassM fresh2;
  fresh2.method("a", a);
  GraphFunction* hb = fresh2.method("b", b);
  CompileCheck check2;
  EXPECT_EQ(compileErrorOf([&] { check2.check(*hb); }), expectedB);
}

TEST(CompileCheckTest, SelfCallRaisesAsCompilingDoes) {
  const char* ir = R"IR(graph(%self : __torch__.M, %x : int):
  %r : int = prim::CallMethod[name="f"](%self, %x)
  return (%r)
)IR";
  ClassM m;
  GraphFunction* f = m.method("f", ir);
  const std::string expected = compileErrorOf([&] { (void)f->code(); });
  ASSERT_NE(expected.find("recursive calls are not supported"), std::string::npos) << expected;
  ClassM fresh;
  GraphFunction* g = fresh.method("f", ir);
  CompileCheck check;
  EXPECT_EQ(compileErrorOf([&] { check.check(*g); }), expected);
}

// f_0 calls f_1 inside an if, f_1 calls f_2 inside an if, ...: each function nests one block, and
// inlined f_0 nests `n` levels.
std::vector<std::unique_ptr<GraphFunction>> chainOfCalls(size_t n, Env& env) {
  registerTestOps();
  std::vector<std::unique_ptr<GraphFunction>> fns(n);
  for (size_t i = n; i-- > 0;) {
    std::string body = "graph(%x : int):\n  %zero : int = prim::Constant[value=0]()\n"
                       "  %c : bool = gftest::lt(%x, %zero)\n  %r : int = prim::If(%c)\n    block0():\n";
    if (i + 1 < n)
      body += "      %fn : Function = prim::Constant[name=\"f_" + std::to_string(i + 1) +
              "\"]()\n      %y : int = prim::CallFunction(%fn, %x)\n      -> (%y)\n";
    else
      body += "      -> (%x)\n";
    body += "    block1():\n      -> (%x)\n  return (%r)\n";
    std::string name = "f_" + std::to_string(i);
    fns[i] = std::make_unique<GraphFunction>("__torch__." + name, nullptr,
                                             [body, &env](GraphFunction& self) { parseIR(body, *self.graphUnchecked(), env.options()); });
    env.functions[name] = fns[i].get();
  }
  return fns;
}

TEST(CompileCheckTest, NestingTooDeepOnceInlinedRaisesAsCompilingDoes) {
  Env env;
  auto fns = chainOfCalls(kMaxBlockNesting + 1, env);
  const std::string expected = compileErrorOf([&] { (void)fns[0]->code(); });
  ASSERT_NE(expected.find("nesting too deep"), std::string::npos) << expected;
  Env env2;
  auto fresh = chainOfCalls(kMaxBlockNesting + 1, env2);
  CompileCheck check;
  EXPECT_EQ(compileErrorOf([&] { check.check(*fresh[0]); }), expected);
  // One level less inlines within the bound; f_1 of the long chain too. Neither keeps a graph.
  check.check(*fresh[1]);
  EXPECT_FALSE(fresh[1]->hasOptimizedGraph());
  Env env3;
  auto within = chainOfCalls(kMaxBlockNesting - 1, env3);
  CompileCheck check3;
  check3.check(*within[0]);
  EXPECT_FALSE(within[0]->hasOptimizedGraph());
  Stack s{IValue(int64_t(-3))};
  within[0]->run(s);
  EXPECT_EQ(s.at(0).toInt(), -3);
}

}  // namespace
}  // namespace kindling
