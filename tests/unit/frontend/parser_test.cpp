// Lexer and parser tests: tokens with layout, literals, precedence, statements, archive-style code,
// and error messages with their source ranges.
#include <gtest/gtest.h>

#include "frontend/lexer.h"
#include "frontend/parser.h"

using namespace kindling;

namespace {

std::shared_ptr<const Source> src(const std::string& s) { return std::make_shared<Source>(s, "test.py"); }

std::vector<TokenKind> kinds(const std::string& s) {
  std::vector<TokenKind> out;
  for (auto& t : tokenize(src(s))) out.push_back(t.kind);
  return out;
}

// Prints an expression fully parenthesized, to check precedence and associativity.
std::string show(const ExprPtr& e) {
  switch (e->kind) {
    case ExprKind::Name: return e->as<NameExpr>().id;
    case ExprKind::Int: return std::to_string(e->as<IntExpr>().value);
    case ExprKind::Float: { char b[64]; snprintf(b, sizeof b, "%g", e->as<FloatExpr>().value); return b; }
    case ExprKind::Str: return "'" + e->as<StrExpr>().value + "'";
    case ExprKind::Bool: return e->as<BoolExpr>().value ? "True" : "False";
    case ExprKind::None: return "None";
    case ExprKind::Ellipsis: return "...";
    case ExprKind::Attribute: return show(e->as<AttributeExpr>().value) + "." + e->as<AttributeExpr>().attr;
    case ExprKind::Call: {
      auto& c = e->as<CallExpr>();
      std::string s = show(c.func) + "(";
      bool first = true;
      for (auto& a : c.args) { s += (first ? "" : ", ") + show(a); first = false; }
      for (auto& k : c.keywords) { s += (first ? "" : ", ") + k.name + "=" + show(k.value); first = false; }
      return s + ")";
    }
    case ExprKind::Subscript: {
      auto& c = e->as<SubscriptExpr>();
      std::string s = show(c.value) + "[";
      for (size_t i = 0; i < c.subscripts.size(); ++i) s += (i ? ", " : "") + show(c.subscripts[i]);
      return s + "]";
    }
    case ExprKind::Slice: {
      auto& c = e->as<SliceExpr>();
      return (c.start ? show(c.start) : "") + ":" + (c.end ? show(c.end) : "") + (c.step ? ":" + show(c.step) : "");
    }
    case ExprKind::Starred: return "*" + show(e->as<StarredExpr>().value);
    case ExprKind::BinOp: {
      auto& b = e->as<BinOpExpr>();
      return "(" + show(b.lhs) + " " + binOpStr(b.op) + " " + show(b.rhs) + ")";
    }
    case ExprKind::UnaryOp: {
      auto& u = e->as<UnaryOpExpr>();
      return std::string("(") + unaryOpStr(u.op) + (u.op == UnaryOpKind::Not ? " " : "") + show(u.operand) + ")";
    }
    case ExprKind::BoolOp: {
      auto& b = e->as<BoolOpExpr>();
      std::string s = "(";
      for (size_t i = 0; i < b.values.size(); ++i) s += (i ? (b.op == BoolOpKind::And ? " and " : " or ") : "") + show(b.values[i]);
      return s + ")";
    }
    case ExprKind::Compare: {
      auto& c = e->as<CompareExpr>();
      std::string s = "(" + show(c.left);
      for (size_t i = 0; i < c.ops.size(); ++i) s += std::string(" ") + cmpOpStr(c.ops[i]) + " " + show(c.comparators[i]);
      return s + ")";
    }
    case ExprKind::IfExp: {
      auto& c = e->as<IfExpExpr>();
      return "(" + show(c.body) + " if " + show(c.test) + " else " + show(c.orelse) + ")";
    }
    case ExprKind::Tuple: case ExprKind::List: {
      auto& s = e->as<SequenceExpr>();
      std::string r = e->kind == ExprKind::Tuple ? "(" : "[";
      for (size_t i = 0; i < s.elts.size(); ++i) r += (i ? ", " : "") + show(s.elts[i]);
      if (e->kind == ExprKind::Tuple && s.elts.size() == 1) r += ",";
      return r + (e->kind == ExprKind::Tuple ? ")" : "]");
    }
    case ExprKind::Dict: {
      auto& d = e->as<DictExpr>();
      std::string r = "{";
      for (size_t i = 0; i < d.keys.size(); ++i) r += (i ? ", " : "") + show(d.keys[i]) + ": " + show(d.values[i]);
      return r + "}";
    }
    case ExprKind::ListComp: {
      auto& c = e->as<ComprehensionExpr>();
      std::string r = "[" + show(c.elt);
      for (auto& g : c.generators) {
        r += " for " + show(g.target) + " in " + show(g.iter);
        for (auto& i : g.ifs) r += " if " + show(i);
      }
      return r + "]";
    }
    default: return "<?>";
  }
}

std::string showExpr(const std::string& s) { return show(parseExpression(src(s))); }

std::string errorOf(const std::string& s) {
  try {
    parseFile(src(s));
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Lexer, IndentDedentNewline) {
  auto k = kinds("def f(x):\n  if x:\n    return 1\n\n  # comment\n  return 2\n");
  std::vector<TokenKind> expect = {
      TokenKind::Name, TokenKind::Name, TokenKind::Op, TokenKind::Name, TokenKind::Op, TokenKind::Op, TokenKind::Newline,
      TokenKind::Indent, TokenKind::Name, TokenKind::Name, TokenKind::Op, TokenKind::Newline,
      TokenKind::Indent, TokenKind::Name, TokenKind::Int, TokenKind::Newline,
      TokenKind::Dedent, TokenKind::Name, TokenKind::Int, TokenKind::Newline,
      TokenKind::Dedent, TokenKind::Eof};
  EXPECT_EQ(k, expect);
}

TEST(Lexer, ImplicitJoiningAndContinuation) {
  auto toks = tokenize(src("x = (1,\n     2)\ny = 3 + \\\n  4\n"));
  int newlines = 0;
  for (auto& t : toks) newlines += t.kind == TokenKind::Newline;
  EXPECT_EQ(newlines, 2);
  for (auto& t : toks) EXPECT_NE(t.kind, TokenKind::Indent);
}

TEST(Lexer, Numbers) {
  auto toks = tokenize(src("1e-05 1.0000000000000001e-05 0x1F 0o17 0b101 1_000 1. .5 0 0.10000000000000001 6."));
  ASSERT_EQ(toks[0].kind, TokenKind::Float);
  EXPECT_DOUBLE_EQ(toks[0].dval, 1e-05);
  EXPECT_DOUBLE_EQ(toks[1].dval, 1.0000000000000001e-05);
  EXPECT_EQ(toks[2].ival, 31);
  EXPECT_EQ(toks[3].ival, 15);
  EXPECT_EQ(toks[4].ival, 5);
  EXPECT_EQ(toks[5].ival, 1000);
  EXPECT_EQ(toks[6].kind, TokenKind::Float);
  EXPECT_DOUBLE_EQ(toks[7].dval, 0.5);
  EXPECT_EQ(toks[8].kind, TokenKind::Int);
  EXPECT_DOUBLE_EQ(toks[9].dval, 0.1);
  EXPECT_DOUBLE_EQ(toks[10].dval, 6.0);
  EXPECT_THROW(tokenize(src("99999999999999999999")), CompileError);
  EXPECT_THROW(tokenize(src("012")), CompileError);
}

TEST(Lexer, Strings) {
  auto toks = tokenize(src("'a\\nb' \"q\\\"\" r'\\n' '''x\ny''' '\\x41\\u00e9' b'\\x00' f'{x}'"));
  EXPECT_EQ(toks[0].sval, "a\nb");
  EXPECT_EQ(toks[1].sval, "q\"");
  EXPECT_EQ(toks[2].sval, "\\n");
  EXPECT_EQ(toks[3].sval, "x\ny");
  EXPECT_EQ(toks[4].sval, "A\xc3\xa9");
  EXPECT_TRUE(toks[5].isBytes);
  EXPECT_TRUE(toks[6].isFString);
  EXPECT_THROW(tokenize(src("'abc")), CompileError);
}

TEST(Lexer, TypeCommentKept) {
  auto toks = tokenize(src("def f(x):  # type: (int) -> int\n  return x\n"));
  bool found = false;
  for (auto& t : toks)
    if (t.kind == TokenKind::Newline && t.sval == " (int) -> int") found = true;
  EXPECT_TRUE(found);
}

TEST(Lexer, BadDedent) {
  EXPECT_THROW(tokenize(src("if x:\n    a\n  b\n")), CompileError);
}

TEST(Parser, Precedence) {
  EXPECT_EQ(showExpr("a + b * c ** -d ** e"), "(a + (b * (c ** (-(d ** e)))))");
  EXPECT_EQ(showExpr("a - b - c"), "((a - b) - c)");
  EXPECT_EQ(showExpr("not a == b and c or d"), "(((not (a == b)) and c) or d)");
  EXPECT_EQ(showExpr("a | b ^ c & d << e + f"), "(a | (b ^ (c & (d << (e + f)))))");
  EXPECT_EQ(showExpr("a < b <= c is not None"), "(a < b <= c is not None)");
  EXPECT_EQ(showExpr("x if a else y if b else z"), "(x if a else (y if b else z))");
  EXPECT_EQ(showExpr("a not in b"), "(a not in b)");
  EXPECT_EQ(showExpr("-x.y[1](2)"), "(-x.y[1](2))");
  EXPECT_EQ(showExpr("a // b % c @ d / e"), "((((a // b) % c) @ d) / e)");
  EXPECT_EQ(showExpr("~a"), "(~a)");
}

TEST(Parser, Primaries) {
  EXPECT_EQ(showExpr("f(a, *b, k=1)"), "f(a, *b, k=1)");
  EXPECT_EQ(showExpr("x[1:2, ::3, :, None, ...]"), "x[1:2, ::3, :, None, ...]");
  EXPECT_EQ(showExpr("x[(1, 2)]"), "x[1, 2]");
  EXPECT_EQ(showExpr("(1,)"), "(1,)");
  EXPECT_EQ(showExpr("()"), "()");
  EXPECT_EQ(showExpr("[1, 2,]"), "[1, 2]");
  EXPECT_EQ(showExpr("{'a': 1, 'b': 2}"), "{'a': 1, 'b': 2}");
  EXPECT_EQ(showExpr("[x * 2 for x in y if x]"), "[(x * 2) for x in y if x]");
  EXPECT_EQ(showExpr("'a' 'b'"), "'ab'");
  EXPECT_EQ(showExpr("(self)._forward_impl(x, )"), "self._forward_impl(x)");
  EXPECT_EQ(showExpr("ops.prim.RaiseException(_4, \"builtins.ValueError\")"),
            "ops.prim.RaiseException(_4, 'builtins.ValueError')");
  EXPECT_EQ(showExpr("annotate(List[int], [])"), "annotate(List[int], [])");
  EXPECT_EQ(showExpr("1.0000000000000001e-05"), "1e-05");
  auto e = parseExpression(src("f'a{x}b{y:>3}'"));
  ASSERT_EQ(e->kind, ExprKind::JoinedStr);
  auto& j = e->as<JoinedStrExpr>();
  ASSERT_EQ(j.parts.size(), 5u);
  EXPECT_EQ(j.parts[0].literal, "a");
  EXPECT_EQ(show(j.parts[1].value), "x");
  EXPECT_EQ(j.parts[3].formatSpec, ">3");
}

TEST(Parser, ArchiveClass) {
  const char* code =
      "class Conv2d(Module):\n"
      "  __parameters__ = [\"weight\", \"bias\", ]\n"
      "  __buffers__ = []\n"
      "  weight : Tensor\n"
      "  bias : Optional[Tensor]\n"
      "  stride : Final[Tuple[int, int]] = (2, 2)\n"
      "  __annotations__[\"0\"] = __torch__.torchvision.models.resnet.BasicBlock\n"
      "  def forward(self: __torch__.torch.nn.modules.conv.Conv2d,\n"
      "    input: Tensor) -> Tensor:\n"
      "    _1 = torch.conv2d(input, weight, bias, [2, 2], [3, 3], [1, 1])\n"
      "    return _1\n"
      "def relu(input: Tensor,\n"
      "    inplace: bool=False) -> Tensor:\n"
      "  if inplace:\n"
      "    result = torch.relu_(input)\n"
      "  else:\n"
      "    result = torch.relu(input)\n"
      "  return result\n";
  auto f = parseFile(src(code));
  ASSERT_EQ(f->body.size(), 2u);
  ASSERT_EQ(f->body[0]->kind, StmtKind::Class);
  auto& c = f->body[0]->as<ClassStmt>();
  EXPECT_EQ(c.name, "Conv2d");
  ASSERT_EQ(c.body.size(), 7u);
  auto& stride = c.body[4]->as<AssignStmt>();
  EXPECT_EQ(show(stride.annotation), "Final[Tuple[int, int]]");
  EXPECT_EQ(show(stride.value), "(2, 2)");
  EXPECT_FALSE(c.body[2]->as<AssignStmt>().value);
  auto& ann = c.body[5]->as<AssignStmt>();
  EXPECT_EQ(show(ann.targets[0]), "__annotations__['0']");
  auto& fwd = c.body[6]->as<DefStmt>();
  ASSERT_EQ(fwd.params.size(), 2u);
  EXPECT_EQ(show(fwd.params[0].annotation), "__torch__.torch.nn.modules.conv.Conv2d");
  EXPECT_EQ(show(fwd.returnType), "Tensor");
  auto& relu = f->body[1]->as<DefStmt>();
  EXPECT_EQ(show(relu.params[1].defaultValue), "False");
  auto& iff = relu.body[0]->as<IfStmt>();
  EXPECT_EQ(iff.body.size(), 1u);
  EXPECT_EQ(iff.orelse.size(), 1u);
  // every node has a range inside the source
  EXPECT_EQ(relu.body[1]->range.text(), "return result");
  EXPECT_EQ(relu.range.line(), 12u);
}

TEST(Parser, Statements) {
  const char* code =
      "@torch.jit.script\n"
      "def f(x, y: int = 2, *, z: float = 1.0):\n"
      "  # type: (Tensor, int, float) -> Tensor\n"
      "  a, b = x, y\n"
      "  a = b = 1\n"
      "  a += 1; b -= 2\n"
      "  x : List[int] = []\n"
      "  for i, v in enumerate(l):\n"
      "    if i: continue\n"
      "    elif v: break\n"
      "    else: pass\n"
      "  while True:\n"
      "    del l[0]\n"
      "  with torch.no_grad() as g:\n"
      "    raise ValueError('bad')\n"
      "  assert x, 'msg'\n"
      "  return\n"
      "import torch\n"
      "from typing import List, Optional\n";
  auto f = parseFile(src(code));
  ASSERT_EQ(f->body.size(), 3u);
  auto& d = f->body[0]->as<DefStmt>();
  EXPECT_EQ(d.decorators.size(), 1u);
  EXPECT_TRUE(d.params[2].kwargOnly);
  std::vector<StmtKind> ks;
  for (auto& s : d.body) ks.push_back(s->kind);
  std::vector<StmtKind> expect = {StmtKind::Assign, StmtKind::Assign, StmtKind::AugAssign, StmtKind::AugAssign,
                                  StmtKind::Assign, StmtKind::For, StmtKind::While, StmtKind::With,
                                  StmtKind::Assert, StmtKind::Return};
  EXPECT_EQ(ks, expect);
  EXPECT_EQ(d.body[1]->as<AssignStmt>().targets.size(), 2u);
  EXPECT_EQ(show(d.body[0]->as<AssignStmt>().targets[0]), "(a, b)");
  auto& fr = d.body[5]->as<ForStmt>();
  auto& inner = fr.body[0]->as<IfStmt>();
  EXPECT_EQ(inner.orelse[0]->kind, StmtKind::If);
  EXPECT_EQ(f->body[2]->as<OtherStmt>().module, "typing");
}

TEST(Parser, TypeCommentOnDef) {
  auto f = parseFile(src("def f(x, y):\n  # type: (int, int) -> int\n  return x\ndef g(x):  # type: (int) -> int\n  return x\n"));
  EXPECT_EQ(f->body[0]->as<DefStmt>().typeComment, " (int, int) -> int");
  EXPECT_EQ(f->body[1]->as<DefStmt>().typeComment, " (int) -> int");
  std::vector<ExprPtr> args;
  ExprPtr ret;
  parseTypeComment(" (int, List[int]) -> Tensor", {}, args, ret);
  ASSERT_EQ(args.size(), 2u);
  EXPECT_EQ(show(args[1]), "List[int]");
  EXPECT_EQ(show(ret), "Tensor");
}

TEST(Parser, Errors) {
  std::string e = errorOf("def f(x):\n  return x +\n");
  EXPECT_NE(e.find("expected an expression but found a newline here"), std::string::npos) << e;
  EXPECT_NE(e.find("line 2"), std::string::npos) << e;
  EXPECT_NE(e.find("<--- HERE"), std::string::npos) << e;
  e = errorOf("def f(x)\n  return x\n");
  EXPECT_NE(e.find("expected ':'"), std::string::npos) << e;
  e = errorOf("x = (1, 2\n");
  EXPECT_NE(e.find("never closed"), std::string::npos) << e;
  e = errorOf("def f(x):\nreturn x\n");
  EXPECT_NE(e.find("expected an indented block"), std::string::npos) << e;
  e = errorOf("f(a=1, b)\n");
  EXPECT_NE(e.find("positional argument follows keyword argument"), std::string::npos) << e;
}

TEST(Parser, DeepNestingIsAnErrorNotACrash) {
  std::string deep = "x = " + std::string(5000, '(') + "1" + std::string(5000, ')') + "\n";
  EXPECT_NE(errorOf(deep).find("nesting is too deep"), std::string::npos);
  std::string neg = "x = " + std::string(5000, '-') + "1\n";
  EXPECT_NE(errorOf(neg).find("nesting is too deep"), std::string::npos);
  std::string blocks;
  for (int i = 0; i < 300; ++i) blocks += std::string(static_cast<size_t>(i), ' ') + "if x:\n";
  blocks += std::string(300, ' ') + "pass\n";
  EXPECT_NE(errorOf(blocks).find("nesting is too deep"), std::string::npos);
  std::string nots = "x = " + [] { std::string s; for (int i = 0; i < 100000; ++i) s += "not "; return s; }() + "y\n";
  EXPECT_NE(errorOf(nots).find("nesting is too deep"), std::string::npos);
}

TEST(Parser, ExpressionTreesAreBoundedInDepth) {
  // Chains deepen the tree without recursing in the parser; inside 90 levels of parentheses, chains of
  // 4000 operators (or attributes, calls, subscripts) would make a tree 360,000 levels deep.
  auto nested = [](const std::string& chain) {
    std::string e = "x";
    for (int i = 0; i < 90; ++i) {
      std::string c;
      for (int j = 0; j < 4000; ++j) c += chain;
      e = "(" + e + ")" + c;
    }
    return "y = " + e + "\n";
  };
  for (const char* chain : {" + x", ".a", "()", "[0]", " * x", " | x"}) {
    std::string e = errorOf(nested(chain));
    EXPECT_NE(e.find("expression is too deeply nested (more than 1000 levels)"), std::string::npos) << chain << ": " << e;
  }
  // Depth is what counts, not length: 3000 operands of one flat `and` or a chained comparison are one level.
  std::string flat = "y = x";
  for (int i = 0; i < 3000; ++i) flat += " and x";
  flat += "\n";
  auto f = parseFile(src(flat));
  ASSERT_EQ(f->body.size(), 1u);
  EXPECT_EQ(f->body[0]->as<AssignStmt>().value->depth, 2u);
  auto sum = parseFile(src("y = a + b * (c - d)\n"));
  EXPECT_EQ(sum->body[0]->as<AssignStmt>().value->depth, 4u);
}
