// The FunctionSchema of a `def`: parameter types from annotations or a `# type:` comment, defaults
// evaluated as constants, broadcasting-list arguments, the return type declared or inferred.
#include "frontend/ir_emitter.h"

#include "frontend/emitter/none_widening.h"

#include <optional>
#include <set>

#include "frontend/emitter/control_flow_analysis.h"
#include "frontend/parser.h"

namespace kindling {

using namespace emitter;

namespace {

// `BroadcastingList2[int]` or `Optional[BroadcastingList2[int]]` → 2 (torch/nn/functional.py's
// annotations for arguments that take an int or a list of ints).
std::optional<int32_t> broadcastingListSize(const ExprPtr& e) {
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
IValue broadcastDefault(const IValue& v, int32_t n) {
  return makeList(v.isInt() ? IntType() : FloatType(), std::vector<IValue>(static_cast<size_t>(n), v));
}

}  // namespace

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
    if (commentTypes.size() == 1 && commentTypes[0]->kind == ExprKind::Ellipsis) {
      // `# type: (...) -> R`: each parameter's type is the `# type: T` comment after it (Tensor without)
      commentTypes.clear();
      for (size_t i = selfType && !def.params.empty() ? 1 : 0; i < def.params.size(); ++i)
        commentTypes.push_back(def.params[i].typeComment ? def.params[i].typeComment
                                                         : std::make_shared<NameExpr>(def.params[i].range, "Tensor"));
    }
    size_t expected = def.params.size() - (selfType && !def.params.empty() ? 1 : 0);
    if (commentTypes.size() != expected)
      throw CompileError("Number of type annotations (" + std::to_string(commentTypes.size()) +
                             ") did not match the number of function parameters (" + std::to_string(expected) + ")",
                         def.typeCommentRange);
  }
  const VariadicBinding* variadic = ctx.variadic && ctx.variadic->def == &def ? ctx.variadic.get() : nullptr;
  bool extraPositional = variadic && !variadic->positional.empty();
  std::vector<Argument> positional, keywordOnly;
  std::set<std::string> names;
  auto add = [&](Argument a, const SourceRange& loc) {
    if (!names.insert(a.name).second)
      throw CompileError("the argument '" + a.name + "' bound to *args or **kwargs is also a parameter of '" +
                             def.name + "'",
                         loc);
    (a.kwargOnly ? keywordOnly : positional).push_back(std::move(a));
  };
  size_t commentIndex = 0;
  const Param* kwargsParam = nullptr;
  TypePtr kwargsDeclared;
  for (size_t i = 0; i < def.params.size(); ++i) {
    const Param& p = def.params[i];
    if (p.isVarArgs || p.isKwArgs) {
      // `*args: T` / `**kwargs: T` declare the type of each argument they bind
      TypePtr declared = p.annotation ? tp.parse(p.annotation)
                         : !commentTypes.empty() ? tp.parse(commentTypes.at(commentIndex++))
                                                 : nullptr;
      if (p.isKwArgs) {
        kwargsParam = &p;
        kwargsDeclared = declared;
        continue;
      }
      if (!variadic) continue;
      for (size_t k = 0; k < variadic->positional.size(); ++k) {
        Argument a;
        a.name = p.name + "_" + std::to_string(k);
        a.type = declared ? declared : variadic->positional[k];
        add(std::move(a), p.range);
      }
      continue;
    }
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
    if (p.defaultValue && !(extraPositional && !p.kwargOnly)) {
      IValue v = evalDefaultExpr(p.defaultValue, a.type, ctx);
      if (a.N && (v.isInt() || v.isDouble())) v = broadcastDefault(v, *a.N);
      if (!v.type()->isSubtypeOf(a.type) &&
          !(v.isList() && a.type->kind() == TypeKind::List) && !(v.isList() && a.type->kind() == TypeKind::Optional))
        throw CompileError("Expected a default value of type " + a.type->annotationStr() + " on parameter \"" +
                               p.name + "\"",
                           p.defaultValue->range);
      a.defaultValue = v;
    }
    a.kwargOnly = p.kwargOnly;
    add(std::move(a), p.range);
  }
  if (kwargsParam && variadic) {
    for (const auto& [key, type] : variadic->keywords) {
      Argument a;
      a.name = key;
      a.type = kwargsDeclared ? kwargsDeclared : type;
      a.kwargOnly = true;
      add(std::move(a), kwargsParam->range);
    }
  }
  schema.arguments = std::move(positional);
  for (Argument& a : keywordOnly) schema.arguments.push_back(std::move(a));
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
    NoneWidenings widen = emitter::settleNoneWidenings(def, tmp, selfType, ctx);
    FunctionEmitter e(scratch, ctx);
    e.setNoneWidenings(std::move(widen), false);
    e.emitDef(def, tmp, selfType);
    ret.type = e.inferredReturnType() ? e.inferredReturnType() : scratch.outputs().at(0)->type();
  }
  schema.returns.push_back(std::move(ret));
  return schema;
}

}  // namespace kindling
