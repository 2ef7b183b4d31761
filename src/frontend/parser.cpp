#include "frontend/parser.h"

#include <unordered_set>

#include "frontend/lexer.h"

namespace kindling {

const char* binOpStr(BinOpKind k) {
  switch (k) {
    case BinOpKind::Add: return "+";
    case BinOpKind::Sub: return "-";
    case BinOpKind::Mul: return "*";
    case BinOpKind::Div: return "/";
    case BinOpKind::FloorDiv: return "//";
    case BinOpKind::Mod: return "%";
    case BinOpKind::Pow: return "**";
    case BinOpKind::MatMul: return "@";
    case BinOpKind::LShift: return "<<";
    case BinOpKind::RShift: return ">>";
    case BinOpKind::BitAnd: return "&";
    case BinOpKind::BitOr: return "|";
    case BinOpKind::BitXor: return "^";
  }
  return "?";
}
const char* unaryOpStr(UnaryOpKind k) {
  switch (k) {
    case UnaryOpKind::Neg: return "-";
    case UnaryOpKind::Pos: return "+";
    case UnaryOpKind::Invert: return "~";
    case UnaryOpKind::Not: return "not";
  }
  return "?";
}
const char* cmpOpStr(CmpOpKind k) {
  switch (k) {
    case CmpOpKind::Eq: return "==";
    case CmpOpKind::Ne: return "!=";
    case CmpOpKind::Lt: return "<";
    case CmpOpKind::Le: return "<=";
    case CmpOpKind::Gt: return ">";
    case CmpOpKind::Ge: return ">=";
    case CmpOpKind::Is: return "is";
    case CmpOpKind::IsNot: return "is not";
    case CmpOpKind::In: return "in";
    case CmpOpKind::NotIn: return "not in";
  }
  return "?";
}

namespace {

const std::unordered_set<std::string>& keywords() {
  static const std::unordered_set<std::string> k = {
      "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
      "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda",
      "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield"};
  return k;
}

class Parser {
 public:
  explicit Parser(std::shared_ptr<const Source> src) : src_(std::move(src)), toks_(tokenize(src_)) {}

  std::shared_ptr<SourceFile> file() {
    auto f = std::make_shared<SourceFile>();
    f->source = src_;
    while (cur().kind != TokenKind::Eof) {
      if (cur().kind == TokenKind::Newline) { advance(); continue; }
      if (cur().kind == TokenKind::Indent) fail("unexpected indent");
      appendStatement(f->body);
    }
    return f;
  }

  ExprPtr singleExpression() {
    ExprPtr e = testlist(false);
    while (cur().kind == TokenKind::Newline) advance();
    if (cur().kind != TokenKind::Eof) fail("expected end of expression");
    return e;
  }

 private:
  // ------------------------------------------------------------ token helpers
  const Token& cur() const { return toks_[pos_]; }
  const Token& peekTok(size_t n = 1) const { return toks_[std::min(pos_ + n, toks_.size() - 1)]; }
  const Token& advance() {
    const Token& t = toks_[pos_];
    prevEnd_ = t.end;
    prevStart_ = t.start;
    if (pos_ + 1 < toks_.size()) ++pos_;
    return t;
  }
  bool isOp(const char* op) const { return cur().kind == TokenKind::Op && cur().sval == op; }
  bool isKw(const char* kw) const { return cur().kind == TokenKind::Name && cur().sval == kw; }
  bool acceptOp(const char* op) { if (isOp(op)) { advance(); return true; } return false; }
  bool acceptKw(const char* kw) { if (isKw(kw)) { advance(); return true; } return false; }
  SourceRange rangeFrom(size_t start) const { return SourceRange(src_, start, std::max(start, prevEnd_)); }
  SourceRange tokRange(const Token& t) const {
    size_t e = t.end > t.start ? t.end : std::min(t.start + 1, src_->text.size());
    return SourceRange(src_, t.start, e);
  }
  std::string describe(const Token& t) const {
    switch (t.kind) {
      case TokenKind::Newline: return "a newline";
      case TokenKind::Indent: return "an indent";
      case TokenKind::Dedent: return "a dedent";
      case TokenKind::Eof: return "end of input";
      default: {
        std::string r = "'";
        r += t.text(*src_);
        r += '\'';
        return r;
      }
    }
  }
  // Range to report an error at the current token; layout tokens point at the previous token.
  SourceRange errRange() const {
    const Token& t = cur();
    if ((t.kind == TokenKind::Newline || t.kind == TokenKind::Eof || t.kind == TokenKind::Dedent) && prevEnd_ > prevStart_)
      return SourceRange(src_, prevStart_, prevEnd_);
    return tokRange(t);
  }
  [[noreturn]] void fail(const std::string& msg) const { throw CompileError(msg, errRange()); }
  [[noreturn]] void expected(const std::string& what) const {
    throw CompileError("expected " + what + " but found " + describe(cur()) + " here", errRange());
  }
  void expectOp(const char* op) { if (!acceptOp(op)) expected(std::string("'") + op + "'"); }
  void expectKw(const char* kw) { if (!acceptKw(kw)) expected(std::string("'") + kw + "'"); }
  std::string expectName() {
    if (cur().kind != TokenKind::Name || keywords().count(cur().sval)) expected("an identifier");
    return advance().sval;
  }
  void expectNewline() {
    if (cur().kind == TokenKind::Eof) return;
    if (cur().kind != TokenKind::Newline) expected("a newline");
    advance();
  }

  // ------------------------------------------------------------ statements
  void appendStatement(StmtList& out) {
    if (isOp("@") || isKw("def") || isKw("class") || isKw("if") || isKw("while") || isKw("for") || isKw("with") ||
        isKw("try") || isKw("async")) {
      out.push_back(compoundStatement());
      return;
    }
    // simple statements separated by ';'
    while (true) {
      out.push_back(smallStatement());
      if (acceptOp(";")) {
        if (cur().kind == TokenKind::Newline || cur().kind == TokenKind::Eof) break;
        continue;
      }
      break;
    }
    expectNewline();
  }

  // ':' followed by an indented block or simple statements on the same line. Returns the NEWLINE
  // token's type comment via `typeComment` when asked.
  StmtList block(std::string* typeComment = nullptr, SourceRange* tcRange = nullptr) {
    expectOp(":");
    StmtList body;
    if (cur().kind == TokenKind::Newline) {
      if (typeComment && !cur().sval.empty()) {
        *typeComment = cur().sval;
        if (tcRange) *tcRange = tokRange(cur());
      }
      advance();
      if (cur().kind != TokenKind::Indent) expected("an indented block");
      advance();
      while (cur().kind != TokenKind::Dedent && cur().kind != TokenKind::Eof) {
        if (cur().kind == TokenKind::Newline) { advance(); continue; }
        appendStatement(body);
      }
      if (cur().kind == TokenKind::Dedent) advance();
    } else {
      while (true) {
        body.push_back(smallStatement());
        if (acceptOp(";")) {
          if (cur().kind == TokenKind::Newline || cur().kind == TokenKind::Eof) break;
          continue;
        }
        break;
      }
      if (typeComment && cur().kind == TokenKind::Newline && !cur().sval.empty()) {
        *typeComment = cur().sval;
        if (tcRange) *tcRange = tokRange(cur());
      }
      expectNewline();
    }
    return body;
  }

  StmtPtr compoundStatement() {
    DepthGuard guard(*this);
    size_t start = cur().start;
    if (isOp("@")) {
      std::vector<ExprPtr> decorators;
      while (acceptOp("@")) {
        decorators.push_back(test());
        expectNewline();
      }
      if (isKw("def")) return defStatement(start, std::move(decorators));
      if (isKw("class")) return classStatement(start, std::move(decorators));
      expected("'def' or 'class' after a decorator");
    }
    if (isKw("def")) return defStatement(start, {});
    if (isKw("class")) return classStatement(start, {});
    if (isKw("async")) fail("async functions are not supported in TorchScript");
    if (acceptKw("if")) return ifRest(start);
    if (acceptKw("while")) {
      ExprPtr t = namedTest();
      StmtList body = block();
      StmtList orelse;
      if (acceptKw("else")) orelse = block();
      return std::make_shared<WhileStmt>(rangeFrom(start), t, std::move(body), std::move(orelse));
    }
    if (acceptKw("for")) {
      ExprPtr target = exprlist();
      expectKw("in");
      ExprPtr iter = testlist(false);
      StmtList body = block();
      StmtList orelse;
      if (acceptKw("else")) orelse = block();
      return std::make_shared<ForStmt>(rangeFrom(start), target, iter, std::move(body), std::move(orelse));
    }
    if (acceptKw("with")) {
      std::vector<WithItem> items;
      do {
        WithItem item;
        item.context = test();
        if (acceptKw("as")) item.target = bitOr();
        items.push_back(std::move(item));
      } while (acceptOp(","));
      StmtList body = block();
      return std::make_shared<WithStmt>(rangeFrom(start), std::move(items), std::move(body));
    }
    if (acceptKw("try")) {
      auto ts = std::make_shared<TryStmt>(SourceRange());
      ts->body = block();
      while (isKw("except")) {
        size_t hs = cur().start;
        advance();
        ExceptHandler h;
        if (!isOp(":")) {
          h.type = test();
          if (acceptKw("as")) h.name = expectName();
        }
        h.range = rangeFrom(hs);
        h.body = block();
        ts->handlers.push_back(std::move(h));
      }
      if (!ts->handlers.empty() && acceptKw("else")) ts->orelse = block();
      if (acceptKw("finally")) ts->finalbody = block();
      if (ts->handlers.empty() && ts->finalbody.empty())
        throw CompileError("expected 'except' or 'finally' block", rangeFrom(start));
      ts->range = rangeFrom(start);
      return ts;
    }
    expected("a statement");
  }

  StmtPtr ifRest(size_t start) {
    DepthGuard guard(*this);
    ExprPtr t = namedTest();
    StmtList body = block();
    StmtList orelse;
    if (isKw("elif")) {
      size_t s2 = cur().start;
      advance();
      orelse.push_back(ifRest(s2));
    } else if (acceptKw("else")) {
      orelse = block();
    }
    return std::make_shared<IfStmt>(rangeFrom(start), t, std::move(body), std::move(orelse));
  }

  StmtPtr defStatement(size_t start, std::vector<ExprPtr> decorators) {
    expectKw("def");
    auto d = std::make_shared<DefStmt>(SourceRange());
    size_t nameStart = cur().start;
    d->name = expectName();
    d->nameRange = rangeFrom(nameStart);
    d->decorators = std::move(decorators);
    expectOp("(");
    bool kwOnly = false;
    while (!isOp(")")) {
      Param p;
      size_t ps = cur().start;
      if (acceptOp("**")) {
        p.isKwArgs = true;
      } else if (acceptOp("*")) {
        if (isOp(",") || isOp(")")) {
          kwOnly = true;
          if (!acceptOp(",")) break;
          continue;
        }
        p.isVarArgs = true;
      } else if (acceptOp("/")) {  // positional-only marker: accepted and ignored
        if (!acceptOp(",")) break;
        continue;
      }
      p.name = expectName();
      if (acceptOp(":")) p.annotation = test();
      if (acceptOp("=")) p.defaultValue = test();
      p.kwargOnly = kwOnly;
      p.range = rangeFrom(ps);
      if (p.isVarArgs) kwOnly = true;
      // `a,  # type: int`: the comment follows the comma, or the parameter's last token before `)`
      const Token& last = toks_[pos_ - 1];
      bool comma = acceptOp(",");
      const std::string& tc = comma && !toks_[pos_ - 1].typeComment.empty() ? toks_[pos_ - 1].typeComment : last.typeComment;
      if (!tc.empty()) {
        SourceRange r = tokRange(comma ? toks_[pos_ - 1] : last);
        size_t lineNo = src_->startingLine + src_->lineOf(r.start);
        size_t b = tc.find_first_not_of(" \t"), e = tc.find_last_not_of(" \t");
        std::string text = b == std::string::npos ? std::string() : tc.substr(b, e - b + 1);
        p.typeComment = parseExpression(std::make_shared<Source>(text, src_->filename, lineNo));
      }
      d->params.push_back(std::move(p));
      if (!comma) break;
    }
    expectOp(")");
    if (acceptOp("->")) d->returnType = test();
    d->body = block(&d->typeComment, &d->typeCommentRange);
    d->range = rangeFrom(start);
    return d;
  }

  StmtPtr classStatement(size_t start, std::vector<ExprPtr> decorators) {
    expectKw("class");
    auto c = std::make_shared<ClassStmt>(SourceRange());
    size_t nameStart = cur().start;
    c->name = expectName();
    c->nameRange = rangeFrom(nameStart);
    c->decorators = std::move(decorators);
    if (acceptOp("(")) {
      while (!isOp(")")) {
        if (cur().kind == TokenKind::Name && peekTok().kind == TokenKind::Op && peekTok().sval == "=") {
          size_t ks = cur().start;
          Keyword k;
          k.name = advance().sval;
          advance();
          k.value = test();
          k.range = rangeFrom(ks);
          c->keywords.push_back(std::move(k));
        } else {
          c->bases.push_back(test());
        }
        if (!acceptOp(",")) break;
      }
      expectOp(")");
    }
    c->body = block();
    c->range = rangeFrom(start);
    return c;
  }

  StmtPtr smallStatement() {
    size_t start = cur().start;
    if (acceptKw("pass")) return std::make_shared<SimpleStmt>(StmtKind::Pass, rangeFrom(start));
    if (acceptKw("break")) return std::make_shared<SimpleStmt>(StmtKind::Break, rangeFrom(start));
    if (acceptKw("continue")) return std::make_shared<SimpleStmt>(StmtKind::Continue, rangeFrom(start));
    if (acceptKw("return")) {
      ExprPtr v;
      if (!atStatementEnd()) v = testlist(true);
      return std::make_shared<ReturnStmt>(rangeFrom(start), v);
    }
    if (acceptKw("raise")) {
      ExprPtr e, c;
      if (!atStatementEnd()) {
        e = test();
        if (acceptKw("from")) c = test();
      }
      return std::make_shared<RaiseStmt>(rangeFrom(start), e, c);
    }
    if (acceptKw("assert")) {
      ExprPtr t = test();
      ExprPtr m;
      if (acceptOp(",")) m = test();
      return std::make_shared<AssertStmt>(rangeFrom(start), t, m);
    }
    if (acceptKw("del")) {
      std::vector<ExprPtr> targets;
      do {
        if (atStatementEnd()) break;
        targets.push_back(bitOr());
      } while (acceptOp(","));
      return std::make_shared<DeleteStmt>(rangeFrom(start), std::move(targets));
    }
    if (isKw("global") || isKw("nonlocal")) {
      StmtKind k = isKw("global") ? StmtKind::Global : StmtKind::Nonlocal;
      advance();
      std::vector<std::string> names;
      do names.push_back(expectName()); while (acceptOp(","));
      return std::make_shared<OtherStmt>(k, rangeFrom(start), std::move(names));
    }
    if (isKw("import") || isKw("from")) return importStatement(start);
    if (isKw("yield")) fail("yield is not supported in TorchScript");

    // expression statement, assignment, annotated assignment, augmented assignment
    ExprPtr first = testlistStarExpr();
    if (isOp(":")) {
      advance();
      ExprPtr ann = test();
      ExprPtr value;
      if (acceptOp("=")) value = testlistStarExpr();
      auto a = std::make_shared<AssignStmt>(rangeFrom(start), std::vector<ExprPtr>{first}, value, ann);
      return a;
    }
    if (cur().kind == TokenKind::Op && cur().sval.size() >= 2 && cur().sval.back() == '=' && cur().sval != "==" &&
        cur().sval != "<=" && cur().sval != ">=" && cur().sval != "!=") {
      std::string op = cur().sval.substr(0, cur().sval.size() - 1);
      static const std::pair<const char*, BinOpKind> kAug[] = {
          {"+", BinOpKind::Add}, {"-", BinOpKind::Sub}, {"*", BinOpKind::Mul}, {"/", BinOpKind::Div},
          {"//", BinOpKind::FloorDiv}, {"%", BinOpKind::Mod}, {"**", BinOpKind::Pow}, {"@", BinOpKind::MatMul},
          {"<<", BinOpKind::LShift}, {">>", BinOpKind::RShift}, {"&", BinOpKind::BitAnd}, {"|", BinOpKind::BitOr},
          {"^", BinOpKind::BitXor}};
      for (auto& [s, k] : kAug) {
        if (op == s) {
          advance();
          ExprPtr v = testlist(true);
          return std::make_shared<AugAssignStmt>(rangeFrom(start), first, k, v);
        }
      }
      if (op == ":") fail("assignment expressions (:=) are not supported in TorchScript");
    }
    if (isOp("=")) {
      std::vector<ExprPtr> targets{first};
      ExprPtr value;
      while (acceptOp("=")) {
        value = testlistStarExpr();
        if (isOp("=")) targets.push_back(value);
      }
      auto a = std::make_shared<AssignStmt>(rangeFrom(start), std::move(targets), value, nullptr);
      if (cur().kind == TokenKind::Newline && !cur().sval.empty()) {
        // `xs = []  # type: List[int]`: PyTorch 1.13 rejects variable type comments (its parser expects a
        // newline there; torch.jit.script takes the line for the function's type comment and fails to
        // parse it). `# type: ignore[...]` comments are for mypy and stay allowed.
        const std::string& tc = cur().sval;
        size_t b = tc.find_first_not_of(" \t");
        if (b != std::string::npos && tc.compare(b, 6, "ignore") != 0)
          throw CompileError("variable type comments are not supported in TorchScript: annotate the variable "
                             "instead (`x: T = value`)",
                             rangeFrom(start));
      }
      return a;
    }
    return std::make_shared<ExprStmt>(rangeFrom(start), first);
  }

  StmtPtr importStatement(size_t start) {
    std::vector<std::string> names, asNames;
    std::string module;
    auto dotted = [&]() {
      std::string n;
      while (isOp(".") || isOp("...")) n += advance().sval;
      if (cur().kind == TokenKind::Name && !isKw("import")) {
        n += expectName();
        while (acceptOp(".")) {
          n += '.';
          n += expectName();
        }
      }
      return n;
    };
    if (acceptKw("import")) {
      do {
        names.push_back(dotted());
        asNames.push_back(acceptKw("as") ? expectName() : "");
      } while (acceptOp(","));
    } else {
      expectKw("from");
      module = dotted();
      expectKw("import");
      bool paren = acceptOp("(");
      if (acceptOp("*")) {
        names.push_back("*");
        asNames.push_back("");
      } else {
        do {
          if (paren && isOp(")")) break;
          names.push_back(expectName());
          asNames.push_back(acceptKw("as") ? expectName() : "");
        } while (acceptOp(","));
      }
      if (paren) expectOp(")");
    }
    auto s = std::make_shared<OtherStmt>(StmtKind::Import, rangeFrom(start), std::move(names));
    s->module = module;
    s->asNames = std::move(asNames);
    return s;
  }

  bool atStatementEnd() const {
    return cur().kind == TokenKind::Newline || cur().kind == TokenKind::Eof || isOp(";");
  }

  // ------------------------------------------------------------ expressions
  // testlist: test (',' test)* [','] — a tuple when there is a comma.
  ExprPtr testlist(bool allowStar) {
    size_t start = cur().start;
    ExprPtr first = allowStar ? testOrStar() : test();
    if (!isOp(",")) return first;
    std::vector<ExprPtr> elts{first};
    while (acceptOp(",")) {
      if (atTestlistEnd()) break;
      elts.push_back(allowStar ? testOrStar() : test());
    }
    return std::make_shared<SequenceExpr>(ExprKind::Tuple, rangeFrom(start), std::move(elts));
  }
  ExprPtr testlistStarExpr() { return testlist(true); }
  bool atTestlistEnd() const {
    return atStatementEnd() || isOp("=") || isOp(")") || isOp(":") || isOp("]") || isOp("}") ||
           (cur().kind == TokenKind::Op && cur().sval.size() >= 2 && cur().sval.back() == '=' && cur().sval != "==");
  }
  ExprPtr testOrStar() {
    if (isOp("*")) {
      size_t start = cur().start;
      advance();
      ExprPtr v = bitOr();
      return std::make_shared<StarredExpr>(rangeFrom(start), v);
    }
    return test();
  }
  // exprlist for `for` targets and similar: star_expr/bitor, comma separated.
  ExprPtr exprlist() {
    size_t start = cur().start;
    auto one = [&]() -> ExprPtr {
      if (isOp("*")) {
        size_t s = cur().start;
        advance();
        ExprPtr v = bitOr();
        return std::make_shared<StarredExpr>(rangeFrom(s), v);
      }
      return bitOr();
    };
    ExprPtr first = one();
    if (!isOp(",")) return first;
    std::vector<ExprPtr> elts{first};
    while (acceptOp(",")) {
      if (isKw("in") || isOp("=")) break;
      elts.push_back(one());
    }
    return std::make_shared<SequenceExpr>(ExprKind::Tuple, rangeFrom(start), std::move(elts));
  }

  ExprPtr namedTest() {
    ExprPtr e = test();
    if (isOp(":=")) fail("assignment expressions (:=) are not supported in TorchScript");
    return e;
  }

  // Bounds the recursion on pathological input (deeply nested brackets or blocks).
  struct DepthGuard {
    explicit DepthGuard(Parser& p) : p_(p) {
      if (++p_.depth_ > kMaxDepth) p_.fail("expression or block nesting is too deep (more than 200 levels)");
    }
    ~DepthGuard() { --p_.depth_; }
    Parser& p_;
  };
  static constexpr int kMaxDepth = 200;

  // Bounds the depth of the expression trees themselves: chains (a + b + ..., x.a.b..., f()()...) deepen
  // a tree without recursing in the parser, and every later walk over a tree recurses by its depth.
  static constexpr uint32_t kMaxExprDepth = 1000;
  ExprPtr bounded(ExprPtr e) {
    if (e->depth > kMaxExprDepth)
      throw CompileError("expression is too deeply nested (more than " + std::to_string(kMaxExprDepth) + " levels)",
                         e->range);
    return e;
  }

  ExprPtr test() {
    DepthGuard guard(*this);
    size_t start = cur().start;
    if (acceptKw("lambda")) {
      std::vector<std::string> params;
      std::vector<ExprPtr> defaults;
      while (!isOp(":")) {
        if (isOp("*") || isOp("**")) fail("*args and **kwargs are not supported in lambdas");
        params.push_back(expectName());
        defaults.push_back(acceptOp("=") ? test() : nullptr);
        if (!defaults.back() && defaults.size() > 1 && defaults[defaults.size() - 2])
          fail("non-default argument follows default argument");
        if (!acceptOp(",")) break;
      }
      expectOp(":");
      ExprPtr body = test();
      return std::make_shared<LambdaExpr>(rangeFrom(start), std::move(params), std::move(defaults), body);
    }
    ExprPtr e = orTest();
    if (isKw("if")) {
      // don't treat `x if` inside a comprehension clause `... for a in b if c` — orTest stops before `if`
      advance();
      ExprPtr cond = orTest();
      expectKw("else");
      ExprPtr other = test();
      return bounded(std::make_shared<IfExpExpr>(rangeFrom(start), cond, e, other));
    }
    return bounded(e);
  }
  // test without conditional expressions (comprehension `if` clauses and iterables)
  ExprPtr testNoCond() { return orTest(); }

  ExprPtr orTest() {
    size_t start = cur().start;
    ExprPtr first = andTest();
    if (!isKw("or")) return first;
    std::vector<ExprPtr> vals{first};
    while (acceptKw("or")) vals.push_back(andTest());
    return std::make_shared<BoolOpExpr>(rangeFrom(start), BoolOpKind::Or, std::move(vals));
  }
  ExprPtr andTest() {
    size_t start = cur().start;
    ExprPtr first = notTest();
    if (!isKw("and")) return first;
    std::vector<ExprPtr> vals{first};
    while (acceptKw("and")) vals.push_back(notTest());
    return std::make_shared<BoolOpExpr>(rangeFrom(start), BoolOpKind::And, std::move(vals));
  }
  ExprPtr notTest() {
    size_t start = cur().start;
    if (acceptKw("not")) {
      DepthGuard guard(*this);
      ExprPtr v = notTest();
      return std::make_shared<UnaryOpExpr>(rangeFrom(start), UnaryOpKind::Not, v);
    }
    return comparison();
  }
  bool compOp(CmpOpKind& k) {
    if (cur().kind == TokenKind::Op) {
      const std::string& s = cur().sval;
      if (s == "==") k = CmpOpKind::Eq;
      else if (s == "!=") k = CmpOpKind::Ne;
      else if (s == "<") k = CmpOpKind::Lt;
      else if (s == "<=") k = CmpOpKind::Le;
      else if (s == ">") k = CmpOpKind::Gt;
      else if (s == ">=") k = CmpOpKind::Ge;
      else return false;
      advance();
      return true;
    }
    if (isKw("in")) { advance(); k = CmpOpKind::In; return true; }
    if (isKw("is")) {
      advance();
      k = acceptKw("not") ? CmpOpKind::IsNot : CmpOpKind::Is;
      return true;
    }
    if (isKw("not") && peekTok().kind == TokenKind::Name && peekTok().sval == "in") {
      advance();
      advance();
      k = CmpOpKind::NotIn;
      return true;
    }
    return false;
  }
  ExprPtr comparison() {
    size_t start = cur().start;
    ExprPtr left = bitOr();
    std::vector<CmpOpKind> ops;
    std::vector<ExprPtr> comps;
    CmpOpKind k;
    while (compOp(k)) {
      ops.push_back(k);
      comps.push_back(bitOr());
    }
    if (ops.empty()) return left;
    return std::make_shared<CompareExpr>(rangeFrom(start), left, std::move(ops), std::move(comps));
  }

  ExprPtr binaryLevel(int level) {
    // levels: 0 '|', 1 '^', 2 '&', 3 shifts, 4 + -, 5 * / // % @
    static const std::vector<std::vector<std::pair<const char*, BinOpKind>>> kLevels = {
        {{"|", BinOpKind::BitOr}},
        {{"^", BinOpKind::BitXor}},
        {{"&", BinOpKind::BitAnd}},
        {{"<<", BinOpKind::LShift}, {">>", BinOpKind::RShift}},
        {{"+", BinOpKind::Add}, {"-", BinOpKind::Sub}},
        {{"*", BinOpKind::Mul}, {"/", BinOpKind::Div}, {"//", BinOpKind::FloorDiv}, {"%", BinOpKind::Mod},
         {"@", BinOpKind::MatMul}},
    };
    size_t start = cur().start;
    if (level == 6) return factor();
    ExprPtr lhs = binaryLevel(level + 1);
    size_t chain = 0;
    while (cur().kind == TokenKind::Op) {
      if (++chain > 5000) fail("expression is too long (more than 5000 chained operators)");
      bool found = false;
      for (auto& [s, k] : kLevels[level]) {
        if (cur().sval == s) {
          advance();
          ExprPtr rhs = binaryLevel(level + 1);
          lhs = bounded(std::make_shared<BinOpExpr>(rangeFrom(start), k, lhs, rhs));
          found = true;
          break;
        }
      }
      if (!found) break;
    }
    return lhs;
  }
  ExprPtr bitOr() { return binaryLevel(0); }

  ExprPtr factor() {
    DepthGuard guard(*this);
    size_t start = cur().start;
    UnaryOpKind k;
    if (isOp("-")) k = UnaryOpKind::Neg;
    else if (isOp("+")) k = UnaryOpKind::Pos;
    else if (isOp("~")) k = UnaryOpKind::Invert;
    else return power();
    advance();
    if (k == UnaryOpKind::Neg && cur().kind == TokenKind::Int && cur().isInt64MinMagnitude &&
        !(peekTok().kind == TokenKind::Op && peekTok().sval == "**")) {
      int64_t v = cur().ival;  // INT64_MIN
      advance();
      return std::make_shared<IntExpr>(rangeFrom(start), v);
    }
    ExprPtr v = factor();
    return std::make_shared<UnaryOpExpr>(rangeFrom(start), k, v);
  }
  ExprPtr power() {
    size_t start = cur().start;
    if (isKw("await")) fail("await is not supported in TorchScript");
    ExprPtr base = atomExpr();
    if (acceptOp("**")) {
      ExprPtr exp = factor();
      return std::make_shared<BinOpExpr>(rangeFrom(start), BinOpKind::Pow, base, exp);
    }
    return base;
  }

  ExprPtr atomExpr() {
    size_t start = cur().start;
    ExprPtr e = atom();
    size_t chain = 0;
    while (true) {
      if (++chain > 5000) fail("expression is too long (more than 5000 chained calls, subscripts or attributes)");
      if (acceptOp("(")) {
        std::vector<ExprPtr> args;
        std::vector<Keyword> kws;
        while (!isOp(")")) {
          if (cur().kind == TokenKind::Name && peekTok().kind == TokenKind::Op && peekTok().sval == "=" &&
              !keywords().count(cur().sval)) {
            size_t ks = cur().start;
            Keyword k;
            k.name = advance().sval;
            advance();
            k.value = test();
            k.range = rangeFrom(ks);
            kws.push_back(std::move(k));
          } else if (isOp("**")) {
            size_t ks = cur().start;
            advance();
            Keyword k;  // `**mapping`: a keyword without a name
            k.value = test();
            k.range = rangeFrom(ks);
            kws.push_back(std::move(k));
          } else {
            ExprPtr a = testOrStar();
            if (isKw("for")) a = generatorExpression(a->range.start, a);
            if (!kws.empty() && a->kind != ExprKind::Starred)
              throw CompileError("positional argument follows keyword argument", a->range);
            args.push_back(a);
          }
          if (!acceptOp(",")) break;
        }
        expectOp(")");
        e = bounded(std::make_shared<CallExpr>(rangeFrom(start), e, std::move(args), std::move(kws)));
      } else if (acceptOp("[")) {
        std::vector<ExprPtr> subs;
        bool tupleSyntax = false;
        while (true) {
          subs.push_back(subscript());
          if (!acceptOp(",")) break;
          tupleSyntax = true;
          if (isOp("]")) break;
        }
        expectOp("]");
        // x[(a, b)] is the same as x[a, b]
        if (subs.size() == 1 && subs[0]->kind == ExprKind::Tuple && !tupleSyntax) {
          auto& t = subs[0]->as<SequenceExpr>();
          if (!t.elts.empty()) {
            subs = t.elts;
            tupleSyntax = true;
          }
        }
        e = bounded(std::make_shared<SubscriptExpr>(rangeFrom(start), e, std::move(subs), tupleSyntax));
      } else if (isOp(".")) {
        advance();
        size_t ns = cur().start;
        if (cur().kind != TokenKind::Name) expected("an identifier");
        std::string name = advance().sval;  // keywords allowed after '.' only if not reserved in Python
        e = bounded(std::make_shared<AttributeExpr>(rangeFrom(start), e, name, rangeFrom(ns)));
      } else {
        break;
      }
    }
    return e;
  }

  ExprPtr subscript() {
    size_t start = cur().start;
    ExprPtr a, b, c;
    if (!isOp(":")) {
      a = testOrStar();
      if (!isOp(":")) return a;
    }
    expectOp(":");
    if (!isOp(":") && !isOp(",") && !isOp("]")) b = test();
    if (acceptOp(":")) {
      if (!isOp(",") && !isOp("]")) c = test();
    }
    return std::make_shared<SliceExpr>(rangeFrom(start), a, b, c);
  }

  // A generator expression: emitted as a list comprehension, except where its laziness shows (any/all stop
  // at the first element that decides them).
  ExprPtr generatorExpression(size_t start, ExprPtr elt) {
    return comprehension(ExprKind::ListComp, start, std::move(elt), nullptr, ")", /*generator=*/true);
  }

  ExprPtr comprehension(ExprKind kind, size_t start, ExprPtr elt, ExprPtr value, const char* closer,
                        bool generator = false) {
    std::vector<Comprehension> gens;
    while (acceptKw("for")) {
      Comprehension g;
      g.target = exprlist();
      expectKw("in");
      g.iter = testNoCond();
      while (acceptKw("if")) g.ifs.push_back(testNoCond());
      gens.push_back(std::move(g));
    }
    if (!isOp(closer)) expected(std::string("'") + closer + "'");
    return std::make_shared<ComprehensionExpr>(kind, rangeFrom(start), elt, value, std::move(gens), generator);
  }

  ExprPtr atom() {
    size_t start = cur().start;
    const Token& t = cur();
    switch (t.kind) {
      case TokenKind::Int:
        if (t.isInt64MinMagnitude) fail("integer literal is too large to fit in a 64-bit int");
        advance();
        return std::make_shared<IntExpr>(rangeFrom(start), t.ival);
      case TokenKind::Float: advance(); return std::make_shared<FloatExpr>(rangeFrom(start), t.dval);
      case TokenKind::String: return strings();
      case TokenKind::Name: {
        if (t.sval == "None") { advance(); return std::make_shared<NoneExpr>(rangeFrom(start)); }
        if (t.sval == "True") { advance(); return std::make_shared<BoolExpr>(rangeFrom(start), true); }
        if (t.sval == "False") { advance(); return std::make_shared<BoolExpr>(rangeFrom(start), false); }
        if (keywords().count(t.sval)) expected("an expression");
        std::string n = advance().sval;
        return std::make_shared<NameExpr>(rangeFrom(start), n);
      }
      case TokenKind::Op: break;
      default: expected("an expression");
    }
    if (acceptOp("...")) return std::make_shared<EllipsisExpr>(rangeFrom(start));
    if (acceptOp("(")) {
      if (acceptOp(")")) return std::make_shared<SequenceExpr>(ExprKind::Tuple, rangeFrom(start), std::vector<ExprPtr>{});
      ExprPtr first = testOrStar();
      if (isKw("for")) {
        ExprPtr c = generatorExpression(start, first);
        expectOp(")");
        return c;
      }
      if (!isOp(",")) {
        expectOp(")");
        return first;  // parenthesized expression keeps its inner range
      }
      std::vector<ExprPtr> elts{first};
      while (acceptOp(",")) {
        if (isOp(")")) break;
        elts.push_back(testOrStar());
      }
      expectOp(")");
      return std::make_shared<SequenceExpr>(ExprKind::Tuple, rangeFrom(start), std::move(elts));
    }
    if (acceptOp("[")) {
      std::vector<ExprPtr> elts;
      if (!isOp("]")) {
        ExprPtr first = testOrStar();
        if (isKw("for")) {
          ExprPtr c = comprehension(ExprKind::ListComp, start, first, nullptr, "]");
          expectOp("]");
          return std::make_shared<ComprehensionExpr>(ExprKind::ListComp, rangeFrom(start), c->as<ComprehensionExpr>().elt,
                                                     nullptr, c->as<ComprehensionExpr>().generators);
        }
        elts.push_back(first);
        while (acceptOp(",")) {
          if (isOp("]")) break;
          elts.push_back(testOrStar());
        }
      }
      expectOp("]");
      return std::make_shared<SequenceExpr>(ExprKind::List, rangeFrom(start), std::move(elts));
    }
    if (acceptOp("{")) {
      std::vector<ExprPtr> keys, values;
      if (!isOp("}")) {
        ExprPtr k = test();
        if (!isOp(":")) fail("set literals are not supported in TorchScript");
        advance();
        ExprPtr v = test();
        if (isKw("for")) {
          ExprPtr c = comprehension(ExprKind::DictComp, start, k, v, "}");
          expectOp("}");
          auto& ce = c->as<ComprehensionExpr>();
          return std::make_shared<ComprehensionExpr>(ExprKind::DictComp, rangeFrom(start), ce.elt, ce.value, ce.generators);
        }
        keys.push_back(k);
        values.push_back(v);
        while (acceptOp(",")) {
          if (isOp("}")) break;
          keys.push_back(test());
          expectOp(":");
          values.push_back(test());
        }
      }
      expectOp("}");
      return std::make_shared<DictExpr>(rangeFrom(start), std::move(keys), std::move(values));
    }
    expected("an expression");
  }

  // One or more adjacent string literals; f-strings make a JoinedStr.
  ExprPtr strings() {
    size_t start = cur().start;
    bool anyF = false;
    std::vector<JoinedStrExpr::Part> parts;
    std::string acc;
    while (cur().kind == TokenKind::String) {
      const Token& t = advance();
      if (!t.isFString) {
        acc += t.sval;
        continue;
      }
      anyF = true;
      const std::string& s = t.sval;
      size_t i = 0;
      while (i < s.size()) {
        char c = s[i];
        if (c == '{' && i + 1 < s.size() && s[i + 1] == '{') { acc += '{'; i += 2; continue; }
        if (c == '}' && i + 1 < s.size() && s[i + 1] == '}') { acc += '}'; i += 2; continue; }
        if (c == '}') throw CompileError("f-string: single '}' is not allowed", tokRange(t));
        if (c != '{') { acc += c; ++i; continue; }
        // replacement field
        size_t depth = 0, j = i + 1;
        size_t exprEnd = std::string::npos, convPos = std::string::npos, specPos = std::string::npos;
        for (; j < s.size(); ++j) {
          char d = s[j];
          if (d == '(' || d == '[' || d == '{') ++depth;
          else if ((d == ')' || d == ']' || d == '}') && depth > 0) --depth;
          else if (d == '}' && depth == 0) break;
          else if (depth == 0 && d == '!' && j + 1 < s.size() && s[j + 1] != '=' && convPos == std::string::npos && specPos == std::string::npos) {
            convPos = j;
            if (exprEnd == std::string::npos) exprEnd = j;
          } else if (depth == 0 && d == ':' && specPos == std::string::npos) {
            specPos = j;
            if (exprEnd == std::string::npos) exprEnd = j;
          }
        }
        if (j >= s.size()) throw CompileError("f-string: expecting '}'", tokRange(t));
        if (exprEnd == std::string::npos) exprEnd = j;
        JoinedStrExpr::Part lit;
        lit.literal = std::move(acc);
        acc.clear();
        parts.push_back(std::move(lit));
        JoinedStrExpr::Part fld;
        std::string exprText = s.substr(i + 1, exprEnd - i - 1);
        auto sub = std::make_shared<Source>(exprText, src_->filename, src_->startingLine + src_->lineOf(t.start));
        fld.value = Parser(sub).singleExpression();
        if (convPos != std::string::npos) fld.conversion = s.substr(convPos + 1, (specPos == std::string::npos ? j : specPos) - convPos - 1);
        if (specPos != std::string::npos) fld.formatSpec = s.substr(specPos + 1, j - specPos - 1);
        parts.push_back(std::move(fld));
        i = j + 1;
      }
    }
    if (!anyF) return std::make_shared<StrExpr>(rangeFrom(start), std::move(acc));
    JoinedStrExpr::Part lit;
    lit.literal = std::move(acc);
    parts.push_back(std::move(lit));
    return std::make_shared<JoinedStrExpr>(rangeFrom(start), std::move(parts));
  }

  std::shared_ptr<const Source> src_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
  size_t prevEnd_ = 0;
  size_t prevStart_ = 0;
  int depth_ = 0;
};

}  // namespace

std::shared_ptr<SourceFile> parseFile(const std::shared_ptr<const Source>& source) { return Parser(source).file(); }

ExprPtr parseExpression(const std::shared_ptr<const Source>& source) { return Parser(source).singleExpression(); }

void parseTypeComment(const std::string& comment, const SourceRange& range, std::vector<ExprPtr>& argTypes,
                      ExprPtr& returnType) {
  size_t arrow = comment.rfind("->");
  if (arrow == std::string::npos) throw CompileError("expected a function type comment of the form '(T, ...) -> R'", range);
  auto trim = [](std::string x) {
    size_t b = x.find_first_not_of(" \t"), e = x.find_last_not_of(" \t");
    return b == std::string::npos ? std::string() : x.substr(b, e - b + 1);
  };
  std::string args = trim(comment.substr(0, arrow));
  std::string ret = trim(comment.substr(arrow + 2));
  size_t lineNo = range.valid() ? range.source->startingLine + range.source->lineOf(range.start) : 1;
  std::string fname = range.valid() ? range.source->filename : "";
  auto argSrc = std::make_shared<Source>(args, fname, lineNo);
  ExprPtr a = parseExpression(argSrc);
  argTypes.clear();
  if (a->kind == ExprKind::Tuple) argTypes = a->as<SequenceExpr>().elts;
  else argTypes.push_back(a);
  returnType = parseExpression(std::make_shared<Source>(ret, fname, lineNo));
}

}  // namespace kindling
