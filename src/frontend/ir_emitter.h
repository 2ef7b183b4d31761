// IR emitter: one TorchScript function (a `def` AST) → an SSA Graph (torch/csrc/jit/frontend/ir_emitter.cpp).
//
// Structure, as PyTorch:
//   - an environment stack, one frame per block, mapping variable names to SugaredValues; assignment
//     sets a variable in the current frame; a variable assigned in a nested block that existed before
//     must keep a subtype of its type ("Variable 'x' previously had type ...");
//   - `if` → prim::If with one output per variable (sorted by name) assigned in either branch and
//     defined on both paths; types joined with unifyTypes; a variable defined in only one branch is an
//     error when used later ("'x' is not defined in the false branch"), unless the other branch raises;
//     conditions known statically (`x is None` on a NoneType value, isinstance, hasattr) emit only the
//     taken branch; `is None`/`is not None`/isinstance refine Optional variables via prim::unchecked_cast;
//   - loops → prim::Loop(max_trip_count, cond, carried...) with a block (iteration, carried...) →
//     (cond, carried...): `for` over range(...), lists, strings, tensors, dict keys, enumerate/zip;
//     tuples and module lists are unrolled; `while` evaluates the condition before and at the end of the
//     body; carried variables are the ones the body assigns that exist before the loop;
//   - early `return` (not inside loops) is lowered by moving the statements after an `if` whose branch
//     returns into the other branch, so every path ends with its return value ("$return" variable);
//     `break`/`continue` in loops are lowered the same way (continue: rest moved into the else branch;
//     break: a loop-carried "did not break" flag becomes the loop condition);
//   - calls: operators through schema matching (frontend/schema_matching.h), TorchScript functions via
//     prim::CallFunction, methods via prim::CallMethod, attributes via prim::GetAttr/SetAttr, class
//     constants (`Final`) folded to prim::Constant;
//   - values get debug names from variable names ("x", then PyTorch renames older ones to "x.1"), and
//     every node the range of the expression it came from.
// torch.jit.fork is emitted by frontend/emitter/fork.h (prim::fork with a subgraph); torch.jit.wait is the
// aten::wait operator.
// Not supported yet: interfaces, @property, @torch.jit.ignore (an error: it needs Python), NamedTuple
// field defaults.
// PyTorch's exact value-name suffixes (it names parameters "%x.1" because of its Load/Store SSA pass)
// are not reproduced: names match up to those suffixes.
// The implementation is frontend/emitter/, one file per concept: def.cpp and def_schema.cpp (a whole
// `def` and its schema), statements.cpp (dispatch, early-exit lowering, return), assignment.cpp (targets,
// augmented assignment, del), conditionals.cpp (if, if-expressions), loops.cpp, exceptions.cpp (raise,
// assert), context_managers.cpp (with), expressions.cpp (dispatch), names.cpp, calls.cpp,
// special_forms.cpp, conditions.cpp (truth, and/or/not, comparisons, isinstance), operators.cpp,
// literals.cpp, comprehensions.cpp, subscripts.cpp, constant_expression.cpp, fork.h, iteration.h;
// environment.h and control_flow_analysis.h hold what they share.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/function_schema.h"
#include "frontend/schema_matching.h"
#include "frontend/sugared_value.h"
#include "frontend/tree.h"
#include "frontend/type_parser.h"
#include "ir/ir.h"

namespace kindling {

struct ClassDefinition;  // frontend/class_inheritance.h

/// Resolves names that are not defined in the function itself: other functions and classes of the
/// program or archive (by qualified name such as "__torch__.torch.nn.functional.relu", or as written in
/// user source), and the archive's tensor constants. Implemented by the compiler (user programs) and by
/// the SourceImporter (archives), which load definitions on demand.
class Resolver {
 public:
  virtual ~Resolver() = default;
  /// A class / named tuple / enum type, or nullptr.
  virtual TypePtr resolveType(const std::string& name, const SourceRange& loc) = 0;
  /// A TorchScript function, or nullptr.
  virtual Function* resolveFunction(const std::string& name, const SourceRange& loc) = 0;
  /// A global value such as an imported module alias (`F` for torch.nn.functional), or nullptr.
  virtual SugaredValuePtr resolveValue(const std::string& name, const SourceRange& loc) { return nullptr; }
  /// A method `name` of the class `cls` that the class does not define yet, compiled on demand (a module
  /// built from Python compiles the methods its code calls on `self` when the emitter first meets them,
  /// as torch's ModuleValue::attr does), or nullptr. Called only when `cls` has no method of that name.
  virtual Function* resolveMethod(const ClassType& cls, const std::string& name, const SourceRange& loc) {
    return nullptr;
  }
  /// The overloads of method `name` of `cls` (torch's ConcreteModuleType overloads: the
  /// `@_overload_method` declarations of a Python method compiled as methods "name__0", "name__1", ... of
  /// `cls`, or a module's `__overloads__` table), in the order a call tries them; empty when `name` is not
  /// overloaded. `obj.name(...)` (and `obj(...)` for "forward") then calls the first overload whose schema
  /// matches the arguments, exactly first, then with implicit conversions, as builtin operators match.
  /// Archives never carry overloads: their code calls the overloads by their own names.
  virtual std::vector<std::string> resolveMethodOverloads(const ClassType& cls, const std::string& name,
                                                          const SourceRange& loc) {
    return {};
  }
  /// A compile-time attribute of the module class `cls` that is not one of its slots: a function the
  /// Python module holds as an attribute (`self.activation = F.relu`; torch's ConcreteModuleType function
  /// attributes and builtin functions), resolved as the function itself, or nullptr. Called only for
  /// names that are neither slots, constants nor overloaded methods of `cls`.
  virtual SugaredValuePtr resolveModuleAttribute(const ClassType& cls, const std::string& name, const SourceRange& loc) {
    return nullptr;
  }
  /// `CONSTANTS.c<N>` of an archive, or nullopt.
  virtual std::optional<IValue> resolveConstant(const std::string& name, const SourceRange& loc) { return std::nullopt; }
  /// The definition (class statement and what its methods compile with) of the user class `name` (as
  /// written among a class statement's bases: "Base", "m.Base"), or nullptr when `name` is no such class.
  /// TorchScript classes inherit from the classes this finds (frontend/class_inheritance.h).
  virtual std::shared_ptr<const ClassDefinition> resolveClassDefinition(const std::string& name, const SourceRange& loc) {
    return nullptr;
  }
};

/// Calls between functions seen while emitting, to reject recursion as TorchScript does.
struct CallGraph {
  std::unordered_map<const Function*, std::vector<const Function*>> callees;
  /// Adds caller → callee; true if that closes a cycle (callee reaches caller).
  bool addAndCheckCycle(const Function* caller, const Function* callee);
};

/// The arguments one call binds to a `def`'s `*args` and `**kwargs`, known statically (torch.jit 1.13 rejects
/// such defs: "Compiled functions can't take variable number of arguments"). The def is compiled once per
/// binding (schemaForDef, emitFunctionBody with EmitContext::variadic): the schema lists the extra positional
/// arguments as parameters "<args>_0" ... "<args>_{n-1}" after the fixed ones (which then lose their
/// defaults: a call passing extra arguments passes them all) and the keyword arguments as keyword-only
/// parameters named by their keys, after the declared ones; the body sees `args` as the tuple of the former
/// and `kwargs` as the statically known dict of the latter (frontend/emitter/keyword_arguments.h). A def
/// compiled without a binding for it takes neither: `args` is `()` and `kwargs` is empty.
struct VariadicBinding {
  const DefStmt* def = nullptr;                           // the def this binding is for
  std::vector<TypePtr> positional;                        // the types of the arguments *args binds
  std::vector<std::pair<std::string, TypePtr>> keywords;  // the keys and types of those **kwargs binds
};

struct EmitContext {
  std::shared_ptr<Resolver> resolver;
  const OperatorRegistry* registry = nullptr;  // null: OperatorRegistry::global()
  /// Names exposed to the code: `ops`, `CONSTANTS`, `__torch__`, `annotate`, `uninitialized`,
  /// `unchecked_cast` are available when archiveMode is set (archive code/ files).
  bool archiveMode = false;
  /// Set while a class's __init__ is emitted to discover its attributes: assignments to unknown
  /// `self.x` add attribute x (typed from the value or its annotation) to this class.
  std::shared_ptr<ClassType> inferAttributesOf;
  /// When set, calls are recorded and recursion is a CompileError; `currentFunction` is the caller.
  std::shared_ptr<CallGraph> callGraph;
  const Function* currentFunction = nullptr;
  /// `@staticmethod`s of the program's classes, by "<class qualname>.<name>": as PyTorch 1.13 they are
  /// free functions ("__torch__.<name>", not methods of the class), reached as `Class.name`.
  std::shared_ptr<std::unordered_map<std::string, Function*>> staticMethods;
  /// What `super` names in the method being emitted, ahead of the resolver: set for the methods of
  /// TorchScript classes (frontend/class_inheritance.h), null elsewhere.
  std::shared_ptr<SuperValue> super;
  /// What the function being compiled binds to its `*args` / `**kwargs` (applies only to variadic->def).
  std::shared_ptr<const VariadicBinding> variadic;
};

/// The schema of a `def`: parameter types from annotations (or a `# type:` comment; Tensor when
/// missing; `self` gets `selfType`), defaults evaluated as constants, the return annotation (None when
/// the function has no annotation and no `return value`; otherwise inferred by emitting the body).
/// `name` is the schema name (the function's qualified name).
FunctionSchema schemaForDef(const DefStmt& def, const std::string& name, const TypePtr& selfType,
                            const EmitContext& ctx);

/// Emits `def`'s body into the empty `graph` (inputs named after the parameters, one output).
/// Throws CompileError on any error in the body.
void emitFunctionBody(Graph& graph, const DefStmt& def, const FunctionSchema& schema, const TypePtr& selfType,
                      const EmitContext& ctx);

/// A constant expression (default values, class constants): numbers, strings, bool, None, tuples and
/// lists of those, negative numbers. Throws CompileError otherwise. `type` (optional) shapes lists.
IValue evalConstantExpr(const ExprPtr& e, const TypePtr& type);

/// A parameter default: a constant expression (evalConstantExpr), or else an expression of constants and
/// operators (`torch.ones(2)`, `torch.float32`) evaluated now, as Python evaluates defaults when the def
/// runs. Throws CompileError for anything else (control flow, calls of TorchScript functions).
IValue evalDefaultExpr(const ExprPtr& e, const TypePtr& type, const EmitContext& ctx);

/// Variables widened from None to Optional[T] (frontend/emitter/none_widening.h): name → Optional[T].
using NoneWidenings = std::unordered_map<std::string, TypePtr>;

struct Environment;
struct CondValue;
struct Refinement;

/// The per-function emitter. Its public members are also the toolkit of SugaredValue implementations.
class FunctionEmitter {
 public:
  FunctionEmitter(Graph& graph, const EmitContext& ctx);
  ~FunctionEmitter();
  void emitDef(const DefStmt& def, const FunctionSchema& schema, const TypePtr& selfType);
  /// After emitDef with a schema whose return type is null (inference): the unified type of the
  /// values returned (None when nothing is returned).
  TypePtr inferredReturnType() const { return inferredReturn_; }

  Graph& graph() { return graph_; }
  const OperatorRegistry& registry() const { return *registry_; }
  const EmitContext& context() const { return ctx_; }
  const TypeParser& typeParser() const { return typeParser_; }

  Value* insertConstant(const IValue& v, const SourceRange& loc, TypePtr type = nullptr);
  /// An int or float literal, as PyTorch's emitConst (materializeConstant): one constant per value and
  /// function, inserted at the front of the graph (so printed graphs number and order them as PyTorch).
  Value* literalConstant(const IValue& v, const SourceRange& loc);
  /// A builtin operator call; returns its single output, a tuple of its outputs, or NoneValue.
  SugaredValuePtr builtinCall(const SourceRange& loc, const std::string& name, const std::vector<NamedValue>& args,
                              const std::vector<NamedValue>& kwargs = {},
                              const std::optional<NamedValue>& self = std::nullopt);
  Value* builtinCallValue(const SourceRange& loc, const std::string& name, const std::vector<NamedValue>& args,
                          const std::vector<NamedValue>& kwargs = {}, const std::optional<NamedValue>& self = std::nullopt);
  SugaredValuePtr callFunction(const SourceRange& loc, Function* fn, const std::vector<NamedValue>& args,
                               const std::vector<NamedValue>& kwargs);
  SugaredValuePtr callMethod(const SourceRange& loc, Value* self, const std::string& name,
                             const std::vector<NamedValue>& args, const std::vector<NamedValue>& kwargs);
  /// A call of one of the methods `names` of `self` (the overloads of one method, in order): the first
  /// whose schema matches (matchSchemas) becomes the prim::CallMethod; none matching is a CompileError
  /// listing every overload's schema.
  SugaredValuePtr callMethod(const SourceRange& loc, Value* self, const std::vector<std::string>& names,
                             const std::vector<NamedValue>& args, const std::vector<NamedValue>& kwargs);
  /// As callFunction, choosing among the overloads `fns` of one function (matchSchemas order).
  SugaredValuePtr callFunction(const SourceRange& loc, const std::vector<Function*>& fns,
                               const std::vector<NamedValue>& args, const std::vector<NamedValue>& kwargs);
  /// torch._assert(condition, message), torch's builtin function `_assert` (overloads (bool, str) and
  /// (Tensor, str); a Tensor condition is tested as bool(condition)): `if condition: pass else: raise
  /// AssertionError(message)`. Both arguments are values already computed, as in torch's inlined call.
  /// Throws CompileError naming the argument whose type is wrong.
  void emitAssertCall(const SourceRange& loc, Value* condition, Value* message);
  /// Wraps node outputs: 0 → NoneValue, 1 → SimpleValue, n → SimpleValue of a prim::TupleConstruct.
  SugaredValuePtr packOutputs(const std::vector<Value*>& outs, const SourceRange& loc);
  Value* createTuple(const std::vector<Value*>& elems, const SourceRange& loc);
  Value* createList(const TypePtr& elemType, const std::vector<Value*>& elems, const SourceRange& loc);
  /// Called for every variable assignment: inside a try body, the variables an except clause reads keep
  /// their value at the time of the exception (try_except.cpp).
  void noteAssignment(const std::string& name, Value* v, const SourceRange& loc);
  /// Variables that start as None and take a T later (none_widening.h): `x = None` of such a name is typed
  /// Optional[T]; with `collect`, setVar throws a NoneWideningRequest where it would report that a
  /// variable of type NoneType is assigned a T.
  void setNoneWidenings(NoneWidenings w, bool collect) {
    noneWidenings_ = std::move(w);
    collectWidenings_ = collect;
  }
  TypePtr widenedType(const std::string& name) const {
    auto it = noneWidenings_.find(name);
    return it == noneWidenings_.end() ? nullptr : it->second;
  }
  bool collectingWidenings() const { return collectWidenings_; }
  /// Emits `e` alone into the (empty) graph, in an empty environment: evalDefaultExpr's first step.
  Value* emitStandaloneExpr(const ExprPtr& e, const TypePtr& typeHint);
  /// A call of the lambda `e` (a LambdaExpr; `defaults` evaluated where it was written, one per
  /// parameter, null without): its body inlined with the parameters bound (frontend/emitter/lambdas.cpp).
  SugaredValuePtr inlineLambda(const SourceRange& loc, const ExprPtr& e, const std::vector<Value*>& defaults,
                               const std::vector<NamedValue>& args, const std::vector<NamedValue>& kwargs);

 private:
  friend struct Environment;
  // statements
  struct BlockExit;
  BlockExit emitStatements(const StmtList& stmts);
  BlockExit emitStatement(const StmtPtr& s, const StmtList& stmts, size_t index, bool& consumedRest);
  void emitAssign(const AssignStmt& s);
  void emitAugAssign(const AugAssignStmt& s);
  void emitAssignTarget(const ExprPtr& target, const SugaredValuePtr& value, const SourceRange& loc, const TypePtr& declared);
  void emitSubscriptAssign(const SubscriptExpr& target, Value* rhs, const SourceRange& loc);
  BlockExit emitIf(const IfStmt& s);
  BlockExit emitIfBranches(const CondValue& cond, const StmtList& trueBranch, const StmtList& falseBranch,
                           const SourceRange& loc);
  /// The same with each branch emitted by a callback (`assert`: an empty true branch, a raising false one).
  BlockExit emitIfBranches(const CondValue& cond, const std::function<BlockExit()>& trueBranch,
                           const std::function<BlockExit()>& falseBranch, const SourceRange& loc);
  /// Emits the two blocks of `n` (a prim::If, or a prim::Try: the try body and its handler) from the
  /// callbacks and makes the variables either assigns outputs of `n`, as an if statement does. `names`
  /// names the blocks in errors ("x is not defined in the false branch").
  using BlockNames = std::pair<const char*, const char*>;
  BlockExit emitTwoBlocks(Node* n, const std::function<BlockExit()>& first, const std::function<BlockExit()>& second,
                          const std::vector<Refinement>& firstRefs, const std::vector<Refinement>& secondRefs,
                          const SourceRange& loc, const BlockNames& names);
  BlockExit emitTry(const TryStmt& s, const StmtList& rest);
  /// prim::Try: `body` in block0; `handler(cls, msg, text)` in block1, whose inputs are the class
  /// ("builtins.ValueError"), message and str() of the exception that stopped block0.
  /// The variables of `tracked` (those block0 assigns) enter block1 with the value they had when the
  /// exception was raised: each lives in a one-element list while block0 runs.
  BlockExit emitTryNode(const SourceRange& loc, const std::function<BlockExit()>& body,
                        const std::function<BlockExit(Value* cls, Value* msg, Value* text)>& handler,
                        const std::set<std::string>& tracked);
  void emitRaiseOf(const SourceRange& loc, Value* cls, Value* msg);
  /// RuntimeError "dictionary changed size during iteration" when `dict`'s size is no longer `size`, as
  /// Python's dict iterator raises at each step (loops.cpp).
  void emitDictSizeCheck(const SourceRange& loc, Value* dict, Value* size);
  void emitFor(const ForStmt& s);
  void emitWhile(const WhileStmt& s);
  void emitLoop(const SourceRange& loc, Value* maxTrip, const ExprPtr& whileCond,
                const std::function<void(Value* index)>& bindTargets, const StmtList& body,
                const std::vector<std::string>& extraAssigned);
  void emitUnrolledFor(const ForStmt& s, const std::vector<SugaredValuePtr>& elems);
  /// `$loop_return` (uninitialized) and `$did_return` (False): a return inside a loop or try statement
  /// stores its value and sets the flag; the code after the statement returns it.
  void declareFlaggedReturn(const SourceRange& loc);
  /// `rest` guarded by `not ($did_break<L> or $loop_continue<L>)` of the current loop level L.
  BlockExit emitUnlessIterationLeft(const SourceRange& loc, const StmtList& rest);
  /// The environment names of loop level `depth`'s break flag (also set by a return inside the loop) and
  /// continue flag.
  static std::string loopBreakFlag(int depth);
  static std::string loopContinueFlag(int depth);
  void emitRaise(const RaiseStmt& s);
  void emitAssert(const AssertStmt& s);
  void emitReturn(const ReturnStmt& s);
  void emitDelete(const DeleteStmt& s);
  void emitDeleteListSlice(const SourceRange& loc, Value* list, const SliceExpr& slice);
  void emitWith(const WithStmt& s);

  // expressions
  SugaredValuePtr emitSugaredExpr(const ExprPtr& e, size_t nBinders = 1, const TypePtr& typeHint = nullptr);
  Value* emitExpr(const ExprPtr& e, const TypePtr& typeHint = nullptr);
  CondValue emitCondExpr(const ExprPtr& e);
  Value* emitToBool(const SourceRange& loc, Value* v);
  SugaredValuePtr emitApply(const CallExpr& c, size_t nBinders, const TypePtr& typeHint);
  SugaredValuePtr emitSpecialForm(const SpecialFormValue& f, const CallExpr& c, const TypePtr& typeHint);
  /// `super()` / `super(C, self)` (see SuperValue).
  SugaredValuePtr emitSuper(const std::shared_ptr<SuperValue>& super, const CallExpr& c);
  std::vector<NamedValue> emitArgs(const std::vector<ExprPtr>& args);
  std::vector<NamedValue> emitKwargs(const std::vector<Keyword>& kws);
  Value* emitBinOp(const SourceRange& loc, BinOpKind op, Value* lhs, Value* rhs, const SourceRange& lloc, const SourceRange& rloc);
  Value* emitUnaryOp(const UnaryOpExpr& u);
  CondValue emitCompare(const CompareExpr& c);
  CondValue emitCompareOne(const SourceRange& loc, CmpOpKind op, const ExprPtr& lhsE, Value* lhs, const ExprPtr& rhsE, Value* rhs);
  CondValue emitBoolOp(const BoolOpExpr& b);
  Value* emitIfExp(const IfExpExpr& e, const TypePtr& typeHint);
  Value* emitListLiteral(const SequenceExpr& e, const TypePtr& typeHint);
  Value* emitDictLiteral(const DictExpr& e, const TypePtr& typeHint);
  Value* emitTupleLiteral(const SequenceExpr& e, const TypePtr& typeHint);
  Value* emitListComprehension(const ComprehensionExpr& e, const TypePtr& typeHint);
  Value* emitDictComprehension(const ComprehensionExpr& e, const TypePtr& typeHint);
  /// The `for` clauses of `e` from `index` on: nested loops and `if`s, `onElement` emitted innermost. With
  /// `proceed` (emits a bool Value), every loop stops, and every unrolled element is skipped, once it is false.
  void emitComprehensionClauses(const ComprehensionExpr& e, size_t index, const std::function<void()>& onElement,
                                const std::function<Value*()>& proceed = nullptr);
  /// any(<generator>) / all(<generator>) as Python runs them: elements are evaluated only until one is true
  /// (any) or false (all); the rest, and the iterables of later clauses, are never evaluated.
  Value* emitShortCircuitAnyAll(const ComprehensionExpr& e, bool isAny, const SourceRange& loc);
  /// The elements of `e` when every iterable is a tuple and every condition static (tuple(<generator>)).
  std::vector<SugaredValuePtr> emitUnrolledComprehension(const ComprehensionExpr& e);
  Value* emitJoinedStr(const JoinedStrExpr& e);
  SugaredValuePtr emitLambda(const ExprPtr& e);
  /// Python's builtin `sum(iterable, start=0)` of tensors (python_sum.cpp); null when `c` sums numbers,
  /// which aten::sum does.
  SugaredValuePtr tryEmitPythonSum(const CallExpr& c);
  /// `xs.sort()` / `sorted(xs)` of a list of class instances with __lt__ (class_sort.cpp); null when `f`
  /// is another call.
  SugaredValuePtr tryEmitClassListSort(const SourceRange& loc, const BuiltinFunction& f,
                                       const std::vector<NamedValue>& args, const std::vector<NamedValue>& kwargs);
  SugaredValuePtr emitSubscript(const SubscriptExpr& s, const TypePtr& typeHint);
  Value* emitTensorIndexing(const SourceRange& loc, Value* tensor, const std::vector<ExprPtr>& subs);
  SugaredValuePtr emitIsInstance(const CallExpr& c, CondValue* cond);
  SugaredValuePtr lookupName(const NameExpr& n);
  void noteVariableRead(const std::string& name);
  SugaredValuePtr iterableOf(const SourceRange& loc, const SugaredValuePtr& v);
  void insertRefinements(const SourceRange& loc, const std::vector<Refinement>& refs);

  Graph& graph_;
  EmitContext ctx_;
  const OperatorRegistry* registry_;
  TypeParser typeParser_;
  std::shared_ptr<Environment> env_;
  TypePtr declaredReturn_;       // null when not annotated
  bool inferring_ = false;       // emitting only to infer the return type
  std::vector<TypePtr> returnTypes_;
  TypePtr inferredReturn_;
  int loopDepth_ = 0;
  // try statements being emitted (innermost last): `return` inside them sets flags like a return inside
  // a loop; `continue` sets the flag of each one inside the current loop; bare `raise` in a handler
  // re-raises the exception it handles.
  struct TryContext {
    int id;
    int loopDepth;
  };
  std::vector<TryContext> tries_;
  struct HandledException {
    Value* cls;
    Value* msg;
  };
  std::vector<HandledException> handling_;
  std::vector<std::unordered_map<std::string, Value*>> cells_;  // per try body being emitted: name → its list
  int tryCounter_ = 0;
  std::unordered_map<int64_t, Value*> intLiterals_;
  std::unordered_map<double, Value*> floatLiterals_;  // keyed like PyTorch's: 0.0 and -0.0 share one
  std::vector<const LambdaExpr*> inlining_;  // lambdas whose calls are being inlined
  NoneWidenings noneWidenings_;
  bool collectWidenings_ = false;
  int exprDepth_ = 0;  // bounds recursion on pathological expressions
  size_t tmpCounter_ = 0;
};

}  // namespace kindling
