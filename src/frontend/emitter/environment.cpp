// Variables of the emitter's environment (see environment.h).
#include "frontend/emitter/environment.h"

#include "frontend/emitter/none_widening.h"
#include "frontend/schema_matching.h"

namespace kindling::emitter {

bool meaningfulName(const std::string& name) {
  if (name.empty()) return false;
  if (name[0] == '$') return false;
  if (name[0] != '_') return true;
  for (size_t i = 1; i < name.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(name[i]))) return true;
  return false;
}

// `x : T = v` stores v behind a placeholder prim::Load whose output has the declared type T: reads of x
// see T (as PyTorch's environment, whose type_table holds the annotated type of a store). The
// placeholders are replaced by their input once the body is emitted (eraseDeclaredTypeLoads), so the
// graph holds v itself, as PyTorch's graph after its Load/Store to SSA conversion does.
bool isDeclaredTypeLoad(const Value* v) { return v->node()->kind() == prim::Load && v->node()->inputs().size() == 1; }

std::string attributePath(const ExprPtr& e) {
  if (e->kind == ExprKind::Name) return e->as<NameExpr>().id;
  if (e->kind != ExprKind::Attribute) return "";
  std::string base = attributePath(e->as<AttributeExpr>().value);
  return base.empty() ? base : base + "." + e->as<AttributeExpr>().attr;
}

namespace {
template <class Pred>
void forgetRefinementsWhere(Environment& env, Pred pred) {
  for (Environment* e = &env; e; e = e->next.get())
    for (auto it = e->refinedAttributes.begin(); it != e->refinedAttributes.end();)
      it = pred(it->first) ? e->refinedAttributes.erase(it) : std::next(it);
}
}  // namespace

void forgetAttributeRefinements(Environment& env, const std::string& attr) {
  forgetRefinementsWhere(env, [&](const std::string& path) {
    if (attr.empty()) return true;
    // a segment after the variable equal to attr: "x.attr" or "x.attr.y" or "x.y.attr"
    for (size_t dot = path.find('.'); dot != std::string::npos; dot = path.find('.', dot + 1))
      if (path.compare(dot + 1, attr.size(), attr) == 0 &&
          (dot + 1 + attr.size() == path.size() || path[dot + 1 + attr.size()] == '.'))
        return true;
    return false;
  });
}

void forgetAttributeRefinementsOf(Environment& env, const std::string& name) {
  forgetRefinementsWhere(env, [&](const std::string& path) {
    return path.size() > name.size() && path.compare(0, name.size(), name) == 0 && path[name.size()] == '.';
  });
}

void setVar(FunctionEmitter& m, Environment& env, const std::string& name, const SugaredValuePtr& given,
            const SourceRange& loc) {
  SugaredValuePtr v = given;
  if (auto* sv = dynamic_cast<SimpleValue*>(v.get())) {
    Value* value = sv->value;
    // A `number` (x.item()) assigned in an inner block to a variable of an enclosing block typed int or
    // float (or Optional of those) becomes that type (aten::Int / aten::Float), as PyTorch's
    // setSugaredVar converts it.
    if (value->type()->kind() == TypeKind::Number && env.next && !env.locals.count(name)) {
      if (auto* pv = dynamic_cast<SimpleValue*>(env.next->findInScope(name).get())) {
        const TypePtr& pt = pv->value->type();
        TypeKind pk = pt->kind() == TypeKind::Optional ? pt->cast<OptionalType>()->elementType()->kind() : pt->kind();
        if (pk == TypeKind::Float || pk == TypeKind::Int) {
          value = tryConvertToType(loc, m.graph(), pv->value->type(), value, Conversions::Implicit, m.registry());
          v = std::make_shared<SimpleValue>(value);
          sv = static_cast<SimpleValue*>(v.get());
        }
      }
    }
    auto widen = [&](const TypePtr& before) {
      // `x = None` earlier, a T now: collected as Optional[T] (none_widening.h)
      if (m.collectingWidenings() && before->kind() == TypeKind::None && value->type()->kind() != TypeKind::None)
        throw NoneWideningRequest{name, OptionalType::create(value->type())};
    };
    if (TypePtr carried = env.carriedType(name)) {
      if (!value->type()->isSubtypeOf(carried)) widen(carried);
      if (!value->type()->isSubtypeOf(carried))
        throw CompileError("Variable '" + name + "' previously had type " + typeNameForMsg(carried) +
                               " but is now being assigned to a value of type " + typeNameForMsg(value->type()),
                           loc);
    }
    // A variable from an enclosing block keeps its type (as PyTorch's setSugaredVar: checked against the
    // enclosing frames even when this block assigned it before).
    if (env.next) {
      if (auto parent = env.locals.count(name) ? nullptr : env.next->findInScope(name)) {
        if (auto* pv = dynamic_cast<SimpleValue*>(parent.get())) {
          TypePtr parentType = pv->value->type();
          // `if x is None:` refines an Optional x to None in its branch, where torch keeps it Optional (it
          // refines only the other branch): a nested block may still assign x a T
          if (parentType->kind() == TypeKind::None && pv->value->node()->kind() == prim::unchecked_cast)
            parentType = pv->value->node()->input(0)->type();
          if (!value->type()->isSubtypeOf(parentType)) widen(parentType);
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
  if (auto* sv = dynamic_cast<SimpleValue*>(v.get())) m.noteAssignment(name, sv->value, loc);
  forgetAttributeRefinementsOf(env, name);
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

}  // namespace kindling::emitter
