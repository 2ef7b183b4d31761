#include "serialize/import_source.h"

#include <unordered_map>

#include "frontend/compiler.h"
#include "frontend/ir_emitter.h"
#include "frontend/parser.h"
#include "passes/canonicalize/upgraders.h"

namespace kindling {

namespace {

// Forwards to the real target; every body emitted through it then goes through the operator upgraders
// of the archive's version (passes/canonicalize/upgraders.h), before anything else sees the graph.
class UpgradingTarget : public CompilationTarget {
 public:
  UpgradingTarget(CompilationTarget& inner, uint64_t version, const OperatorRegistry& base)
      : inner_(inner), version_(version), base_(base) {}
  Function* defineFunction(const std::string& qualname, FunctionSchema schema,
                           std::function<void(Graph& graph)> emitBody) override {
    if (version_ >= kMaxSupportedFileFormatVersion) return inner_.defineFunction(qualname, std::move(schema), std::move(emitBody));
    return inner_.defineFunction(qualname, std::move(schema),
                                 [body = std::move(emitBody), v = version_, base = &base_](Graph& g) {
                                   body(g);
                                   replaceOldOperatorsWithUpgraders(g, v, *base);
                                 });
  }
  Function* findFunction(const std::string& qualname) const override { return inner_.findFunction(qualname); }
  void addType(TypePtr type) override { inner_.addType(std::move(type)); }
  TypePtr findType(const std::string& qualname) const override { return inner_.findType(qualname); }

 private:
  CompilationTarget& inner_;
  uint64_t version_;
  const OperatorRegistry& base_;
};

}  // namespace

class SourceImporter::Impl : public Resolver, public std::enable_shared_from_this<SourceImporter::Impl> {
 public:
  Impl(CompilationTarget& target, Reader reader, std::vector<IValue> constants, uint64_t version,
       const OperatorRegistry* registry)
      : base_(registry ? *registry : OperatorRegistry::global()),
        target_(target, version, base_), reader_(std::move(reader)), constants_(std::move(constants)),
        version_(version), registry_(&operatorRegistryForVersion(version, base_)) {}

  struct Definition {
    std::shared_ptr<SourceFile> file;
    const Stmt* stmt = nullptr;
  };

  // Parses code/<prefix as path>.py once; nullptr when absent.
  std::shared_ptr<SourceFile> fileFor(const std::string& prefix) {
    auto it = files_.find(prefix);
    if (it != files_.end()) return it->second;
    std::string path = "code/";
    for (char c : prefix) path += c == '.' ? '/' : c;
    path += ".py";
    std::shared_ptr<SourceFile> parsed;
    if (auto text = reader_(path)) {
      auto src = std::make_shared<Source>(std::move(*text), path);
      parsed = parseFile(src);
      for (auto& s : parsed->body) {
        std::string name;
        if (s->kind == StmtKind::Class) name = s->as<ClassStmt>().name;
        else if (s->kind == StmtKind::Def) name = s->as<DefStmt>().name;
        else if (s->kind == StmtKind::Import || s->kind == StmtKind::Pass) continue;
        else if (s->kind == StmtKind::Expr && s->as<ExprStmt>().value->kind == ExprKind::Str) continue;
        else if (s->kind == StmtKind::Assign) continue;  // e.g. module-level constants (not used by 1.13 archives)
        else throw CompileError("unexpected statement at the top level of an archive source file", s->range);
        definitions_[prefix + "." + name] = Definition{parsed, s.get()};
      }
    }
    files_[prefix] = parsed;
    return parsed;
  }

  // The definition of a qualified name: the longest prefix that names an existing file.
  const Definition* findDefinition(const std::string& qualName) {
    auto it = definitions_.find(qualName);
    if (it != definitions_.end()) return &it->second;
    if (qualName.compare(0, 9, "__torch__") != 0) return nullptr;
    size_t pos = qualName.rfind('.');
    while (pos != std::string::npos && pos > 0) {
      std::string prefix = qualName.substr(0, pos);
      if (fileFor(prefix)) {
        auto d = definitions_.find(qualName);
        return d == definitions_.end() ? nullptr : &d->second;
      }
      pos = prefix.rfind('.');
    }
    return nullptr;
  }

  EmitContext context() {
    EmitContext c;
    c.resolver = shared_from_this();
    c.registry = registry_;
    c.archiveMode = true;
    return c;
  }

  TypePtr tryLoadType(const std::string& qualName) {
    if (TypePtr t = target_.findType(qualName)) return t;
    const Definition* d = findDefinition(qualName);
    if (!d || d->stmt->kind != StmtKind::Class) return nullptr;
    return defineClass(target_, d->file, d->stmt->as<ClassStmt>(), qualName, context());
  }

  Function* tryLoadFunction(const std::string& qualName) {
    if (Function* f = target_.findFunction(qualName)) return f;
    const Definition* d = findDefinition(qualName);
    if (!d || d->stmt->kind != StmtKind::Def) return nullptr;
    return defineFunction(target_, d->file, d->stmt->as<DefStmt>(), qualName, nullptr, context());
  }

  // Resolver
  TypePtr resolveType(const std::string& name, const SourceRange&) override {
    if (name.compare(0, 10, "__torch__.") != 0) return nullptr;
    return tryLoadType(name);
  }
  Function* resolveFunction(const std::string& name, const SourceRange&) override {
    if (name.compare(0, 10, "__torch__.") != 0) return nullptr;
    return tryLoadFunction(name);
  }
  std::optional<IValue> resolveConstant(const std::string& name, const SourceRange& loc) override {
    if (name.size() < 2 || name[0] != 'c') return std::nullopt;
    size_t idx = 0;
    for (size_t i = 1; i < name.size(); ++i) {
      if (!std::isdigit(static_cast<unsigned char>(name[i]))) return std::nullopt;
      idx = idx * 10 + static_cast<size_t>(name[i] - '0');
      if (idx > constants_.size()) break;
    }
    if (idx >= constants_.size())
      throw CompileError("CONSTANTS." + name + " is out of range: the archive has " + std::to_string(constants_.size()) +
                             " constants",
                         loc);
    return constants_[idx];
  }

  const OperatorRegistry& base_;  // today's operators
  UpgradingTarget target_;
  Reader reader_;
  std::vector<IValue> constants_;
  uint64_t version_;
  const OperatorRegistry* registry_;  // what the code is compiled against: base_ with old schemas if needed
  std::unordered_map<std::string, std::shared_ptr<SourceFile>> files_;  // by dotted prefix
  std::unordered_map<std::string, Definition> definitions_;
};

SourceImporter::SourceImporter(CompilationTarget& target, Reader reader, std::vector<IValue> constants,
                               uint64_t fileVersion, const OperatorRegistry* registry)
    : impl_(std::make_shared<Impl>(target, std::move(reader), std::move(constants), fileVersion, registry)) {}

SourceImporter::~SourceImporter() = default;

TypePtr SourceImporter::loadType(const std::string& qualName) {
  TypePtr t = impl_->tryLoadType(qualName);
  if (!t) throw LoadError("archive code does not define class '" + qualName + "'");
  return t;
}

ClassTypePtr SourceImporter::loadClass(const std::string& qualName) {
  TypePtr t = loadType(qualName);
  auto c = std::dynamic_pointer_cast<const ClassType>(t);
  if (!c) throw LoadError("'" + qualName + "' is not a class");
  return std::const_pointer_cast<ClassType>(c);
}

Function* SourceImporter::loadFunction(const std::string& qualName) { return impl_->tryLoadFunction(qualName); }

uint64_t SourceImporter::version() const { return impl_->version_; }

}  // namespace kindling
