#include "frontend/ir_emitter.h"
#include "frontend/emit_fork.h"

#include <limits>

#include <algorithm>
#include <set>

#include "frontend/iteration.h"
#include "frontend/parser.h"

namespace kindling {

// ====================================================================== environment

struct Environment {
  Environment(Block* b, std::shared_ptr<Environment> n) : block(b), next(std::move(n)) {}
  Block* block;
  std::shared_ptr<Environment> next;
  std::unordered_map<std::string, SugaredValuePtr> table;
  std::unordered_map<std::string, std::string> errors;     // name → message when used
  std::unordered_map<std::string, TypePtr> carriedTypes;   // loop-carried variables of a loop body frame

  // Looks a name up through the enclosing frames. Throws the recorded error for names that are
  // undefined on some path.
  SugaredValuePtr find(const std::string& name, const SourceRange& loc) const {
    for (const Environment* e = this; e; e = e->next.get()) {
      auto it = e->table.find(name);
      if (it != e->table.end()) return it->second;
      auto er = e->errors.find(name);
      if (er != e->errors.end()) throw CompileError(er->second, loc);
    }
    return nullptr;
  }
  // Like find but returns null instead of throwing.
  SugaredValuePtr findQuiet(const std::string& name) const {
    for (const Environment* e = this; e; e = e->next.get()) {
      auto it = e->table.find(name);
      if (it != e->table.end()) return it->second;
      if (e->errors.count(name)) return nullptr;
    }
    return nullptr;
  }
  TypePtr carriedType(const std::string& name) const {
    for (const Environment* e = this; e; e = e->next.get()) {
      auto it = e->carriedTypes.find(name);
      if (it != e->carriedTypes.end()) return it->second;
    }
    return nullptr;
  }
};

struct Refinement {
  std::string name;
  TypePtr type;
};

struct CondValue {
  Value* value = nullptr;
  std::vector<Refinement> trueRefs, falseRefs;
  std::optional<bool> staticValue;
};

struct FunctionEmitter::BlockExit {
  bool exits = false;    // control never reaches the end of the block (raise or return on all paths)
  bool returns = false;  // some path returns
};

namespace {

bool meaningfulName(const std::string& name) {
  if (name.empty()) return false;
  if (name[0] == '$') return false;
  if (name[0] != '_') return true;
  for (size_t i = 1; i < name.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(name[i]))) return true;
  return false;
}

enum Term : unsigned { TermNone = 0, TermReturn = 1, TermRaise = 2, TermContinue = 4, TermBreak = 8 };

bool isRaiseCall(const StmtPtr& s) {
  if (s->kind != StmtKind::Expr) return false;
  const ExprPtr& e = s->as<ExprStmt>().value;
  if (e->kind != ExprKind::Call) return false;
  return dottedName(e->as<CallExpr>().func) == "ops.prim.RaiseException";
}

// How a statement list always ends (bitmask of Term), or TermNone if it may fall through.
unsigned terminates(const StmtList& stmts) {
  for (auto& s : stmts) {
    switch (s->kind) {
      case StmtKind::Return: return TermReturn;
      case StmtKind::Raise: return TermRaise;
      case StmtKind::Continue: return TermContinue;
      case StmtKind::Break: return TermBreak;
      case StmtKind::If: {
        auto& i = s->as<IfStmt>();
        unsigned a = terminates(i.body), b = terminates(i.orelse);
        if (a && b) return a | b;
        break;
      }
      case StmtKind::Expr:
        if (isRaiseCall(s)) return TermRaise;
        break;
      default: break;
    }
  }
  return TermNone;
}

void collectTargetNames(const ExprPtr& t, std::set<std::string>& out) {
  if (!t) return;
  switch (t->kind) {
    case ExprKind::Name: out.insert(t->as<NameExpr>().id); break;
    case ExprKind::Tuple: case ExprKind::List:
      for (auto& e : t->as<SequenceExpr>().elts) collectTargetNames(e, out);
      break;
    case ExprKind::Starred: collectTargetNames(t->as<StarredExpr>().value, out); break;
    default: break;
  }
}

// Variables a statement list assigns (syntactically), for loop-carried values.
void assignedNames(const StmtList& stmts, std::set<std::string>& out) {
  for (auto& s : stmts) {
    switch (s->kind) {
      case StmtKind::Assign:
        for (auto& t : s->as<AssignStmt>().targets) collectTargetNames(t, out);
        break;
      case StmtKind::AugAssign: collectTargetNames(s->as<AugAssignStmt>().target, out); break;
      case StmtKind::If:
        assignedNames(s->as<IfStmt>().body, out);
        assignedNames(s->as<IfStmt>().orelse, out);
        break;
      case StmtKind::For:
        collectTargetNames(s->as<ForStmt>().target, out);
        assignedNames(s->as<ForStmt>().body, out);
        break;
      case StmtKind::While: assignedNames(s->as<WhileStmt>().body, out); break;
      case StmtKind::With:
        for (auto& i : s->as<WithStmt>().items) collectTargetNames(i.target, out);
        assignedNames(s->as<WithStmt>().body, out);
        break;
      default: break;
    }
  }
}

bool containsBreak(const StmtList& stmts) {
  for (auto& s : stmts) {
    if (s->kind == StmtKind::Break) return true;
    if (s->kind == StmtKind::If && (containsBreak(s->as<IfStmt>().body) || containsBreak(s->as<IfStmt>().orelse)))
      return true;
    if (s->kind == StmtKind::With && containsBreak(s->as<WithStmt>().body)) return true;
  }
  return false;
}

bool containsReturn(const StmtList& stmts) {
  for (auto& s : stmts) {
    switch (s->kind) {
      case StmtKind::Return: return true;
      case StmtKind::If:
        if (containsReturn(s->as<IfStmt>().body) || containsReturn(s->as<IfStmt>().orelse)) return true;
        break;
      case StmtKind::For: if (containsReturn(s->as<ForStmt>().body)) return true; break;
      case StmtKind::While: if (containsReturn(s->as<WhileStmt>().body)) return true; break;
      case StmtKind::With: if (containsReturn(s->as<WithStmt>().body)) return true; break;
      default: break;
    }
  }
  return false;
}

const char* binOpAten(BinOpKind k) {
  switch (k) {
    case BinOpKind::Add: return "aten::add";
    case BinOpKind::Sub: return "aten::sub";
    case BinOpKind::Mul: return "aten::mul";
    case BinOpKind::Div: return "aten::div";
    case BinOpKind::FloorDiv: return "aten::floordiv";
    case BinOpKind::Mod: return "aten::remainder";
    case BinOpKind::Pow: return "aten::pow";
    case BinOpKind::MatMul: return "aten::matmul";
    case BinOpKind::LShift: return "aten::__lshift__";
    case BinOpKind::RShift: return "aten::__rshift__";
    case BinOpKind::BitAnd: return "aten::__and__";
    case BinOpKind::BitOr: return "aten::__or__";
    case BinOpKind::BitXor: return "aten::__xor__";
  }
  return "";
}

const char* cmpAten(CmpOpKind k) {
  switch (k) {
    case CmpOpKind::Eq: return "aten::eq";
    case CmpOpKind::Ne: return "aten::ne";
    case CmpOpKind::Lt: return "aten::lt";
    case CmpOpKind::Le: return "aten::le";
    case CmpOpKind::Gt: return "aten::gt";
    case CmpOpKind::Ge: return "aten::ge";
    case CmpOpKind::Is: return "aten::__is__";
    case CmpOpKind::IsNot: return "aten::__isnot__";
    case CmpOpKind::In: case CmpOpKind::NotIn: return "aten::__contains__";
  }
  return "";
}

bool isExceptionName(const std::string& n) {
  static const char* const names[] = {
      "Exception", "ValueError", "RuntimeError", "TypeError", "IndexError", "KeyError", "AssertionError",
      "NotImplementedError", "StopIteration", "ZeroDivisionError", "AttributeError", "ArithmeticError",
      "OverflowError", "LookupError", "FloatingPointError", "ImportError", "OSError", "SystemError",
      "UnicodeError", "BufferError", "EOFError", "MemoryError", "NameError", "RecursionError",
      "ReferenceError", "UnboundLocalError", "Warning", "UserWarning", "DeprecationWarning"};
  for (const char* x : names)
    if (n == x) return true;
  return false;
}

std::string typeNameForMsg(const TypePtr& t) { return t->annotationStr(); }

}  // namespace

bool CallGraph::addAndCheckCycle(const Function* caller, const Function* callee) {
  if (caller == callee) return true;
  callees[caller].push_back(callee);
  std::vector<const Function*> stack{callee};
  std::unordered_map<const Function*, bool> seen;
  while (!stack.empty()) {
    const Function* f = stack.back();
    stack.pop_back();
    if (f == caller) return true;
    if (seen[f]) continue;
    seen[f] = true;
    auto it = callees.find(f);
    if (it != callees.end())
      for (const Function* g : it->second) stack.push_back(g);
  }
  return false;
}

// ====================================================================== constants

namespace {
/// Python's `l op r` on two int/float constants (int // and % floor, / always float); None for an operator
/// it does not fold. Throws CompileError on division by zero, as Python would raise evaluating the default.
IValue foldNumberBinOp(BinOpKind op, const IValue& l, const IValue& r, const SourceRange& loc) {
  if (l.isInt() && r.isInt()) {
    const int64_t a = l.toInt(), c = r.toInt();
    switch (op) {
      case BinOpKind::Add: return IValue(static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(c)));
      case BinOpKind::Sub: return IValue(static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(c)));
      case BinOpKind::Mul: return IValue(static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(c)));
      case BinOpKind::FloorDiv:
      case BinOpKind::Mod: {
        if (c == 0) throw CompileError("division by zero in a constant expression", loc);
        int64_t q = a / c, m = a % c;
        if (m != 0 && ((m < 0) != (c < 0))) { --q; m += c; }
        return IValue(op == BinOpKind::FloorDiv ? q : m);
      }
      case BinOpKind::Div: break;  // float below
      default: return IValue();
    }
  }
  const double a = l.isInt() ? static_cast<double>(l.toInt()) : l.toDouble();
  const double c = r.isInt() ? static_cast<double>(r.toInt()) : r.toDouble();
  switch (op) {
    case BinOpKind::Add: return IValue(a + c);
    case BinOpKind::Sub: return IValue(a - c);
    case BinOpKind::Mul: return IValue(a * c);
    case BinOpKind::Div:
      if (c == 0) throw CompileError("division by zero in a constant expression", loc);
      return IValue(a / c);
    default: return IValue();
  }
}
}  // namespace

IValue evalConstantExpr(const ExprPtr& e, const TypePtr& type) {
  switch (e->kind) {
    case ExprKind::Int: {
      if (type && type->kind() == TypeKind::Float) return IValue(static_cast<double>(e->as<IntExpr>().value));
      return IValue(e->as<IntExpr>().value);
    }
    case ExprKind::Float: return IValue(e->as<FloatExpr>().value);
    case ExprKind::Str: return IValue(e->as<StrExpr>().value);
    case ExprKind::Bool: return IValue(e->as<BoolExpr>().value);
    case ExprKind::None: return IValue();
    case ExprKind::UnaryOp: {
      auto& u = e->as<UnaryOpExpr>();
      if (u.op == UnaryOpKind::Neg) {
        IValue v = evalConstantExpr(u.operand, type);
        if (v.isInt()) return IValue(-v.toInt());
        if (v.isDouble()) return IValue(-v.toDouble());
      }
      break;
    }
    case ExprKind::BinOp: {
      // Arithmetic on number literals (`lower: float = 1.0 / 8`): Python evaluates a default before
      // TorchScript sees it, so PyTorch accepts any such expression.
      auto& b = e->as<BinOpExpr>();
      IValue l = evalConstantExpr(b.lhs, nullptr), r = evalConstantExpr(b.rhs, nullptr);
      if ((!l.isInt() && !l.isDouble()) || (!r.isInt() && !r.isDouble())) break;
      IValue v = foldNumberBinOp(b.op, l, r, e->range);
      if (v.isNone()) break;
      if (v.isInt() && type && type->kind() == TypeKind::Float) return IValue(static_cast<double>(v.toInt()));
      return v;
    }
    case ExprKind::Tuple: {
      std::vector<IValue> elems;
      const TupleType* tt = type ? type->cast<TupleType>() : nullptr;
      auto& s = e->as<SequenceExpr>();
      for (size_t i = 0; i < s.elts.size(); ++i)
        elems.push_back(evalConstantExpr(s.elts[i], tt && i < tt->elements().size() ? tt->elements()[i] : nullptr));
      return makeTuple(std::move(elems));
    }
    case ExprKind::List: {
      TypePtr elemType;
      TypePtr t = type && type->kind() == TypeKind::Optional ? type->cast<OptionalType>()->elementType() : type;
      if (t && t->kind() == TypeKind::List) elemType = t->cast<ListType>()->elementType();
      std::vector<IValue> elems;
      for (auto& x : e->as<SequenceExpr>().elts) elems.push_back(evalConstantExpr(x, elemType));
      if (!elemType) elemType = elems.empty() ? TensorType() : elems[0].type();
      return makeList(elemType, std::move(elems));
    }
    default: break;
  }
  throw CompileError("Expected a constant expression (a number, string, bool, None, or a tuple or list of them)",
                     e->range);
}

// ====================================================================== schema of a def

// `BroadcastingList2[int]` or `Optional[BroadcastingList2[int]]` → 2 (torch/nn/functional.py's
// annotations for arguments that take an int or a list of ints).
static std::optional<int32_t> broadcastingListSize(const ExprPtr& e) {
  if (e->kind != ExprKind::Subscript) return std::nullopt;
  auto& s = e->as<SubscriptExpr>();
  std::string base = dottedName(s.value);
  if ((base == "Optional" || base == "typing.Optional") && s.subscripts.size() == 1)
    return broadcastingListSize(s.subscripts[0]);
  const std::string prefix = "BroadcastingList";
  if (base.rfind(prefix, 0) == 0 && base.size() == prefix.size() + 1 && base.back() >= '1' && base.back() <= '9')
    return base.back() - '0';
  return std::nullopt;
}

// A scalar default of a broadcasting list argument ("padding: BroadcastingList2[int] = 0") → [0, 0].
static IValue broadcastDefault(const IValue& v, int32_t n) {
  return makeList(v.isInt() ? IntType() : FloatType(), std::vector<IValue>(static_cast<size_t>(n), v));
}

FunctionSchema schemaForDef(const DefStmt& def, const std::string& name, const TypePtr& selfType,
                            const EmitContext& ctx) {
  TypeParser tp(ctx.resolver ? TypeResolver([r = ctx.resolver](const std::string& n, const SourceRange& l) {
                  return r->resolveType(n, l);
                })
                             : TypeResolver());
  FunctionSchema schema;
  schema.name = name;
  std::vector<ExprPtr> commentTypes;
  ExprPtr commentReturn;
  if (!def.typeComment.empty()) {
    bool anyAnnotation = def.returnType != nullptr;
    for (auto& p : def.params) anyAnnotation |= p.annotation != nullptr;
    if (anyAnnotation)
      throw CompileError("A function with a type comment may not also have annotations", def.typeCommentRange);
    parseTypeComment(def.typeComment, def.typeCommentRange, commentTypes, commentReturn);
    size_t expected = def.params.size() - (selfType && !def.params.empty() ? 1 : 0);
    if (commentTypes.size() != expected)
      throw CompileError("Number of type annotations (" + std::to_string(commentTypes.size()) +
                             ") did not match the number of function parameters (" + std::to_string(expected) + ")",
                         def.typeCommentRange);
  }
  size_t commentIndex = 0;
  for (size_t i = 0; i < def.params.size(); ++i) {
    const Param& p = def.params[i];
    if (p.isVarArgs || p.isKwArgs)
      throw CompileError("Compiled functions can't take variable number of arguments or use keyword-only arguments with defaults", p.range);
    Argument a;
    a.name = p.name;
    if (i == 0 && selfType) {
      a.type = selfType;
    } else if (p.annotation) {
      a.type = tp.parse(p.annotation);
      a.N = broadcastingListSize(p.annotation);
    } else if (!commentTypes.empty()) {
      a.type = tp.parse(commentTypes[commentIndex++]);
    } else {
      a.type = TensorType();
    }
    if (p.defaultValue) {
      IValue v = evalConstantExpr(p.defaultValue, a.type);
      if (a.N && (v.isInt() || v.isDouble())) v = broadcastDefault(v, *a.N);
      if (!v.type()->isSubtypeOf(a.type) &&
          !(v.isList() && a.type->kind() == TypeKind::List) && !(v.isList() && a.type->kind() == TypeKind::Optional))
        throw CompileError("Expected a default value of type " + a.type->annotationStr() + " on parameter \"" +
                               p.name + "\"",
                           p.defaultValue->range);
      a.defaultValue = v;
    }
    a.kwargOnly = p.kwargOnly;
    schema.arguments.push_back(std::move(a));
  }
  Argument ret;
  ret.name = "";
  if (def.returnType) {
    ret.type = tp.parse(def.returnType);
  } else if (commentReturn) {
    ret.type = tp.parse(commentReturn);
  } else if (!containsReturn(def.body)) {
    ret.type = NoneType();
  } else {
    // Infer by emitting the body once into a scratch graph.
    Graph scratch;
    FunctionSchema tmp = schema;
    Argument any;
    any.type = nullptr;
    tmp.returns.push_back(any);
    FunctionEmitter e(scratch, ctx);
    e.emitDef(def, tmp, selfType);
    ret.type = e.inferredReturnType() ? e.inferredReturnType() : scratch.outputs().at(0)->type();
  }
  schema.returns.push_back(std::move(ret));
  return schema;
}

void emitFunctionBody(Graph& graph, const DefStmt& def, const FunctionSchema& schema, const TypePtr& selfType,
                      const EmitContext& ctx) {
  FunctionEmitter e(graph, ctx);
  e.emitDef(def, schema, selfType);
}

// ====================================================================== emitter basics

FunctionEmitter::FunctionEmitter(Graph& graph, const EmitContext& ctx)
    : graph_(graph),
      ctx_(ctx),
      registry_(ctx.registry ? ctx.registry : &OperatorRegistry::global()),
      typeParser_(ctx.resolver ? TypeResolver([r = ctx.resolver](const std::string& n, const SourceRange& l) {
                    return r->resolveType(n, l);
                  })
                               : TypeResolver()) {}

FunctionEmitter::~FunctionEmitter() = default;

Value* FunctionEmitter::insertConstant(const IValue& v, const SourceRange& loc, TypePtr type) {
  return graph_.insertConstant(v, loc, std::move(type));
}

Value* FunctionEmitter::literalConstant(const IValue& v, const SourceRange& loc) {
  // Inside a fork body the call is lifted into its own graph: keep its constants local.
  for (Block* b = graph_.insertPoint()->owningBlock(); b && b->owningNode(); b = b->owningNode()->owningBlock())
    if (b->owningNode()->kind() == prim::fork) return insertConstant(v, loc);
  Value*& slot = v.isInt() ? intLiterals_[v.toInt()] : floatLiterals_[v.toDouble()];
  if (!slot) {
    WithInsertPoint guard(*graph_.block()->begin());
    slot = insertConstant(v, loc);
  }
  return slot;
}

SugaredValuePtr FunctionEmitter::packOutputs(const std::vector<Value*>& outs, const SourceRange& loc) {
  if (outs.empty()) return std::make_shared<NoneValue>();
  if (outs.size() == 1) return std::make_shared<SimpleValue>(outs[0]);
  return std::make_shared<SimpleValue>(createTuple(outs, loc));
}

Value* FunctionEmitter::createTuple(const std::vector<Value*>& elems, const SourceRange& loc) {
  Node* n = graph_.insert(prim::TupleConstruct, elems, 1);  // no source range, as PyTorch's createTuple
  std::vector<TypePtr> types;
  for (Value* v : elems) types.push_back(v->type());
  n->output()->setType(TupleType::create(std::move(types)));
  return n->output();
}

Value* FunctionEmitter::createList(const TypePtr& elemType, const std::vector<Value*>& elems, const SourceRange& loc) {
  Node* n = graph_.insert(prim::ListConstruct, elems, 1);  // no source range, as PyTorch's createList
  n->output()->setType(ListType::create(elemType));
  return n->output();
}

SugaredValuePtr FunctionEmitter::builtinCall(const SourceRange& loc, const std::string& name,
                                             const std::vector<NamedValue>& args,
                                             const std::vector<NamedValue>& kwargs,
                                             const std::optional<NamedValue>& self) {
  std::vector<Value*> outs = emitBuiltinCall(loc, graph_, name, args, kwargs, self, *registry_);
  // An operator whose returns are all named ("-> (Tensor values, Tensor indices)") packs them into an
  // anonymous NamedTuple, so `x.min(1).values` works, as PyTorch's packOutputs with return_field_names.
  const FunctionSchema* schema = outs.size() > 1 ? outs[0]->node()->schema() : nullptr;
  if (schema && schema->returns.size() == outs.size() &&
      std::all_of(schema->returns.begin(), schema->returns.end(), [](const Argument& r) { return !r.name.empty(); })) {
    std::vector<std::string> names;
    std::vector<TypePtr> types;
    for (size_t i = 0; i < outs.size(); ++i) {
      names.push_back(schema->returns[i].name);
      types.push_back(outs[i]->type());
    }
    Node* n = graph_.insert(prim::TupleConstruct, outs, 1);  // no source range, as PyTorch's createTuple
    n->output()->setType(TupleType::createNamed(std::move(names), std::move(types)));
    return std::make_shared<SimpleValue>(n->output());
  }
  return packOutputs(outs, loc);
}

Value* FunctionEmitter::builtinCallValue(const SourceRange& loc, const std::string& name,
                                         const std::vector<NamedValue>& args, const std::vector<NamedValue>& kwargs,
                                         const std::optional<NamedValue>& self) {
  return builtinCall(loc, name, args, kwargs, self)->asValue(loc, *this);
}

SugaredValuePtr FunctionEmitter::callFunction(const SourceRange& loc, Function* fn, const std::vector<NamedValue>& args,
                                              const std::vector<NamedValue>& kwargs) {
  if (ctx_.callGraph && ctx_.currentFunction && ctx_.callGraph->addAndCheckCycle(ctx_.currentFunction, fn))
    throw CompileError("function '" + fn->name() + "' is called recursively. Recursive calls are not supported", loc);
  const FunctionSchema& schema = fn->getSchema();
  auto [idx, matched] = matchSchemas({&schema}, loc, graph_, args, kwargs, std::nullopt, *registry_);
  (void)idx;
  Node* c = graph_.insert(prim::Constant, {}, 1);
  c->s_("name", fn->name());  // no source range, as PyTorch's Graph::insertFunctionCall
  c->output()->setType(std::make_shared<FunctionType>(fn));
  std::vector<Value*> inputs{c->output()};
  inputs.insert(inputs.end(), matched.inputs.begin(), matched.inputs.end());
  Node* n = graph_.insert(prim::CallFunction, inputs, matched.returnTypes.size());
  n->setCallee(fn);
  n->setSourceRange(loc);
  for (size_t i = 0; i < matched.returnTypes.size(); ++i) n->output(i)->setType(matched.returnTypes[i]);
  return packOutputs(n->outputs(), loc);
}

SugaredValuePtr FunctionEmitter::callMethod(const SourceRange& loc, Value* self, const std::string& name,
                                            const std::vector<NamedValue>& args, const std::vector<NamedValue>& kwargs) {
  auto* ct = self->type()->cast<ClassType>();
  Function* fn = ct ? ct->findMethod(name) : nullptr;
  if (!fn) throw CompileError("Tried to access nonexistent attribute or method '" + name + "' of type '" +
                                  self->type()->str() + "'.",
                              loc);
  if (ctx_.callGraph && ctx_.currentFunction && ctx_.callGraph->addAndCheckCycle(ctx_.currentFunction, fn))
    throw CompileError("method '" + name + "' is called recursively. Recursive calls are not supported", loc);
  const FunctionSchema& schema = fn->getSchema();
  std::vector<NamedValue> withSelf{NamedValue(loc, self)};
  withSelf.insert(withSelf.end(), args.begin(), args.end());
  auto [idx, matched] = matchSchemas({&schema}, loc, graph_, withSelf, kwargs, std::nullopt, *registry_);
  (void)idx;
  Node* n = graph_.insert(prim::CallMethod, matched.inputs, matched.returnTypes.size());
  n->s_("name", name);
  n->setSourceRange(loc);
  for (size_t i = 0; i < matched.returnTypes.size(); ++i) n->output(i)->setType(matched.returnTypes[i]);
  return packOutputs(n->outputs(), loc);
}

// ====================================================================== def

namespace {
void eraseDeclaredTypeLoads(Block* b);
}  // namespace

void FunctionEmitter::emitDef(const DefStmt& def, const FunctionSchema& schema, const TypePtr& selfType) {
  env_ = std::make_shared<Environment>(graph_.block(), nullptr);
  for (size_t i = 0; i < schema.arguments.size(); ++i) {
    const Argument& a = schema.arguments[i];
    Value* v = graph_.addInput();
    v->setType(a.type);
    if (meaningfulName(a.name)) v->setDebugName(a.name);
    env_->table[a.name] = std::make_shared<SimpleValue>(v);
  }
  if (!schema.returns.empty() && schema.returns[0].type && !(def.returnType == nullptr && def.typeComment.empty() &&
                                                             schema.returns[0].type->kind() == TypeKind::None &&
                                                             !containsReturn(def.body)))
    declaredReturn_ = schema.returns[0].type;
  if (def.returnType || !def.typeComment.empty()) declaredReturn_ = schema.returns.at(0).type;
  else declaredReturn_ = nullptr;
  inferring_ = schema.returns.empty() || !schema.returns[0].type;
  // A function whose return type was inferred and which returns from inside a loop: the loop carries
  // a value of the inferred type, as if it had been annotated.
  if (!declaredReturn_ && !inferring_) {
    std::function<bool(const StmtList&, bool)> returnInLoop = [&](const StmtList& ss, bool inLoop) {
      for (auto& st : ss) {
        if (st->kind == StmtKind::Return && inLoop) return true;
        if (st->kind == StmtKind::If && (returnInLoop(st->as<IfStmt>().body, inLoop) || returnInLoop(st->as<IfStmt>().orelse, inLoop))) return true;
        if (st->kind == StmtKind::For && returnInLoop(st->as<ForStmt>().body, true)) return true;
        if (st->kind == StmtKind::While && returnInLoop(st->as<WhileStmt>().body, true)) return true;
        if (st->kind == StmtKind::With && returnInLoop(st->as<WithStmt>().body, inLoop)) return true;
      }
      return false;
    };
    if (returnInLoop(def.body, false)) declaredReturn_ = schema.returns.at(0).type;
  }

  BlockExit ex = emitStatements(def.body);
  Value* result = nullptr;
  // As PyTorch (handleMaybeNoReturn): a function annotated with a return type other than None must
  // return (or raise) on every path; loops never count as returning.
  bool annotatedNotNone = (def.returnType || !def.typeComment.empty()) && declaredReturn_ &&
                          declaredReturn_->kind() != TypeKind::None;
  if (auto r = env_->findQuiet("$return")) {
    if (!ex.exits && annotatedNotNone)
      throw CompileError("Function was not annotated as having type None, but does not return along all paths",
                         def.range);
    result = r->asValue(def.range, *this);
  } else {
    if (ex.exits && !ex.returns) {
      // Every path raises: the output is never produced.
      TypePtr t = declaredReturn_ ? declaredReturn_ : NoneType();
      Node* u = graph_.insert(prim::Uninitialized, {}, 1);
      u->setSourceRange(def.range);
      u->output()->setType(t);
      result = u->output();
    } else {
      if (annotatedNotNone)
        throw CompileError("Function was not annotated as having type None, but does not return along all paths",
                           def.range);
      result = insertConstant(IValue(), def.range);
    }
  }
  graph_.registerOutput(result);
  if (inferring_ && !returnTypes_.empty()) {
    TypePtr t = returnTypes_[0];
    for (size_t i = 1; i < returnTypes_.size(); ++i) {
      auto u = unifyTypes(t, returnTypes_[i]);
      if (!u)
        throw CompileError("Previous return statement returned a value of type " + typeNameForMsg(t) +
                               " but this return statement returns a value of type " +
                               typeNameForMsg(returnTypes_[i]),
                           def.range);
      t = *u;
    }
    if (!ex.exits || ex.returns) {
      // falling off the end returns None
      bool fallsThrough = !ex.exits && !env_->findQuiet("$return");
      if (fallsThrough) {
        auto u = unifyTypes(t, NoneType());
        if (u) t = *u;
      }
    }
    inferredReturn_ = t;
  }
  eraseDeclaredTypeLoads(graph_.block());
}

// ====================================================================== statements

namespace {
// As PyTorch's emitReturn for functions without a return annotation: each return must unify with the
// ones before it; the error marks the return that breaks it.
void checkReturnUnifies(const std::vector<TypePtr>& previous, const TypePtr& t, const SourceRange& loc) {
  if (previous.empty()) return;
  TypePtr acc = previous[0];
  for (size_t i = 1; i < previous.size(); ++i)
    if (auto u = unifyTypes(acc, previous[i])) acc = *u;
  if (!unifyTypes(acc, t))
    throw CompileError("Previous return statement returned a value of type " + typeNameForMsg(acc) +
                           " but this return statement returns a value of type " + typeNameForMsg(t),
                       loc);
}
}  // namespace

FunctionEmitter::BlockExit FunctionEmitter::emitStatements(const StmtList& stmts) {
  BlockExit ex;
  for (size_t i = 0; i < stmts.size(); ++i) {
    bool consumedRest = false;
    BlockExit e = emitStatement(stmts[i], stmts, i, consumedRest);
    if (e.returns) ex.returns = true;
    if (e.exits) {
      ex.exits = true;
      return ex;
    }
    if (consumedRest) return ex;
    StmtKind k = stmts[i]->kind;
    if (k == StmtKind::Continue || k == StmtKind::Break || k == StmtKind::Return) return ex;
  }
  return ex;
}

FunctionEmitter::BlockExit FunctionEmitter::emitStatement(const StmtPtr& s, const StmtList& stmts, size_t index,
                                                          bool& consumedRest) {
  BlockExit ex;
  switch (s->kind) {
    case StmtKind::Expr: {
      const ExprPtr& e = s->as<ExprStmt>().value;
      if (e->kind == ExprKind::Str) return ex;  // docstring
      emitSugaredExpr(e, 0);
      if (isRaiseCall(s)) ex.exits = true;
      return ex;
    }
    case StmtKind::Assign: emitAssign(s->as<AssignStmt>()); return ex;
    case StmtKind::AugAssign: emitAugAssign(s->as<AugAssignStmt>()); return ex;
    case StmtKind::If: {
      auto& is = s->as<IfStmt>();
      if (index + 1 < stmts.size()) {
        unsigned tb = terminates(is.body), fb = terminates(is.orelse);
        auto nonRaising = [](unsigned t) { return (t & (TermReturn | TermContinue | TermBreak)) != 0; };
        StmtList rest(stmts.begin() + static_cast<long>(index) + 1, stmts.end());
        if (tb && fb) {
          consumedRest = true;  // code after is unreachable
        } else if (nonRaising(tb) && !fb) {
          StmtList orelse = is.orelse;
          orelse.insert(orelse.end(), rest.begin(), rest.end());
          consumedRest = true;
          return emitIf(IfStmt(is.range, is.test, is.body, orelse));
        } else if (nonRaising(fb) && !tb) {
          StmtList body = is.body;
          body.insert(body.end(), rest.begin(), rest.end());
          consumedRest = true;
          return emitIf(IfStmt(is.range, is.test, body, is.orelse));
        } else if (loopDepth_ == 0 && (containsReturn(is.body) || containsReturn(is.orelse))) {
          // a return on some path of a branch that may also fall through (`if a: if b: return x` then more
          // code): the rest of the block continues each branch, where the nested ifs fold it in turn
          StmtList body = is.body, orelse = is.orelse;
          body.insert(body.end(), rest.begin(), rest.end());
          orelse.insert(orelse.end(), rest.begin(), rest.end());
          consumedRest = true;
          return emitIf(IfStmt(is.range, is.test, body, orelse));
        }
      }
      return emitIf(is);
    }
    case StmtKind::For:
    case StmtKind::While: {
      const StmtList& body = s->kind == StmtKind::For ? s->as<ForStmt>().body : s->as<WhileStmt>().body;
      if (s->kind == StmtKind::For) emitFor(s->as<ForStmt>());
      else emitWhile(s->as<WhileStmt>());
      if (!containsReturn(body)) return ex;
      // a return inside the loop: `if $did_return: return $loop_return` else the rest of the block
      StmtList rest(stmts.begin() + static_cast<long>(index) + 1, stmts.end());
      consumedRest = true;
      auto test = std::make_shared<NameExpr>(s->range, "$did_return");
      StmtList ret{std::make_shared<ReturnStmt>(s->range, std::make_shared<NameExpr>(s->range, "$loop_return"))};
      return emitIf(IfStmt(s->range, test, ret, rest));
    }
    case StmtKind::Return:
      if (loopDepth_ > 0) {
        // inside a loop: record the value, set the flags and leave the loop (like break)
        auto& r = s->as<ReturnStmt>();
        Value* v = r.value ? emitExpr(r.value, declaredReturn_) : insertConstant(IValue(), s->range);
        if (declaredReturn_) {
          v = tryConvertToType(s->range, graph_, declaredReturn_, v, true, *registry_);
          if (!v->type()->isSubtypeOf(declaredReturn_))
            throw CompileError("Return value was annotated as having type " + typeNameForMsg(declaredReturn_) +
                                   " but is actually of type " + typeNameForMsg(v->type()),
                               s->range);
        } else {
          checkReturnUnifies(returnTypes_, v->type(), s->range);
          returnTypes_.push_back(v->type());
        }
        env_->table["$loop_return"] = std::make_shared<SimpleValue>(v);
        env_->table["$did_return"] = std::make_shared<SimpleValue>(insertConstant(IValue(true), s->range));
        env_->table["$did_break" + std::to_string(loopDepth_)] =
            std::make_shared<SimpleValue>(insertConstant(IValue(true), s->range));
        return ex;
      }
      emitReturn(s->as<ReturnStmt>());
      ex.exits = true;
      ex.returns = true;
      return ex;
    case StmtKind::Raise:
      emitRaise(s->as<RaiseStmt>());
      ex.exits = true;
      return ex;
    case StmtKind::Assert: emitAssert(s->as<AssertStmt>()); return ex;
    case StmtKind::Pass: return ex;
    case StmtKind::Continue:
      if (loopDepth_ == 0) throw CompileError("'continue' outside loop", s->range);
      return ex;
    case StmtKind::Break: {
      if (loopDepth_ == 0) throw CompileError("'break' outside loop", s->range);
      Value* t = insertConstant(IValue(true), s->range);
      env_->table["$did_break" + std::to_string(loopDepth_)] = std::make_shared<SimpleValue>(t);
      return ex;
    }
    case StmtKind::Delete: emitDelete(s->as<DeleteStmt>()); return ex;
    case StmtKind::With: emitWith(s->as<WithStmt>()); return ex;
    case StmtKind::Def:
      if (ctx_.archiveMode) {  // a closure of archive code: `def __forked_function(): ...` (frontend/emit_fork.h)
        auto def = std::static_pointer_cast<const DefStmt>(s);
        env_->table[def->name] = std::make_shared<ClosureValue>(def);
        return ex;
      }
      // as PyTorch, marking the `def` keyword
      throw CompileError("function definitions aren't supported", SourceRange(s->range.source, s->range.start, s->range.start + 3));
    case StmtKind::Class: throw CompileError("class definitions are only supported at the top level", s->range);
    case StmtKind::Global: throw CompileError("'global' statements are not supported in TorchScript", s->range);
    case StmtKind::Nonlocal: throw CompileError("'nonlocal' statements are not supported in TorchScript", s->range);
    case StmtKind::Import: throw CompileError("import statements are only supported at the top level", s->range);
    case StmtKind::Try:  // PyTorch marks the `try` keyword
      throw CompileError("try blocks aren't supported", SourceRange(s->range.source, s->range.start, s->range.start + 3));
  }
  return ex;
}

// --------------------------------------------------------------- assignment

namespace {
// `x : T = v` stores v behind a placeholder prim::Load whose output has the declared type T: reads of x
// see T (as PyTorch's environment, whose type_table holds the annotated type of a store). The
// placeholders are replaced by their input once the body is emitted (eraseDeclaredTypeLoads), so the
// graph holds v itself, as PyTorch's graph after its Load/Store to SSA conversion does.
bool isDeclaredTypeLoad(const Value* v) { return v->node()->kind() == prim::Load && v->node()->inputs().size() == 1; }

void setVar(FunctionEmitter& m, Environment& env, const std::string& name, const SugaredValuePtr& v,
            const SourceRange& loc) {
  if (auto* sv = dynamic_cast<SimpleValue*>(v.get())) {
    Value* value = sv->value;
    if (TypePtr carried = env.carriedType(name)) {
      if (!value->type()->isSubtypeOf(carried))
        throw CompileError("Variable '" + name + "' previously had type " + typeNameForMsg(carried) +
                               " but is now being assigned to a value of type " + typeNameForMsg(value->type()),
                           loc);
    }
    // A variable from an enclosing block keeps its type (as PyTorch's setSugaredVar: checked against the
    // enclosing frames even when this block assigned it before).
    if (env.next) {
      if (auto parent = env.next->findQuiet(name)) {
        if (auto* pv = dynamic_cast<SimpleValue*>(parent.get())) {
          TypePtr parentType = pv->value->type();
          if (!value->type()->isSubtypeOf(parentType))
            throw CompileError("Variable '" + name + "' previously had type " + typeNameForMsg(parentType) +
                                   " but is now being assigned to a value of type " + typeNameForMsg(value->type()),
                               loc);
        }
      }
    }
    Value* named = isDeclaredTypeLoad(value) ? value->node()->input(0) : value;
    if (!named->hasDebugName() && meaningfulName(name) && named->node()->owningBlock() == env.block)
      named->setDebugName(name);
  }
  (void)m;
  env.table[name] = v;
  env.errors.erase(name);
}

void eraseDeclaredTypeLoads(Block* b) {
  for (auto it = b->begin(); it != b->end();) {
    Node* n = *it;
    ++it;
    for (Block* sub : n->blocks()) eraseDeclaredTypeLoads(sub);
    if (n->kind() == prim::Load && n->inputs().size() == 1) {
      n->output()->replaceAllUsesWith(n->input(0));
      n->destroy();
    }
  }
}
}  // namespace

void FunctionEmitter::emitAssign(const AssignStmt& s) {
  if (!s.value) {
    // `x : T` without a value: the wording of torch.jit.script (frontend.py build_AnnAssign)
    throw CompileError("annotated assignments without assigned value aren't supported", s.range);
  }
  TypePtr declared;
  if (s.annotation) declared = typeParser_.parse(s.annotation);
  if (declared && s.targets.size() == 1 && s.targets[0]->kind == ExprKind::Attribute) {
    // `self.x : T = v`: as PyTorch 1.13, T is only the type hint of v (`[]`, `{}`, None literals); the
    // attribute gets v's type (`self.x : Optional[int] = None` makes a NoneType attribute).
    emitAssignTarget(s.targets[0], emitSugaredExpr(s.value, 1, declared), s.range, nullptr);
    return;
  }
  SugaredValuePtr rhs;
  if (s.targets.size() == 1 && s.targets[0]->kind != ExprKind::Tuple && s.targets[0]->kind != ExprKind::List) {
    rhs = emitSugaredExpr(s.value, 1, declared);
  } else {
    size_t n = 1;
    if (s.targets[0]->kind == ExprKind::Tuple || s.targets[0]->kind == ExprKind::List)
      n = s.targets[0]->as<SequenceExpr>().elts.size();
    rhs = emitSugaredExpr(s.value, n, declared);
  }
  if (declared) {
    Value* v = rhs->asValue(s.value->range, *this);
    v = tryConvertToType(s.value->range, graph_, declared, v, true, *registry_);
    if (!v->type()->isSubtypeOf(declared))
      throw CompileError("Variable '" + dottedName(s.targets[0]) + "' is annotated with type " +
                             typeNameForMsg(declared) + " but is being assigned to a value of type " +
                             typeNameForMsg(v->type()),
                         s.range);
    if (s.targets.size() == 1 && s.targets[0]->kind == ExprKind::Name) {
      const std::string& name = s.targets[0]->as<NameExpr>().id;
      if (env_->next && env_->next->findQuiet(name))
        throw CompileError("Attempting to declare and annotate the type of variable '" + name +
                               "' but it is already defined in an outer block",
                           s.targets[0]->range);
      if (!v->type()->equals(*declared)) {
        Node* load = graph_.insert(prim::Load, {v}, 1);
        load->output()->setType(declared);
        v = load->output();
      }
    }
    rhs = std::make_shared<SimpleValue>(v);
  }
  // a = b = value assigns right to left in Python; order does not matter for SSA
  for (auto& t : s.targets) emitAssignTarget(t, rhs, s.range, declared);
}

void FunctionEmitter::emitAssignTarget(const ExprPtr& target, const SugaredValuePtr& value, const SourceRange& loc,
                                       const TypePtr& declared) {
  switch (target->kind) {
    case ExprKind::Name:
      setVar(*this, *env_, target->as<NameExpr>().id, value, target->range);
      return;
    case ExprKind::Tuple:
    case ExprKind::List: {
      const auto& elts = target->as<SequenceExpr>().elts;
      size_t starIdx = elts.size();
      for (size_t i = 0; i < elts.size(); ++i)
        if (elts[i]->kind == ExprKind::Starred) {
          if (starIdx != elts.size()) throw CompileError("multiple starred expressions in assignment", elts[i]->range);
          starIdx = i;
        }
      auto outputs = value->asTuple(loc, *this, starIdx == elts.size() ? std::optional<size_t>(elts.size()) : std::nullopt);
      if (starIdx == elts.size()) {
        if (outputs.size() != elts.size())
          // PyTorch's wording (ir_emitter.cpp emitTupleAssign)
          throw CompileError(outputs.size() < elts.size()
                                 ? "need " + std::to_string(elts.size()) + " values to unpack but found only " +
                                       std::to_string(outputs.size())
                                 : "too many values to unpack: need " + std::to_string(elts.size()) + " but found " +
                                       std::to_string(outputs.size()),
                             loc);
        for (size_t i = 0; i < elts.size(); ++i) emitAssignTarget(elts[i], outputs[i], loc, nullptr);
      } else {
        size_t after = elts.size() - starIdx - 1;
        if (outputs.size() < elts.size() - 1)
          throw CompileError("not enough values to unpack (expected at least " + std::to_string(elts.size() - 1) +
                                 ", got " + std::to_string(outputs.size()) + ")",
                             loc);
        for (size_t i = 0; i < starIdx; ++i) emitAssignTarget(elts[i], outputs[i], loc, nullptr);
        std::vector<Value*> starred;
        for (size_t i = starIdx; i < outputs.size() - after; ++i) starred.push_back(outputs[i]->asValue(loc, *this));
        emitAssignTarget(elts[starIdx]->as<StarredExpr>().value,
                         std::make_shared<SimpleValue>(createTuple(starred, loc)), loc, nullptr);
        for (size_t i = 0; i < after; ++i)
          emitAssignTarget(elts[starIdx + 1 + i], outputs[outputs.size() - after + i], loc, nullptr);
      }
      return;
    }
    case ExprKind::Attribute: {
      auto& a = target->as<AttributeExpr>();
      auto obj = emitSugaredExpr(a.value);
      obj->setAttr(target->range, *this, a.attr, value->asValue(loc, *this));
      return;
    }
    case ExprKind::Subscript:
      emitSubscriptAssign(target->as<SubscriptExpr>(), value->asValue(loc, *this), loc);
      return;
    case ExprKind::Starred:
      throw CompileError("starred assignment target must be in a list or tuple", target->range);
    default: throw CompileError("unexpected expression on the left-hand side of an assignment", target->range);
  }
  (void)declared;
}

void FunctionEmitter::emitSubscriptAssign(const SubscriptExpr& target, Value* rhs, const SourceRange& loc) {
  Value* obj = emitExpr(target.value);
  const TypePtr& t = obj->type();
  if (t->kind() == TypeKind::Tensor) {
    // x[idx] = v: index into a view, then copy_ (tensor) or fill_ (scalar)
    Value* view = emitTensorIndexing(target.range, obj, target.subscripts);
    if (view->node()->kind() == Symbol::fromQualString("aten::index")) {
      // advanced indexing: index_put_
      Node* idx = view->node();
      Value* self = idx->input(0);
      Value* indices = idx->input(1);
      view->node()->destroy();
      Value* v = rhs;
      if (v->type()->kind() != TypeKind::Tensor)
        v = builtinCallValue(loc, "aten::tensor", {NamedValue(loc, rhs)});
      builtinCall(loc, "aten::index_put_", {NamedValue(loc, self), NamedValue(loc, indices), NamedValue(loc, v)});
      return;
    }
    if (rhs->type()->kind() == TypeKind::Tensor)
      builtinCall(loc, "aten::copy_", {NamedValue(loc, view), NamedValue(loc, rhs)});
    else
      builtinCall(loc, "aten::fill_", {NamedValue(loc, view), NamedValue(loc, rhs)});
    return;
  }
  if (t->kind() == TypeKind::List || t->kind() == TypeKind::Dict) {
    if (target.subscripts.size() != 1 || target.subscripts[0]->kind == ExprKind::Slice)
      throw CompileError("Sliced assignment to lists is not supported", target.range);
    Value* idx = emitExpr(target.subscripts[0]);
    builtinCall(loc, "aten::_set_item", {NamedValue(loc, obj), NamedValue(loc, idx), NamedValue(loc, rhs)});
    return;
  }
  if (auto* ct = t->cast<ClassType>()) {
    if (ct->findMethod("__setitem__")) {
      Value* idx = emitExpr(target.subscripts[0]);
      callMethod(loc, obj, "__setitem__", {NamedValue(loc, idx), NamedValue(loc, rhs)}, {});
      return;
    }
  }
  throw CompileError("'" + t->annotationStr() + "' object does not support item assignment", target.range);
}

void FunctionEmitter::emitAugAssign(const AugAssignStmt& s) {
  const ExprPtr& target = s.target;
  // PyTorch's getAugOp: tensors and lists use the in-place variant where one exists (`|=` on a tensor
  // is the out-of-place bitwise_or, `**=` is pow); `%=` is fmod (not Python's %), so `x %= 2` on an int
  // gives a float; `//=` and `@=` are rejected by the Python frontend.
  if (s.op == BinOpKind::FloorDiv || s.op == BinOpKind::MatMul)
    throw CompileError(std::string("unsupported kind of augumented assignment: ") +
                           (s.op == BinOpKind::FloorDiv ? "FloorDiv" : "MatMult"),
                       s.range);
  auto augOp = [&](const TypePtr& lt) -> const char* {
    bool inplace = lt->kind() == TypeKind::Tensor || lt->kind() == TypeKind::List;
    switch (s.op) {
      case BinOpKind::Add: return inplace ? "aten::add_" : "aten::add";
      case BinOpKind::Sub: return inplace ? "aten::sub_" : "aten::sub";
      case BinOpKind::Div: return inplace ? "aten::div_" : "aten::div";
      case BinOpKind::Mul: return inplace ? "aten::mul_" : "aten::mul";
      case BinOpKind::Mod: return inplace ? "aten::fmod_" : "aten::fmod";
      case BinOpKind::BitOr: return inplace ? "aten::bitwise_or" : "aten::__or__";
      case BinOpKind::BitAnd: return inplace ? "aten::bitwise_and" : "aten::__and__";
      case BinOpKind::BitXor: return inplace ? "aten::bitwise_xor" : "aten::__xor__";
      case BinOpKind::LShift: return "aten::__lshift__";
      case BinOpKind::RShift: return inplace ? "aten::__irshift__" : "aten::__rshift__";
      case BinOpKind::Pow: return "aten::pow";
      default: return nullptr;
    }
  };
  auto combine = [&](Value* lhs, bool allowInplace) -> Value* {
    Value* rhs = emitExpr(s.value);
    const TypePtr& lt = lhs->type();
    if (allowInplace && (lt->kind() == TypeKind::Tensor || lt->kind() == TypeKind::List)) {
      return builtinCallValue(s.range, augOp(lt), {NamedValue(target->range, lhs), NamedValue(s.value->range, rhs)});
    }
    if (s.op == BinOpKind::Mod || s.op == BinOpKind::Pow)
      return builtinCallValue(s.range, augOp(lt), {NamedValue(target->range, lhs), NamedValue(s.value->range, rhs)});
    return emitBinOp(s.range, s.op, lhs, rhs, target->range, s.value->range);
  };
  switch (target->kind) {
    case ExprKind::Name: {
      Value* lhs = emitExpr(target);
      Value* out = combine(lhs, true);
      setVar(*this, *env_, target->as<NameExpr>().id, std::make_shared<SimpleValue>(out), s.range);
      return;
    }
    case ExprKind::Attribute: {
      auto& a = target->as<AttributeExpr>();
      auto obj = emitSugaredExpr(a.value);
      Value* lhs = obj->attr(target->range, *this, a.attr)->asValue(target->range, *this);
      bool inplace = lhs->type()->kind() == TypeKind::Tensor || lhs->type()->kind() == TypeKind::List;
      Value* out = combine(lhs, true);
      if (!inplace) obj->setAttr(target->range, *this, a.attr, out);
      return;
    }
    case ExprKind::Subscript: {
      auto& sub = target->as<SubscriptExpr>();
      Value* container = emitExpr(sub.value);
      if (container->type()->kind() == TypeKind::Tensor) {
        Value* view = emitTensorIndexing(sub.range, container, sub.subscripts);
        Value* out = combine(view, true);
        if (view->node()->kind() == Symbol::fromQualString("aten::index")) {
          // advanced indexing (PyTorch's emitAugAssignmentToSubscript): the op updates the gathered copy,
          // which index_put_ writes back
          Node* idx = view->node();
          builtinCall(s.range, "aten::index_put_", {NamedValue(s.range, idx->input(0)), NamedValue(s.range, idx->input(1)),
                                                    NamedValue(s.range, out)});
        }
        return;
      }
      if (sub.subscripts.size() != 1) throw CompileError("unsupported augmented assignment target", target->range);
      if (container->type()->kind() != TypeKind::List && container->type()->kind() != TypeKind::Dict)
        throw CompileError(container->type()->annotationStr() + " does not support augmented assignment.", s.range);
      Value* idx = emitExpr(sub.subscripts[0]);
      Value* cur = builtinCallValue(target->range, "aten::__getitem__", {NamedValue(sub.value->range, container), NamedValue(sub.subscripts[0]->range, idx)});
      Value* out = combine(cur, true);  // getAugOp of the element type: tensors in place
      builtinCall(s.range, "aten::_set_item", {NamedValue(s.range, container), NamedValue(s.range, idx), NamedValue(s.range, out)});
      return;
    }
    default: throw CompileError("unsupported augmented assignment target", target->range);
  }
}

// --------------------------------------------------------------- if

FunctionEmitter::BlockExit FunctionEmitter::emitIf(const IfStmt& s) {
  CondValue cond = emitCondExpr(s.test);
  return emitIfBranches(cond, s.body, s.orelse, s.range);
}

void FunctionEmitter::insertRefinements(const SourceRange& loc, const std::vector<Refinement>& refs) {
  for (const Refinement& r : refs) {
    auto v = env_->findQuiet(r.name);
    auto* sv = dynamic_cast<SimpleValue*>(v.get());
    if (!sv) continue;
    if (sv->value->type()->equals(*r.type)) continue;
    Node* n = graph_.insert(prim::unchecked_cast, {sv->value}, 1);
    n->setSourceRange(loc);
    n->output()->setType(r.type);
    setVar(*this, *env_, r.name, std::make_shared<SimpleValue>(n->output()), loc);
  }
}

FunctionEmitter::BlockExit FunctionEmitter::emitIfBranches(const CondValue& cond, const StmtList& trueBranch,
                                                           const StmtList& falseBranch, const SourceRange& loc) {
  return emitIfBranches(
      cond, [&]() { return emitStatements(trueBranch); }, [&]() { return emitStatements(falseBranch); }, loc);
}

FunctionEmitter::BlockExit FunctionEmitter::emitIfBranches(const CondValue& cond,
                                                           const std::function<BlockExit()>& trueBranch,
                                                           const std::function<BlockExit()>& falseBranch,
                                                           const SourceRange& loc) {
  if (cond.staticValue) {
    insertRefinements(loc, *cond.staticValue ? cond.trueRefs : cond.falseRefs);
    return *cond.staticValue ? trueBranch() : falseBranch();
  }
  Node* n = graph_.insert(prim::If, {cond.value}, 0);
  n->setSourceRange(loc);
  Block* tb = n->addBlock();
  Block* fb = n->addBlock();
  auto emitBranch = [&](Block* b, const std::function<BlockExit()>& stmts, const std::vector<Refinement>& refs) {
    WithInsertPoint guard(b);
    auto frame = std::make_shared<Environment>(b, env_);
    env_ = frame;
    insertRefinements(loc, refs);
    BlockExit ex = stmts();
    env_ = frame->next;
    return std::make_pair(frame, ex);
  };
  auto [tf, tex] = emitBranch(tb, trueBranch, cond.trueRefs);
  auto [ff, fex] = emitBranch(fb, falseBranch, cond.falseRefs);

  std::set<std::string> names;
  for (auto& [k, v] : tf->table) names.insert(k);
  for (auto& [k, v] : ff->table) names.insert(k);

  auto addOutput = [&](const std::string& name, Value* tv, Value* fv, const TypePtr& type) {
    tb->registerOutput(tv);
    fb->registerOutput(fv);
    Value* out = n->addOutput();
    out->setType(type);
    setVar(*this, *env_, name, std::make_shared<SimpleValue>(out), loc);
  };
  auto uninitializedIn = [&](Block* b, const TypePtr& t) {
    WithInsertPoint guard(b);
    Node* u = graph_.insert(prim::Uninitialized, {}, 1);
    u->setSourceRange(loc);
    u->output()->setType(t);
    return u->output();
  };
  auto noneIn = [&](Block* b) {
    WithInsertPoint guard(b);
    return insertConstant(IValue(), loc);
  };

  for (const std::string& name : names) {
    if (name == "$return") {
      auto tr = tf->table.count(name) ? tf->table[name] : nullptr;
      auto fr = ff->table.count(name) ? ff->table[name] : nullptr;
      Value* tv = tr ? tr->asValue(loc, *this) : nullptr;
      Value* fv = fr ? fr->asValue(loc, *this) : nullptr;
      if (!tv) tv = tex.exits ? uninitializedIn(tb, fv->type()) : noneIn(tb);
      if (!fv) fv = fex.exits ? uninitializedIn(fb, tv->type()) : noneIn(fb);
      TypePtr t;
      if (tv->node()->kind() == prim::Uninitialized) t = fv->type();
      else if (fv->node()->kind() == prim::Uninitialized) t = tv->type();
      else if (auto u = unifyTypes(tv->type(), fv->type())) t = *u;
      else if (declaredReturn_) t = declaredReturn_;
      else
        throw CompileError("Previous return statement returned a value of type " + typeNameForMsg(tv->type()) +
                               " but this return statement returns a value of type " + typeNameForMsg(fv->type()),
                           loc);
      addOutput(name, tv, fv, t);
      continue;
    }
    if (tex.exits && fex.exits) continue;
    SugaredValuePtr tsv = tf->findQuiet(name);
    SugaredValuePtr fsv = ff->findQuiet(name);
    if (tex.exits) {
      if (!ff->table.count(name) || !fsv) continue;
      auto* fs = dynamic_cast<SimpleValue*>(fsv.get());
      if (!fs) { env_->table[name] = fsv; continue; }
      addOutput(name, uninitializedIn(tb, fs->value->type()), fs->value, fs->value->type());
      continue;
    }
    if (fex.exits) {
      if (!tf->table.count(name) || !tsv) continue;
      auto* ts = dynamic_cast<SimpleValue*>(tsv.get());
      if (!ts) { env_->table[name] = tsv; continue; }
      addOutput(name, ts->value, uninitializedIn(fb, ts->value->type()), ts->value->type());
      continue;
    }
    if (!tsv || !fsv) {
      env_->table.erase(name);
      // as PyTorch: the message shows the if statement, then (at the use) "and was used here"
      env_->errors[name] = name + " is not defined in the " + (tsv ? "false" : "true") + " branch:\n" +
                           loc.highlight() + "and was used here";
      continue;
    }
    if (tsv == fsv) continue;
    auto* ts = dynamic_cast<SimpleValue*>(tsv.get());
    auto* fs = dynamic_cast<SimpleValue*>(fsv.get());
    if (!ts || !fs) {
      env_->table.erase(name);
      env_->errors[name] = name + " is defined differently in the true and false branches (" + tsv->kind() +
                           " and " + fsv->kind() + ")";
      continue;
    }
    auto unified = unifyTypes(ts->value->type(), fs->value->type());
    if (!unified) {
      // as PyTorch: branches of different types join to a Union when the variable already has a Union,
      // Optional or Number type (`y : Union[int, str] = 0`, then an int in one branch and a str in the other)
      TypePtr full;
      if (auto* outer = dynamic_cast<SimpleValue*>(env_->findQuiet(name).get())) full = outer->value->type();
      if (full && (full->kind() == TypeKind::Union || full->kind() == TypeKind::Optional ||
                   full->kind() == TypeKind::Number))
        unified = UnionType::create({ts->value->type(), fs->value->type()});
    }
    if (!unified) {
      env_->table.erase(name);
      env_->errors[name] = "Type mismatch: " + name + " is set to type " + typeNameForMsg(ts->value->type()) +
                           " in the true branch and type " + typeNameForMsg(fs->value->type()) +
                           " in the false branch:\n" + loc.highlight() + "and was used here";
      continue;
    }
    addOutput(name, ts->value, fs->value, *unified);
  }
  BlockExit ex;
  ex.exits = tex.exits && fex.exits;
  ex.returns = tex.returns || fex.returns;
  return ex;
}

// --------------------------------------------------------------- loops

void FunctionEmitter::emitLoop(const SourceRange& loc, Value* maxTrip, const ExprPtr& whileCond,
                               const std::function<void(Value* index)>& bindTargets, const StmtList& body,
                               const std::vector<std::string>& extraAssigned) {
  std::set<std::string> assigned;
  assignedNames(body, assigned);
  for (auto& x : extraAssigned) assigned.insert(x);
  bool hasReturn = containsReturn(body);
  if (hasReturn) {
    if (!declaredReturn_ && !inferring_)
      throw CompileError("return statements inside loops need the function's return type to be annotated", loc);
    if (!env_->findQuiet("$loop_return")) {
      Node* u = graph_.insert(prim::Uninitialized, {}, 1);
      u->setSourceRange(loc);
      u->output()->setType(declaredReturn_ ? declaredReturn_ : AnyType());
      env_->table["$loop_return"] = std::make_shared<SimpleValue>(u->output());
      env_->table["$did_return"] = std::make_shared<SimpleValue>(insertConstant(IValue(false), loc));
    }
    assigned.insert("$loop_return");
    assigned.insert("$did_return");
  }
  bool hasBreak = containsBreak(body) || hasReturn;
  const std::string breakFlag = "$did_break" + std::to_string(loopDepth_ + 1);
  if (hasBreak) {
    env_->table[breakFlag] = std::make_shared<SimpleValue>(insertConstant(IValue(false), loc));
    assigned.insert(breakFlag);
  }
  std::vector<std::string> carried;
  std::vector<Value*> initial;
  std::vector<TypePtr> carriedType;
  for (const std::string& name : assigned) {
    auto v = env_->findQuiet(name);
    auto* sv = dynamic_cast<SimpleValue*>(v.get());
    if (!sv) continue;
    carried.push_back(name);
    initial.push_back(sv->value);
    carriedType.push_back(sv->value->type());  // an annotated variable: its declared type (setVar)
  }
  Value* initCond = whileCond ? emitCondExpr(whileCond).value : insertConstant(IValue(true), loc);
  if (whileCond) initCond = emitToBool(whileCond->range, initCond);
  std::vector<Value*> inputs{maxTrip, initCond};
  inputs.insert(inputs.end(), initial.begin(), initial.end());
  Node* n = graph_.insert(prim::Loop, inputs, 0);
  n->setSourceRange(loc);
  Block* b = n->addBlock();
  Value* idx = b->addInput();
  idx->setType(IntType());
  auto frame = std::make_shared<Environment>(b, env_);
  env_ = frame;
  for (size_t i = 0; i < carried.size(); ++i) {
    Value* in = b->addInput();
    in->setType(carriedType[i]);
    if (meaningfulName(carried[i])) in->setDebugName(carried[i]);
    frame->table[carried[i]] = std::make_shared<SimpleValue>(in);
    frame->carriedTypes[carried[i]] = carriedType[i];
  }
  ++loopDepth_;
  {
    WithInsertPoint guard(b);
    bindTargets(idx);
    emitStatements(body);
    Value* cont;
    if (whileCond) {
      if (hasBreak) {
        Value* brk = env_->find(breakFlag, loc)->asValue(loc, *this);
        Node* i = graph_.insert(prim::If, {brk}, 1);
        i->output()->setType(BoolType());
        Block* t = i->addBlock();
        Block* f = i->addBlock();
        {
          WithInsertPoint g2(t);
          t->registerOutput(insertConstant(IValue(false), loc));
        }
        {
          WithInsertPoint g2(f);
          f->registerOutput(emitToBool(whileCond->range, emitCondExpr(whileCond).value));
        }
        cont = i->output();
      } else {
        cont = emitToBool(whileCond->range, emitCondExpr(whileCond).value);
      }
    } else if (hasBreak) {
      Value* brk = env_->find(breakFlag, loc)->asValue(loc, *this);
      cont = builtinCallValue(loc, "aten::__not__", {NamedValue(loc, brk)});
    } else {
      cont = insertConstant(IValue(true), loc);
    }
    b->registerOutput(cont);
    for (size_t i = 0; i < carried.size(); ++i) {
      auto v = env_->find(carried[i], loc);
      Value* out = v->asValue(loc, *this);
      if (!out->type()->isSubtypeOf(carriedType[i]))
        throw CompileError("Variable '" + carried[i] + "' previously had type " + typeNameForMsg(carriedType[i]) +
                               " but is now being assigned to a value of type " + typeNameForMsg(out->type()),
                           loc);
      b->registerOutput(out);
    }
  }
  --loopDepth_;
  env_ = frame->next;
  for (size_t i = 0; i < carried.size(); ++i) {
    Value* out = n->addOutput();
    out->setType(carriedType[i]);
    setVar(*this, *env_, carried[i], std::make_shared<SimpleValue>(out), loc);
  }
}

SugaredValuePtr FunctionEmitter::iterableOf(const SourceRange& loc, const SugaredValuePtr& v) { return v; }

void FunctionEmitter::emitUnrolledFor(const ForStmt& s, const std::vector<SugaredValuePtr>& elems) {
  if (containsBreak(s.body) || (terminates(s.body) & TermContinue) || containsReturn(s.body))
    throw CompileError("break, continue and return are not supported in loops over tuples or module lists", s.range);
  for (auto& e : elems) {
    emitAssignTarget(s.target, e, s.range, nullptr);
    emitStatements(s.body);
  }
}

void FunctionEmitter::emitFor(const ForStmt& s) {
  if (!s.orelse.empty()) throw CompileError("else branches of for loops aren't supported",
                                           SourceRange(s.range.source, s.range.start, s.range.start + 3));
  SugaredValuePtr it = emitSugaredExpr(s.iter);
  const SourceRange& loc = s.range;
  std::vector<std::string> targetNames;
  {
    std::set<std::string> t;
    collectTargetNames(s.target, t);
    targetNames.assign(t.begin(), t.end());
  }
  if (it->shouldUnroll() && !dynamic_cast<IterableTree*>(it.get())) {
    emitUnrolledFor(s, it->asTuple(loc, *this));
    return;
  }
  // range, enumerate/zip (nested in any combination), lists, strings, tensors, dicts (frontend/iteration.h)
  IterPlan plan = planIteration(*this, s.iter->range, it);
  Value* trip = iterationTripCount(*this, loc, plan);
  emitLoop(loc, trip, nullptr, [&](Value* idx) {
    emitAssignTarget(s.target, iterationElement(*this, loc, plan, idx), loc, nullptr);
  }, s.body, {});
}

void FunctionEmitter::emitWhile(const WhileStmt& s) {
  if (!s.orelse.empty()) throw CompileError("else branches of while loops aren't supported",
                                           SourceRange(s.range.source, s.range.start, s.range.start + 5));
  Value* trip = insertConstant(IValue(int64_t(INT64_MAX)), s.range);
  emitLoop(s.range, trip, s.test, [](Value*) {}, s.body, {});
}

// --------------------------------------------------------------- raise / assert / return / del / with

void FunctionEmitter::emitRaise(const RaiseStmt& s) {
  const SourceRange& loc = s.range;
  Value* msg;
  std::string cls = "builtins.RuntimeError";
  if (!s.exc) {
    msg = insertConstant(IValue(std::string("Exception")), loc);
  } else {
    auto v = emitSugaredExpr(s.exc);
    if (auto* ev = dynamic_cast<ExceptionValue*>(v.get())) {
      msg = insertConstant(IValue(std::string("")), loc);
      cls = "builtins." + ev->name;
    } else if (auto* em = dynamic_cast<ExceptionMessageValue*>(v.get())) {
      msg = em->message;
      cls = em->qualifiedClass;
    } else {
      Value* x = v->asValue(s.exc->range, *this);
      if (x->type()->kind() != TypeKind::Str)
        throw CompileError("exceptions must derive from BaseException", s.exc->range);
      msg = x;
      cls = "builtins.Exception";
    }
  }
  Value* clsv = insertConstant(IValue(cls), loc);
  if (isBuiltinOperator("prim::RaiseException", *registry_)) {
    builtinCall(loc, "prim::RaiseException", {NamedValue(loc, msg), NamedValue(loc, clsv)});
  } else {
    Node* n = graph_.insert(prim::RaiseException, {msg, clsv}, 0);
    n->setSourceRange(loc);
  }
}

void FunctionEmitter::emitAssert(const AssertStmt& s) {
  CondValue c = emitCondExpr(s.test);
  const SourceRange& loc = s.range;
  auto raiseWith = [&]() {
    Value* msg;
    if (s.msg) {
      if (s.msg->kind == ExprKind::Str) {
        msg = insertConstant(IValue("AssertionError: " + s.msg->as<StrExpr>().value), loc);
      } else {
        Value* m = emitExpr(s.msg);
        if (m->type()->kind() != TypeKind::Str) m = builtinCallValue(loc, "aten::str", {NamedValue(loc, m)});
        Value* prefix = insertConstant(IValue(std::string("AssertionError: ")), loc);
        msg = builtinCallValue(loc, "aten::add", {NamedValue(loc, prefix), NamedValue(loc, m)});
      }
    } else {
      msg = insertConstant(IValue(std::string("AssertionError: ")), loc);
    }
    if (isBuiltinOperator("prim::RaiseException", *registry_)) {
      builtinCall(loc, "prim::RaiseException", {NamedValue(loc, msg)});
    } else {
      Node* n = graph_.insert(prim::RaiseException, {msg}, 0);
      n->setSourceRange(loc);
    }
  };
  if (c.staticValue) {
    if (*c.staticValue) { insertRefinements(loc, c.trueRefs); return; }
    raiseWith();
    return;
  }
  // As PyTorch (emitAssert): `if cond: pass else: raise AssertionError(msg)`. The refinements of the
  // condition are made in the true branch and leave the If as outputs (uninitialized on the raising
  // side), so no unchecked_cast runs where the condition may not hold.
  emitIfBranches(
      c, []() { return BlockExit(); },
      [&]() {
        raiseWith();
        BlockExit ex;
        ex.exits = true;
        return ex;
      },
      loc);
}

void FunctionEmitter::emitReturn(const ReturnStmt& s) {
  Value* v = s.value ? emitExpr(s.value, declaredReturn_) : insertConstant(IValue(), s.range);
  bool synthesized = s.value && s.value->kind == ExprKind::Name && s.value->as<NameExpr>().id == "$loop_return";
  if (inferring_ && !synthesized) {
    checkReturnUnifies(returnTypes_, v->type(), s.range);
    returnTypes_.push_back(v->type());
  }
  if (declaredReturn_) {
    v = tryConvertToType(s.range, graph_, declaredReturn_, v, true, *registry_);
    if (!v->type()->isSubtypeOf(declaredReturn_))
      throw CompileError("Return value was annotated as having type " + typeNameForMsg(declaredReturn_) +
                             " but is actually of type " + typeNameForMsg(v->type()),
                         s.range);
    if (declaredReturn_->kind() == TypeKind::Any && v->type()->kind() != TypeKind::Any) {
      Node* n = graph_.insert(prim::unchecked_cast, {v}, 1);
      n->output()->setType(declaredReturn_);
      v = n->output();
    }
  }
  env_->table["$return"] = std::make_shared<SimpleValue>(v);
}

void FunctionEmitter::emitDelete(const DeleteStmt& s) {
  for (auto& t : s.targets) {
    if (t->kind == ExprKind::Name) {
      const std::string& n = t->as<NameExpr>().id;
      if (!env_->find(n, t->range)) throw CompileError("undefined value " + n, t->range);
      env_->table.erase(n);
      env_->errors[n] = "undefined value " + n;
      continue;
    }
    if (t->kind == ExprKind::Subscript) {
      auto& sub = t->as<SubscriptExpr>();
      Value* obj = emitExpr(sub.value);
      if (sub.subscripts.size() != 1) throw CompileError("unsupported del target", t->range);
      Value* idx = emitExpr(sub.subscripts[0]);
      if (obj->type()->kind() == TypeKind::List || obj->type()->kind() == TypeKind::Dict) {
        builtinCall(t->range, "aten::Delete", {NamedValue(t->range, obj), NamedValue(t->range, idx)});
        continue;
      }
      if (obj->type()->cast<ClassType>()) {
        callMethod(t->range, obj, "__delitem__", {NamedValue(t->range, idx)}, {});
        continue;
      }
      throw CompileError("'" + obj->type()->annotationStr() + "' object does not support item deletion", t->range);
    }
    throw CompileError("del statements are only supported for names and subscripts", t->range);
  }
}

void FunctionEmitter::emitWith(const WithStmt& s) {
  std::vector<std::pair<Value*, bool>> entered;  // (object, is a class with __exit__)
  for (auto& item : s.items) {
    std::string name = dottedName(item.context->kind == ExprKind::Call ? item.context->as<CallExpr>().func : item.context);
    if (name == "torch.no_grad" || name == "torch.enable_grad" || name == "torch.autograd.profiler.record_function" ||
        name == "torch.jit.strict_fusion") {
      if (item.context->kind == ExprKind::Call)
        for (auto& a : item.context->as<CallExpr>().args) emitExpr(a);
      if (item.target)
        emitAssignTarget(item.target, std::make_shared<SimpleValue>(insertConstant(IValue(), item.context->range)),
                         s.range, nullptr);
      continue;
    }
    Value* obj = emitExpr(item.context);
    auto* ct = obj->type()->cast<ClassType>();
    if (!ct || !ct->findMethod("__enter__") || !ct->findMethod("__exit__"))
      throw CompileError("The type of a `with` item must be a class with __enter__ and __exit__ methods", item.context->range);
    Value* res = callMethod(item.context->range, obj, "__enter__", {}, {})->asValue(item.context->range, *this);
    if (item.target) emitAssignTarget(item.target, std::make_shared<SimpleValue>(res), s.range, nullptr);
    entered.emplace_back(obj, true);
  }
  emitStatements(s.body);
  for (auto it = entered.rbegin(); it != entered.rend(); ++it) {
    Value* none = insertConstant(IValue(), s.range);
    callMethod(s.range, it->first, "__exit__",
               {NamedValue(s.range, none), NamedValue(s.range, none), NamedValue(s.range, none)}, {});
  }
}

// ====================================================================== expressions

namespace {
struct ExprDepthGuard {
  ExprDepthGuard(int& d, const SourceRange& loc) : d_(d) {
    if (++d_ > 1000) throw CompileError("expression is too deeply nested (more than 1000 levels)", loc);
  }
  ~ExprDepthGuard() { --d_; }
  int& d_;
};
}  // namespace

Value* FunctionEmitter::emitExpr(const ExprPtr& e, const TypePtr& typeHint) {
  ExprDepthGuard guard(exprDepth_, e->range);
  switch (e->kind) {
    case ExprKind::Int: return literalConstant(IValue(e->as<IntExpr>().value), e->range);
    case ExprKind::Float: return literalConstant(IValue(e->as<FloatExpr>().value), e->range);
    case ExprKind::Str: return insertConstant(IValue(e->as<StrExpr>().value), e->range);
    case ExprKind::Bool: return insertConstant(IValue(e->as<BoolExpr>().value), e->range);
    case ExprKind::None: return insertConstant(IValue(), e->range);
    case ExprKind::BinOp: {
      auto& b = e->as<BinOpExpr>();
      Value* l = emitExpr(b.lhs);
      Value* r = emitExpr(b.rhs);
      return emitBinOp(e->range, b.op, l, r, b.lhs->range, b.rhs->range);
    }
    case ExprKind::UnaryOp: {
      auto& u = e->as<UnaryOpExpr>();
      if (u.op == UnaryOpKind::Not) return emitCondExpr(e).value;
      return emitUnaryOp(u);
    }
    case ExprKind::BoolOp: return emitCondExpr(e).value;
    case ExprKind::Compare: return emitCompare(e->as<CompareExpr>()).value;  // a tensor comparison stays a Tensor
    case ExprKind::IfExp: return emitIfExp(e->as<IfExpExpr>(), typeHint);
    case ExprKind::Tuple: return emitTupleLiteral(e->as<SequenceExpr>(), typeHint);
    case ExprKind::List: return emitListLiteral(e->as<SequenceExpr>(), typeHint);
    case ExprKind::Dict: return emitDictLiteral(e->as<DictExpr>(), typeHint);
    case ExprKind::ListComp: return emitListComprehension(e->as<ComprehensionExpr>(), typeHint);
    case ExprKind::DictComp: return emitDictComprehension(e->as<ComprehensionExpr>(), typeHint);
    case ExprKind::JoinedStr: return emitJoinedStr(e->as<JoinedStrExpr>());
    case ExprKind::Starred: throw CompileError("Starred expressions are only allowed as call arguments or assignment targets", e->range);
    case ExprKind::Lambda: throw CompileError("Lambda is not supported in TorchScript", e->range);
    case ExprKind::Ellipsis: throw CompileError("'...' is only allowed in tensor subscripts", e->range);
    case ExprKind::Slice: throw CompileError("slices are only allowed in subscripts", e->range);
    default: return emitSugaredExpr(e, 1, typeHint)->asValue(e->range, *this);
  }
}

SugaredValuePtr FunctionEmitter::emitSugaredExpr(const ExprPtr& e, size_t nBinders, const TypePtr& typeHint) {
  ExprDepthGuard guard(exprDepth_, e->range);
  switch (e->kind) {
    case ExprKind::Name: return lookupName(e->as<NameExpr>());
    case ExprKind::Attribute: {
      auto& a = e->as<AttributeExpr>();
      return emitSugaredExpr(a.value)->attr(e->range, *this, a.attr);
    }
    case ExprKind::Call: return emitApply(e->as<CallExpr>(), nBinders, typeHint);
    case ExprKind::Subscript: return emitSubscript(e->as<SubscriptExpr>(), typeHint);
    default: return std::make_shared<SimpleValue>(emitExpr(e, typeHint));
  }
}

// PyTorch's emitter reads a variable through a prim::Load whose output takes the variable's name, which
// renames the value holding that name to "x.N" (Value::setDebugName); SSA conversion then removes the
// load. Reproducing the renaming makes graphs print with PyTorch's names (%x.1 for a parameter x that is read).
// PyTorch creates the join values (prim::If/prim::Loop outputs, loop-carried block parameters) only in SSA
// conversion, after every read of the emission, so a read never renames them there: `if c: a = x ...; return a`
// prints `%a : int = prim::If(...)`, and a loop's result `%s`. We create them while emitting, so a read whose
// name is held by a join value renames nothing.
static bool isJoinValue(const Value* v) {
  const Node* n = v->node();
  if (n->kind() == prim::If || n->kind() == prim::Loop) return true;
  if (n->kind() == prim::Param && v->offset() > 0) {  // input 0 of a loop body is the trip index
    const Block* b = n->owningBlock();
    return b && b->owningNode() && b->owningNode()->kind() == prim::Loop;
  }
  return false;
}

void FunctionEmitter::noteVariableRead(const std::string& name) {
  if (!meaningfulName(name)) return;
  auto holder = graph_.uniqueNames().find(name);
  if (holder != graph_.uniqueNames().end() && isJoinValue(holder->second)) return;
  Node* load = graph_.create(prim::Load, {}, 1);
  load->output()->setDebugName(name);
  load->destroy();
}

SugaredValuePtr FunctionEmitter::lookupName(const NameExpr& n) {
  const std::string& id = n.id;
  if (auto v = env_->find(id, n.range)) {
    if (dynamic_cast<SimpleValue*>(v.get())) noteVariableRead(id);
    return v;
  }
  if (ctx_.resolver)
    if (auto v = ctx_.resolver->resolveValue(id, n.range)) return v;
  static const char* const specialForms[] = {"annotate", "unchecked_cast", "uninitialized", "isinstance", "getattr",
                                             "hasattr", "range", "enumerate", "zip", "len", "tuple"};
  for (const char* f : specialForms)
    if (id == f) {
      if (!ctx_.archiveMode && (id == "annotate" || id == "unchecked_cast" || id == "uninitialized")) break;
      return std::make_shared<SpecialFormValue>(id);
    }
  if (id == "torch") return std::make_shared<BuiltinModule>("torch");
  if (id == "math") return std::make_shared<BuiltinModule>("math");
  if (ctx_.archiveMode) {
    if (id == "ops") return std::make_shared<BuiltinModule>("ops");
    if (id == "fork") return std::make_shared<SpecialFormValue>("fork");
    if (id == "__torch__") return std::make_shared<QualifiedNamespace>("__torch__");
    if (id == "CONSTANTS") return std::make_shared<ConstantTableValue>();
    // PyTorch's code printer writes non-finite floats as bare names (`torch.mul(x, inf)`), and its
    // importer resolves them as float constants.
    if (id == "inf" || id == "nan") {
      double d = id == "inf" ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
      return std::make_shared<SimpleValue>(graph_.insertConstant(IValue(d), n.range));
    }
  }
  if (id == "print") return std::make_shared<PrintValue>();
  if (id == "int") return std::make_shared<CastValue>(IntType(), "aten::Int");
  if (id == "float") return std::make_shared<CastValue>(FloatType(), "aten::Float");
  if (id == "bool") return std::make_shared<CastValue>(BoolType(), "aten::Bool");
  if (id == "str") return std::make_shared<CastValue>(StringType(), "aten::str");
  if (id == "complex") return std::make_shared<CastValue>(ComplexType(), "aten::Complex");
  static const std::pair<const char*, const char*> builtins[] = {
      {"min", "prim::min"}, {"max", "prim::max"}, {"abs", "prim::abs"}, {"round", "aten::round"},
      {"divmod", "aten::divmod"}, {"ord", "aten::ord"}, {"chr", "aten::chr"}, {"hex", "aten::hex"},
      {"oct", "aten::oct"}, {"bin", "aten::bin"}, {"sum", "aten::sum"}, {"any", "aten::any"}, {"all", "aten::all"},
      {"sorted", "aten::sorted"}, {"hash", "aten::hash"}, {"list", "aten::list"}, {"dict", "aten::dict"},
      {"pow", "aten::pow"}};
  for (auto& [py, op] : builtins)
    if (id == py) return std::make_shared<BuiltinFunction>(op);
  if (isExceptionName(id)) return std::make_shared<ExceptionValue>(id);
  if (ctx_.resolver) {
    if (Function* f = ctx_.resolver->resolveFunction(id, n.range)) return std::make_shared<FunctionValue>(f);
    if (TypePtr t = ctx_.resolver->resolveType(id, n.range)) return std::make_shared<ClassValue>(t);
  }
  throw CompileError("undefined value " + id, n.range);
}

std::vector<NamedValue> FunctionEmitter::emitArgs(const std::vector<ExprPtr>& args) {
  std::vector<NamedValue> out;
  for (auto& a : args) {
    if (a->kind == ExprKind::Starred) {
      auto v = emitSugaredExpr(a->as<StarredExpr>().value);
      for (auto& e : v->asTuple(a->range, *this)) out.emplace_back(a->range, e->asValue(a->range, *this));
      continue;
    }
    if (a->kind == ExprKind::List && a->as<SequenceExpr>().elts.empty()) {
      out.push_back(NamedValue::emptyList(a->range));
      continue;
    }
    out.emplace_back(a->range, emitExpr(a));
  }
  return out;
}

std::vector<NamedValue> FunctionEmitter::emitKwargs(const std::vector<Keyword>& kws) {
  std::vector<NamedValue> out;
  for (auto& k : kws) {
    if (k.value->kind == ExprKind::List && k.value->as<SequenceExpr>().elts.empty()) {
      out.push_back(NamedValue::emptyList(k.range, k.name));
      continue;
    }
    out.emplace_back(k.range, k.name, emitExpr(k.value));
  }
  return out;
}

SugaredValuePtr FunctionEmitter::emitApply(const CallExpr& c, size_t nBinders, const TypePtr& typeHint) {
  SugaredValuePtr callee;
  if (c.func->kind == ExprKind::Attribute && c.func->as<AttributeExpr>().attr == "tolist") {
    // x.tolist() on a tensor: prim::tolist(x, dim, elem type) typed by the annotation (PyTorch's
    // TensorCastValue / tolist special case); elem type 0 int, 1 float, 2 bool.
    auto& a = c.func->as<AttributeExpr>();
    SugaredValuePtr base = emitSugaredExpr(a.value);
    auto* sv = dynamic_cast<SimpleValue*>(base.get());
    if (sv && sv->value->type()->kind() == TypeKind::Tensor) {
      if (!c.args.empty() || !c.keywords.empty()) throw CompileError("tolist() takes no arguments", c.range);
      if (!typeHint) throw CompileError("Expected type hint for result of tolist()", c.range);
      TypePtr t = typeHint;
      int64_t dim = 0;
      while (t->kind() == TypeKind::List) {
        t = t->cast<ListType>()->elementType();
        ++dim;
      }
      int64_t elem = t->kind() == TypeKind::Int ? 0 : t->kind() == TypeKind::Float ? 1 : t->kind() == TypeKind::Bool ? 2 : -1;
      if (dim == 0 || elem < 0)
        throw CompileError("Output annotation " + typeNameForMsg(typeHint) + " for tolist() must be a (nested) List of int, float or bool", c.range);
      Node* n = graph_.insert(Symbol::fromQualString("prim::tolist"),
                              {sv->value, insertConstant(IValue(dim), c.range), insertConstant(IValue(elem), c.range)}, 1);
      n->setSourceRange(c.range);
      n->output()->setType(typeHint);
      return std::make_shared<SimpleValue>(n->output());
    }
    callee = base->attr(c.func->range, *this, a.attr);
  } else if (c.func->kind == ExprKind::Name && c.func->as<NameExpr>().id == "list" && c.args.size() == 1 &&
             c.keywords.empty() && !env_->findQuiet("list")) {
    // list(range(...)): a loop appending each element, as PyTorch emits it
    SugaredValuePtr it = emitSugaredExpr(c.args[0]);
    if (!dynamic_cast<RangeValue*>(it.get()))
      return builtinCall(c.range, "aten::list", {NamedValue(c.args[0]->range, it->asValue(c.args[0]->range, *this))});
    IterPlan plan = planIteration(*this, c.args[0]->range, it);
    Value* list = createList(IntType(), {}, c.range);
    Value* trip = iterationTripCount(*this, c.range, plan);
    Node* n = graph_.insert(prim::Loop, {trip, insertConstant(IValue(true), c.range)}, 0);
    n->setSourceRange(c.range);
    Block* b = n->addBlock();
    Value* idx = b->addInput();
    idx->setType(IntType());
    {
      WithInsertPoint guard(b);
      Value* e = iterationElement(*this, c.range, plan, idx)->asValue(c.range, *this);
      builtinCall(c.range, "aten::append", {NamedValue(c.range, list), NamedValue(c.range, e)});
      b->registerOutput(insertConstant(IValue(true), c.range));
    }
    return std::make_shared<SimpleValue>(list);
  } else {
    callee = emitSugaredExpr(c.func);
  }
  if (auto* sf = dynamic_cast<SpecialFormValue*>(callee.get())) return emitSpecialForm(*sf, c, typeHint);
  auto args = emitArgs(c.args);
  auto kwargs = emitKwargs(c.keywords);
  // materialize empty list literals for non-builtin callees lazily in schema matching; others need values
  return callee->call(c.range, *this, args, kwargs, nBinders);
}

SugaredValuePtr FunctionEmitter::emitSpecialForm(const SpecialFormValue& f, const CallExpr& c, const TypePtr& typeHint) {
  const std::string& form = f.form;
  const SourceRange& loc = c.range;
  auto nargs = [&](size_t lo, size_t hi) {
    if (c.args.size() < lo || c.args.size() > hi || !c.keywords.empty())
      throw CompileError(form + "() expected " + (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
                             " positional arguments but got " + std::to_string(c.args.size()),
                         loc);
  };
  if (form == "fork") {
    // torch.jit.fork(fn, *args, **kwargs), or fork(closure) in archive code (frontend/emit_fork.h)
    if (c.args.empty()) throw CompileError("Expected at least one argument to fork()", loc);
    SugaredValuePtr forked = emitSugaredExpr(c.args[0], 1);
    if (auto* closure = dynamic_cast<ClosureValue*>(forked.get())) {
      if (c.args.size() != 1 || !c.keywords.empty())
        throw CompileError("fork() of a closure takes no further arguments", loc);
      const ExprPtr& body = closure->returnedExpr(loc);
      return emitFork(*this, loc, [&] { return emitExpr(body); });
    }
    std::vector<ExprPtr> rest(c.args.begin() + 1, c.args.end());
    std::vector<NamedValue> args = emitArgs(rest);
    std::vector<NamedValue> kwargs = emitKwargs(c.keywords);
    return emitFork(*this, loc, [&] { return forked->call(loc, *this, args, kwargs, 1)->asValue(loc, *this); });
  }
  if (form == "__new__") {
    // C.__new__(C) in archive code: an uninitialized object (its __init__ is called next)
    Node* n = graph_.insert(prim::CreateObject, {}, 1);
    n->setSourceRange(loc);
    n->output()->setType(f.type);
    return std::make_shared<SimpleValue>(n->output());
  }
  if (form == "annotate") {
    nargs(2, 2);
    TypePtr t = typeParser_.parse(c.args[0]);
    Value* v = emitExpr(c.args[1], t);
    v = tryConvertToType(loc, graph_, t, v, true, *registry_);
    if (!v->type()->isSubtypeOf(t))
      throw CompileError("expected an expression of type " + typeNameForMsg(t) + " but found " + typeNameForMsg(v->type()),
                         c.args[1]->range);
    if ((t->kind() == TypeKind::Optional || t->kind() == TypeKind::Union) && v->type()->kind() == TypeKind::None)
      v = insertConstant(IValue(), loc, t);
    return std::make_shared<SimpleValue>(v);
  }
  if (form == "unchecked_cast") {
    nargs(2, 2);
    TypePtr t = typeParser_.parse(c.args[0]);
    Value* v = emitExpr(c.args[1]);
    Node* n = graph_.insert(prim::unchecked_cast, {v}, 1);
    n->setSourceRange(loc);
    n->output()->setType(t);
    return std::make_shared<SimpleValue>(n->output());
  }
  if (form == "uninitialized") {
    nargs(1, 1);
    TypePtr t = typeParser_.parse(c.args[0]);
    Node* n = graph_.insert(prim::Uninitialized, {}, 1);
    n->setSourceRange(loc);
    n->output()->setType(t);
    return std::make_shared<SimpleValue>(n->output());
  }
  if (form == "isinstance") {
    CondValue cv;
    return emitIsInstance(c, &cv);
  }
  if (form == "getattr" || form == "hasattr") {
    nargs(2, form == "getattr" ? 3 : 2);
    if (c.args[1]->kind != ExprKind::Str) throw CompileError(form + "'s second argument must be a string literal", c.args[1]->range);
    auto obj = emitSugaredExpr(c.args[0]);
    const std::string& name = c.args[1]->as<StrExpr>().value;
    if (form == "hasattr") {
      auto h = obj->hasAttr(loc, *this, name);
      if (!h) throw CompileError("hasattr's first argument must be a class or module", c.args[0]->range);
      return std::make_shared<SimpleValue>(insertConstant(IValue(*h), loc));
    }
    if (c.args.size() == 3) {
      auto h = obj->hasAttr(loc, *this, name);
      if (h && !*h) return emitSugaredExpr(c.args[2]);
    }
    return obj->attr(loc, *this, name);
  }
  if (form == "range") {
    nargs(1, 3);
    std::vector<Value*> vs;
    for (auto& a : c.args) {
      Value* v = emitExpr(a);
      if (v->type()->kind() != TypeKind::Int)
        throw CompileError("range() expects int arguments but got " + typeNameForMsg(v->type()), a->range);
      vs.push_back(v);
    }
    if (vs.size() == 1) return std::make_shared<RangeValue>(nullptr, vs[0], nullptr);
    return std::make_shared<RangeValue>(vs[0], vs[1], vs.size() == 3 ? vs[2] : nullptr);
  }
  if (form == "enumerate" || form == "zip") {
    std::vector<SugaredValuePtr> children;
    Value* start = nullptr;
    if (form == "enumerate") {
      if (c.args.empty() || c.args.size() > 2) throw CompileError("enumerate() expects 1 or 2 arguments", loc);
      children.push_back(emitSugaredExpr(c.args[0]));
      if (c.args.size() == 2) start = emitExpr(c.args[1]);
      for (auto& k : c.keywords)
        if (k.name == "start") start = emitExpr(k.value);
    } else {
      if (c.args.empty()) throw CompileError("zip() expects at least one argument", loc);
      for (auto& a : c.args) children.push_back(emitSugaredExpr(a));
    }
    // unrolled when every child is statically sized
    bool allUnroll = true;
    for (auto& ch : children) allUnroll &= ch->shouldUnroll();
    if (allUnroll) {
      std::vector<std::vector<SugaredValuePtr>> elems;
      size_t n = SIZE_MAX;
      for (auto& ch : children) {
        elems.push_back(ch->asTuple(loc, *this));
        n = std::min(n, elems.back().size());
      }
      std::vector<SugaredValuePtr> rows;
      int64_t base = 0;
      for (size_t i = 0; i < n; ++i) {
        std::vector<SugaredValuePtr> row;
        if (form == "enumerate") {
          Value* iv = insertConstant(IValue(static_cast<int64_t>(i) + base), loc);
          if (start) iv = builtinCallValue(loc, "aten::add", {NamedValue(loc, iv), NamedValue(loc, start)});
          row.push_back(std::make_shared<SimpleValue>(iv));
        }
        for (auto& e : elems) row.push_back(e[i]);
        rows.push_back(std::make_shared<SugaredTupleValue>(row));
      }
      return std::make_shared<SugaredTupleValue>(rows);
    }
    return std::make_shared<IterableTree>(form, children, start);
  }
  if (form == "len") {
    nargs(1, 1);
    auto v = emitSugaredExpr(c.args[0]);
    if (auto n = v->staticLen()) return std::make_shared<SimpleValue>(insertConstant(IValue(*n), loc));
    // as PyTorch, len(range(n)) is an error: range cannot be used as a value
    Value* x = v->asValue(c.args[0]->range, *this);
    if (x->type()->cast<ClassType>()) return callMethod(loc, x, "__len__", {}, {});
    return builtinCall(loc, "aten::len", {NamedValue(c.args[0]->range, x)});
  }
  if (form == "tuple") {
    nargs(1, 1);
    auto v = emitSugaredExpr(c.args[0]);
    if (v->shouldUnroll()) {
      std::vector<Value*> vs;
      for (auto& e : v->asTuple(loc, *this)) vs.push_back(e->asValue(loc, *this));
      return std::make_shared<SimpleValue>(createTuple(vs, loc));
    }
    throw CompileError("tuple() can only be called on tuples (the length must be known statically)", loc);
  }
  throw CompileError("unknown builtin " + form, loc);
}

SugaredValuePtr FunctionEmitter::emitIsInstance(const CallExpr& c, CondValue* cond) {
  const SourceRange& loc = c.range;
  if (c.args.size() != 2) throw CompileError("isinstance() expects 2 arguments", loc);
  Value* v = emitExpr(c.args[0]);
  std::vector<TypePtr> candidates;
  std::function<void(const ExprPtr&)> gather = [&](const ExprPtr& t) {
    if (t->kind == ExprKind::Tuple) {
      for (auto& x : t->as<SequenceExpr>().elts) gather(x);
      return;
    }
    std::string n = dottedName(t);
    if (n == "list" || n == "List") candidates.push_back(AnyListType());
    else if (n == "tuple" || n == "Tuple") candidates.push_back(AnyTupleType());
    else if (n == "dict" || n == "Dict") candidates.push_back(DictType::create(StringType(), AnyType()));
    else candidates.push_back(typeParser_.parse(t));
  };
  gather(c.args[1]);
  const TypePtr& vt = v->type();
  auto matches = [&](const TypePtr& actual, const TypePtr& cand) -> bool {
    if (cand->kind() == TypeKind::AnyList) return actual->kind() == TypeKind::List;
    if (cand->kind() == TypeKind::AnyTuple) return actual->kind() == TypeKind::Tuple;
    if (cand->kind() == TypeKind::Dict && c.args[1]->kind != ExprKind::Subscript) return actual->kind() == TypeKind::Dict;
    return actual->isSubtypeOf(cand);
  };
  bool always = false;
  for (auto& t : candidates) always |= matches(vt, t);
  // Could the value at runtime be one of the candidates?
  std::vector<TypePtr> possible;
  if (vt->kind() == TypeKind::Optional) possible = {vt->cast<OptionalType>()->elementType(), NoneType()};
  else if (vt->kind() == TypeKind::Union) possible = vt->cast<UnionType>()->types();
  else if (vt->kind() == TypeKind::Any) possible = candidates;
  else possible = {vt};
  bool maybe = false;
  std::vector<TypePtr> refinedParts, otherParts;
  for (auto& p : possible) {
    bool hit = false;
    for (auto& t : candidates)
      if (matches(p, t) || (vt->kind() == TypeKind::Any)) {
        maybe = hit = true;
        refinedParts.push_back(vt->kind() == TypeKind::Any ? t : p);
        break;
      }
    if (!hit) otherParts.push_back(p);
  }
  std::string varName = c.args[0]->kind == ExprKind::Name ? c.args[0]->as<NameExpr>().id : "";
  if (always) {
    cond->staticValue = true;
    cond->value = insertConstant(IValue(true), loc);
  } else if (!maybe) {
    cond->staticValue = false;
    cond->value = insertConstant(IValue(false), loc);
  } else {
    Node* n = graph_.insert(prim::isinstance, {v}, 1);
    n->tys_("types", candidates);
    n->setSourceRange(loc);
    n->output()->setType(BoolType());
    cond->value = n->output();
    auto join = [](const std::vector<TypePtr>& parts) -> TypePtr {
      if (parts.size() == 1) return parts[0];
      if (parts.size() == 2 && (parts[0]->kind() == TypeKind::None || parts[1]->kind() == TypeKind::None))
        return OptionalType::create(parts[0]->kind() == TypeKind::None ? parts[1] : parts[0]);
      return UnionType::create(parts);
    };
    if (!varName.empty() && !refinedParts.empty()) cond->trueRefs.push_back({varName, join(refinedParts)});
    if (!varName.empty() && !otherParts.empty() && vt->kind() != TypeKind::Any)
      cond->falseRefs.push_back({varName, join(otherParts)});
  }
  return std::make_shared<SimpleValue>(cond->value);
}

Value* FunctionEmitter::emitToBool(const SourceRange& loc, Value* v) {
  const TypePtr& t = v->type();
  if (t->kind() == TypeKind::Bool) return v;
  if (t->kind() == TypeKind::Int || t->kind() == TypeKind::Float || t->kind() == TypeKind::Tensor ||
      t->kind() == TypeKind::Number)
    return builtinCallValue(loc, "aten::Bool", {NamedValue(loc, v)});
  if (t->cast<ClassType>()) {
    auto* ct = t->cast<ClassType>();
    if (ct->findMethod("__bool__")) return callMethod(loc, v, "__bool__", {}, {})->asValue(loc, *this);
    if (ct->findMethod("__len__")) {
      Value* n = callMethod(loc, v, "__len__", {}, {})->asValue(loc, *this);
      return builtinCallValue(loc, "aten::Bool", {NamedValue(loc, n)});
    }
  }
  if (t->kind() == TypeKind::List || t->kind() == TypeKind::Str || t->kind() == TypeKind::Dict) {
    Value* n = builtinCallValue(loc, "aten::len", {NamedValue(loc, v)});
    Value* zero = insertConstant(IValue(int64_t(0)), loc);
    return builtinCallValue(loc, "aten::gt", {NamedValue(loc, n), NamedValue(loc, zero)});
  }
  throw CompileError("Could not cast value of type " + typeNameForMsg(t) + " to bool", loc);
}

CondValue FunctionEmitter::emitCondExpr(const ExprPtr& e) {
  switch (e->kind) {
    case ExprKind::UnaryOp: {
      auto& u = e->as<UnaryOpExpr>();
      if (u.op != UnaryOpKind::Not) break;
      CondValue inner = emitCondExpr(u.operand);
      CondValue out;
      out.trueRefs = inner.falseRefs;
      out.falseRefs = inner.trueRefs;
      if (inner.staticValue) {
        out.staticValue = !*inner.staticValue;
        out.value = insertConstant(IValue(*out.staticValue), e->range);
      } else {
        out.value = builtinCallValue(e->range, "aten::__not__", {NamedValue(e->range, emitToBool(u.operand->range, inner.value))});
      }
      return out;
    }
    case ExprKind::BoolOp: return emitBoolOp(e->as<BoolOpExpr>());
    case ExprKind::Compare: {
      CondValue cv = emitCompare(e->as<CompareExpr>());
      if (cv.value) cv.value = emitToBool(e->range, cv.value);  // `if x[0] > 0:` on tensors → aten::Bool
      return cv;
    }
    case ExprKind::Call: {
      auto& c = e->as<CallExpr>();
      std::string fn = dottedName(c.func);
      if (fn == "isinstance" || fn == "torch.jit.isinstance") {
        if (!env_->findQuiet(fn.substr(0, fn.find('.')))) {
          CondValue cv;
          emitIsInstance(c, &cv);
          return cv;
        }
      }
      break;
    }
    default: break;
  }
  CondValue out;
  auto sv = emitSugaredExpr(e);
  Value* v = sv->asValue(e->range, *this);
  if (auto cst = v->constantValue()) {
    if (cst->isBool()) out.staticValue = cst->toBool();
  }
  out.value = emitToBool(e->range, v);
  // As PyTorch's emitCondExpr ("MetaCompile on boolean literals and constants"): a condition that is a
  // bool prim::Constant (a literal, a variable bound to one, torch.jit.is_scripting()) is static: only
  // the taken branch is emitted and type-checked.
  return out;
}

CondValue FunctionEmitter::emitBoolOp(const BoolOpExpr& b) {
  // a and b → if a: b else False ; a or b → if a: True else b (left-associative over values)
  bool isAnd = b.op == BoolOpKind::And;
  CondValue acc = emitCondExpr(b.values[0]);
  acc.value = emitToBool(b.values[0]->range, acc.value);
  for (size_t i = 1; i < b.values.size(); ++i) {
    const ExprPtr& rhsE = b.values[i];
    if (acc.staticValue && *acc.staticValue == !isAnd) {
      // short-circuit statically (True or ..., False and ...)
      continue;
    }
    Node* n = graph_.insert(prim::If, {acc.value}, 1);
    n->setSourceRange(b.range);
    n->output()->setType(BoolType());
    Block* tb = n->addBlock();
    Block* fb = n->addBlock();
    CondValue rhs;
    auto emitRhs = [&](Block* blk, const std::vector<Refinement>& refs) {
      WithInsertPoint g(blk);
      auto frame = std::make_shared<Environment>(blk, env_);
      env_ = frame;
      insertRefinements(b.range, refs);
      rhs = emitCondExpr(rhsE);
      blk->registerOutput(emitToBool(rhsE->range, rhs.value));
      env_ = frame->next;
    };
    auto constIn = [&](Block* blk, bool v) {
      WithInsertPoint g(blk);
      blk->registerOutput(insertConstant(IValue(v), b.range));
    };
    if (isAnd) {
      emitRhs(tb, acc.trueRefs);
      constIn(fb, false);
    } else {
      constIn(tb, true);
      emitRhs(fb, acc.falseRefs);
    }
    CondValue next;
    next.value = n->output();
    if (isAnd) {
      next.trueRefs = acc.trueRefs;
      next.trueRefs.insert(next.trueRefs.end(), rhs.trueRefs.begin(), rhs.trueRefs.end());
    } else {
      next.falseRefs = acc.falseRefs;
      next.falseRefs.insert(next.falseRefs.end(), rhs.falseRefs.begin(), rhs.falseRefs.end());
    }
    acc = next;
  }
  return acc;
}

CondValue FunctionEmitter::emitCompare(const CompareExpr& c) {
  Value* lhs = nullptr;
  ExprPtr lhsE = c.left;
  bool lhsIsNone = c.left->kind == ExprKind::None;
  if (!lhsIsNone) lhs = emitExpr(c.left);
  if (c.ops.size() == 1) {
    Value* rhs = c.comparators[0]->kind == ExprKind::None ? nullptr : emitExpr(c.comparators[0]);
    return emitCompareOne(c.range, c.ops[0], lhsE, lhs, c.comparators[0], rhs);
  }
  // chained: a < b < c → (a < b) and (b < c), each operand evaluated once, later ones only if needed
  if (!lhs) lhs = insertConstant(IValue(), c.left->range);
  std::function<Value*(size_t, Value*, const ExprPtr&)> chain = [&](size_t i, Value* cur, const ExprPtr& curE) -> Value* {
    Value* rhs = emitExpr(c.comparators[i]);
    Value* ov = emitToBool(c.range, emitCompareOne(c.range, c.ops[i], curE, cur, c.comparators[i], rhs).value);
    if (i + 1 == c.ops.size()) return ov;
    Node* n = graph_.insert(prim::If, {ov}, 1);
    n->setSourceRange(c.range);
    n->output()->setType(BoolType());
    Block* tb = n->addBlock();
    Block* fb = n->addBlock();
    {
      WithInsertPoint g(tb);
      tb->registerOutput(chain(i + 1, rhs, c.comparators[i]));
    }
    {
      WithInsertPoint g(fb);
      fb->registerOutput(insertConstant(IValue(false), c.range));
    }
    return n->output();
  };
  CondValue result;
  result.value = chain(0, lhs, lhsE);
  return result;
}

CondValue FunctionEmitter::emitCompareOne(const SourceRange& loc, CmpOpKind op, const ExprPtr& lhsE, Value* lhs,
                                          const ExprPtr& rhsE, Value* rhs) {
  CondValue out;
  if (op == CmpOpKind::Is || op == CmpOpKind::IsNot) {
    // refinement / static evaluation for `x is None`
    bool lNone = !lhs || lhs->type()->kind() == TypeKind::None;
    bool rNone = !rhs || rhs->type()->kind() == TypeKind::None;
    if (!lhs) lhs = insertConstant(IValue(), lhsE->range);
    if (!rhs) rhs = insertConstant(IValue(), rhsE->range);
    if (lNone || rNone) {
      Value* other = lNone ? rhs : lhs;
      const ExprPtr& otherE = lNone ? rhsE : lhsE;
      const TypePtr& ot = other->type();
      bool isIs = op == CmpOpKind::Is;
      if (ot->kind() == TypeKind::None) {
        out.staticValue = isIs;
      } else if (ot->kind() != TypeKind::Optional && ot->kind() != TypeKind::Union && ot->kind() != TypeKind::Any) {
        out.staticValue = !isIs;
      } else if (otherE->kind == ExprKind::Name && ot->kind() == TypeKind::Optional) {
        Refinement r{otherE->as<NameExpr>().id, ot->cast<OptionalType>()->elementType()};
        Refinement rn{otherE->as<NameExpr>().id, NoneType()};
        if (isIs) {
          out.falseRefs.push_back(r);
          out.trueRefs.push_back(rn);
        } else {
          out.trueRefs.push_back(r);
          out.falseRefs.push_back(rn);
        }
      }
    }
    out.value = builtinCallValue(loc, cmpAten(op), {NamedValue(lhsE->range, lhs), NamedValue(rhsE->range, rhs)});
    if (out.staticValue) {
      // keep the node (PyTorch emits it) but use the known value for branch selection
    }
    return out;
  }
  if (!lhs) lhs = insertConstant(IValue(), lhsE->range);
  if (!rhs) rhs = insertConstant(IValue(), rhsE->range);
  if (op == CmpOpKind::In || op == CmpOpKind::NotIn) {
    Value* v;
    if (rhs->type()->cast<ClassType>())
      v = callMethod(loc, rhs, "__contains__", {NamedValue(lhsE->range, lhs)}, {})->asValue(loc, *this);
    else if (rhs->type()->kind() == TypeKind::Str && lhs->type()->kind() == TypeKind::Str) {
      // PyTorch's builtin str.__contains__: self.find(key, 0, len(self)) != -1
      Value* n = builtinCallValue(loc, "aten::len", {NamedValue(loc, rhs)});
      Value* f = builtinCallValue(loc, "aten::find", {NamedValue(loc, rhs), NamedValue(loc, lhs),
                                                      NamedValue(loc, insertConstant(IValue(int64_t(0)), loc)), NamedValue(loc, n)});
      v = builtinCallValue(loc, "aten::ne", {NamedValue(loc, f), NamedValue(loc, insertConstant(IValue(int64_t(-1)), loc))});
    } else
      v = builtinCallValue(loc, "aten::__contains__", {NamedValue(rhsE->range, rhs), NamedValue(lhsE->range, lhs)});
    if (op == CmpOpKind::NotIn) v = builtinCallValue(loc, "aten::__not__", {NamedValue(loc, v)});
    out.value = v;
    return out;
  }
  if (auto* ct = lhs->type()->cast<ClassType>()) {
    static const std::pair<CmpOpKind, const char*> magic[] = {{CmpOpKind::Eq, "__eq__"}, {CmpOpKind::Ne, "__ne__"},
                                                              {CmpOpKind::Lt, "__lt__"}, {CmpOpKind::Le, "__le__"},
                                                              {CmpOpKind::Gt, "__gt__"}, {CmpOpKind::Ge, "__ge__"}};
    for (auto& [k, m] : magic)
      if (k == op && ct->findMethod(m)) {
        out.value = callMethod(loc, lhs, m, {NamedValue(rhsE->range, rhs)}, {})->asValue(loc, *this);
        return out;
      }
  }
  // number (cmp) Tensor → Tensor (reversed cmp) number, as PyTorch's builtin functions
  TypeKind lk = lhs->type()->kind();
  if ((lk == TypeKind::Int || lk == TypeKind::Float || lk == TypeKind::Bool || lk == TypeKind::Number) &&
      rhs->type()->kind() == TypeKind::Tensor) {
    CmpOpKind rev = op;
    if (op == CmpOpKind::Lt) rev = CmpOpKind::Gt;
    else if (op == CmpOpKind::Gt) rev = CmpOpKind::Lt;
    else if (op == CmpOpKind::Le) rev = CmpOpKind::Ge;
    else if (op == CmpOpKind::Ge) rev = CmpOpKind::Le;
    out.value = builtinCallValue(loc, cmpAten(rev), {NamedValue(rhsE->range, rhs), NamedValue(lhsE->range, lhs)});
    return out;
  }
  out.value = builtinCallValue(loc, cmpAten(op), {NamedValue(lhsE->range, lhs), NamedValue(rhsE->range, rhs)});
  return out;
}

Value* FunctionEmitter::emitBinOp(const SourceRange& loc, BinOpKind op, Value* lhs, Value* rhs, const SourceRange& lloc,
                                  const SourceRange& rloc) {
  if (auto* ct = lhs->type()->cast<ClassType>()) {
    static const std::pair<BinOpKind, const char*> magic[] = {
        {BinOpKind::Add, "__add__"}, {BinOpKind::Sub, "__sub__"}, {BinOpKind::Mul, "__mul__"},
        {BinOpKind::Div, "__truediv__"}, {BinOpKind::FloorDiv, "__floordiv__"}, {BinOpKind::Mod, "__mod__"},
        {BinOpKind::Pow, "__pow__"}, {BinOpKind::MatMul, "__matmul__"}, {BinOpKind::LShift, "__lshift__"},
        {BinOpKind::RShift, "__rshift__"}, {BinOpKind::BitAnd, "__and__"}, {BinOpKind::BitOr, "__or__"},
        {BinOpKind::BitXor, "__xor__"}};
    for (auto& [k, m] : magic)
      if (k == op && ct->findMethod(m))
        return callMethod(loc, lhs, m, {NamedValue(rloc, rhs)}, {})->asValue(loc, *this);
  }
  // "fmt" % args → aten::percentFormat(fmt, args): the tuple is passed whole, as PyTorch does
  if (op == BinOpKind::Mod && lhs->type()->kind() == TypeKind::Str) {
    std::vector<NamedValue> args{NamedValue(lloc, lhs), NamedValue(rloc, rhs)};
    return builtinCallValue(loc, "aten::percentFormat", args);
  }
  // number (op) Tensor: PyTorch's builtin functions reorder these (e.g. 2 * x → x * 2)
  bool lNum = lhs->type()->kind() == TypeKind::Int || lhs->type()->kind() == TypeKind::Float ||
              lhs->type()->kind() == TypeKind::Bool || lhs->type()->kind() == TypeKind::Number;
  if (lNum && rhs->type()->kind() == TypeKind::Tensor) {
    switch (op) {
      case BinOpKind::Add:
      case BinOpKind::Mul:
        return builtinCallValue(loc, binOpAten(op), {NamedValue(rloc, rhs), NamedValue(lloc, lhs)});
      case BinOpKind::Sub:
        return builtinCallValue(loc, "aten::rsub", {NamedValue(rloc, rhs), NamedValue(lloc, lhs)});
      case BinOpKind::Div: {
        Value* r = builtinCallValue(loc, "aten::reciprocal", {NamedValue(rloc, rhs)});
        return builtinCallValue(loc, "aten::mul", {NamedValue(rloc, r), NamedValue(lloc, lhs)});
      }
      case BinOpKind::Pow:
        return builtinCallValue(loc, "aten::pow", {NamedValue(lloc, lhs), NamedValue(rloc, rhs)});
      default: {
        Value* t = builtinCallValue(loc, "aten::scalar_tensor", {NamedValue(lloc, lhs)}, {});
        return builtinCallValue(loc, binOpAten(op), {NamedValue(lloc, t), NamedValue(rloc, rhs)});
      }
    }
  }
  // Tensor // x: PyTorch's builtin `floordiv(Tensor, number)` is torch.floor_divide
  if (op == BinOpKind::FloorDiv && lhs->type()->kind() == TypeKind::Tensor)
    return builtinCallValue(loc, "aten::floor_divide", {NamedValue(lloc, lhs), NamedValue(rloc, rhs)});
  return builtinCallValue(loc, binOpAten(op), {NamedValue(lloc, lhs), NamedValue(rloc, rhs)});
}

Value* FunctionEmitter::emitUnaryOp(const UnaryOpExpr& u) {
  Value* v = emitExpr(u.operand);
  switch (u.op) {
    case UnaryOpKind::Neg: {
      if (auto c = v->constantValue()) {
        // As PyTorch's emitUnaryOp: aten::neg of a constant int or float runs at once; the folded constant
        // replaces the node (whose output still took a value number) where it stands.
        if (c->isInt() || c->isDouble()) {
          Node* neg = graph_.create(prim::Load, {}, 1);
          neg->destroy();
          if (c->isInt())  // 64-bit wrap-around, as aten::neg.int
            return insertConstant(IValue(static_cast<int64_t>(0ULL - static_cast<uint64_t>(c->toInt()))), u.range);
          return insertConstant(IValue(-c->toDouble()), u.range);
        }
      }
      return builtinCallValue(u.range, "aten::neg", {NamedValue(u.operand->range, v)});
    }
    case UnaryOpKind::Pos: return v;
    case UnaryOpKind::Invert: return builtinCallValue(u.range, "aten::bitwise_not", {NamedValue(u.operand->range, v)});
    case UnaryOpKind::Not: break;
  }
  return builtinCallValue(u.range, "aten::__not__", {NamedValue(u.operand->range, emitToBool(u.range, v))});
}

Value* FunctionEmitter::emitIfExp(const IfExpExpr& e, const TypePtr& typeHint) {
  CondValue c = emitCondExpr(e.test);
  if (c.staticValue) {
    insertRefinements(e.range, *c.staticValue ? c.trueRefs : c.falseRefs);
    return emitExpr(*c.staticValue ? e.body : e.orelse, typeHint);
  }
  Node* n = graph_.insert(prim::If, {c.value}, 1);
  n->setSourceRange(e.range);
  Block* tb = n->addBlock();
  Block* fb = n->addBlock();
  auto emitIn = [&](Block* b, const ExprPtr& x, const std::vector<Refinement>& refs) {
    WithInsertPoint g(b);
    auto frame = std::make_shared<Environment>(b, env_);
    env_ = frame;
    insertRefinements(e.range, refs);
    Value* v = emitExpr(x, typeHint);
    env_ = frame->next;
    b->registerOutput(v);
    return v;
  };
  Value* tv = emitIn(tb, e.body, c.trueRefs);
  Value* fv = emitIn(fb, e.orelse, c.falseRefs);
  auto u = unifyTypes(tv->type(), fv->type());
  if (!u)
    throw CompileError("if-expression's true branch has type " + typeNameForMsg(tv->type()) +
                           " but false branch has type " + typeNameForMsg(fv->type()),
                       e.range);
  n->output()->setType(*u);
  return n->output();
}

Value* FunctionEmitter::emitTupleLiteral(const SequenceExpr& e, const TypePtr& typeHint) {
  std::vector<Value*> vs;
  const TupleType* th = typeHint ? typeHint->cast<TupleType>() : nullptr;
  for (size_t i = 0; i < e.elts.size(); ++i) {
    const ExprPtr& x = e.elts[i];
    if (x->kind == ExprKind::Starred) {
      auto sv = emitSugaredExpr(x->as<StarredExpr>().value);
      for (auto& el : sv->asTuple(x->range, *this)) vs.push_back(el->asValue(x->range, *this));
      continue;
    }
    vs.push_back(emitExpr(x, th && i < th->elements().size() ? th->elements()[i] : nullptr));
  }
  return createTuple(vs, e.range);
}

Value* FunctionEmitter::emitListLiteral(const SequenceExpr& e, const TypePtr& typeHint) {
  TypePtr hint = typeHint;
  if (hint && hint->kind() == TypeKind::Optional) hint = hint->cast<OptionalType>()->elementType();
  TypePtr elemHint;
  if (hint && hint->kind() == TypeKind::List) elemHint = hint->cast<ListType>()->elementType();
  std::vector<Value*> vs;
  for (auto& x : e.elts) {
    if (x->kind == ExprKind::Starred) {
      auto sv = emitSugaredExpr(x->as<StarredExpr>().value);
      for (auto& el : sv->asTuple(x->range, *this)) vs.push_back(el->asValue(x->range, *this));
      continue;
    }
    vs.push_back(emitExpr(x, elemHint));
  }
  TypePtr elemType;
  if (elemHint) {
    elemType = elemHint;
    for (size_t i = 0; i < vs.size(); ++i) {
      vs[i] = tryConvertToType(e.elts[i]->range, graph_, elemHint, vs[i], true, *registry_);
      if (!vs[i]->type()->isSubtypeOf(elemHint)) {
        // as PyTorch: name the elements' unified type
        TypePtr unified = vs[0]->type();
        for (size_t j = 1; j < vs.size() && unified; ++j) {
          auto u = unifyTypes(unified, vs[j]->type());
          unified = u ? *u : nullptr;
        }
        throw CompileError("List type annotation `" + hint->annotationStr() +
                               "` did not match the types of the given list elements, which were unified to " +
                               (unified ? unified : vs[i]->type())->annotationStr(),
                           e.range);
      }
    }
  } else if (vs.empty()) {
    elemType = TensorType();
  } else {
    elemType = vs[0]->type();
    for (size_t i = 1; i < vs.size(); ++i) {
      auto u = unifyTypes(elemType, vs[i]->type());
      // heterogeneous lists are List[Union[...]] (PyTorch 1.13 warns and does the same)
      elemType = u ? *u : UnionType::create({elemType, vs[i]->type()});
    }
  }
  return createList(elemType, vs, e.range);
}

Value* FunctionEmitter::emitDictLiteral(const DictExpr& e, const TypePtr& typeHint) {
  TypePtr hint = typeHint;
  if (hint && hint->kind() == TypeKind::Optional) hint = hint->cast<OptionalType>()->elementType();
  const DictType* dh = hint ? hint->cast<DictType>() : nullptr;
  std::vector<Value*> inputs;
  TypePtr kt, vt;
  for (size_t i = 0; i < e.keys.size(); ++i) {
    Value* k = emitExpr(e.keys[i], dh ? dh->keyType() : nullptr);
    Value* v = emitExpr(e.values[i], dh ? dh->valueType() : nullptr);
    if (dh) v = tryConvertToType(e.values[i]->range, graph_, dh->valueType(), v, true, *registry_);
    if (!kt) {
      kt = k->type();
      vt = v->type();
    } else {
      auto uk = unifyTypes(kt, k->type());
      auto uv = unifyTypes(vt, v->type());
      if (!uk || !uv) throw CompileError("Dict values must contain only a single type", e.range);
      kt = *uk;
      vt = *uv;
    }
    inputs.push_back(k);
    inputs.push_back(v);
  }
  if (dh) {
    if (kt && (!kt->isSubtypeOf(dh->keyType()) || !vt->isSubtypeOf(dh->valueType())))
      throw CompileError("Dict type annotation `" + hint->annotationStr() + "` did not match the type of an actual key type `" +
                             kt->annotationStr() + "` or value type `" + vt->annotationStr() + "`",
                         e.range);
    kt = dh->keyType();
    vt = dh->valueType();
  } else if (!kt) {
    kt = StringType();
    vt = TensorType();
  }
  Node* n = graph_.insert(prim::DictConstruct, inputs, 1);  // no source range, as PyTorch's createDict
  n->output()->setType(DictType::create(kt, vt));
  return n->output();
}

Value* FunctionEmitter::emitListComprehension(const ComprehensionExpr& e, const TypePtr& typeHint) {
  if (e.generators.size() != 1) throw CompileError("List comprehensions with multiple for clauses are not supported", e.range);
  const Comprehension& g = e.generators[0];
  if (!g.ifs.empty()) throw CompileError("Comprehension ifs are not supported yet", e.range);
  Node* ln = graph_.insert(prim::ListConstruct, {}, 1);  // no source range, as PyTorch's createList
  Value* list = ln->output();
  bool typeSet = false;
  if (typeHint && typeHint->kind() == TypeKind::List) {
    list->setType(typeHint);
    typeSet = true;
  } else {
    list->setType(ListType::ofTensors());
  }
  auto frame = std::make_shared<Environment>(env_->block, env_);
  env_ = frame;
  auto body = std::make_shared<ExprStmt>(e.range, nullptr);  // placeholder, body emitted via callback below
  (void)body;
  SugaredValuePtr it = emitSugaredExpr(g.iter);
  auto emitElem = [&]() {
    Value* out = emitExpr(e.elt);
    if (!typeSet) {
      list->setType(ListType::create(out->type()));
      typeSet = true;
    }
    builtinCall(e.range, "aten::append", {NamedValue(e.range, out)}, {}, NamedValue(e.range, "self", list));
  };
  // Reuse the for-loop machinery with a synthetic body.
  auto bindAndEmit = [&](const SugaredValuePtr& elem) {
    emitAssignTarget(g.target, elem, e.range, nullptr);
    emitElem();
  };
  if (it->shouldUnroll()) {
    for (auto& el : it->asTuple(e.range, *this)) bindAndEmit(el);
  } else {
    IterPlan plan = planIteration(*this, g.iter->range, it);
    Value* trip = iterationTripCount(*this, e.range, plan);
    Node* n = graph_.insert(prim::Loop, {trip, insertConstant(IValue(true), e.range)}, 0);
    n->setSourceRange(e.range);
    Block* b = n->addBlock();
    Value* idx = b->addInput();
    idx->setType(IntType());
    auto lf = std::make_shared<Environment>(b, env_);
    env_ = lf;
    {
      WithInsertPoint guard(b);
      bindAndEmit(iterationElement(*this, e.range, plan, idx));
      b->registerOutput(insertConstant(IValue(true), e.range));
    }
    env_ = lf->next;
  }
  env_ = frame->next;
  return list;
}

Value* FunctionEmitter::emitDictComprehension(const ComprehensionExpr& e, const TypePtr& typeHint) {
  if (e.generators.size() != 1) throw CompileError("Dict comprehensions with multiple for clauses are not supported", e.range);
  const Comprehension& g = e.generators[0];
  if (!g.ifs.empty()) throw CompileError("Comprehension ifs are not supported yet", e.range);
  Node* dn = graph_.insert(prim::DictConstruct, {}, 1);  // no source range, as PyTorch's createDict
  Value* dict = dn->output();
  bool typeSet = typeHint && typeHint->kind() == TypeKind::Dict;
  dict->setType(typeSet ? typeHint : DictType::create(StringType(), TensorType()));
  auto frame = std::make_shared<Environment>(env_->block, env_);
  env_ = frame;
  SugaredValuePtr it = emitSugaredExpr(g.iter);
  auto bindAndEmit = [&](const SugaredValuePtr& elem) {
    emitAssignTarget(g.target, elem, e.range, nullptr);
    Value* k = emitExpr(e.elt);
    Value* v = emitExpr(e.value);
    if (!typeSet) {
      dict->setType(DictType::create(k->type(), v->type()));
      typeSet = true;
    }
    builtinCall(e.range, "aten::_set_item", {NamedValue(e.range, dict), NamedValue(e.range, k), NamedValue(e.range, v)});
  };
  if (it->shouldUnroll()) {
    for (auto& el : it->asTuple(e.range, *this)) bindAndEmit(el);
  } else {
    IterPlan plan = planIteration(*this, g.iter->range, it);
    Value* trip = iterationTripCount(*this, e.range, plan);
    Node* n = graph_.insert(prim::Loop, {trip, insertConstant(IValue(true), e.range)}, 0);
    n->setSourceRange(e.range);
    Block* b = n->addBlock();
    Value* idx = b->addInput();
    idx->setType(IntType());
    auto lf = std::make_shared<Environment>(b, env_);
    env_ = lf;
    {
      WithInsertPoint guard(b);
      bindAndEmit(iterationElement(*this, e.range, plan, idx));
      b->registerOutput(insertConstant(IValue(true), e.range));
    }
    env_ = lf->next;
  }
  env_ = frame->next;
  return dict;
}

Value* FunctionEmitter::emitJoinedStr(const JoinedStrExpr& e) {
  // f"a{x}b" → "a{}b".format(x)  (aten::format)
  std::string fmt;
  std::vector<NamedValue> args;
  for (auto& p : e.parts) {
    if (!p.value) {
      for (char ch : p.literal) {
        if (ch == '{') fmt += "{{";
        else if (ch == '}') fmt += "}}";
        else fmt += ch;
      }
      continue;
    }
    if (!p.formatSpec.empty() || !p.conversion.empty())
      throw CompileError("f-string format specs and conversions are not supported", e.range);
    fmt += "{}";
    args.emplace_back(p.value->range, emitExpr(p.value));
  }
  Value* f = insertConstant(IValue(fmt), e.range);
  args.insert(args.begin(), NamedValue(e.range, f));
  return builtinCallValue(e.range, "aten::format", args);
}

// --------------------------------------------------------------- subscripts

SugaredValuePtr FunctionEmitter::emitSubscript(const SubscriptExpr& s, const TypePtr& typeHint) {
  const SourceRange& loc = s.range;
  // `__annotations__["0"]`-style and typing subscripts are not values
  SugaredValuePtr base = emitSugaredExpr(s.value);
  if (!dynamic_cast<SimpleValue*>(base.get()) && base->shouldUnroll()) {
    // index into a sugared tuple (module list) with a constant
    if (s.subscripts.size() != 1) throw CompileError("Expected exactly one index", loc);
    Value* idx = emitExpr(s.subscripts[0]);
    auto c = idx->constantValue();
    if (!c || !c->isInt()) throw CompileError("Expected an integer constant as the index of a module list or tuple", s.subscripts[0]->range);
    auto elems = base->asTuple(loc, *this);
    int64_t i = c->toInt();
    if (i < 0) i += static_cast<int64_t>(elems.size());
    if (i < 0 || i >= static_cast<int64_t>(elems.size())) throw CompileError("Index out of range", loc);
    return elems[static_cast<size_t>(i)];
  }
  Value* v = base->asValue(s.value->range, *this);
  const TypePtr& t = v->type();
  switch (t->kind()) {
    case TypeKind::Tensor: return std::make_shared<SimpleValue>(emitTensorIndexing(loc, v, s.subscripts));
    case TypeKind::Tuple: {
      if (s.subscripts.size() != 1) throw CompileError("Tuple indexing takes a single index or slice", loc);
      const auto& elems = t->cast<TupleType>()->elements();
      const ExprPtr& sub = s.subscripts[0];
      if (sub->kind == ExprKind::Slice) {
        auto& sl = sub->as<SliceExpr>();
        auto constOr = [&](const ExprPtr& x, int64_t d) -> int64_t {
          if (!x) return d;
          IValue c = evalConstantExpr(x, IntType());
          if (!c.isInt()) throw CompileError("tuple slice indices must be integer constants", x->range);
          return c.toInt();
        };
        int64_t n = static_cast<int64_t>(elems.size());
        int64_t step = constOr(sl.step, 1);
        if (step != 1) throw CompileError("tuple slices with a step are not supported", sub->range);
        int64_t beg = constOr(sl.start, 0), end = constOr(sl.end, n);
        if (beg < 0) beg += n;
        if (end < 0) end += n;
        beg = std::clamp<int64_t>(beg, 0, n);
        end = std::clamp<int64_t>(end, beg, n);
        Node* node = graph_.insert(prim::TupleSlice, {v}, 1);
        node->i_("beg", beg);
        node->i_("end", end);
        node->setSourceRange(loc);
        node->output()->setType(TupleType::create(std::vector<TypePtr>(elems.begin() + beg, elems.begin() + end)));
        return std::make_shared<SimpleValue>(node->output());
      }
      Value* idx = emitExpr(sub);
      auto c = idx->constantValue();
      if (!c || !c->isInt()) {
        // a dynamic index is allowed when all elements have one type
        bool same = !elems.empty();
        for (auto& el : elems) same &= el->equals(*elems[0]);
        if (!same) throw CompileError("Tuple index must be an integer constant when the element types differ", sub->range);
        Node* node = graph_.insert(prim::TupleIndex, {v, idx}, 1);
        node->setSourceRange(loc);
        node->output()->setType(elems[0]);
        return std::make_shared<SimpleValue>(node->output());
      }
      int64_t i = c->toInt();
      int64_t n = static_cast<int64_t>(elems.size());
      if (i < 0) i += n;
      if (i < 0 || i >= n)
        throw CompileError("Tuple index out of range. Tuple is length " + std::to_string(n) + " and index is " +
                               std::to_string(c->toInt()),
                           loc);
      // An element of a tuple built right here is its input (PyTorch's LowerSimpleTuples folds these).
      if (v->node()->kind() == prim::TupleConstruct) return std::make_shared<SimpleValue>(v->node()->input(static_cast<size_t>(i)));
      if (i != c->toInt()) idx = insertConstant(IValue(i), sub->range);
      Node* node = graph_.insert(prim::TupleIndex, {v, idx}, 1);
      node->setSourceRange(loc);
      node->output()->setType(elems[static_cast<size_t>(i)]);
      return std::make_shared<SimpleValue>(node->output());
    }
    case TypeKind::List:
    case TypeKind::Str: {
      if (s.subscripts.size() != 1) throw CompileError("Only one index is allowed for list and string indexing", loc);
      const ExprPtr& sub = s.subscripts[0];
      if (sub->kind == ExprKind::Slice) {
        auto& sl = sub->as<SliceExpr>();
        std::vector<NamedValue> kw;
        if (sl.start) kw.emplace_back(sl.start->range, "start", emitExpr(sl.start));
        if (sl.end) kw.emplace_back(sl.end->range, "end", emitExpr(sl.end));
        if (sl.step) kw.emplace_back(sl.step->range, "step", emitExpr(sl.step));
        return builtinCall(loc, "aten::slice", {NamedValue(s.value->range, v)}, kw);
      }
      Value* idx = emitExpr(sub);
      return builtinCall(loc, "aten::__getitem__", {NamedValue(s.value->range, v), NamedValue(sub->range, idx)});
    }
    case TypeKind::Dict: {
      if (s.subscripts.size() != 1) throw CompileError("Only one key is allowed for dict indexing", loc);
      Value* key = emitExpr(s.subscripts[0], t->cast<DictType>()->keyType());
      return builtinCall(loc, "aten::__getitem__", {NamedValue(s.value->range, v), NamedValue(s.subscripts[0]->range, key)});
    }
    case TypeKind::Class: {
      if (t->cast<ClassType>()->findMethod("__getitem__")) {
        std::vector<NamedValue> args;
        for (auto& x : s.subscripts) args.emplace_back(x->range, emitExpr(x));
        return callMethod(loc, v, "__getitem__", args, {});
      }
      break;
    }
    default: break;
  }
  (void)typeHint;
  throw CompileError("'" + t->annotationStr() + "' object is not subscriptable", s.value->range);
}

Value* FunctionEmitter::emitTensorIndexing(const SourceRange& loc, Value* tensor, const std::vector<ExprPtr>& subs) {
  // As PyTorch's emitIntAndSliceIndexing: ints select (dim stays), slices slice (dim+1), None unsqueezes
  // (dim+1), `...` skips to the trailing dims, tensors/lists become aten::index indices.
  size_t consumingAfterEllipsis = 0;
  bool seenEllipsis = false;
  for (auto& s : subs) {
    if (s->kind == ExprKind::Ellipsis) {
      if (seenEllipsis) throw CompileError("an index can only have a single ellipsis ('...')", s->range);
      seenEllipsis = true;
      continue;
    }
    if (seenEllipsis && s->kind != ExprKind::None) ++consumingAfterEllipsis;
  }
  int64_t dim = 0;
  bool seenEllipsisSoFar = false;
  Value* cur = tensor;
  std::vector<std::pair<int64_t, Value*>> tensorIndices;  // (dim, index)
  auto cst = [&](int64_t x, const SourceRange& r) { return insertConstant(IValue(x), r); };
  for (auto& s : subs) {
    const SourceRange& r = s->range;
    if (s->kind == ExprKind::Ellipsis) {
      dim = -static_cast<int64_t>(consumingAfterEllipsis);
      seenEllipsisSoFar = true;
      continue;
    }
    if (s->kind == ExprKind::None) {
      // after `...`, dims count from the end: insert before the remaining indexed dims
      bool fromEnd = seenEllipsisSoFar;
      cur = builtinCallValue(r, "aten::unsqueeze", {NamedValue(r, cur), NamedValue(r, cst(fromEnd ? dim - 1 : dim, r))});
      if (!fromEnd) ++dim;
      continue;
    }
    if (s->kind == ExprKind::Slice) {
      auto& sl = s->as<SliceExpr>();
      std::vector<NamedValue> args{NamedValue(r, cur), NamedValue(r, cst(dim, r))};
      std::vector<NamedValue> kw;
      if (sl.start) kw.emplace_back(sl.start->range, "start", emitExpr(sl.start));
      if (sl.end) kw.emplace_back(sl.end->range, "end", emitExpr(sl.end));
      if (sl.step) kw.emplace_back(sl.step->range, "step", emitExpr(sl.step));
      bool trivial = !sl.start && !sl.end && !sl.step;
      if (!trivial || dim < 0 || true) cur = builtinCallValue(r, "aten::slice", args, kw);
      ++dim;
      continue;
    }
    Value* idx = emitExpr(s);
    TypeKind k = idx->type()->kind();
    if (k == TypeKind::Int) {
      cur = builtinCallValue(r, "aten::select", {NamedValue(r, cur), NamedValue(r, cst(dim, r)), NamedValue(r, idx)});
      if (dim < 0) ++dim;
      continue;
    }
    if (k == TypeKind::Tensor || k == TypeKind::List || k == TypeKind::Bool) {
      if (k == TypeKind::List || k == TypeKind::Bool) idx = builtinCallValue(r, "aten::tensor", {NamedValue(r, idx)});
      tensorIndices.emplace_back(dim, idx);
      ++dim;
      continue;
    }
    throw CompileError("Unsupported operation: indexing tensor with unsupported index type '" +
                           idx->type()->annotationStr() + "'. Only ints, slices, lists and tensors are supported",
                       r);
  }
  if (tensorIndices.empty()) return cur;
  int64_t maxDim = 0;
  for (auto& [d, v] : tensorIndices) {
    if (d < 0) throw CompileError("tensor indices after '...' are not supported", loc);
    maxDim = std::max(maxDim, d);
  }
  std::vector<Value*> indices(static_cast<size_t>(maxDim + 1), nullptr);
  for (auto& [d, v] : tensorIndices) indices[static_cast<size_t>(d)] = v;
  for (auto& x : indices)
    if (!x) x = insertConstant(IValue(), loc, OptionalType::create(TensorType()));
  Value* list = createList(OptionalType::create(TensorType()), indices, loc);
  return builtinCallValue(loc, "aten::index", {NamedValue(loc, cur), NamedValue(loc, list)});
}

}  // namespace kindling
