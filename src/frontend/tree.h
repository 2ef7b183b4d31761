// The TorchScript AST: what the parser (frontend/parser.h) produces and the emitter
// (frontend/ir_emitter.h) consumes. Python's grammar restricted to what TorchScript accepts, close
// to Python's `ast` module: statements (Def, ClassDef, If, For, While, Assign, ...) and expressions
// (Name, Constant, Call, Subscript, BinOp, Compare, ...). Every node carries the SourceRange it was
// parsed from, so every compile error can point at the source with "~~~ <--- HERE".
//
// Nodes are immutable after parsing and shared (ExprPtr/StmtPtr): the emitter may rewrite control flow
// by building new statement lists that reuse existing nodes.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"

namespace kindling {

// ---------------------------------------------------------------- expressions

enum class ExprKind : uint8_t {
  Name, Int, Float, Str, Bool, None, Ellipsis,
  Attribute, Call, Subscript, Slice, Starred,
  BinOp, UnaryOp, BoolOp, Compare, IfExp,
  Tuple, List, Dict, ListComp, DictComp, JoinedStr, Lambda,
};

enum class BinOpKind : uint8_t { Add, Sub, Mul, Div, FloorDiv, Mod, Pow, MatMul, LShift, RShift, BitAnd, BitOr, BitXor };
enum class UnaryOpKind : uint8_t { Neg, Pos, Invert, Not };
enum class BoolOpKind : uint8_t { And, Or };
enum class CmpOpKind : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, Is, IsNot, In, NotIn };

/// Python spelling of an operator ("+", "//", "not in", ...), for messages and printing.
const char* binOpStr(BinOpKind k);
const char* unaryOpStr(UnaryOpKind k);
const char* cmpOpStr(CmpOpKind k);

struct Expr;
struct Stmt;
using ExprPtr = std::shared_ptr<const Expr>;
using StmtPtr = std::shared_ptr<const Stmt>;
using StmtList = std::vector<StmtPtr>;

struct Expr {
  Expr(ExprKind k, SourceRange r) : kind(k), range(std::move(r)) {}
  virtual ~Expr() = default;
  ExprKind kind;
  /// Levels of the tree from this node down to its deepest leaf (1 for a leaf), set by the constructors.
  /// The parser bounds it, so every recursive walk over an expression is bounded too.
  uint32_t depth = 1;
  SourceRange range;
  template <class T> const T& as() const { return static_cast<const T&>(*this); }

 protected:
  void above(const ExprPtr& child) {
    if (child && child->depth >= depth) depth = child->depth + 1;
  }
  void above(const std::vector<ExprPtr>& children) {
    for (const ExprPtr& c : children) above(c);
  }
};

struct NameExpr : Expr { NameExpr(SourceRange r, std::string n) : Expr(ExprKind::Name, std::move(r)), id(std::move(n)) {} std::string id; };
struct IntExpr : Expr { IntExpr(SourceRange r, int64_t v) : Expr(ExprKind::Int, std::move(r)), value(v) {} int64_t value; };
struct FloatExpr : Expr { FloatExpr(SourceRange r, double v) : Expr(ExprKind::Float, std::move(r)), value(v) {} double value; };
struct StrExpr : Expr { StrExpr(SourceRange r, std::string v) : Expr(ExprKind::Str, std::move(r)), value(std::move(v)) {} std::string value; };
struct BoolExpr : Expr { BoolExpr(SourceRange r, bool v) : Expr(ExprKind::Bool, std::move(r)), value(v) {} bool value; };
struct NoneExpr : Expr { explicit NoneExpr(SourceRange r) : Expr(ExprKind::None, std::move(r)) {} };
struct EllipsisExpr : Expr { explicit EllipsisExpr(SourceRange r) : Expr(ExprKind::Ellipsis, std::move(r)) {} };

/// value.attr — `nameRange` covers just the attribute name.
struct AttributeExpr : Expr {
  AttributeExpr(SourceRange r, ExprPtr v, std::string a, SourceRange nr)
      : Expr(ExprKind::Attribute, std::move(r)), value(std::move(v)), attr(std::move(a)), nameRange(std::move(nr)) {
    above(value);
  }
  ExprPtr value;
  std::string attr;
  SourceRange nameRange;
};

struct Keyword {
  std::string name;
  ExprPtr value;
  SourceRange range;  // of `name=value`
};

/// func(args..., name=value...). Starred arguments appear in args as StarredExpr.
struct CallExpr : Expr {
  CallExpr(SourceRange r, ExprPtr f, std::vector<ExprPtr> a, std::vector<Keyword> k)
      : Expr(ExprKind::Call, std::move(r)), func(std::move(f)), args(std::move(a)), keywords(std::move(k)) {
    above(func);
    above(args);
    for (const Keyword& kw : keywords) above(kw.value);
  }
  ExprPtr func;
  std::vector<ExprPtr> args;
  std::vector<Keyword> keywords;
};

/// value[i, j:k, ...] — one entry per comma-separated subscript (a Tuple subscript is flattened:
/// `x[(1, 2)]` and `x[1, 2]` both give two entries, as TorchScript treats them).
struct SubscriptExpr : Expr {
  SubscriptExpr(SourceRange r, ExprPtr v, std::vector<ExprPtr> s, bool tupleSyntax)
      : Expr(ExprKind::Subscript, std::move(r)), value(std::move(v)), subscripts(std::move(s)), isTuple(tupleSyntax) {
    above(value);
    above(subscripts);
  }
  ExprPtr value;
  std::vector<ExprPtr> subscripts;
  bool isTuple;  // written with a comma (x[a,] / x[a, b])
};

/// start:end:step inside a subscript; each part may be null.
struct SliceExpr : Expr {
  SliceExpr(SourceRange r, ExprPtr a, ExprPtr b, ExprPtr c)
      : Expr(ExprKind::Slice, std::move(r)), start(std::move(a)), end(std::move(b)), step(std::move(c)) {
    above(start);
    above(end);
    above(step);
  }
  ExprPtr start, end, step;
};

struct StarredExpr : Expr {
  StarredExpr(SourceRange r, ExprPtr v) : Expr(ExprKind::Starred, std::move(r)), value(std::move(v)) { above(value); }
  ExprPtr value;
};

struct BinOpExpr : Expr {
  BinOpExpr(SourceRange r, BinOpKind o, ExprPtr a, ExprPtr b)
      : Expr(ExprKind::BinOp, std::move(r)), op(o), lhs(std::move(a)), rhs(std::move(b)) {
    above(lhs);
    above(rhs);
  }
  BinOpKind op;
  ExprPtr lhs, rhs;
};

struct UnaryOpExpr : Expr {
  UnaryOpExpr(SourceRange r, UnaryOpKind o, ExprPtr v) : Expr(ExprKind::UnaryOp, std::move(r)), op(o), operand(std::move(v)) {
    above(operand);
  }
  UnaryOpKind op;
  ExprPtr operand;
};

/// a and b and c (values.size() >= 2)
struct BoolOpExpr : Expr {
  BoolOpExpr(SourceRange r, BoolOpKind o, std::vector<ExprPtr> v) : Expr(ExprKind::BoolOp, std::move(r)), op(o), values(std::move(v)) {
    above(values);
  }
  BoolOpKind op;
  std::vector<ExprPtr> values;
};

/// a < b <= c : ops.size() == comparators.size()
struct CompareExpr : Expr {
  CompareExpr(SourceRange r, ExprPtr l, std::vector<CmpOpKind> o, std::vector<ExprPtr> c)
      : Expr(ExprKind::Compare, std::move(r)), left(std::move(l)), ops(std::move(o)), comparators(std::move(c)) {
    above(left);
    above(comparators);
  }
  ExprPtr left;
  std::vector<CmpOpKind> ops;
  std::vector<ExprPtr> comparators;
};

/// body if test else orelse
struct IfExpExpr : Expr {
  IfExpExpr(SourceRange r, ExprPtr t, ExprPtr b, ExprPtr e)
      : Expr(ExprKind::IfExp, std::move(r)), test(std::move(t)), body(std::move(b)), orelse(std::move(e)) {
    above(test);
    above(body);
    above(orelse);
  }
  ExprPtr test, body, orelse;
};

/// Tuple and List literals.
struct SequenceExpr : Expr {
  SequenceExpr(ExprKind k, SourceRange r, std::vector<ExprPtr> e) : Expr(k, std::move(r)), elts(std::move(e)) { above(elts); }
  std::vector<ExprPtr> elts;
};

struct DictExpr : Expr {
  DictExpr(SourceRange r, std::vector<ExprPtr> k, std::vector<ExprPtr> v)
      : Expr(ExprKind::Dict, std::move(r)), keys(std::move(k)), values(std::move(v)) {
    above(keys);
    above(values);
  }
  std::vector<ExprPtr> keys, values;
};

/// One `for target in iter [if cond]*` clause.
struct Comprehension {
  ExprPtr target, iter;
  std::vector<ExprPtr> ifs;
};

/// [elt for ...] and {key: value for ...}; `value` is null for list comprehensions.
struct ComprehensionExpr : Expr {
  ComprehensionExpr(ExprKind k, SourceRange r, ExprPtr e, ExprPtr v, std::vector<Comprehension> g, bool gen = false)
      : Expr(k, std::move(r)), elt(std::move(e)), value(std::move(v)), generators(std::move(g)), generator(gen) {
    above(elt);
    above(value);
    for (const Comprehension& c : generators) {
      above(c.target);
      above(c.iter);
      above(c.ifs);
    }
  }
  ExprPtr elt;    // list element, or dict key
  ExprPtr value;  // dict value
  std::vector<Comprehension> generators;
  bool generator = false;  // written as a generator expression `(x for ...)`, not `[x for ...]`
};

/// f"a{x}b{y:fmt}" — parts alternate between literal text (StrExpr) and formatted expressions.
struct JoinedStrExpr : Expr {
  struct Part { std::string literal; ExprPtr value; std::string conversion; std::string formatSpec; };
  JoinedStrExpr(SourceRange r, std::vector<Part> p) : Expr(ExprKind::JoinedStr, std::move(r)), parts(std::move(p)) {
    for (const Part& part : parts) above(part.value);
  }
  std::vector<Part> parts;
};

/// lambda args: body — inlined at each call by the emitter (frontend/emitter/lambdas.cpp).
/// `defaults` has one entry per parameter, null where the parameter has no default.
struct LambdaExpr : Expr {
  LambdaExpr(SourceRange r, std::vector<std::string> a, std::vector<ExprPtr> d, ExprPtr b)
      : Expr(ExprKind::Lambda, std::move(r)), params(std::move(a)), defaults(std::move(d)), body(std::move(b)) {
    above(body);
    for (const ExprPtr& x : defaults) above(x);
  }
  std::vector<std::string> params;
  std::vector<ExprPtr> defaults;
  ExprPtr body;
};

// ---------------------------------------------------------------- statements

enum class StmtKind : uint8_t {
  Def, Class, If, While, For, Return, Raise, Assert, Pass, Break, Continue, Delete, With,
  Assign, AugAssign, Expr, Global, Nonlocal, Import, Try,
};

struct Stmt {
  Stmt(StmtKind k, SourceRange r) : kind(k), range(std::move(r)) {}
  virtual ~Stmt() = default;
  StmtKind kind;
  SourceRange range;
  template <class T> const T& as() const { return static_cast<const T&>(*this); }
};

struct Param {
  std::string name;
  ExprPtr annotation;   // null when not annotated
  ExprPtr defaultValue; // null when no default
  SourceRange range;
  bool kwargOnly = false;  // after a bare `*`
  bool isVarArgs = false;  // *args
  bool isKwArgs = false;   // **kwargs
  /// `# type: T` written after the parameter (the per-argument form of function type comments, with
  /// `# type: (...) -> R` in the body); null otherwise.
  ExprPtr typeComment;
};

struct DefStmt : Stmt {
  DefStmt(SourceRange r) : Stmt(StmtKind::Def, std::move(r)) {}
  std::string name;
  SourceRange nameRange;
  std::vector<Param> params;
  ExprPtr returnType;  // null when not annotated
  StmtList body;
  std::vector<ExprPtr> decorators;
  /// Text after `# type:` on the def line (or the first body line), e.g. " (int, Tensor) -> Tensor".
  std::string typeComment;
  SourceRange typeCommentRange;
};

struct ClassStmt : Stmt {
  ClassStmt(SourceRange r) : Stmt(StmtKind::Class, std::move(r)) {}
  std::string name;
  SourceRange nameRange;
  std::vector<ExprPtr> bases;
  std::vector<Keyword> keywords;
  StmtList body;
  std::vector<ExprPtr> decorators;
};

/// if/elif/else: an elif is an IfStmt alone in orelse.
struct IfStmt : Stmt {
  IfStmt(SourceRange r, ExprPtr t, StmtList b, StmtList e)
      : Stmt(StmtKind::If, std::move(r)), test(std::move(t)), body(std::move(b)), orelse(std::move(e)) {}
  ExprPtr test;
  StmtList body, orelse;
};

struct WhileStmt : Stmt {
  WhileStmt(SourceRange r, ExprPtr t, StmtList b, StmtList e)
      : Stmt(StmtKind::While, std::move(r)), test(std::move(t)), body(std::move(b)), orelse(std::move(e)) {}
  ExprPtr test;
  StmtList body, orelse;  // orelse: `while ... else` (rejected by the emitter, as TorchScript does)
};

struct ForStmt : Stmt {
  ForStmt(SourceRange r, ExprPtr t, ExprPtr i, StmtList b, StmtList e)
      : Stmt(StmtKind::For, std::move(r)), target(std::move(t)), iter(std::move(i)), body(std::move(b)), orelse(std::move(e)) {}
  ExprPtr target, iter;
  StmtList body, orelse;
};

struct ReturnStmt : Stmt {
  ReturnStmt(SourceRange r, ExprPtr v) : Stmt(StmtKind::Return, std::move(r)), value(std::move(v)) {}
  ExprPtr value;  // null for a bare `return`
};

struct RaiseStmt : Stmt {
  RaiseStmt(SourceRange r, ExprPtr e, ExprPtr c) : Stmt(StmtKind::Raise, std::move(r)), exc(std::move(e)), cause(std::move(c)) {}
  ExprPtr exc;    // null for a bare `raise`
  ExprPtr cause;  // `raise X from Y`
};

struct AssertStmt : Stmt {
  AssertStmt(SourceRange r, ExprPtr t, ExprPtr m) : Stmt(StmtKind::Assert, std::move(r)), test(std::move(t)), msg(std::move(m)) {}
  ExprPtr test, msg;
};

/// pass / break / continue
struct SimpleStmt : Stmt { SimpleStmt(StmtKind k, SourceRange r) : Stmt(k, std::move(r)) {} };

struct DeleteStmt : Stmt {
  DeleteStmt(SourceRange r, std::vector<ExprPtr> t) : Stmt(StmtKind::Delete, std::move(r)), targets(std::move(t)) {}
  std::vector<ExprPtr> targets;
};

struct WithItem { ExprPtr context; ExprPtr target; };
struct WithStmt : Stmt {
  WithStmt(SourceRange r, std::vector<WithItem> i, StmtList b) : Stmt(StmtKind::With, std::move(r)), items(std::move(i)), body(std::move(b)) {}
  std::vector<WithItem> items;
  StmtList body;
};

/// `a = b = value`, `x : T = value`, `x : T` (value null), `__annotations__["0"] = T` (plain assign).
struct AssignStmt : Stmt {
  AssignStmt(SourceRange r, std::vector<ExprPtr> t, ExprPtr v, ExprPtr a)
      : Stmt(StmtKind::Assign, std::move(r)), targets(std::move(t)), value(std::move(v)), annotation(std::move(a)) {}
  std::vector<ExprPtr> targets;
  ExprPtr value;       // null for a bare declaration `x : T`
  ExprPtr annotation;  // null when not annotated
};

struct AugAssignStmt : Stmt {
  AugAssignStmt(SourceRange r, ExprPtr t, BinOpKind o, ExprPtr v)
      : Stmt(StmtKind::AugAssign, std::move(r)), target(std::move(t)), op(o), value(std::move(v)) {}
  ExprPtr target;
  BinOpKind op;
  ExprPtr value;
};

struct ExprStmt : Stmt {
  ExprStmt(SourceRange r, ExprPtr v) : Stmt(StmtKind::Expr, std::move(r)), value(std::move(v)) {}
  ExprPtr value;
};

/// One `except` clause: `except:` (type null), `except E:`, `except (E1, E2) as name:`.
struct ExceptHandler {
  ExprPtr type;      // null for a bare `except:`
  std::string name;  // "" without `as`
  StmtList body;
  SourceRange range;  // the `except ...:` line
};

/// try / except / else / finally (a Kindling extension: TorchScript has no try statement).
struct TryStmt : Stmt {
  TryStmt(SourceRange r) : Stmt(StmtKind::Try, std::move(r)) {}
  StmtList body;
  std::vector<ExceptHandler> handlers;
  StmtList orelse;
  StmtList finalbody;
};

/// import / from-import / global / nonlocal: parsed so that the emitter can accept or reject
/// them with TorchScript's messages. `names` holds the imported module names or declared variables.
struct OtherStmt : Stmt {
  OtherStmt(StmtKind k, SourceRange r, std::vector<std::string> n) : Stmt(k, std::move(r)), names(std::move(n)) {}
  std::vector<std::string> names;
  std::string module;  // `from <module> import ...`
  std::vector<std::string> asNames;
};

/// A parsed source file.
struct SourceFile {
  std::shared_ptr<const Source> source;
  StmtList body;
};

}  // namespace kindling
