#include "frontend/class_inheritance.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "frontend/compiler.h"
#include "frontend/type_parser.h"

namespace kindling {

namespace {

// C3 linearization with memoized results (by qualified name) and the chain being linearized, for
// cycle and depth errors.
class Linearizer {
 public:
  std::vector<ClassDefinitionPtr> run(const ClassDefinitionPtr& cls) {
    auto done = memo_.find(cls->qualName);
    if (done != memo_.end()) return done->second;
    if (std::find(chain_.begin(), chain_.end(), cls->qualName) != chain_.end())
      throw CompileError("class '" + cls->stmt->name + "' inherits from itself", cls->stmt->nameRange);
    if (chain_.size() >= kMaxInheritanceDepth)
      throw CompileError("class '" + cls->stmt->name + "' has more than " + std::to_string(kMaxInheritanceDepth) +
                             " levels of base classes",
                         cls->stmt->nameRange);
    chain_.push_back(cls->qualName);
    std::vector<ClassDefinitionPtr> bases;
    for (const ExprPtr& b : cls->stmt->bases) {
      std::string n = dottedName(b);
      ClassBaseKind kind = classBaseKind(n);
      if (kind == ClassBaseKind::Object) continue;
      if (kind != ClassBaseKind::User)
        throw CompileError("class '" + cls->stmt->name + "' inherits from '" + n +
                               "': a TorchScript class with user base classes cannot also be a NamedTuple, Enum, "
                               "interface or nn.Module",
                           b->range);
      ClassDefinitionPtr base = cls->ctx.resolver ? cls->ctx.resolver->resolveClassDefinition(n, b->range) : nullptr;
      if (!base)
        throw CompileError("base class '" + n + "' of '" + cls->stmt->name +
                               "' is not a TorchScript class of the program (TorchScript classes inherit only "
                               "from classes compiled with them)",
                           b->range);
      for (const ClassDefinitionPtr& other : bases)
        if (other->qualName == base->qualName)
          throw CompileError("duplicate base class " + base->stmt->name, b->range);
      bases.push_back(base);
    }
    std::vector<std::vector<ClassDefinitionPtr>> seqs;
    for (const ClassDefinitionPtr& b : bases) seqs.push_back(run(b));
    seqs.push_back(bases);
    std::vector<ClassDefinitionPtr> out{cls};
    for (;;) {
      seqs.erase(std::remove_if(seqs.begin(), seqs.end(), [](const auto& s) { return s.empty(); }), seqs.end());
      if (seqs.empty()) break;
      ClassDefinitionPtr pick;
      for (const auto& s : seqs) {
        const std::string& head = s.front()->qualName;
        bool inTail = false;
        for (const auto& t : seqs)
          for (size_t i = 1; i < t.size() && !inTail; ++i) inTail = t[i]->qualName == head;
        if (!inTail) {
          pick = s.front();
          break;
        }
      }
      if (!pick) {
        std::string names;
        for (const ClassDefinitionPtr& b : bases) names += (names.empty() ? "" : ", ") + b->stmt->name;
        throw CompileError("Cannot create a consistent method resolution order (MRO) for bases " + names,
                           cls->stmt->nameRange);
      }
      out.push_back(pick);
      for (auto& s : seqs)
        if (s.front()->qualName == pick->qualName) s.erase(s.begin());
    }
    chain_.pop_back();
    memo_[cls->qualName] = out;
    return out;
  }

 private:
  std::unordered_map<std::string, std::vector<ClassDefinitionPtr>> memo_;
  std::vector<std::string> chain_;
};

bool isAccessorOf(const DefStmt& d) {
  for (const ExprPtr& x : d.decorators) {
    std::string n = dottedName(x);
    if (n == "property" || n == d.name + ".setter" || n == d.name + ".deleter") return true;
  }
  return false;
}

// The methods of one class body, with property renaming; `properties` receives its properties. The
// accessors of unused properties (named in `unusedProperties` or with an @unused getter) are left out.
std::vector<ClassMember> bodyMembers(const ClassStmt& cls, size_t owner, const std::set<std::string>& unusedProperties,
                                     std::vector<ClassType::Property>& properties) {
  std::vector<ClassMember> out;
  auto findProperty = [&](const std::string& n) -> ClassType::Property* {
    for (auto& p : properties)
      if (p.name == n) return &p;
    return nullptr;
  };
  std::set<std::string> dropped;
  for (const StmtPtr& s : cls.body)
    if (s->kind == StmtKind::Def) {
      const DefStmt& d = s->as<DefStmt>();
      if (hasDecorator(d, "property") && (unusedProperties.count(d.name) || hasDecorator(d, "unused")))
        dropped.insert(d.name);
    }
  for (const StmtPtr& s : cls.body) {
    if (s->kind != StmtKind::Def) continue;
    const DefStmt& d = s->as<DefStmt>();
    if (dropped.count(d.name) && isAccessorOf(d)) continue;
    std::string name = d.name;
    for (const ExprPtr& dec : d.decorators) {
      std::string n = dottedName(dec);
      if (n == "property") {
        if (findProperty(d.name)) throw CompileError("property '" + d.name + "' is defined twice", d.range);
        name = "__" + d.name + "_getter";
        properties.push_back({d.name, name, ""});
      } else if (n == d.name + ".setter") {
        ClassType::Property* p = findProperty(d.name);
        if (!p) throw CompileError("'" + n + "' of a property that is not defined before it", dec->range);
        name = "__" + d.name + "_setter";
        p->setter = name;
      } else if (n == d.name + ".deleter") {
        throw CompileError("property deleters are not supported", dec->range);
      }
    }
    out.push_back({&d, name, owner});
  }
  return out;
}

}  // namespace

std::vector<ClassDefinitionPtr> classMro(const ClassDefinitionPtr& cls) { return Linearizer().run(cls); }

ClassMembers classMembers(const std::vector<ClassDefinitionPtr>& mro, const std::set<std::string>& unusedProperties) {
  ClassMembers out;
  std::unordered_set<std::string> claimed;  // names (as written in `def`) a class earlier in the MRO defines
  for (size_t i = 0; i < mro.size(); ++i) {
    std::vector<ClassType::Property> props;
    std::vector<ClassMember> members = bodyMembers(*mro[i]->stmt, i, unusedProperties, props);
    std::unordered_set<std::string> defined;
    for (const ClassMember& m : members) {
      defined.insert(m.def->name);
      if (!claimed.count(m.def->name)) out.methods.push_back(m);
    }
    for (const ClassType::Property& p : props)
      if (!claimed.count(p.name)) out.properties.push_back(p);
    claimed.insert(defined.begin(), defined.end());
  }
  return out;
}

ClassSuperValue::ClassSuperValue(CompilationTarget& target, const std::shared_ptr<ClassType>& type,
                                 std::shared_ptr<const Layout> layout, size_t definingClass)
    : target_(target), type_(type), layout_(std::move(layout)), definingClass_(definingClass) {}

EmitContext ClassSuperValue::methodContext(CompilationTarget& target, const std::shared_ptr<ClassType>& type,
                                           const std::shared_ptr<const Layout>& layout, size_t definingClass) {
  EmitContext c = layout->mro[definingClass]->ctx;
  c.super = std::make_shared<ClassSuperValue>(target, type, layout, definingClass);
  return c;
}

std::string ClassSuperValue::methodFor(const SourceRange& loc, FunctionEmitter& m, const TypePtr& selfType,
                                       const std::string& startClass, const std::string& field) {
  std::shared_ptr<ClassType> type = type_.lock();
  const auto& mro = layout_->mro;
  auto* self = selfType->cast<ClassType>();
  if (!type || !self || self->qualName() != type->qualName())
    throw CompileError("super(C, obj) is supported with the method's own self only (obj is '" +
                           selfType->annotationStr() + "')",
                       loc);
  size_t start = definingClass_;
  if (!startClass.empty()) {
    start = mro.size();
    for (size_t i = 0; i < mro.size(); ++i)
      if (mro[i]->stmt->name == startClass) start = i;
    if (start == mro.size())
      throw CompileError("super(type, obj): obj must be an instance or subtype of type ('" + startClass +
                             "' is not a base of '" + mro[0]->stmt->name + "')",
                         loc);
  }
  for (size_t j = start + 1; j < mro.size(); ++j) {
    const DefStmt* found = nullptr;
    for (const StmtPtr& s : mro[j]->stmt->body)
      if (s->kind == StmtKind::Def && s->as<DefStmt>().name == field) found = &s->as<DefStmt>();
    if (!found) continue;
    if (hasDecorator(*found, "property"))
      throw CompileError("super()." + field + " is a property of '" + mro[j]->stmt->name +
                             "' (only methods are reached through super())",
                         loc);
    if (hasDecorator(*found, "staticmethod"))
      throw CompileError("super()." + field + " is a static method of '" + mro[j]->stmt->name + "': call it as " +
                             mro[j]->stmt->name + "." + field + "(...)",
                         loc);
    for (const ClassMember& member : layout_->members.methods)
      if (member.def == found) return member.name;  // what self.field is already
    std::string name = field + "__super_" + mro[j]->stmt->name;
    if (!type->findMethod(name)) {
      EmitContext c = methodContext(target_, type, layout_, j);
      Function* fn = defineFunction(target_, mro[j]->file, *found, type->qualName() + "." + name, type, c, mro[j]->qualName);
      if (field == "__init__" && m.context().inferAttributesOf == type) {
        // attribute discovery continues through the base's __init__, where the call runs it
        EmitContext discover = c;
        discover.inferAttributesOf = type;
        Graph scratch;
        emitFunctionBody(scratch, *found, fn->getSchema(), type, discover);
      }
    }
    return name;
  }
  if (field == "__init__") return "";  // object.__init__
  throw CompileError("'super' object has no attribute '" + field + "'", loc);
}

}  // namespace kindling
