// IR emitter tests: small programs compiled with compileSource into a test CompilationTarget (every
// PyTorch 1.13 schema registered), checking the printed graphs (PyTorch's format, before PyTorch's
// cleanup passes such as constant pooling) and compile errors (message, line, "<--- HERE").
#include <gtest/gtest.h>

#include "frontend/compiler.h"
#include "frontend_test_util.h"

using namespace kindling;
using kindling::testing::TestTarget;

namespace {

struct Compiled {
  TestTarget target;
  std::string graph(const std::string& fn) { return target.get("__torch__." + fn)->graph()->toString(false); }
};

std::unique_ptr<Compiled> compile(const std::string& src) {
  auto c = std::make_unique<Compiled>();
  CompileOptions o;
  o.registry = &kindling::testing::allSchemasRegistry();
  compileSource(c->target, std::make_shared<Source>(src, "prog.py"), o);
  return c;
}

// Compiles and emits every function; returns the CompileError text ("" if none).
std::string compileError(const std::string& src) {
  try {
    auto c = compile(src);
    for (size_t i = 0; i < c->target.functions().size(); ++i) c->target.functions()[i]->graph();
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& s, const std::string& sub) { return s.find(sub) != std::string::npos; }

}  // namespace

TEST(IrEmitter, StraightLineAndOperators) {
  auto c = compile(
      "def f(x, y: int):\n"
      "    z = x * y + 1\n"
      "    return -z\n");
  EXPECT_EQ(c->graph("f"),
            "graph(%x.1 : Tensor,\n"
            "      %y.1 : int):\n"
            "  %5 : int = prim::Constant[value=1]()\n"  // a literal: at the front, as PyTorch's emitConst
            "  %4 : Tensor = aten::mul(%x.1, %y.1)\n"
            "  %6 : int = prim::Constant[value=1]()\n"
            "  %z.1 : Tensor = aten::add(%4, %5, %6)\n"
            "  %9 : Tensor = aten::neg(%z.1)\n"
            "  return (%9)\n");
}

TEST(IrEmitter, IfOutputsAreSortedAndUnified) {
  auto c = compile(
      "from typing import Optional\n"
      "def f(c: bool, x: int):\n"
      "    if c:\n"
      "        b = x\n"
      "        a = None\n"
      "    else:\n"
      "        a = x\n"
      "        b = 2\n"
      "    return a, b\n");
  std::string g = c->graph("f");
  EXPECT_TRUE(contains(g, "%a : int?, %b : int = prim::If(%c.1)")) << g;
  EXPECT_TRUE(contains(g, "-> (%a.1, %x.1)")) << g;
  // `b = 2`: the literal lives at the front of the graph, outside the branch, so it stays unnamed (as PyTorch)
  EXPECT_TRUE(contains(g, "-> (%x.1, %6)")) << g;
  EXPECT_TRUE(contains(g, "prim::TupleConstruct(%a, %b)")) << g;
}

TEST(IrEmitter, ForRangeLoopCarried) {
  auto c = compile(
      "def f(n: int) -> int:\n"
      "    s = 0\n"
      "    for i in range(n):\n"
      "        s = s + i\n"
      "    return s\n");
  EXPECT_EQ(c->graph("f"),
            "graph(%n.1 : int):\n"
            "  %s.1 : int = prim::Constant[value=0]()\n"
            "  %3 : bool = prim::Constant[value=1]()\n"
            "  %s : int = prim::Loop(%n.1, %3, %s.1)\n"
            "    block0(%i.1 : int, %s.3 : int):\n"
            "      %s.5 : int = aten::add(%s.3, %i.1)\n"
            "      %8 : bool = prim::Constant[value=1]()\n"
            "      -> (%8, %s.5)\n"
            "  return (%s)\n");
}

TEST(IrEmitter, ForOverListAndWhile) {
  auto c = compile(
      "from typing import List\n"
      "def f(l: List[int]) -> int:\n"
      "    s = 0\n"
      "    for v in l:\n"
      "        s += v\n"
      "    while s > 10:\n"
      "        s = s // 2\n"
      "    return s\n");
  std::string g = c->graph("f");
  EXPECT_TRUE(contains(g, "aten::len(%l.1)")) << g;
  EXPECT_TRUE(contains(g, "%v.1 : int = aten::__getitem__(%l.1,")) << g;
  EXPECT_TRUE(contains(g, "prim::Constant[value=9223372036854775807]()")) << g;
  EXPECT_TRUE(contains(g, "aten::floordiv(")) << g;
}

TEST(IrEmitter, OptionalRefinementAndEarlyReturn) {
  auto c = compile(
      "from typing import Optional\n"
      "def f(a: Optional[int]) -> int:\n"
      "    if a is None:\n"
      "        return 0\n"
      "    return a + 1\n");
  std::string g = c->graph("f");
  EXPECT_TRUE(contains(g, "aten::__is__(%a.1,")) << g;
  EXPECT_TRUE(contains(g, "%a.5 : int = prim::unchecked_cast(%a.1)")) << g;
  EXPECT_TRUE(contains(g, "aten::add(%a.5,")) << g;
  // both paths end in one If whose output is returned
  EXPECT_TRUE(contains(g, "int = prim::If(")) << g;
}

TEST(IrEmitter, StaticIsNoneOnNoneType) {
  auto c = compile(
      "def f(x, y: None):\n"
      "    if y is None:\n"
      "        return x\n"
      "    else:\n"
      "        return y.foo()\n");
  std::string g = c->graph("f");
  EXPECT_FALSE(contains(g, "prim::If")) << g;  // only the taken branch is compiled
}

TEST(IrEmitter, BreakContinueLowering) {
  auto c = compile(
      "def f(n: int) -> int:\n"
      "    s = 0\n"
      "    for i in range(n):\n"
      "        if i == 3:\n"
      "            continue\n"
      "        if s > 10:\n"
      "            break\n"
      "        s += i\n"
      "    return s\n");
  std::string g = c->graph("f");
  EXPECT_TRUE(contains(g, "aten::__not__")) << g;  // loop condition = not did_break
  EXPECT_TRUE(contains(g, "prim::Loop(%n.1,")) << g;
}

TEST(IrEmitter, ContainersAndIndexing) {
  auto c = compile(
      "def f(x):\n"
      "    t = (x, 1)\n"
      "    a, b = t\n"
      "    d = {'k': a}\n"
      "    e = [a, a]\n"
      "    return e[0] + d['k'] + x[0, 1:3] + x[..., None] + t[0]\n");
  std::string g = c->graph("f");
  EXPECT_TRUE(contains(g, "%t.1 : (Tensor, int) = prim::TupleConstruct(%x.1,")) << g;
  EXPECT_TRUE(contains(g, "%a.1 : Tensor, %b : int = prim::TupleUnpack(%t.1)")) << g;
  EXPECT_TRUE(contains(g, "%d.1 : Dict(str, Tensor) = prim::DictConstruct(")) << g;
  EXPECT_TRUE(contains(g, "%e.1 : Tensor[] = prim::ListConstruct(%a.1, %a.1)")) << g;
  EXPECT_TRUE(contains(g, "aten::select(%x.1,")) << g;
  EXPECT_TRUE(contains(g, "aten::slice(")) << g;
  EXPECT_TRUE(contains(g, "aten::unsqueeze(%x.1,")) << g;
  EXPECT_FALSE(contains(g, "prim::TupleIndex")) << g;  // t[0] of a tuple built here is its element
}

TEST(IrEmitter, EmptyListTakesArgumentType) {
  auto c = compile(
      "from typing import List\n"
      "def f(x):\n"
      "    l = torch.jit.annotate(List[int], [])\n"
      "    return torch.zeros([2, 3]), l, torch.max_pool2d(x, [2, 2], [])\n");
  std::string g = c->graph("f");
  EXPECT_TRUE(contains(g, "%l.1 : int[] = prim::ListConstruct()")) << g;
  EXPECT_TRUE(contains(g, "int[] = prim::ListConstruct()\n  %")) << g;
  EXPECT_TRUE(contains(g, "aten::max_pool2d(%x.1,")) << g;
}

TEST(IrEmitter, DefaultsAndBroadcastLists) {
  auto c = compile(
      "def f(x, w):\n"
      "    return torch.conv2d(x, w, None, 2)\n");
  std::string g = c->graph("f");
  // stride=2 broadcast to [2, 2]; padding/dilation/groups filled from defaults
  EXPECT_TRUE(contains(g, "int[] = prim::ListConstruct(%5, %5)")) << g;
  EXPECT_TRUE(contains(g, "prim::Constant[value=[0, 0]]()")) << g;
  EXPECT_TRUE(contains(g, "aten::conv2d(%x.1, %w.1,")) << g;
}

TEST(IrEmitter, ClassesMethodsAttributes) {
  auto c = compile(
      "class M(torch.nn.Module):\n"
      "    w : torch.Tensor\n"
      "    k : int\n"
      "    eps : Final[float] = 1e-05\n"
      "    def forward(self, x):\n"
      "        y = self.helper(x) * self.eps\n"
      "        self.k = self.k + 1\n"
      "        return y + self.w\n"
      "    def helper(self, x):\n"
      "        return x\n"
      "def g(m: M, x):\n"
      "    return m.forward(x)\n");
  std::string g = c->target.get("__torch__.M.forward")->graph()->toString(false);
  EXPECT_TRUE(contains(g, "prim::CallMethod[name=\"helper\"](%self.1, %x.1)")) << g;
  EXPECT_TRUE(contains(g, "float = prim::Constant[value=1.0000000000000001e-05]()")) << g;
  EXPECT_TRUE(contains(g, "int = prim::GetAttr[name=\"k\"](%self.1)")) << g;
  EXPECT_TRUE(contains(g, "prim::SetAttr[name=\"k\"](%self.1,")) << g;
  std::string g2 = c->graph("g");
  EXPECT_TRUE(contains(g2, "prim::CallMethod[name=\"forward\"](%m.1, %x.1)")) << g2;
}

TEST(IrEmitter, FunctionCallsAndRaise) {
  auto c = compile(
      "def helper(x: int, y: int = 2) -> int:\n"
      "    if x < 0:\n"
      "        raise ValueError('negative')\n"
      "    return x + y\n"
      "def f(x: int) -> int:\n"
      "    assert x != 3, 'three'\n"
      "    return helper(x)\n");
  std::string g = c->graph("f");
  EXPECT_TRUE(contains(g, "Function = prim::Constant[name=\"helper\"]()")) << g;
  EXPECT_TRUE(contains(g, "int = prim::CallFunction(")) << g;
  EXPECT_TRUE(contains(g, "prim::Constant[value=\"AssertionError: three\"]()")) << g;
  std::string h = c->graph("helper");
  EXPECT_TRUE(contains(h, "prim::Constant[value=\"builtins.ValueError\"]()")) << h;
  EXPECT_TRUE(contains(h, "prim::RaiseException(")) << h;
}

TEST(IrEmitter, ListComprehensionAndFString) {
  auto c = compile(
      "from typing import List\n"
      "def f(l: List[int]) -> str:\n"
      "    m = [v * 2 for v in l]\n"
      "    return f'{len(m)} items'\n");
  std::string g = c->graph("f");
  EXPECT_TRUE(contains(g, "%m.1 : int[] = prim::ListConstruct()")) << g;
  EXPECT_TRUE(contains(g, "aten::append(%m.1,")) << g;
  EXPECT_TRUE(contains(g, "prim::Constant[value=\"{} items\"]()")) << g;
  EXPECT_TRUE(contains(g, "aten::format(")) << g;
}

TEST(IrEmitterErrors, UndefinedInOneBranch) {
  std::string e = compileError(
      "def f(x: int):\n"
      "    if x > 1:\n"
      "        y = 1\n"
      "    return y\n");
  EXPECT_TRUE(contains(e, "y is not defined in the false branch")) << e;
  EXPECT_TRUE(contains(e, "and was used here")) << e;
  EXPECT_TRUE(contains(e, "line 4")) << e;
  EXPECT_TRUE(contains(e, "<--- HERE")) << e;
}

TEST(IrEmitterErrors, BranchTypeMismatch) {
  std::string e = compileError(
      "def f(x: int):\n"
      "    if x > 1:\n"
      "        y = 1\n"
      "    else:\n"
      "        y = 'a'\n"
      "    return y\n");
  EXPECT_TRUE(contains(e, "Type mismatch: y is set to type int in the true branch and type str in the false branch")) << e;
}

TEST(IrEmitterErrors, NoMatchingOverload) {
  std::string e = compileError(
      "def f(x):\n"
      "    return torch.dropout(x, 1, False)\n");
  EXPECT_TRUE(contains(e, "Expected a value of type 'float' for argument 'p' but instead found type 'int'.")) << e;
  EXPECT_TRUE(contains(e, "line 2")) << e;
  e = compileError(
      "def f(x):\n"
      "    return torch.add(x, 'a')\n");
  EXPECT_TRUE(contains(e, "Arguments for call are not valid.")) << e;
  EXPECT_TRUE(contains(e, "The following variants are available:")) << e;
  EXPECT_TRUE(contains(e, "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor")) << e;
}

TEST(IrEmitterErrors, ReturnAndVariableTypes) {
  EXPECT_TRUE(contains(compileError("def f(x: int) -> str:\n    return x\n"),
                       "Return value was annotated as having type str but is actually of type int"));
  EXPECT_TRUE(contains(compileError("def f(x: int):\n    return undefined_thing + x\n"), "undefined value undefined_thing"));
  EXPECT_TRUE(contains(compileError("def f(x: int):\n    y = 1\n    for i in range(3):\n        y = 2.5\n    return y\n"),
                       "Variable 'y' previously had type int but is now being assigned to a value of type float"));
  EXPECT_TRUE(contains(compileError("def f(x: int):\n    try:\n        pass\n    except Foo:\n        pass\n"),
                       "except clauses can name Python's builtin exception classes"));
  EXPECT_TRUE(contains(compileError("import numpy\ndef f(x: int):\n    return x\n"), "import of module 'numpy'"));
}

TEST(IrEmitter, UserClassAttributesFromInit) {
  auto c = compile(
      "from typing import List, Optional\n"
      "class Counter:\n"
      "    def __init__(self, start: int):\n"
      "        self.count = start\n"
      "        self.items : List[str] = []\n"
      "        self.last = torch.jit.annotate(Optional[str], None)\n"
      "    def add(self, s: str) -> int:\n"
      "        self.items.append(s)\n"
      "        self.last = s\n"
      "        self.count += 1\n"
      "        return self.count\n"
      "def f() -> int:\n"
      "    c = Counter(3)\n"
      "    return c.add('x')\n");
  auto t = c->target.findType("__torch__.Counter");
  ASSERT_TRUE(t);
  auto* ct = t->cast<ClassType>();
  ASSERT_EQ(ct->attributes().size(), 3u);
  EXPECT_EQ(ct->attributes()[0].type->str(), "int");
  EXPECT_EQ(ct->attributes()[1].type->str(), "str[]");
  EXPECT_EQ(ct->attributes()[2].type->str(), "str?");
  std::string g = c->graph("f");
  EXPECT_TRUE(contains(g, "%c.1 : __torch__.Counter = prim::CreateObject()")) << g;
  EXPECT_TRUE(contains(g, "prim::CallMethod[name=\"__init__\"](%c.1,")) << g;
  std::string add = c->target.get("__torch__.Counter.add")->graph()->toString(false);
  EXPECT_TRUE(contains(add, "aten::append(")) << add;
  EXPECT_TRUE(contains(add, "prim::SetAttr[name=\"count\"](%self.1,")) << add;
}

// As PyTorch 1.13: the annotation of `self.x : T = v` only types the literal v; the attribute gets v's
// type, so `self.x : Optional[str] = None` makes a NoneType attribute and a later str is an error.
TEST(IrEmitter, AnnotatedAttributeTakesTheValueType) {
  auto c = compile(
      "from typing import List, Optional\n"
      "class C:\n"
      "    def __init__(self):\n"
      "        self.xs : List[int] = []\n"
      "        self.f : float = 1\n"
      "        self.n : Optional[int] = None\n"
      "def f() -> int:\n"
      "    return len(C().xs)\n");
  auto* ct = c->target.findType("__torch__.C")->cast<ClassType>();
  ASSERT_EQ(ct->attributes().size(), 3u);
  EXPECT_EQ(ct->attributes()[0].type->str(), "int[]");
  EXPECT_EQ(ct->attributes()[1].type->str(), "int");
  EXPECT_EQ(ct->attributes()[2].type->str(), "NoneType");
  EXPECT_TRUE(contains(compileError("from typing import Optional\n"
                                    "class C:\n"
                                    "    def __init__(self):\n"
                                    "        self.last : Optional[str] = None\n"
                                    "    def set(self, s: str):\n"
                                    "        self.last = s\n"
                                    "def f():\n"
                                    "    C().set('x')\n"),
                       "Wrong type for attribute assignment. Expected NoneType but got str"));
}

// As PyTorch: an annotated variable is loop-carried with its annotated type; branches of different types
// join to a Union when the variable has a Union/Optional type, and to the common type otherwise.
TEST(IrEmitter, AnnotatedVariableTypeAtJoins) {
  auto c = compile(
      "from typing import Optional, Union\n"
      "def f(x: Union[int, str], n: int) -> Optional[int]:\n"
      "    y : Union[int, str] = 0\n"
      "    if isinstance(x, str):\n"
      "        y = x\n"
      "    z : Optional[int] = n\n"
      "    if n > 2:\n"
      "        z = 1\n"
      "    else:\n"
      "        z = 2\n"
      "    last : Optional[int] = None\n"
      "    for i in range(n):\n"
      "        last = i + z\n"
      "    return last\n");
  std::string g = c->graph("f");
  EXPECT_TRUE(contains(g, "%y : Union(int, str) = prim::If(")) << g;
  EXPECT_TRUE(contains(g, " : int = prim::If(")) << g;
  EXPECT_TRUE(contains(g, ": int? = prim::Loop(")) << g;
}

TEST(IrEmitter, ReturnInsideLoops) {
  auto c = compile(
      "from typing import List\n"
      "def find(l: List[int], x: int) -> int:\n"
      "    for i in range(len(l)):\n"
      "        if l[i] == x:\n"
      "            return i\n"
      "    return -1\n");
  std::string g = c->graph("find");
  // the loop carries the return value and flags; after it, `if did_return: return value else: -1`
  EXPECT_TRUE(contains(g, "int = prim::Uninitialized()")) << g;
  EXPECT_TRUE(contains(g, "aten::__not__")) << g;
  EXPECT_TRUE(contains(g, "int, %")) << g;
  // without an annotation the return type is inferred from the returned values
  auto u = compile("def f(n: int):\n    for i in range(n):\n        if i > 2:\n            return i\n    return 0\n");
  EXPECT_EQ(u->target.get("__torch__.f")->getSchema().returns[0].type->str(), "int");
  std::string gu = u->graph("f");
  EXPECT_TRUE(contains(gu, "int = prim::Uninitialized()")) << gu;
}

TEST(IrEmitter, TensorCastsAndDtypes) {
  auto c = compile(
      "def f(x):\n"
      "    return x.float() + torch.zeros(2, dtype=torch.float64).contiguous()\n");
  std::string g = c->graph("f");
  EXPECT_TRUE(contains(g, "prim::Constant[value=6]()")) << g;   // torch.float32 → 6
  EXPECT_TRUE(contains(g, "aten::to(%x.1,")) << g;
  EXPECT_TRUE(contains(g, "prim::Constant[value=7]()")) << g;   // torch.float64 → 7
  EXPECT_TRUE(contains(g, "aten::contiguous(")) << g;          // MemoryFormat default accepted as int
}

TEST(IrEmitter, TypeCommentsAndPercentFormat) {
  auto c = compile(
      "from typing import List\n"
      "def f(x, y):\n"
      "    # type: (int, List[int]) -> str\n"
      "    return '%d-%d' % (x, len(y))\n");
  auto* fn = c->target.get("__torch__.f");
  EXPECT_EQ(fn->getSchema().arguments[1].type->str(), "int[]");
  std::string g = c->graph("f");
  EXPECT_TRUE(contains(g, "aten::percentFormat(")) << g;
}

TEST(IrEmitter, UnionRefinementBothBranches) {
  auto c = compile(
      "from typing import Union\n"
      "def f(x: Union[int, str]) -> str:\n"
      "    if isinstance(x, int):\n"
      "        return str(x + 1)\n"
      "    else:\n"
      "        return x + '!'\n");
  std::string g = c->graph("f");
  EXPECT_TRUE(contains(g, "prim::isinstance[types=[int]](%x.1)")) << g;
  EXPECT_TRUE(contains(g, "int = prim::unchecked_cast(%x.1)")) << g;
  EXPECT_TRUE(contains(g, "str = prim::unchecked_cast(%x.1)")) << g;
}

TEST(IrEmitterErrors, NoSuchAttributeAndHeterogeneousList) {
  EXPECT_TRUE(contains(compileError("def f(x: int):\n    return x.foo\n"), "'int' object has no attribute or method 'foo'."));
  EXPECT_TRUE(contains(compileError("def f(x):\n    return x.foo()\n"), "'Tensor' object has no attribute or method 'foo'."));
  auto c = compile("def f(x: int):\n    l = [1, 'a']\n    return l\n");
  std::string g = c->graph("f");
  EXPECT_TRUE(contains(g, "%l.1 : Union(int, str)[] = prim::ListConstruct(")) << g;
}

TEST(IrEmitterErrors, Recursion) {
  std::string e = compileError(
      "def a(x: int) -> int:\n"
      "    if x <= 0:\n"
      "        return 0\n"
      "    return b(x - 1)\n"
      "def b(x: int) -> int:\n"
      "    return a(x)\n");
  EXPECT_TRUE(contains(e, "is called recursively. Recursive calls are not supported")) << e;
}

TEST(IrEmitter, ChainedComparisonShortCircuits) {
  auto c = compile("def f(a: int, b: int, c: int) -> bool:\n    return a < b < c\n");
  std::string g = c->graph("f");
  EXPECT_TRUE(contains(g, "bool = prim::If(")) << g;
  EXPECT_TRUE(contains(g, "aten::lt(%a.1, %b.1)")) << g;
  EXPECT_TRUE(contains(g, "aten::lt(%b.1, %c.1)")) << g;
}

TEST(IrEmitter, Enums) {
  auto c = compile(
      "from enum import Enum\n"
      "class Color(Enum):\n"
      "    RED = 1\n"
      "    GREEN = 2\n"
      "def f(c: Color) -> str:\n"
      "    if c == Color.GREEN:\n"
      "        return c.name\n"
      "    return str(c.value)\n");
  auto t = c->target.findType("__torch__.Color");
  ASSERT_TRUE(t);
  ASSERT_EQ(t->kind(), TypeKind::Enum);
  EXPECT_EQ(t->cast<EnumType>()->members.size(), 2u);
  std::string g = c->graph("f");
  EXPECT_TRUE(contains(g, "aten::eq(%c.1,")) << g;
  EXPECT_TRUE(contains(g, "str = prim::EnumName(%c.1)")) << g;
  EXPECT_TRUE(contains(g, "int = prim::EnumValue(%c.1)")) << g;
  EXPECT_TRUE(contains(compileError("from enum import Enum\nclass E(Enum):\n    A = 1\n    B = 'x'\n"),
                       "Enum class with varying value types are not supported."));
}

TEST(IrEmitterErrors, LongOperatorChainsAreBounded) {
  std::string src = "def f(x: int) -> int:\n    return x";
  for (int i = 0; i < 5000; ++i) src += " + x";
  src += "\n";
  EXPECT_TRUE(contains(compileError(src), "too deeply nested"));
}

TEST(IrEmitter, ModuleLevelConstantsAndPrint) {
  auto c = compile("K = 3\nNAMES = ('a', 'b')\ndef f(x: int) -> int:\n    print(NAMES[0], x)\n    return x * K\n");
  std::string g = c->graph("f");
  EXPECT_TRUE(contains(g, "int = prim::Constant[value=3]()")) << g;
  EXPECT_TRUE(contains(g, "prim::Print(")) << g;
  EXPECT_TRUE(contains(compileError("def f(x: int):\n    print(x, sep='-')\n    return x\n"),
                       "print doesn't accept any keyword arguments"));
}

TEST(IrEmitter, NumberTensorOperatorsReordered) {
  auto c = compile("def f(x):\n    return (1 < x).float() + 2 * x + (1 - x) + x // 2\n");
  std::string g = c->graph("f");
  EXPECT_TRUE(contains(g, "aten::gt(%x.1,")) << g;
  EXPECT_TRUE(contains(g, "aten::mul(%x.1,")) << g;
  EXPECT_TRUE(contains(g, "aten::rsub(%x.1,")) << g;
  EXPECT_TRUE(contains(g, "aten::floor_divide(%x.1,")) << g;
}

TEST(IrEmitterErrors, OptionalAttributeTypesPrintAsAnnotations) {
  std::string e = compileError(
      "from typing import Optional\n"
      "class H:\n"
      "    def __init__(self, v: Optional[int]):\n"
      "        self.x = v\n"
      "    def get(self, y: int) -> int:\n"
      "        return self.x + y\n");
  EXPECT_TRUE(contains(e, "Expected a value of type 'Tensor' for argument 'self' but instead found type 'Optional[int]'.")) << e;
  EXPECT_TRUE(contains(e, "Could not match type Optional[int] to List[t] in argument 'a': Cannot match List[t] to Optional[int].")) << e;
}

TEST(IrEmitter, AttributeReadsAreRefinedUntilTheAttributeIsAssigned) {
  // Python's meaning (PyTorch 1.13 refines locals only): `self.x` is an int where `self.x is not None`
  // holds, read through a checked aten::_unwrap_optional.
  auto c = compile(
      "from typing import Optional\n"
      "class H:\n"
      "    def __init__(self, v: Optional[int]):\n"
      "        self.x = v\n"
      "    def get(self, y: int) -> int:\n"
      "        if self.x is not None:\n"
      "            return self.x + y\n"
      "        return y\n"
      "def f(v: Optional[int], y: int) -> int:\n"
      "    return H(v).get(y)\n");
  std::string g = c->graph("H.get");
  EXPECT_TRUE(contains(g, "aten::_unwrap_optional")) << g;
  for (const char* body : {"            self.x = None\n            return self.x + y\n",   // assigned
                           "            self.reset()\n            return self.x + y\n"}) {  // a call may assign it
    std::string e = compileError(std::string("from typing import Optional\n"
                                             "class H:\n"
                                             "    def __init__(self, v: Optional[int]):\n"
                                             "        self.x = v\n"
                                             "    def reset(self):\n"
                                             "        self.x = None\n"
                                             "    def get(self, y: int) -> int:\n"
                                             "        if self.x is not None:\n") +
                                 body + "        return y\n");
    EXPECT_TRUE(contains(e, "found type 'Optional[int]'")) << e;
  }
}

TEST(IrEmitter, FunctionalCalls) {
  auto c = compile(
      "import torch.nn.functional as F\n"
      "def f(x, w, idx):\n"
      "    y = F.relu(x, inplace=True) + F.relu(x) + F.softmax(x, dim=0) + F.linear(x, w)\n"
      "    return F.dropout(y, 0.1, training=False) + F.embedding(idx, w) + F.hardtanh(x, 0., 6., True)\n");
  std::string g = c->graph("f");
  // As print(f.graph) in PyTorch 1.13: F functions written in Python in torch/nn/functional.py are calls
  // to compiled functions; F.linear is the aten builtin.
  for (const char* fn : {"relu", "softmax", "dropout", "embedding", "hardtanh"})
    EXPECT_TRUE(contains(g, std::string("Function = prim::Constant[name=\"") + fn + "\"]()")) << fn << "\n" << g;
  EXPECT_TRUE(contains(g, "aten::linear(%x.1, %w.1,")) << g;
  EXPECT_FALSE(contains(g, "aten::relu")) << g;
}

TEST(IrEmitter, ViewWithIntPrefersSizeOverload) {
  // x.view(-1) is view(int[] size) (as PyTorch), not view.dtype(ScalarType) although dtypes are ints
  auto c = compile("def f(x):\n    return x.view(-1), torch.zeros([2], dtype=6)\n");
  std::string g = c->graph("f");
  // numbered as PyTorch's: literal 1 (%2), its folded aten::neg (%3), -1 (%4)
  EXPECT_TRUE(contains(g, "%5 : int[] = prim::ListConstruct(%4)\n  %6 : Tensor = aten::view(%x.1, %5)")) << g;
  EXPECT_TRUE(contains(g, "aten::zeros(")) << g;
}

TEST(IrEmitter, AnnotatedAssignmentReadsHaveTheDeclaredType) {
  // as PyTorch 1.13: reads of `x: Optional[int] = 3` are Optional[int]; the graph holds the constant itself
  EXPECT_TRUE(contains(compileError("from typing import Optional\n"
                                    "def f() -> int:\n"
                                    "    x: Optional[int] = 3\n"
                                    "    return x + 1\n"),
                       "found type 'Optional[int]'"));
  auto c = compile(
      "from typing import Optional\n"
      "def f(a: int):\n"
      "    x: Optional[int] = 3\n"
      "    if a > 0:\n"
      "        x = None\n"
      "    return x\n");
  std::string g = c->graph("f");
  EXPECT_TRUE(contains(g, "%x.1 : int = prim::Constant[value=3]()")) << g;
  EXPECT_TRUE(contains(g, "%x : int? = prim::If(")) << g;
  EXPECT_FALSE(contains(g, "prim::Load")) << g;
  EXPECT_TRUE(contains(compileError("def f(a: int) -> int:\n"
                                    "    x = 1\n"
                                    "    if a > 0:\n"
                                    "        x: int = 2\n"
                                    "    return x\n"),
                       "already defined in an outer block"));
}

TEST(IrEmitter, StaticMethodIsAFreeFunction) {
  // as torch.jit.script: a @staticmethod is compiled as __torch__.<name>, not as a method of the class
  auto c = compile(
      "class T:\n"
      "    def __init__(self, k: float):\n"
      "        self.k = k\n"
      "    @staticmethod\n"
      "    def make(v: float) -> 'T':\n"
      "        return T(v * 2.0)\n"
      "def f(v: float) -> float:\n"
      "    return T.make(v).k\n");
  EXPECT_TRUE(c->target.findFunction("__torch__.make"));
  auto t = c->target.findType("__torch__.T");
  ASSERT_TRUE(t);
  EXPECT_FALSE(t->cast<ClassType>()->findMethod("make"));
  EXPECT_TRUE(contains(c->graph("f"), "prim::Constant[name=\"make\"]()")) << c->graph("f");
}
