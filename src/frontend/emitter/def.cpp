// A whole `def`: parameters bound, the body emitted, its return joined or inferred (PyTorch's
// handleMaybeNoReturn and return type inference).
#include "frontend/ir_emitter.h"

#include <functional>
#include <set>
#include <unordered_map>

#include "frontend/emitter/environment.h"
#include "frontend/emitter/control_flow_analysis.h"
#include "frontend/emitter/keyword_arguments.h"

namespace kindling {

using namespace emitter;

void FunctionEmitter::emitDef(const DefStmt& def, const FunctionSchema& schema, const TypePtr& selfType) {
  env_ = std::make_shared<Environment>(graph_.block(), nullptr);
  // The parameters *args and **kwargs bind (VariadicBinding): their schema arguments by name.
  const VariadicBinding* variadic = ctx_.variadic && ctx_.variadic->def == &def ? ctx_.variadic.get() : nullptr;
  const Param* varArgs = nullptr;
  const Param* kwArgs = nullptr;
  for (const Param& p : def.params) {
    if (p.isVarArgs) varArgs = &p;
    if (p.isKwArgs) kwArgs = &p;
  }
  std::unordered_map<std::string, size_t> boundPositional;
  std::set<std::string> boundKeywords;
  if (variadic && varArgs)
    for (size_t k = 0; k < variadic->positional.size(); ++k) boundPositional[varArgs->name + "_" + std::to_string(k)] = k;
  if (variadic && kwArgs)
    for (const auto& kw : variadic->keywords) boundKeywords.insert(kw.first);
  std::vector<Value*> packed(boundPositional.size());
  std::vector<std::pair<std::string, Value*>> keywords;
  for (size_t i = 0; i < schema.arguments.size(); ++i) {
    const Argument& a = schema.arguments[i];
    Value* v = graph_.addInput();
    v->setType(a.type);
    if (meaningfulName(a.name)) v->setDebugName(a.name);
    if (auto it = boundPositional.find(a.name); it != boundPositional.end() && !a.kwargOnly) {
      packed[it->second] = v;
    } else if (a.kwargOnly && boundKeywords.count(a.name)) {
      keywords.emplace_back(a.name, v);
    } else {
      env_->table[a.name] = std::make_shared<SimpleValue>(v);
    }
  }
  if (varArgs) env_->table[varArgs->name] = std::make_shared<SimpleValue>(createTuple(packed, varArgs->range));
  if (kwArgs)
    env_->table[kwArgs->name] = std::make_shared<KeywordArgumentsValue>(
        std::move(keywords), kwArgs->annotation ? typeParser_.parse(kwArgs->annotation) : nullptr);
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
        if (st->kind == StmtKind::For &&
            (returnInLoop(st->as<ForStmt>().body, true) || returnInLoop(st->as<ForStmt>().orelse, inLoop)))
          return true;
        if (st->kind == StmtKind::While &&
            (returnInLoop(st->as<WhileStmt>().body, true) || returnInLoop(st->as<WhileStmt>().orelse, inLoop)))
          return true;
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

}  // namespace kindling
