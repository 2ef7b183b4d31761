#include "frontend/compiler.h"

#include "frontend/emitter/control_flow_analysis.h"

#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "frontend/class_inheritance.h"
#include "frontend/functional_library.h"
#include "frontend/parser.h"
#include "frontend/variadic_function.h"

namespace kindling {

bool hasDecorator(const DefStmt& d, const std::string& name) {
  for (auto& x : d.decorators) {
    std::string n = dottedName(x);
    if (n == name || n == "torch.jit." + name || n == "jit." + name || n == "kindling.jit." + name) return true;
  }
  return false;
}

ClassBaseKind classBaseKind(const std::string& n) {
  if (n == "Module" || n == "torch.nn.Module" || n == "nn.Module" || n == "torch.nn.modules.module.Module")
    return ClassBaseKind::Module;
  if (n == "NamedTuple" || n == "typing.NamedTuple") return ClassBaseKind::NamedTuple;
  if (n == "Enum" || n == "enum.Enum") return ClassBaseKind::Enum;
  if (n == "Interface" || n == "ModuleInterface") return ClassBaseKind::Interface;
  if (n == "object" || n == "builtins.object") return ClassBaseKind::Object;
  return ClassBaseKind::User;
}

namespace {

std::vector<std::string> stringList(const ExprPtr& e) {
  std::vector<std::string> out;
  if (e->kind != ExprKind::List && e->kind != ExprKind::Tuple)
    throw CompileError("expected a list of strings", e->range);
  for (auto& x : e->as<SequenceExpr>().elts) {
    if (x->kind != ExprKind::Str) throw CompileError("expected a list of strings", x->range);
    out.push_back(x->as<StrExpr>().value);
  }
  return out;
}

// Defines functions in order; a function whose return type must be inferred by emitting its body may
// need functions declared after it, so failures are retried until no more progress is made.
template <class Def, class DefineOne>
void defineAllWithRetry(const std::vector<const Def*>& defs, DefineOne defineOne) {
  std::vector<const Def*> pending = defs;
  while (!pending.empty()) {
    std::vector<const Def*> next;
    std::optional<CompileError> firstError;
    bool progress = false;
    for (const Def* d : pending) {
      try {
        defineOne(*d);
        progress = true;
      } catch (const CompileError& e) {
        if (!firstError) firstError = e;
        next.push_back(d);
      }
    }
    if (!progress) throw *firstError;
    pending = std::move(next);
  }
}

// class Color(Enum): RED = 1 ... → an EnumType with its members (values: int, float or str).
TypePtr defineEnumClass(CompilationTarget& target, const ClassStmt& cls, const std::string& qualName) {
  std::vector<std::pair<std::string, IValue>> members;
  TypePtr valueType;
  for (auto& s : cls.body) {
    if (s->kind == StmtKind::Pass) continue;
    if (s->kind == StmtKind::Expr && s->as<ExprStmt>().value->kind == ExprKind::Str) continue;
    if (s->kind != StmtKind::Assign || s->as<AssignStmt>().targets.size() != 1 ||
        s->as<AssignStmt>().targets[0]->kind != ExprKind::Name || !s->as<AssignStmt>().value)
      throw CompileError("Enum classes may only contain members `NAME = value`", s->range);
    auto& a = s->as<AssignStmt>();
    IValue v = evalConstantExpr(a.value, nullptr);
    if (!v.isInt() && !v.isDouble() && !v.isString())
      throw CompileError("Cannot create Enum with value type '" + v.type()->annotationStr() +
                             "', only int, float and str are supported",
                         a.value->range);
    if (valueType && !valueType->equals(*v.type()))
      throw CompileError("Enum class with varying value types are not supported.", a.value->range);
    valueType = v.type();
    members.emplace_back(a.targets[0]->as<NameExpr>().id, v);
  }
  if (!valueType) throw CompileError("Enum classes must have at least one member", cls.range);
  auto et = std::make_shared<EnumType>(qualName, valueType);
  for (auto& [name, v] : members)
    et->members.emplace_back(name, std::make_shared<IValue>(v));  // raw values, as c10's enumNamesValues
  target.addType(et);
  return et;
}

}  // namespace

Function* defineFunction(CompilationTarget& target, const std::shared_ptr<SourceFile>& file, const DefStmt& def,
                         const std::string& qualName, const std::shared_ptr<ClassType>& selfType,
                         const EmitContext& ctx, const std::string& inheritedFrom) {
  for (auto& d : def.decorators) {
    std::string n = dottedName(d);
    if (n == "torch.jit.ignore" || n == "jit.ignore")
      throw CompileError("@torch.jit.ignore functions call back into Python and cannot run in Kindling", d->range);
    if (n == "property" && !selfType)
      throw CompileError("@property is only allowed on methods of a class", d->range);
  }
  bool isStatic = hasDecorator(def, "staticmethod");
  TypePtr self = isStatic ? nullptr : TypePtr(selfType);
  if (self && def.params.empty())
    throw CompileError("methods must have a self argument", def.range);
  FunctionSchema schema = schemaForDef(def, def.name, self, ctx);
  if (self && !inheritedFrom.empty()) {
    auto isBase = [&](const TypePtr& t) {
      return t->kind() == TypeKind::Class && static_cast<const ClassType&>(*t).qualName() == inheritedFrom;
    };
    for (size_t i = 1; i < schema.arguments.size(); ++i) {
      TypePtr& t = schema.arguments[i].type;
      if (isBase(t)) t = self;
      else if (t->kind() == TypeKind::Optional && isBase(t->containedTypes().at(0))) t = OptionalType::create(self);
    }
  }
  const DefStmt* defp = &def;
  bool unused = hasDecorator(def, "unused");
  std::shared_ptr<SourceFile> keep = file;
  auto holder = std::make_shared<const Function*>(nullptr);
  EmitContext base = ctx;
  Function* fn = target.defineFunction(qualName, schema, [keep, defp, self, base, unused, schema, holder](Graph& g) {
    EmitContext c = base;
    c.currentFunction = *holder;
    if (unused) {
      // @torch.jit.unused: the body raises
      auto src = std::make_shared<Source>("raise Exception(\"This function has been marked unused\")\n");
      auto f = parseFile(src);
      DefStmt d(defp->range);
      d.name = defp->name;
      d.params = defp->params;
      d.returnType = defp->returnType;
      d.body = f->body;
      emitFunctionBody(g, d, schema, self, c);
      return;
    }
    emitFunctionBody(g, *defp, schema, self, c);
  });
  *holder = fn;
  if (selfType) selfType->addMethod(fn);
  return fn;
}

TypePtr defineClass(CompilationTarget& target, const std::shared_ptr<SourceFile>& file, const ClassStmt& cls,
                    const std::string& qualName, const EmitContext& ctx) {
  if (TypePtr existing = target.findType(qualName)) return existing;
  TypeParser tp(ctx.resolver ? TypeResolver([r = ctx.resolver](const std::string& n, const SourceRange& l) {
                  return r->resolveType(n, l);
                })
                             : TypeResolver());
  bool isModule = false, isNamedTuple = false;
  std::vector<ExprPtr> userBases;
  for (auto& b : cls.bases) {
    std::string n = dottedName(b);
    switch (classBaseKind(n)) {
      case ClassBaseKind::Module: isModule = true; break;
      case ClassBaseKind::NamedTuple: isNamedTuple = true; break;
      case ClassBaseKind::Object: break;
      case ClassBaseKind::Enum: return defineEnumClass(target, cls, qualName);
      case ClassBaseKind::Interface: throw CompileError("interfaces are not supported yet", b->range);
      case ClassBaseKind::User:
        if (ctx.archiveMode)
          throw CompileError("class inheritance is not supported in TorchScript (base '" + n + "')", b->range);
        userBases.push_back(b);
        break;
    }
  }
  if (!userBases.empty() && (isModule || isNamedTuple))
    throw CompileError(std::string(isModule ? "an nn.Module" : "a NamedTuple") + " class cannot also inherit from '" +
                           dottedName(userBases[0]) + "' in TorchScript",
                       userBases[0]->range);
  if (isNamedTuple) {
    std::vector<std::string> names;
    std::vector<TypePtr> types;
    std::vector<std::shared_ptr<IValue>> defaults;
    for (auto& s : cls.body) {
      if (s->kind == StmtKind::Pass) continue;
      if (s->kind == StmtKind::Expr && s->as<ExprStmt>().value->kind == ExprKind::Str) continue;
      if (s->kind != StmtKind::Assign || !s->as<AssignStmt>().annotation || s->as<AssignStmt>().targets[0]->kind != ExprKind::Name)
        throw CompileError("NamedTuple classes may only contain field declarations `name : T`", s->range);
      auto& a = s->as<AssignStmt>();
      names.push_back(a.targets[0]->as<NameExpr>().id);
      types.push_back(tp.parse(a.annotation));
      if (a.value) {
        // a default: a constant of the field's type (as typing.NamedTuple, fields after one have one too)
        IValue v = evalConstantExpr(a.value, types.back());
        if (!v.type()->isSubtypeOf(types.back()) && !(v.isInt() && types.back()->kind() == TypeKind::Float))
          throw CompileError("NamedTuple field '" + names.back() + "' of type " + types.back()->annotationStr() +
                                 " has a default of type " + v.type()->annotationStr(),
                             a.value->range);
        if (v.isInt() && types.back()->kind() == TypeKind::Float) v = IValue(static_cast<double>(v.toInt()));
        defaults.resize(names.size());
        defaults.back() = std::make_shared<IValue>(v);
      } else if (!defaults.empty()) {
        throw CompileError("Non-default namedtuple field '" + names.back() + "' follows default field", a.range);
      }
    }
    if (!defaults.empty()) defaults.resize(names.size());
    TypePtr t = TupleType::createNamed(qualName, names, types, defaults);
    target.addType(t);
    return t;
  }
  auto type = ClassType::create(qualName, isModule);
  target.addType(type);
  std::unordered_set<std::string> params, buffers;
  // __parameters__ / __buffers__ first: attributes are added with their flags
  for (auto& s : cls.body) {
    if (s->kind != StmtKind::Assign) continue;
    auto& a = s->as<AssignStmt>();
    if (a.annotation || a.targets[0]->kind != ExprKind::Name || !a.value) continue;
    const std::string& name = a.targets[0]->as<NameExpr>().id;
    if (name == "__parameters__") for (auto& x : stringList(a.value)) params.insert(x);
    if (name == "__buffers__") for (auto& x : stringList(a.value)) buffers.insert(x);
  }
  auto addAttr = [&](const std::string& name, const TypePtr& t, const SourceRange& loc) {
    if (type->findAttributeSlot(name) >= 0) throw CompileError("attribute '" + name + "' is declared twice", loc);
    type->addAttribute(name, t, params.count(name) != 0, buffers.count(name) != 0);
  };
  std::set<std::string> unusedProperties;  // __jit_unused_properties__: left out, as PyTorch 1.13 does
  for (auto& s : cls.body) {
    switch (s->kind) {
      case StmtKind::Pass: break;
      case StmtKind::Expr:
        if (s->as<ExprStmt>().value->kind == ExprKind::Str) break;  // docstring
        throw CompileError("unexpected expression in a class body", s->range);
      case StmtKind::Def: break;  // classMembers below
      case StmtKind::Assign: {
        auto& a = s->as<AssignStmt>();
        const ExprPtr& t = a.targets[0];
        if (t->kind == ExprKind::Name) {
          const std::string& name = t->as<NameExpr>().id;
          // As PyTorch 1.13, class-level attributes and annotations of a user class (not a module) are not
          // part of its type: its attributes come from __init__, and `self.K` of a class-level K is an error.
          if (name == "__jit_unused_properties__" && !a.annotation && a.value &&
              (a.value->kind == ExprKind::List || a.value->kind == ExprKind::Tuple)) {
            for (const ExprPtr& e : a.value->as<SequenceExpr>().elts)
              if (e->kind == ExprKind::Str) unusedProperties.insert(e->as<StrExpr>().value);
            break;
          }
          if (!ctx.archiveMode && !isModule) break;
          if (!a.annotation) {
            if (name == "__parameters__" || name == "__buffers__") break;
            if (name == "__constants__" || name == "__jit_unused_properties__" || name == "__slots__") break;
            // class-level constant without annotation
            type->addConstant(name, evalConstantExpr(a.value, nullptr));
            break;
          }
          bool isFinal = false;
          TypePtr at = tp.parse(a.annotation, &isFinal);
          if (isFinal) {
            if (!a.value) throw CompileError("Final attributes need a value", a.range);
            type->addConstant(name, evalConstantExpr(a.value, at));
          } else {
            if (a.value) {
              // `x : int = 3` at class level: a constant as well
              type->addConstant(name, evalConstantExpr(a.value, at));
            } else {
              addAttr(name, at, a.range);
            }
          }
          break;
        }
        if (t->kind == ExprKind::Subscript && dottedName(t->as<SubscriptExpr>().value) == "__annotations__") {
          auto& sub = t->as<SubscriptExpr>();
          if (sub.subscripts.size() != 1 || sub.subscripts[0]->kind != ExprKind::Str)
            throw CompileError("expected __annotations__[\"name\"] = Type", t->range);
          addAttr(sub.subscripts[0]->as<StrExpr>().value, tp.parse(a.value), a.range);
          break;
        }
        throw CompileError("unexpected assignment in a class body", s->range);
      }
      default: throw CompileError("unexpected statement in a class body", s->range);
    }
  }
  // The MRO (the class alone when it has no user bases, frontend/class_inheritance.h) and, for every
  // name, the method or property of the first class of it defining the name. Properties: `@property def
  // x(self)` is the method __x_getter, `@x.setter def x(self, v)` __x_setter (PyTorch 1.13's names);
  // registered before __init__ runs, whose `self.x = v` calls the setter. Properties named in
  // __jit_unused_properties__ or whose getter is @unused are not compiled at all
  // (torch.jit.frontend.get_class_properties).
  auto layout = std::make_shared<ClassSuperValue::Layout>();
  auto self = std::make_shared<ClassDefinition>(ClassDefinition{qualName, file, &cls, ctx});
  layout->mro = userBases.empty() ? std::vector<ClassDefinitionPtr>{self} : classMro(self);
  layout->members = classMembers(layout->mro, unusedProperties);
  for (const ClassType::Property& p : layout->members.properties) type->addProperty(p);
  std::vector<std::string> baseNames;
  for (size_t i = 1; i < layout->mro.size(); ++i) baseNames.push_back(layout->mro[i]->qualName);
  type->setBaseQualNames(std::move(baseNames));
  // Methods of user classes resolve `super` through the MRO (archives and module classes never use it).
  bool userClass = !ctx.archiveMode && !isModule;
  auto contextFor = [&](size_t owner) {
    return userClass ? ClassSuperValue::methodContext(target, type, layout, owner) : ctx;
  };
  auto define = [&](const ClassMember& m) {
    return defineFunction(target, layout->mro[m.owner]->file, *m.def, qualName + "." + m.name, type, contextFor(m.owner),
                          m.owner == 0 ? std::string() : layout->mro[m.owner]->qualName);
  };
  std::vector<const ClassMember*> methods;
  for (const ClassMember& m : layout->members.methods) methods.push_back(&m);
  // Methods whose schema needs no inference (property getters and setters included) are declared before
  // __init__ is emitted, so that __init__ can call methods defined after it and property setters
  // (`self.x = v`, as Python does); the others follow.
  if (!ctx.archiveMode) {
    for (auto it = methods.begin(); it != methods.end();) {
      const DefStmt& d = *(*it)->def;
      bool declarable = d.name != "__init__" && !hasDecorator(d, "staticmethod");
      if (declarable && (d.returnType || !d.typeComment.empty() || !emitter::containsReturn(d.body))) {
        define(**it);
        it = methods.erase(it);
      } else {
        ++it;
      }
    }
  }
  // User classes: attributes come from the assignments to self in __init__ (and the base __init__s it
  // calls through super()), found by emitting __init__ once into a scratch graph before any other method
  // is compiled (PyTorch compiles __init__ first).
  if (!ctx.archiveMode) {
    for (auto it = methods.begin(); it != methods.end(); ++it) {
      if ((*it)->def->name != "__init__") continue;
      const ClassMember& init = **it;
      Function* fn = define(init);
      EmitContext discover = contextFor(init.owner);
      discover.inferAttributesOf = type;
      Graph scratch;
      emitFunctionBody(scratch, *init.def, fn->getSchema(), type, discover);
      methods.erase(it);
      break;
    }
  }
  defineAllWithRetry(methods, [&](const ClassMember& m) {
    const DefStmt& d = *m.def;
    if (!ctx.archiveMode && ctx.staticMethods && hasDecorator(d, "staticmethod")) {
      // As PyTorch 1.13 (the static method is scripted as the Python function it is): a free function
      // named after the function in the class's module, "__torch__.from_celsius"; `Class.name` reaches it.
      // An inherited one is the base's function.
      const std::string& ownerName = layout->mro[m.owner]->qualName;
      std::string fnName = ownerName.substr(0, ownerName.rfind('.') + 1) + d.name;
      Function* existing = target.findFunction(fnName);
      auto known = ctx.staticMethods->find(ownerName + "." + d.name);
      if (existing && known != ctx.staticMethods->end() && known->second == existing) {
        (*ctx.staticMethods)[qualName + "." + d.name] = existing;  // a base's, compiled with the base
        return;
      }
      if (existing)
        throw CompileError("static method '" + d.name + "' has the name of the function '" + existing->qualname() +
                               "' (both are compiled as " + fnName + ")",
                           d.range);
      Function* fn = defineFunction(target, layout->mro[m.owner]->file, d, fnName, nullptr, layout->mro[m.owner]->ctx);
      (*ctx.staticMethods)[ownerName + "." + d.name] = fn;
      (*ctx.staticMethods)[qualName + "." + d.name] = fn;
      return;
    }
    define(m);
  });
  return type;
}

namespace {

// Resolves names of a user program: its own top-level definitions, import aliases, then `fallback`.
class FileResolver : public Resolver {
 public:
  FileResolver(CompilationTarget& target, std::string prefix, std::shared_ptr<Resolver> fallback)
      : target_(target), prefix_(std::move(prefix)), fallback_(std::move(fallback)) {}
  TypePtr resolveType(const std::string& name, const SourceRange& loc) override {
    if (pythonModules_.count(name))
      throw CompileError("'" + name + "' is an nn.Module subclass: those are compiled from an instance in Python "
                         "(torch.jit.script(module)); save it with torch.jit.save and run the archive",
                         loc);
    auto it = localTypes_.find(name);
    if (it != localTypes_.end()) {
      if (TypePtr t = target_.findType(it->second)) return t;
      if (definer_) return definer_(it->second);
    }
    if (TypePtr t = target_.findType(name)) return t;
    return fallback_ ? fallback_->resolveType(name, loc) : nullptr;
  }
  Function* resolveFunction(const std::string& name, const SourceRange& loc) override {
    auto it = localFunctions_.find(name);
    if (it != localFunctions_.end()) {
      if (Function* f = target_.findFunction(it->second)) return f;
    }
    if (Function* f = target_.findFunction(name)) return f;
    // torch.nn.functional functions PyTorch compiles from Python source: our own library, compiled into
    // this target on first use (user programs only; archives carry their own code/ for them).
    if (!archiveMode_)
      if (Function* f = functionalLibraryFunction(target_, name, registry_)) return f;
    return fallback_ ? fallback_->resolveFunction(name, loc) : nullptr;
  }
  SugaredValuePtr resolveValue(const std::string& name, const SourceRange& loc) override {
    auto it = aliases_.find(name);
    if (it != aliases_.end()) return it->second;
    return fallback_ ? fallback_->resolveValue(name, loc) : nullptr;
  }
  std::optional<IValue> resolveConstant(const std::string& name, const SourceRange& loc) override {
    return fallback_ ? fallback_->resolveConstant(name, loc) : std::nullopt;
  }
  std::shared_ptr<const ClassDefinition> resolveClassDefinition(const std::string& name, const SourceRange& loc) override {
    auto it = classDefinitions_.find(name);
    if (it != classDefinitions_.end()) return it->second;
    return fallback_ ? fallback_->resolveClassDefinition(name, loc) : nullptr;
  }
  CompilationTarget& target_;
  std::string prefix_;
  std::shared_ptr<Resolver> fallback_;
  std::unordered_map<std::string, std::string> localTypes_, localFunctions_;
  std::unordered_set<std::string> pythonModules_;  // nn.Module subclasses of a source program (not compiled)
  std::unordered_map<std::string, SugaredValuePtr> aliases_;
  std::function<TypePtr(const std::string&)> definer_;
  /// The file's classes by name, as bases of its classes (set while compileSource runs).
  std::unordered_map<std::string, std::shared_ptr<const ClassDefinition>> classDefinitions_;
  const OperatorRegistry* registry_ = nullptr;
  bool archiveMode_ = false;
};

}  // namespace

namespace {
/// `if __name__ == "__main__":` (either operand order), without an else branch.
bool isMainGuard(const IfStmt& st) {
  if (!st.orelse.empty() || st.test->kind != ExprKind::Compare) return false;
  const auto& c = st.test->as<CompareExpr>();
  if (c.ops.size() != 1 || c.ops[0] != CmpOpKind::Eq) return false;
  auto isName = [](const ExprPtr& e) { return e->kind == ExprKind::Name && e->as<NameExpr>().id == "__name__"; };
  auto isMain = [](const ExprPtr& e) { return e->kind == ExprKind::Str && e->as<StrExpr>().value == "__main__"; };
  return (isName(c.left) && isMain(c.comparators[0])) || (isMain(c.left) && isName(c.comparators[0]));
}
}  // namespace

std::vector<Function*> compileSource(CompilationTarget& target, const std::shared_ptr<const Source>& source,
                                     const CompileOptions& options) {
  std::shared_ptr<SourceFile> file = parseFile(source);
  auto resolver = std::make_shared<FileResolver>(target, options.prefix, options.resolver);
  resolver->registry_ = options.registry;
  resolver->archiveMode_ = options.archiveMode;
  EmitContext ctx;
  ctx.resolver = resolver;
  ctx.registry = options.registry;
  ctx.archiveMode = options.archiveMode;
  ctx.callGraph = std::make_shared<CallGraph>();
  ctx.staticMethods = std::make_shared<std::unordered_map<std::string, Function*>>();
  std::unordered_map<std::string, const ClassStmt*> classes;
  std::vector<std::string> classOrder;
  std::map<std::string, std::shared_ptr<VariadicFunctionValue>> variadicDefs;
  // first pass: names and imports
  for (auto& s : file->body) {
    switch (s->kind) {
      case StmtKind::Class: {
        auto& c = s->as<ClassStmt>();
        resolver->localTypes_[c.name] = options.prefix + "." + c.name;
        classes[options.prefix + "." + c.name] = &c;
        classOrder.push_back(options.prefix + "." + c.name);
        break;
      }
      case StmtKind::Def: {
        auto& d = s->as<DefStmt>();
        resolver->localFunctions_[d.name] = options.prefix + "." + d.name;
        if (!options.archiveMode && isVariadicDef(d))
          resolver->aliases_[d.name] = variadicDefs[d.name] =
              std::make_shared<VariadicFunctionValue>(target, file, d, options.prefix + "." + d.name, ctx);
        break;
      }
      case StmtKind::Import: {
        auto& im = s->as<OtherStmt>();
        static const std::unordered_set<std::string> allowed = {
            "torch", "torch.nn", "torch.nn.functional", "math", "typing", "enum", "collections", "torch.jit",
            "__future__", "torch.nn as nn", "builtins"};
        auto checkModule = [&](const std::string& m) {
          std::string root = m.substr(0, m.find('.'));
          if (root != "torch" && root != "math" && root != "typing" && root != "enum" && root != "collections" &&
              root != "__future__" && root != "builtins")
            throw CompileError("import of module '" + m + "' is not supported (only torch, math, typing, enum and collections)", s->range);
        };
        if (im.module.empty()) {
          for (size_t i = 0; i < im.names.size(); ++i) {
            checkModule(im.names[i]);
            if (!im.asNames[i].empty()) {
              const std::string& m = im.names[i];
              SugaredValuePtr v;
              if (m == "torch" || m == "torch.nn" || m == "torch.nn.functional" || m == "torch.jit" || m == "math")
                v = std::make_shared<BuiltinModule>(m);
              if (v) resolver->aliases_[im.asNames[i]] = v;
            }
          }
        } else {
          checkModule(im.module);
          for (size_t i = 0; i < im.names.size(); ++i) {
            const std::string& n = im.names[i];
            std::string as = im.asNames[i].empty() ? n : im.asNames[i];
            if (im.module == "torch.nn" && n == "functional") resolver->aliases_[as] = std::make_shared<BuiltinModule>("torch.nn.functional");
            else if (im.module == "torch" && (n == "jit" || n == "nn")) resolver->aliases_[as] = std::make_shared<BuiltinModule>("torch." + n);
            else if (im.module == "torch" && n == "Tensor") {}
            else if (im.module == "torch.jit" && (n == "annotate" || n == "isinstance")) resolver->aliases_[as] = std::make_shared<SpecialFormValue>(n);
            else if (im.module == "torch.jit" && n == "fork") resolver->aliases_[as] = std::make_shared<SpecialFormValue>("fork");
            else if (im.module == "torch.jit" && n == "wait") resolver->aliases_[as] = std::make_shared<BuiltinFunction>("aten::wait");
            else if (im.module == "math") resolver->aliases_[as] = std::make_shared<BuiltinFunction>("aten::" + n);
          }
        }
        break;
      }
      case StmtKind::Expr:
        if (s->as<ExprStmt>().value->kind == ExprKind::Str) break;  // module docstring
        throw CompileError("only definitions, imports and constants are allowed at the top level", s->range);
      case StmtKind::Assign: {
        // module-level constants: NAME = <constant expression> (optionally annotated, e.g. Final[int])
        auto& a = s->as<AssignStmt>();
        if (a.targets.size() != 1 || a.targets[0]->kind != ExprKind::Name || !a.value)
          throw CompileError("only constants `NAME = value` are allowed as top-level assignments", s->range);
        TypePtr t;
        if (a.annotation) {
          bool isFinal = false;
          TypeParser tp;
          t = tp.parse(a.annotation, &isFinal);
        }
        resolver->aliases_[a.targets[0]->as<NameExpr>().id] = std::make_shared<ConstantValue>(evalConstantExpr(a.value, t));
        break;
      }
      case StmtKind::Pass: break;
      case StmtKind::If:
        // `if __name__ == "__main__":` is the Python driver of a script; TorchScript never compiles it.
        if (!options.archiveMode && isMainGuard(s->as<IfStmt>())) break;
        throw CompileError("only definitions, imports and constants are allowed at the top level", s->range);
      default:
        throw CompileError("only definitions, imports and constants are allowed at the top level", s->range);
    }
  }
  // An nn.Module subclass in a source program is Python that torch.jit.script compiles from an instance
  // (its __init__ builds submodules); only the archive torch.jit.save writes of it is TorchScript. Such a
  // class is left undefined, and an error names it only if the program uses it.
  // (A module class written the way archives hold them — attribute declarations, no __init__ — is
  // TorchScript and compiles.)
  auto pythonModule = [&options](const ClassStmt& c) {
    if (options.archiveMode) return false;
    bool module = false, init = false;
    for (auto& b : c.bases) module |= classBaseKind(dottedName(b)) == ClassBaseKind::Module;
    for (auto& st : c.body) init |= st->kind == StmtKind::Def && st->as<DefStmt>().name == "__init__";
    return module && init;
  };
  for (auto& [q, c] : classes)
    if (pythonModule(*c)) resolver->pythonModules_.insert(c->name);
  resolver->definer_ = [&target, file, classes, ctx](const std::string& q) -> TypePtr {
    auto it = classes.find(q);
    if (it == classes.end()) return nullptr;
    return defineClass(target, file, *it->second, q, ctx);
  };
  for (auto& [q, c] : classes)
    if (!pythonModule(*c))
      resolver->classDefinitions_[c->name] = std::make_shared<ClassDefinition>(ClassDefinition{q, file, c, ctx});
  // The definer and the class definitions hold `ctx`, which holds the resolver: a reference cycle until
  // they are dropped, on every way out of this call, a compile error included (the class map is only
  // valid during this call anyway).
  struct DropDefiner {
    FileResolver& r;
    ~DropDefiner() {
      r.definer_ = nullptr;
      r.classDefinitions_.clear();
    }
  } dropDefiner{*resolver};
  // second pass: classes (in order), then functions
  for (auto& q : classOrder)
    if (!pythonModule(*classes.at(q))) defineClass(target, file, *classes.at(q), q, ctx);
  std::vector<const DefStmt*> defs, fixedDefs;
  for (auto& s : file->body)
    if (s->kind == StmtKind::Def) {
      defs.push_back(&s->as<DefStmt>());
      if (options.archiveMode || !isVariadicDef(s->as<DefStmt>())) fixedDefs.push_back(defs.back());
    }
  defineAllWithRetry(fixedDefs, [&](const DefStmt& d) {
    defineFunction(target, file, d, options.prefix + "." + d.name, nullptr, ctx);
  });
  // Defs taking *args / **kwargs, compiled binding nothing unless a call above already needed that.
  for (auto& [name, v] : variadicDefs) v->defineUnbound();
  std::vector<Function*> fns;
  for (const DefStmt* d : defs) fns.push_back(target.findFunction(options.prefix + "." + d->name));
  return fns;
}

}  // namespace kindling
