// Interpreter: control flow, last-use moves, varargs, containers, objects, calls, errors with call stacks.
// Graphs are written in the IR text format; the operators are test kernels registered here so the tests
// do not depend on the kernel families.
#include "runtime/interpreter.h"

#include <gtest/gtest.h>

#include <pthread.h>

#include <mutex>
#include <thread>

#include "ir/irparser.h"
#include "runtime_test_util.h"
#include "runtime/compilation_unit.h"
#include "runtime/graph_function.h"
#include "runtime/module.h"
#include "tensor/tensor.h"

namespace kindling {
namespace {

void registerTestOps() {
  static std::once_flag once;
  std::call_once(once, [] {
    auto& r = OperatorRegistry::global();
    r.add("test::add(int a, int b) -> int", [](Stack& s) {
      int64_t b = pop(s).toInt(), a = pop(s).toInt();
      push(s, a + b);
    });
    r.add("test::lt(int a, int b) -> bool", [](Stack& s) {
      int64_t b = pop(s).toInt(), a = pop(s).toInt();
      push(s, a < b);
    });
    r.add("test::use_count(Tensor self) -> int", [](Stack& s) {
      Tensor t = pop(s).toTensor();
      push(s, static_cast<int64_t>(t.use_count()));
    });
    r.add("test::ones(int n) -> Tensor", [](Stack& s) {
      int64_t n = pop(s).toInt();
      push(s, Tensor::full({n}, Scalar(1.0), ScalarType::Float));
    });
    r.add("test::count(...) -> int", [](Stack& s) {
      int64_t n = pop(s).toInt();
      drop(s, static_cast<size_t>(n));
      push(s, n);
    });
    r.add("test::fail(int a) -> int", [](Stack& s) {
      int64_t a = pop(s).toInt();
      throw RuntimeError(fmt::format("boom {}", a), "builtins.ValueError");
    });
  });
}

using Env = testing::IRNames;

Stack runGraph(const std::string& ir, Stack inputs, Env* env = nullptr) {
  registerTestOps();
  Env local;
  auto g = parseIR(ir, (env ? env : &local)->options());
  Code code(g, "f");
  code.run(inputs);
  return inputs;
}

TEST(InterpreterTest, ForLoopCarriesValues) {
  const char* ir = R"IR(graph(%n : int):
  %true : bool = prim::Constant[value=1]()
  %zero : int = prim::Constant[value=0]()
  %s : int = prim::Loop(%n, %true, %zero)
    block0(%i : int, %acc : int):
      %acc2 : int = test::add(%acc, %i)
      -> (%true, %acc2)
  return (%s)
)IR";
  EXPECT_EQ(runGraph(ir, {IValue(int64_t(5))}).at(0).toInt(), 10);
  EXPECT_EQ(runGraph(ir, {IValue(int64_t(0))}).at(0).toInt(), 0);
  EXPECT_EQ(runGraph(ir, {IValue(int64_t(-3))}).at(0).toInt(), 0);
}

TEST(InterpreterTest, WhileLoopAndSwappedCarriedValues) {
  // while a < 10: a, b = b, a + b   (carried values swap: needs parallel assignment)
  const char* ir = R"IR(graph(%a0 : int, %b0 : int):
  %max : int = prim::Constant[value=9223372036854775807]()
  %ten : int = prim::Constant[value=10]()
  %c0 : bool = test::lt(%a0, %ten)
  %a : int, %b : int = prim::Loop(%max, %c0, %a0, %b0)
    block0(%i : int, %x : int, %y : int):
      %s : int = test::add(%x, %y)
      %c : bool = test::lt(%y, %ten)
      -> (%c, %y, %s)
  %r : (int, int) = prim::TupleConstruct(%a, %b)
  return (%r)
)IR";
  Stack out = runGraph(ir, {IValue(int64_t(1)), IValue(int64_t(1))});
  const auto& e = out.at(0).toTupleRef().elements;
  EXPECT_EQ(e[0].toInt(), 13);  // 1,1 → 1,2 → 2,3 → 3,5 → 5,8 → 8,13 → 13,21
  EXPECT_EQ(e[1].toInt(), 21);
}

TEST(InterpreterTest, IfSelectsBranch) {
  const char* ir = R"IR(graph(%c : bool, %x : int):
  %one : int = prim::Constant[value=1]()
  %r : int = prim::If(%c)
    block0():
      %y : int = test::add(%x, %one)
      -> (%y)
    block1():
      -> (%x)
  return (%r)
)IR";
  EXPECT_EQ(runGraph(ir, {IValue(true), IValue(int64_t(4))}).at(0).toInt(), 5);
  EXPECT_EQ(runGraph(ir, {IValue(false), IValue(int64_t(4))}).at(0).toInt(), 4);
}

TEST(InterpreterTest, LastUseIsMovedSoKernelsSeeRefcountOne) {
  const char* ir = R"IR(graph(%n : int):
  %t : Tensor = test::ones(%n)
  %a : int = test::use_count(%t)
  %b : int = test::use_count(%t)
  %r : (int, int) = prim::TupleConstruct(%a, %b)
  return (%r)
)IR";
  Stack out = runGraph(ir, {IValue(int64_t(3))});
  const auto& e = out.at(0).toTupleRef().elements;
  EXPECT_EQ(e[0].toInt(), 2);  // still needed afterwards: copied
  EXPECT_EQ(e[1].toInt(), 1);  // last use: moved
}

TEST(InterpreterTest, ValuesUsedInsideLoopsAreNotMovedAndBranchesMoveIndependently) {
  const char* ir = R"IR(graph(%n : int, %c : bool):
  %true : bool = prim::Constant[value=1]()
  %zero : int = prim::Constant[value=0]()
  %t : Tensor = test::ones(%n)
  %s : int = prim::Loop(%n, %true, %zero)
    block0(%i : int, %acc : int):
      %u : int = test::use_count(%t)
      %acc2 : int = test::add(%acc, %u)
      -> (%true, %acc2)
  %t2 : Tensor = test::ones(%n)
  %r : int = prim::If(%c)
    block0():
      %u1 : int = test::use_count(%t2)
      -> (%u1)
    block1():
      %u2 : int = test::use_count(%t2)
      -> (%u2)
  %out : (int, int) = prim::TupleConstruct(%s, %r)
  return (%out)
)IR";
  Stack out = runGraph(ir, {IValue(int64_t(3)), IValue(true)});
  EXPECT_EQ(out.at(0).toTupleRef().elements[0].toInt(), 6);  // 3 iterations × refcount 2
  EXPECT_EQ(out.at(0).toTupleRef().elements[1].toInt(), 1);
  out = runGraph(ir, {IValue(int64_t(2)), IValue(false)});
  EXPECT_EQ(out.at(0).toTupleRef().elements[1].toInt(), 1);
}

TEST(InterpreterTest, VarargOperatorsGetTheInputCount) {
  const char* ir = R"IR(graph(%a : int, %b : Tensor):
  %s : str = prim::Constant[value="x"]()
  %n : int = test::count(%a, %b, %s)
  return (%n)
)IR";
  EXPECT_EQ(runGraph(ir, {IValue(int64_t(1)), IValue(Tensor::zeros({1}))}).at(0).toInt(), 3);
}

TEST(InterpreterTest, TuplesListsDicts) {
  const char* ir = R"IR(graph(%a : int, %b : int, %l : int[]):
  %k : str = prim::Constant[value="k"]()
  %m1 : int = prim::Constant[value=-1]()
  %t : (int, int) = prim::TupleConstruct(%a, %b)
  %x : int, %y : int = prim::TupleUnpack(%t)
  %last : int = prim::TupleIndex(%t, %m1)
  %lst : int[] = prim::ListConstruct(%y, %x, %last)
  %p : int, %q : int = prim::ListUnpack(%l)
  %d : Dict(str, int) = prim::DictConstruct(%k, %p)
  %r : (int[], Dict(str, int), int) = prim::TupleConstruct(%lst, %d, %q)
  return (%r)
)IR";
  Stack out = runGraph(ir, {IValue(int64_t(1)), IValue(int64_t(2)), makeIntList({7, 8})});
  const auto& e = out.at(0).toTupleRef().elements;
  EXPECT_EQ(e[0].toIntVector(), (std::vector<int64_t>{2, 1, 2}));
  EXPECT_EQ(e[0].toListRef().elementType->str(), "int");
  EXPECT_EQ(e[1].toDictRef().find(IValue("k"))->toInt(), 7);
  EXPECT_EQ(e[2].toInt(), 8);
  try {
    runGraph(ir, {IValue(int64_t(1)), IValue(int64_t(2)), makeIntList({7, 8, 9})});
    FAIL();
  } catch (const RuntimeError& err) {
    EXPECT_EQ(err.message(), "Expected 2 elements in a list but found 3");
  }
}

TEST(InterpreterTest, IsinstanceIsAndUninitialized) {
  const char* ir = R"IR(graph(%x : Any, %o : int?):
  %none : NoneType = prim::Constant()
  %i : bool = prim::isinstance[types=[int, float]](%x)
  %l : bool = prim::isinstance[types=[int[]]](%x)
  %n : bool = aten::__is__(%o, %none)
  %nn : bool = aten::__isnot__(%o, %none)
  %u : int = prim::Uninitialized()
  %r : (bool, bool, bool, bool) = prim::TupleConstruct(%i, %l, %n, %nn)
  return (%r)
)IR";
  auto check = [&](IValue x, IValue o, std::vector<bool> want) {
    Stack out = runGraph(ir, {std::move(x), std::move(o)});
    const auto& e = out.at(0).toTupleRef().elements;
    for (size_t k = 0; k < want.size(); ++k) EXPECT_EQ(e[k].toBool(), want[k]) << k;
  };
  check(IValue(int64_t(1)), IValue(), {true, false, true, false});
  check(IValue(2.5), IValue(int64_t(3)), {true, false, false, true});
  check(IValue("s"), IValue(), {false, false, true, false});
  check(makeIntList({1}), IValue(), {false, true, true, false});
}

TEST(InterpreterTest, RaiseExceptionCarriesClassAndFrame) {
  const char* ir = R"IR(graph(%x : int):
  %msg : str = prim::Constant[value="bad value"]()
  %cls : str = prim::Constant[value="builtins.ValueError"]()
   = prim::RaiseException(%msg, %cls)
  return (%x)
)IR";
  try {
    runGraph(ir, {IValue(int64_t(1))});
    FAIL();
  } catch (const RuntimeError& e) {
    EXPECT_EQ(e.message(), "bad value");
    EXPECT_EQ(e.pythonClass(), "builtins.ValueError");
    ASSERT_EQ(e.callStack.size(), 1u);
    EXPECT_EQ(e.callStack[0], "f");
  }
}

// --- functions, methods, objects ---

std::unique_ptr<GraphFunction> makeFunction(const std::string& name, const std::string& ir, Env& env) {
  return std::make_unique<GraphFunction>(name, parseIR(ir, env.options()));
}

TEST(InterpreterTest, CallFunctionAndErrorCallStack) {
  registerTestOps();
  Env env;
  auto inner = makeFunction("__torch__.inner", R"IR(graph(%a : int):
  %one : int = prim::Constant[value=1]()
  %c : bool = test::lt(%a, %one)
  %r : int = prim::If(%c)
    block0():
      %f : int = test::fail(%a)
      -> (%f)
    block1():
      %g : int = test::add(%a, %one)
      -> (%g)
  return (%r)
)IR", env);
  env.functions["inner"] = inner.get();
  const char* outerIR = R"IR(graph(%a : int):
  %fn : Function = prim::Constant[name="inner"]()
  %r : int = prim::CallFunction(%fn, %a)
  %r2 : int = prim::CallFunction(%fn, %r)
  return (%r2)
)IR";
  // Without inlining: CALL instructions, and one frame per function.
  auto g = parseIR(outerIR, env.options());
  Code code(g, "__torch__.outer");
  Stack s{IValue(int64_t(5))};
  code.run(s);
  EXPECT_EQ(s.at(0).toInt(), 7);
  Stack bad{IValue(int64_t(-4))};
  try {
    code.run(bad);
    FAIL();
  } catch (const RuntimeError& e) {
    EXPECT_EQ(e.message(), "boom -4");
    EXPECT_EQ(e.pythonClass(), "builtins.ValueError");
    ASSERT_EQ(e.callStack.size(), 2u);
    EXPECT_EQ(e.callStack[0], "__torch__.outer");  // outermost first, innermost last
    EXPECT_EQ(e.callStack[1], "__torch__.inner");
  }
  // Through GraphFunction: inlined, same results.
  auto outer = makeFunction("__torch__.outer", outerIR, env);
  EXPECT_EQ((*outer)({IValue(int64_t(5))}).toInt(), 7);
  EXPECT_EQ(outer->optimizedGraph()->toString().find("CallFunction"), std::string::npos);
  try {
    (*outer)({IValue(int64_t(0))});
    FAIL();
  } catch (const RuntimeError& e) {
    // Inlined: the frames come from the inlined call stack of the failing node.
    ASSERT_EQ(e.callStack.size(), 2u);
    EXPECT_EQ(e.callStack[0], "__torch__.outer");
    EXPECT_EQ(e.callStack[1], "__torch__.inner");
  }
}

TEST(InterpreterTest, ObjectsAttributesAndMethods) {
  registerTestOps();
  Env env;
  auto cls = ClassType::create("__torch__.M", true);
  cls->addAttribute("w", IntType());
  env.types["__torch__.M"] = cls;
  auto cu = std::make_shared<CompilationUnit>();
  cu->addType(cls);
  GraphFunction* step = cu->addFunction(makeFunction("__torch__.M.step", R"IR(graph(%self : __torch__.M, %x : int):
  %w : int = prim::GetAttr[name="w"](%self)
  %r : int = test::add(%x, %w)
   = prim::SetAttr[name="w"](%self, %r)
  return (%r)
)IR", env));
  cls->addMethod(step);
  GraphFunction* fwd = cu->addFunction(makeFunction("__torch__.M.forward", R"IR(graph(%self : __torch__.M, %x : int):
  %a : int = prim::CallMethod[name="step"](%self, %x)
  %b : int = prim::CallMethod[name="step"](%self, %a)
  return (%b)
)IR", env));
  cls->addMethod(fwd);
  auto obj = makeIntrusive<Object>(cls, 1);
  obj->slots[0] = IValue(int64_t(10));
  Module m(cu, obj);
  EXPECT_EQ(m.forward({IValue(int64_t(1))}).toInt(), 22);  // a = 1 + 10 (w = 11), b = 11 + 11 (w = 22)
  EXPECT_EQ(m.attr("w").toInt(), 22);
  EXPECT_TRUE(m.hasattr("w"));
  EXPECT_FALSE(m.hasattr("nope"));
  EXPECT_THROW(m.runMethod("nope", {}), Error);
  // CreateObject + SetAttr by slot.
  Stack out = runGraph(R"IR(graph(%x : int):
  %o : __torch__.M = prim::CreateObject()
   = prim::SetAttr[name="w"](%o, %x)
  %w : int = prim::GetAttr[name="w"](%o)
  return (%w)
)IR", {IValue(int64_t(9))}, &env);
  EXPECT_EQ(out.at(0).toInt(), 9);
}

TEST(InterpreterTest, RecursionIsACompileError) {
  GraphFunction* self = nullptr;
  GraphFunction f("__torch__.rec", nullptr, [&](GraphFunction&) { self->ensureDefined(); });
  self = &f;
  try {
    f.ensureDefined();
    FAIL();
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("recursive calls are not supported"), std::string::npos);
  }
}

TEST(InterpreterTest, UnknownOperatorIsACompileError) {
  registerTestOps();
  auto g = parseIR("graph(%x : int):\n  %y : int = test::nonexistent(%x)\n  return (%y)\n");
  EXPECT_THROW(Code(g, "f"), CompileError);
}


TEST(InterpreterTest, FirstCallsFromManyThreadsCompileOnce) {
  registerTestOps();
  Env env;
  int emitted = 0;
  GraphFunction f("__torch__.f", nullptr, [&](GraphFunction& self) {
    ++emitted;
    parseIR(R"IR(graph(%a : int):
  %one : int = prim::Constant[value=1]()
  %r : int = test::add(%a, %one)
  return (%r)
)IR", *self.graphUnchecked(), env.options());
  });
  std::vector<std::thread> threads;
  std::vector<int64_t> results(8, 0);
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] { results[t] = f({IValue(int64_t(t))}).toInt(); });
  for (auto& th : threads) th.join();
  for (int t = 0; t < 8; ++t) EXPECT_EQ(results[t], t + 1);
  EXPECT_EQ(emitted, 1);
}


// A callee that is not a GraphFunction (never inlined) and calls back into the same code.
class SelfCalling : public Function {
 public:
  const std::string& qualname() const override { return name_; }
  const std::string& name() const override { return name_; }
  const FunctionSchema& getSchema() const override { return schema_; }
  void run(Stack& s) override { code->run(s); }
  Code* code = nullptr;
 private:
  std::string name_ = "rec";
  FunctionSchema schema_;
};

// A graph `rec(a)` that calls itself through a SelfCalling callee, with no base case.
class RunawayRecursion : public ::testing::Test {
 protected:
  void SetUp() override {
    registerTestOps();
    env.functions["rec"] = &rec;
    graph = parseIR(R"IR(graph(%a : int):
  %f : Function = prim::Constant[name="rec"]()
  %r : int = prim::CallFunction(%f, %a)
  return (%r)
)IR", env.options());
    code = std::make_unique<Code>(graph, "rec");
    rec.code = code.get();
  }
  SelfCalling rec;
  Env env;
  std::shared_ptr<Graph> graph;
  std::unique_ptr<Code> code;
};

TEST_F(RunawayRecursion, IsARecursionError) {
  Stack s{IValue(int64_t(1))};
  try {
    code->run(s);
    FAIL();
  } catch (const RuntimeError& e) {
    EXPECT_EQ(e.pythonClass(), "builtins.RecursionError");
    EXPECT_GT(e.callStack.size(), 100u);
  }
}

// The same runaway recursion on a thread whose stack holds far fewer than the 1000 levels of the count
// (256 KB: about 700 bytes a level in a release build, 10 KB with AddressSanitizer): the bound on the stack
// left refuses the call before it overflows, with the same RecursionError (was SIGSEGV).
TEST_F(RunawayRecursion, OnASmallThreadStackIsARecursionError) {
  struct Outcome {
    Code* code = nullptr;
    std::string pythonClass;
    size_t levels = 0;
    bool returned = false;
  } out;
  out.code = code.get();
  pthread_attr_t attr;
  ASSERT_EQ(pthread_attr_init(&attr), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, 256 * 1024), 0);
  pthread_t th;
  auto body = [](void* p) -> void* {
    auto* o = static_cast<Outcome*>(p);
    Stack s{IValue(int64_t(1))};
    try {
      o->code->run(s);
      o->returned = true;
    } catch (const RuntimeError& e) {
      o->pythonClass = e.pythonClass();
      o->levels = e.callStack.size();
    }
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&th, &attr, body, &out), 0);
  ASSERT_EQ(pthread_join(th, nullptr), 0);
  pthread_attr_destroy(&attr);
  EXPECT_FALSE(out.returned);
  EXPECT_EQ(out.pythonClass, "builtins.RecursionError");
  EXPECT_GT(out.levels, 1u);
}

}  // namespace
}  // namespace kindling
