// Graph::lint (ir/lint.h): well-formed graphs pass; each rule catches a graph broken by hand, with the
// rule's name and the offending node in the InternalError's message. Also Node::namedInput.
#include "ir/lint.h"

#include <gtest/gtest.h>

#include "core/internal_error.h"
#include "ir/ir.h"
#include "ir/irparser.h"

namespace kindling {
namespace {

const Operator* op(const std::string& name) {
  const Operator* o = OperatorRegistry::global().find(name);
  EXPECT_NE(o, nullptr) << name;
  return o;
}

// The lint message of g, or "" when it passes.
std::string lintMessage(const Graph& g) {
  try {
    g.lint();
  } catch (const InternalError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(InternalError::kPrefix, 0), 0u) << e.what();
    return e.detail();
  }
  return "";
}

#define EXPECT_LINT(g, ...)                                                   \
  do {                                                                        \
    std::string msg_ = lintMessage(g);                                        \
    for (const char* part : {__VA_ARGS__}) EXPECT_NE(msg_.find(part), std::string::npos) << "missing '" << part << "' in: " << msg_; \
  } while (0)

TEST(LintTest, ParsedGraphsWithBlocksPass) {
  Graph g;
  parseIR(R"IR(
graph(%x : Tensor, %n : int, %b : bool):
  %one : int = prim::Constant[value=1]()
  %t : bool = prim::Constant[value=1]()
  %y : Tensor = aten::add(%x, %x, %one)
  %r : Tensor = prim::If(%b)
    block0():
      %z : Tensor = aten::relu(%y)
      -> (%z)
    block1():
      -> (%x)
  %acc : Tensor = prim::Loop(%n, %t, %r)
    block0(%i : int, %a : Tensor):
      %a2 : Tensor = aten::mul(%a, %y)
      -> (%t, %a2)
  return (%acc)
)IR", g);
  EXPECT_EQ(lintMessage(g), "");
}

TEST(LintTest, UseBeforeDefinition) {
  Graph g;
  Value* x = g.addInput("x")->setType(TensorType());
  Node* a = g.insert(Symbol::fromQualString("aten::relu"), {x});
  a->setOp(op("aten::relu"))->output()->setType(TensorType());
  Node* b = g.insert(Symbol::fromQualString("aten::relu"), {a->output()});
  b->setOp(op("aten::relu"))->output()->setType(TensorType())->setDebugName("late");
  g.registerOutput(b->output());
  EXPECT_EQ(lintMessage(g), "");
  a->replaceInput(0, b->output());  // a now reads b's output, which is defined after a
  EXPECT_LINT(g, "graph lint [ssa]", "input 0 (%late) is used before it is defined", "aten::relu(%late)");
}

TEST(LintTest, ValueDefinedInsideABlockUsedAfterIt) {
  Graph g;
  parseIR(R"IR(
graph(%x : Tensor, %b : bool):
  %r : Tensor = prim::If(%b)
    block0():
      %inner : Tensor = aten::relu(%x)
      -> (%inner)
    block1():
      -> (%x)
  %s : Tensor = aten::mul(%r, %r)
  return (%s)
)IR", g);
  ASSERT_EQ(lintMessage(g), "");
  Node* mul = g.outputs()[0]->node();
  Value* inner = g.block()->begin().operator*()->block(0)->outputs()[0];
  mul->replaceInput(1, inner);
  EXPECT_LINT(g, "[ssa]", "input 1 (%inner) is defined in a block that does not enclose this use", "aten::mul(%r, %inner)");
}

TEST(LintTest, IfWithMismatchedOutputs) {
  Graph g;
  parseIR(R"IR(
graph(%x : Tensor, %b : bool):
  %r : Tensor = prim::If(%b)
    block0():
      -> (%x)
    block1():
      -> (%x)
  return (%r)
)IR", g);
  ASSERT_EQ(lintMessage(g), "");
  Node* ifNode = g.outputs()[0]->node();
  ifNode->block(1)->eraseOutput(0);
  EXPECT_LINT(g, "graph lint [block]", "prim::If's block1 has 0 outputs, the node 1", "prim::If(%b)");
}

// The IR parser applies the rules to what it reads: such text is rejected as an Error (not an
// InternalError) that names the rule.
static void expectParseRejects(const char* text, const std::string& rule, const std::string& detail) {
  Graph g;
  try {
    parseIR(text, g);
    ADD_FAILURE() << "parsed:\n" << text;
  } catch (const InternalError& e) {
    ADD_FAILURE() << "an InternalError: " << e.what();
  } catch (const Error& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("breaks a rule of the IR"), std::string::npos) << m;
    EXPECT_NE(m.find(rule), std::string::npos) << m;
    EXPECT_NE(m.find(detail), std::string::npos) << m;
  }
}

TEST(LintTest, IfBlockOutputOfTheWrongType) {
  expectParseRejects(R"IR(
graph(%x : Tensor, %n : int, %b : bool):
  %r : Tensor = prim::If(%b)
    block0():
      -> (%x)
    block1():
      -> (%n)
  return (%r)
)IR", "[block]", "block1 output 0 (%n : int) is not a subtype of %r : Tensor");
}

TEST(LintTest, LoopCarryingAnIntIntoATensor) {  // found by fuzz_irparser
  expectParseRejects(R"IR(
graph(%i.1 : int):
  %3 : bool = prim::Constant[value=1]()
  %i.25 : Tensor = prim::Loop(%i.1, %3, %i.1)
    block0(%k : int, %c : Tensor):
      -> (%3, %c)
  return (%i.25)
)IR", "[block]", "carried input 0 (%i.1 : int) is not a subtype of %i.25 : Tensor");
}

TEST(LintTest, IfWithOneBlock) {
  Graph g;
  Value* b = g.addInput("b");
  b->setType(BoolType());
  Node* n = g.insert(prim::If, {b}, 0);
  n->addBlock();
  EXPECT_LINT(g, "[block]", "prim::If has 1 blocks (expected 2)");
}

TEST(LintTest, LoopShape) {
  Graph g;
  parseIR(R"IR(
graph(%x : Tensor, %n : int):
  %t : bool = prim::Constant[value=1]()
  %acc : Tensor = prim::Loop(%n, %t, %x)
    block0(%i : int, %a : Tensor):
      -> (%t, %a)
  return (%acc)
)IR", g);
  ASSERT_EQ(lintMessage(g), "");
  Node* loop = g.outputs()[0]->node();
  loop->block(0)->eraseOutput(1);
  EXPECT_LINT(g, "[block]", "prim::Loop's block has 1 outputs (expected the condition and 1 carried)", "prim::Loop(%n, %t, %x)");
}

TEST(LintTest, UnboundOperator) {
  Graph g;
  Value* x = g.addInput("x")->setType(TensorType());
  Node* n = g.insert(Symbol::fromQualString("aten::relu"), {x});  // never bound: op() is null
  n->output()->setType(TensorType());
  g.registerOutput(n->output());
  EXPECT_LINT(g, "graph lint [unbound]", "aten::relu is not bound to a registered operator", "= aten::relu(%x)");
}

TEST(LintTest, BoundToAnOperatorOfAnotherKind) {
  Graph g;
  Value* x = g.addInput("x")->setType(TensorType());
  Node* n = g.insert(Symbol::fromQualString("aten::relu"), {x});
  n->setOp(op("aten::sigmoid"))->output()->setType(TensorType());
  EXPECT_LINT(g, "[unbound]", "bound to aten::sigmoid, an operator of another kind");
}

TEST(LintTest, InputOfTheWrongType) {
  Graph g;
  Value* x = g.addInput("n")->setType(IntType());
  Node* n = g.insert(Symbol::fromQualString("aten::relu"), {x});
  n->setOp(op("aten::relu"))->output()->setType(TensorType());
  EXPECT_LINT(g, "graph lint [schema]", "input 0 (%n : int) does not match argument 'self' of type Tensor",
              "aten::relu(%n)");
}

TEST(LintTest, WrongInputCount) {
  Graph g;
  Value* x = g.addInput("x")->setType(TensorType());
  Node* n = g.insert(Symbol::fromQualString("aten::relu"), {x, x});
  n->setOp(op("aten::relu"))->output()->setType(TensorType());
  EXPECT_LINT(g, "[schema]", "2 inputs for aten::relu (1 arguments)");
}

TEST(LintTest, WrongOutputCount) {
  Graph g;
  Value* x = g.addInput("x")->setType(TensorType());
  Node* n = g.insert(Symbol::fromQualString("aten::relu"), {x}, 2);
  n->setOp(op("aten::relu"));
  for (Value* o : n->outputs()) o->setType(TensorType());
  EXPECT_LINT(g, "[schema]", "2 outputs for aten::relu, whose schema returns 1");
}

TEST(LintTest, OutputWithoutType) {
  Graph g;
  Value* x = g.addInput("x");
  x->setType(TensorType());
  Node* n = g.insert(Symbol::fromQualString("aten::relu"), {x});
  n->setOp(op("aten::relu"));
  EXPECT_LINT(g, "[value]", "has no type");
}

TEST(LintTest, DanglingNode) {
  Graph g;
  Value* x = g.addInput("x");
  x->setType(TensorType());
  g.create(Symbol::fromQualString("aten::relu"), {x});  // created, never inserted
  EXPECT_LINT(g, "graph lint [dangling]", "reachable from its top block");
}

TEST(LintTest, NamedInputUsesTheBoundSchema) {
  Graph g;
  parseIR(R"IR(
graph(%x : Tensor, %w : Tensor, %b : Tensor, %m : Tensor, %v : Tensor):
  %f : bool = prim::Constant[value=0]()
  %mom : float = prim::Constant[value=0.1]()
  %eps : float = prim::Constant[value=1e-05]()
  %y : Tensor = aten::batch_norm(%x, %w, %b, %m, %v, %f, %mom, %eps, %f)
  return (%y)
)IR", g);
  ASSERT_EQ(lintMessage(g), "");
  Node* bn = g.outputs()[0]->node();
  ASSERT_NE(bn->op(), nullptr);
  EXPECT_EQ(bn->namedInput("running_var")->debugName(), "v");
  EXPECT_EQ(bn->namedInput("running_mean")->debugName(), "m");
  EXPECT_EQ(bn->namedInput("eps")->debugName(), "eps");
  EXPECT_TRUE(bn->hasNamedInput("momentum"));
  EXPECT_FALSE(bn->hasNamedInput("dilation"));
  EXPECT_THROW(bn->namedInput("dilation"), InternalError);
  Node* unbound = g.create(Symbol::fromQualString("aten::batch_norm"), {});
  EXPECT_THROW(unbound->namedInput("running_var"), InternalError);
  EXPECT_FALSE(unbound->hasNamedInput("running_var"));
  unbound->destroy();
}

TEST(LintTest, VerifyGraphOnlyWhenEnabled) {
  const bool was = graphVerificationEnabled();
  Graph g;
  Value* x = g.addInput("x")->setType(TensorType());
  Node* n = g.insert(Symbol::fromQualString("aten::relu"), {x});
  n->output()->setType(TensorType());
  setGraphVerification(false);
  EXPECT_NO_THROW(verifyGraph(g, "pass test"));
  setGraphVerification(true);
  try {
    verifyGraph(g, "pass test");
    ADD_FAILURE() << "no InternalError";
  } catch (const InternalError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("internal error in Kindling, please report it: after pass test: graph lint [unbound]"),
              std::string::npos) << m;
    EXPECT_NE(m.find("in graph:\ngraph(%x : Tensor):"), std::string::npos) << m;
  }
  setGraphVerification(was);
}

}  // namespace
}  // namespace kindling
