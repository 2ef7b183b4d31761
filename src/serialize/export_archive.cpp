// Archive export. See export_archive.h.
#include "serialize/export_archive.h"

#include <unordered_set>

#include "passes/canonicalize/upgraders.h"
#include "serialize/pickler.h"
#include "serialize/python_print.h"
#include "serialize/zip_archive.h"

namespace kindling {

namespace {

std::string stemOf(const std::string& path) {
  size_t slash = path.find_last_of('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  size_t dot = base.find_last_of('.');
  if (dot != std::string::npos && dot > 0) base = base.substr(0, dot);
  return base.empty() ? "archive" : base;
}

void writePickle(ZipWriter& w, const std::string& name, const std::string& folder, const IValue& v) {
  Pickler p(Pickler::Mode::TorchScript);
  std::string bytes = p.pickle(v);
  for (const auto& s : p.storages()) w.writeRecord(folder + "/" + s.key, s.storage->data(), s.nbytes);
  w.writeRecord(name, bytes);
}

void writeVersion(ZipWriter& w, uint64_t version) {
  // caffe2 PyTorchStreamWriter::writeEndOfFile: ".data/version" from version 6 on, "version" before.
  w.writeRecord(version >= 6 ? ".data/version" : "version", std::to_string(version) + "\n");
}

void writeExtraFiles(ZipWriter& w, const ExtraFilesMap& extra) {
  for (const auto& [name, data] : extra) {
    if (name.empty() || name.find("..") != std::string::npos || name[0] == '/')
      throw Error(fmt::format("invalid extra file name '{}'", name));
    w.writeRecord("extra/" + name, data);
  }
}

std::optional<std::string> namedTypeName(const TypePtr& t) {
  if (auto* c = t->cast<ClassType>()) return c->qualName();
  if (auto* e = t->cast<EnumType>()) return e->qualName();
  if (auto* tt = t->cast<TupleType>()) return tt->qualName();
  if (auto* f = t->cast<FunctionType>()) return f->function() ? std::optional<std::string>(f->function()->qualname()) : std::nullopt;
  return std::nullopt;
}

void collectGraph(const Function* f, std::vector<std::shared_ptr<Graph>>& graphs) {
  if (auto* gf = dynamic_cast<const GraphFunction*>(f)) graphs.push_back(const_cast<GraphFunction*>(gf)->graph());
}

// Emits the body of every method of `c`. By index: a body that calls super() can add the base's
// implementation to the class as another method (frontend/class_inheritance.h), which is printed too.
void defineEveryMethod(const ClassType& c) {
  for (size_t i = 0; i < c.methods().size(); ++i)
    if (auto* gf = dynamic_cast<GraphFunction*>(c.methods()[i])) gf->ensureDefined();
}

void maxVersion(const Block* b, uint64_t& v) {
  for (const Node* n : *b) {
    if (const Operator* op = n->op()) v = std::max(v, minFileVersionForOperator(op->schema.qualifiedName()));
    for (const Block* sb : n->blocks()) maxVersion(sb, v);
  }
}

/// Every object class reachable through the module's state (attributes typed Any or interfaces can hold
/// classes the declarations do not name).
struct PrintedCode {
  std::vector<std::pair<std::string, std::string>> files;  // record name, text
  std::vector<IValue> constants;
  uint64_t version = kMinProducedFileFormatVersion;
};

/// Prints every named type the module needs, one printer per qualifier (code file), as PyTorch's
/// ScriptModuleSerializer::convertNamedType does.
PrintedCode printModuleCode(const Module& m) {
  PrintedCode out;
  std::vector<TypePtr> work{m.type()};
  forEachReachableObject(IValue(m.object()), [&work](const Object& o) { work.push_back(o.type); });
  std::unordered_set<std::string> done;
  std::vector<std::string> qualifierOrder;
  std::map<std::string, std::unique_ptr<PythonPrinter>> printers;
  std::vector<std::shared_ptr<Graph>> graphs;
  for (size_t i = 0; i < work.size(); ++i) {
    TypePtr t = work[i];
    std::optional<std::string> name = namedTypeName(t);
    if (!name || !done.insert(*name).second) continue;
    if (name->rfind("__torch__.torch.classes.", 0) == 0) continue;  // C++ custom classes: no source
    size_t dot = name->rfind('.');
    std::string qualifier = dot == std::string::npos ? "__torch__" : name->substr(0, dot);
    auto it = printers.find(qualifier);
    if (it == printers.end()) {
      it = printers.emplace(qualifier, std::make_unique<PythonPrinter>(&out.constants)).first;
      qualifierOrder.push_back(qualifier);
    }
    PythonPrinter& p = *it->second;
    if (auto* c = t->cast<ClassType>()) defineEveryMethod(*c);
    p.printNamedType(t);
    for (const TypePtr& d : p.dependencies()) work.push_back(d);
    if (auto* c = t->cast<ClassType>())
      for (Function* f : c->methods()) collectGraph(f, graphs);
    if (auto* f = t->cast<FunctionType>()) collectGraph(f->function(), graphs);
  }
  for (const std::string& q : qualifierOrder) {
    std::string path = "code/";
    for (char c : q) path += c == '.' ? '/' : c;
    out.files.emplace_back(path + ".py", printers[q]->str());
  }
  out.version = fileVersionFor(graphs);
  return out;
}

}  // namespace

uint64_t fileVersionFor(const std::vector<std::shared_ptr<Graph>>& graphs) {
  uint64_t v = kMinProducedFileFormatVersion;
  for (const auto& g : graphs)
    if (g) maxVersion(g->block(), v);
  return v;
}

void exportModule(const Module& module, const std::string& outPath, const ExtraFilesMap& extraFiles) {
  if (!module.object()) throw Error("cannot save an empty Module");
  PrintedCode code = printModuleCode(module);
  ZipWriter w(outPath, stemOf(outPath));
  writeExtraFiles(w, extraFiles);
  writePickle(w, "data.pkl", "data", IValue(module.object()));
  for (const auto& [name, text] : code.files) w.writeRecord(name, text);
  writePickle(w, "constants.pkl", "constants", makeTuple(code.constants));
  writeVersion(w, code.version);
  w.close();
}

void resaveArchive(const ImportedArchive& archive, const std::string& sourcePath, const std::string& outPath,
                   const ExtraFilesMap& extraFiles, bool reprint) {
  if (reprint) {
    // Extra files of the source are kept unless replaced.
    ExtraFilesMap extra = archive.extraFiles;
    for (const auto& [k, v] : extraFiles) extra[k] = v;
    exportModule(archive.module, outPath, extra);
    return;
  }
  ZipReader src(sourcePath);
  ZipWriter w(outPath, stemOf(outPath));
  for (const std::string& r : src.records())
    if (r.rfind("extra/", 0) == 0 && !extraFiles.count(r.substr(6))) w.writeRecord(r, src.readRecordString(r));
  writeExtraFiles(w, extraFiles);
  writePickle(w, "data.pkl", "data", IValue(archive.module.object()));
  for (const std::string& r : src.records())
    if (r.rfind("code/", 0) == 0) w.writeRecord(r, src.readRecordString(r));
  writePickle(w, "constants.pkl", "constants", makeTuple(archive.constants));
  writeVersion(w, static_cast<uint64_t>(archive.version));
  w.close();
}

Module placeholderModuleFor(GraphFunction& fn) {
  auto cu = std::make_shared<CompilationUnit>();
  auto cls = ClassType::create("__torch__.PlaceholderModule", /*isModule=*/true);
  cls->addAttribute("training", BoolType());
  cu->addType(cls);
  std::shared_ptr<Graph> g = fn.graph()->copy();
  Value* self = g->block()->insertInput(0, "self");
  self->setType(cls);
  GraphFunction* forward = cu->addFunction(std::make_unique<GraphFunction>("__torch__.PlaceholderModule.forward", g));
  // forward keeps the function's schema (argument defaults, declared types), `self` first
  FunctionSchema schema = fn.getSchema();
  Argument selfArg;
  selfArg.name = "self";
  selfArg.type = cls;
  schema.arguments.insert(schema.arguments.begin(), selfArg);
  schema.name = "forward";
  forward->setSchema(std::move(schema));
  cls->addMethod(forward);
  auto obj = makeIntrusive<Object>(cls, 1);
  obj->slots[0] = IValue(true);
  return Module(cu, obj);
}

}  // namespace kindling
