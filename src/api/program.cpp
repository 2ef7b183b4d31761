// Program / Callable / describeArchive. See program.h.
#include "api/program.h"

#include <nlohmann/json.hpp>

#include <algorithm>

#include <fstream>
#include <sstream>
#include <unordered_set>

#include "api/api.h"
#include "frontend/compiler.h"
#include "serialize/zip_archive.h"
#include "tensor/tensor.h"

namespace kindling {

IValue Callable::call(std::vector<IValue> args) const {
  Stack stack;
  if (self) {
    args = checkArguments(function->getSchema(), std::move(args), true);
    stack.reserve(args.size() + 1);
    stack.emplace_back(self->object());
  } else {
    args = checkArguments(function->getSchema(), std::move(args), false);
    stack.reserve(args.size());
  }
  for (auto& a : args) stack.push_back(std::move(a));
  function->run(stack);
  return stack.empty() ? IValue() : std::move(stack.back());
}

namespace {

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string readTextFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw LoadError(fmt::format("cannot open '{}': No such file or directory", path));
  std::stringstream ss;
  ss << f.rdbuf();
  if (f.bad()) throw LoadError(fmt::format("cannot read '{}'", path));
  return ss.str();
}

std::vector<std::string> splitLines(const std::string& s) {
  std::vector<std::string> lines;
  std::string cur;
  for (char c : s) {
    if (c == '\n') { lines.push_back(cur); cur.clear(); }
    else cur.push_back(c);
  }
  if (!cur.empty()) lines.push_back(cur);
  return lines;
}

size_t indentOf(const std::string& l) {
  size_t i = 0;
  while (i < l.size() && l[i] == ' ') ++i;
  return i;
}

bool blank(const std::string& l) { return indentOf(l) == l.size(); }

/// The lines of `def name(` at `indent` up to the next line at indent <= `indent`, dedented by `indent`
/// — except the signature's continuation lines, which keep their indentation (as fn.code prints them).
std::string extractDef(const std::vector<std::string>& lines, size_t from, size_t to, size_t indent,
                       const std::string& name) {
  std::string head = std::string(indent, ' ') + "def " + name + "(";
  for (size_t i = from; i < to; ++i) {
    if (lines[i].rfind(head, 0) != 0) continue;
    std::string out;
    bool inSignature = true;
    for (size_t j = i; j < to; ++j) {
      const std::string& l = lines[j];
      if (j > i && !inSignature && !blank(l) && indentOf(l) <= indent) break;
      out += (inSignature && j > i) ? l : l.substr(std::min(indent, indentOf(l)));
      out += "\n";
      if (inSignature) {
        size_t e = l.find_last_not_of(' ');
        if (e != std::string::npos && l[e] == ':') inSignature = false;
      }
    }
    return out;
  }
  return "";
}

/// `def forward(self: __torch__.M,` → `def forward(self,` (fn.code leaves `self` unannotated).
std::string dropSelfAnnotation(std::string def) {
  size_t open = def.find('(');
  if (open == std::string::npos) return def;
  size_t colon = def.find(':', open);
  size_t stop = def.find_first_of(",)", open);
  if (colon == std::string::npos || stop == std::string::npos || colon > stop) return def;
  return def.substr(0, colon) + def.substr(stop);
}

}  // namespace

std::shared_ptr<CompilationUnit> compileSourceFile(const std::string& path, const std::string& text) {
  auto cu = std::make_shared<CompilationUnit>();
  auto source = std::make_shared<const Source>(text, path);
  CompileOptions options;
  compileSource(*cu, source, options);
  // Bodies compile when a program selects its entry (Program::select): the entry and everything it reaches,
  // as torch.jit.script(fn) compiles fn and its callees, so definitions the entry never uses (a Python-only
  // nn.Module class, an unused helper) do not stop the program.
  return cu;
}

namespace {
/// Compiles `f` and what it calls now, so errors surface before running (and no first-call cliff).
void compileEntry(GraphFunction* f) {
  f->ensureDefined();
  f->code();
}
}  // namespace

Program Program::open(const std::string& path) {
  Program p;
  p.path_ = path;
  if (endsWith(path, ".py")) {
    p.sourceText_ = readTextFile(path);
    p.cu_ = compileSourceFile(path, p.sourceText_);
  } else {
    // Every method is checked at load; select() compiles (or freezes) the one the program runs.
    ImportOptions options;
    options.compileRootMethods = false;
    p.archive_ = importArchive(path, options);
    p.cu_ = p.archive_->module.compilationUnit();
  }
  return p;
}

Callable Program::select(const std::string& method, const std::string& function, bool forInference) {
  Callable c;
  if (!function.empty()) {
    GraphFunction* fn = cu_->findGraphFunction(function);
    if (!fn) {
      for (const auto& f : cu_->functions())
        if (f->name() == function || f->qualname() == "__torch__." + function) { fn = f.get(); break; }
    }
    if (!fn) throw Error(fmt::format("function '{}' is not defined in '{}'", function, path_));
    // A method (its qualifier is a class) needs its object: an archive's module methods go by --method.
    const std::string& q = fn->qualname();
    const size_t dot = q.rfind('.');
    if (dot != std::string::npos && cu_->findClass(q.substr(0, dot)))
      throw UsageError(isArchive() ? fmt::format("'{}' is a method of '{}', not a free function; run a method of the "
                                                 "archive's module with --method NAME",
                                                 function, q.substr(0, dot))
                                   : fmt::format("'{}' is a method of class '{}', not a free function", function,
                                                 q.substr(0, dot)));
    compileEntry(fn);
    c.function = fn;
    return c;
  }
  if (isArchive()) {
    std::string name = method.empty() ? "forward" : method;
    Module& m = archive_->module;
    Function* f = m.findMethod(name);
    if (!f) throw Error(fmt::format("method '{}' is not defined on module '{}' in '{}'", name, m.type()->qualName(), path_));
    if (forInference) {
      if (!m.frozenMethod(name)) m.freezeMethod(name);
      f = m.frozenMethod(name);
    }
    auto* gf = dynamic_cast<GraphFunction*>(f);
    if (!gf) throw Error(fmt::format("method '{}' of '{}' is not a TorchScript function", name, m.type()->qualName()));
    c.function = gf;
    c.self = m;
    return c;
  }
  if (!method.empty()) throw UsageError("--method selects a method of an archive's module; use --function NAME for source programs");
  // Free functions of the source: those whose qualifier is not a class.
  std::vector<GraphFunction*> free;
  for (const auto& f : cu_->functions()) {
    const std::string& q = f->qualname();
    size_t dot = q.rfind('.');
    if (dot != std::string::npos && cu_->findClass(q.substr(0, dot))) continue;
    free.push_back(f.get());
  }
  for (GraphFunction* f : free)
    if (free.size() == 1 || f->name() == "forward") {
      compileEntry(f);
      c.function = f;
      return c;
    }
  std::string names;
  for (GraphFunction* f : free) names += (names.empty() ? "" : ", ") + f->name();
  throw UsageError(fmt::format("'{}' defines {} functions ({}); choose one with --function NAME", path_, free.size(),
                               names.empty() ? "none" : names));
}

void Program::save(const std::string& outPath, const std::string& function, const ExtraFilesMap& extraFiles,
                   bool reprint) {
  if (isArchive()) {
    if (!function.empty())
      throw UsageError("kindling save: --function selects the function of a source program; an archive is saved whole");
    resaveArchive(*archive_, path_, outPath, extraFiles, reprint);
    return;
  }
  Callable c = select("", function);
  exportModule(placeholderModuleFor(*c.function), outPath, extraFiles);
}

std::string Program::sourceOf(const Callable& c) const {
  if (!isArchive()) {
    std::string out = extractDef(splitLines(sourceText_), 0, splitLines(sourceText_).size(), 0, c.function->name());
    if (out.empty()) throw Error(fmt::format("no source found for '{}'", c.function->qualname()));
    return out;
  }
  // Archive: code/<qualifier as path>.py holds the class; its method is `  def name(` inside `class C(`.
  const std::string& q = c.function->qualname();
  size_t dot = q.rfind('.');
  std::string owner = dot == std::string::npos ? q : q.substr(0, dot);
  std::string name = c.function->name();
  bool isMethod = c.self.has_value() || cu_->findClass(owner) != nullptr;
  std::string cls, qualifier = owner;
  if (isMethod) {
    size_t d2 = owner.rfind('.');
    cls = d2 == std::string::npos ? owner : owner.substr(d2 + 1);
    qualifier = d2 == std::string::npos ? owner : owner.substr(0, d2);
  }
  std::string file = "code/" + qualifier + ".py";
  for (char& ch : file)
    if (ch == '.') ch = '/';
  file = file.substr(0, file.size() - 3) + ".py";
  ZipReader zip(path_);
  std::vector<std::string> lines = splitLines(zip.readRecordString(file));
  std::string out;
  if (isMethod) {
    std::string head = "class " + cls + "(";
    for (size_t i = 0; i < lines.size(); ++i) {
      if (lines[i].rfind(head, 0) != 0 && lines[i] != "class " + cls + ":") continue;
      size_t end = i + 1;
      while (end < lines.size() && (blank(lines[end]) || indentOf(lines[end]) > 0)) ++end;
      out = extractDef(lines, i + 1, end, 2, name);
      break;
    }
    out = dropSelfAnnotation(out);
  } else {
    out = extractDef(lines, 0, lines.size(), 0, name);
  }
  if (out.empty()) throw Error(fmt::format("no source for '{}' in record '{}' of '{}'", q, file, path_));
  return out;
}

namespace {

std::string shortRepr(const IValue& v) {
  std::string s;
  try {
    s = v.repr();
  } catch (const std::exception&) {
    s = std::string("<") + v.tagName() + ">";
  }
  for (char& c : s)
    if (c == '\n') c = ' ';
  if (s.size() > 80) s = s.substr(0, 77) + "...";
  return s;
}

void describeModule(const Module& m, const std::string& name, size_t depth, std::string& out) {
  if (depth > 64) return;
  out += std::string(2 * depth + 2, ' ') + (name.empty() ? "(root)" : name) + ": " + m.type()->qualName() + "\n";
  for (const auto& [n, child] : m.namedChildren()) describeModule(child, n, depth + 1, out);
}

/// Plain attributes (not parameters, buffers or submodules) of every module, with dotted names.
void describeAttributes(const Module& m, const std::string& prefix, size_t depth, std::string& out) {
  if (depth > 64) return;
  const auto& attrs = m.type()->attributes();
  for (size_t i = 0; i < attrs.size() && i < m.object()->slots.size(); ++i) {
    const IValue& v = m.object()->slots[i];
    if (attrs[i].isParameter || attrs[i].isBuffer) continue;
    if (v.isObject() && v.toObjectRef().type->isModule()) continue;
    std::string value = v.isTensor() ? fmt::format("tensor {} {}", v.toTensor().sizesStr(), dtypeReprName(v.toTensor().dtype()))
                                     : shortRepr(v);
    out += fmt::format("  {}{} = {}\n", prefix, attrs[i].name, value);
  }
  for (const auto& [n, child] : m.namedChildren()) describeAttributes(child, prefix + n + ".", depth + 1, out);
}

nlohmann::ordered_json tensorJson(const std::string& name, const Tensor& t) {
  return {{"name", name}, {"shape", t.sizes()}, {"dtype", dtypeReprName(t.dtype())}, {"numel", t.numel()}};
}

nlohmann::ordered_json moduleJson(const Module& m, const std::string& name, size_t depth) {
  nlohmann::ordered_json j = {{"name", name}, {"type", m.type()->qualName()}};
  nlohmann::ordered_json attrs = nlohmann::ordered_json::array();
  const auto& decl = m.type()->attributes();
  for (size_t i = 0; i < decl.size() && i < m.object()->slots.size(); ++i) {
    const IValue& v = m.object()->slots[i];
    if (decl[i].isParameter || decl[i].isBuffer) continue;
    if (v.isObject() && v.toObjectRef().type->isModule()) continue;
    nlohmann::ordered_json a = {{"name", decl[i].name}, {"type", decl[i].type ? decl[i].type->annotationStr() : "?"}};
    if (v.isTensor())
      a["tensor"] = tensorJson(decl[i].name, v.toTensor());
    else
      a["value"] = shortRepr(v);
    attrs.push_back(std::move(a));
  }
  j["attributes"] = std::move(attrs);
  nlohmann::ordered_json children = nlohmann::ordered_json::array();
  if (depth < 64)
    for (const auto& [n, child] : m.namedChildren()) children.push_back(moduleJson(child, n, depth + 1));
  j["children"] = std::move(children);
  return j;
}

}  // namespace

std::string describeArchiveJson(const ImportedArchive& a) {
  const Module& m = a.module;
  nlohmann::ordered_json j;
  j["format"] = a.format;
  j["root"] = a.rootName;
  j["version"] = a.version;
  j["lite_interpreter"] = std::find(a.records.begin(), a.records.end(), "bytecode.pkl") != a.records.end();
  j["records"] = a.records;
  nlohmann::ordered_json extra = nlohmann::ordered_json::object();
  for (const auto& [name, data] : a.extraFiles) extra[name] = {{"bytes", data.size()}};
  j["extra_files"] = std::move(extra);
  j["constants"] = a.constants.size();
  j["module"] = moduleJson(m, "", 0);
  nlohmann::ordered_json classes = nlohmann::ordered_json::array();
  for (const TypePtr& t : m.compilationUnit()->types()) {
    auto* ct = t->cast<ClassType>();
    if (!ct) {
      classes.push_back({{"name", t->str()}, {"kind", "type"}});
      continue;
    }
    nlohmann::ordered_json c = {{"name", ct->qualName()}, {"kind", ct->isModule() ? "module" : "class"}};
    nlohmann::ordered_json attrs = nlohmann::ordered_json::array();
    for (const auto& at : ct->attributes())
      attrs.push_back({{"name", at.name},
                       {"type", at.type ? at.type->annotationStr() : "?"},
                       {"role", at.isParameter ? "parameter" : at.isBuffer ? "buffer" : "attribute"}});
    c["attributes"] = std::move(attrs);
    nlohmann::ordered_json consts = nlohmann::ordered_json::array();
    for (const auto& k : ct->constants()) consts.push_back({{"name", k.name}, {"value", k.value ? shortRepr(*k.value) : "?"}});
    c["constants"] = std::move(consts);
    nlohmann::ordered_json methods = nlohmann::ordered_json::array();
    for (Function* f : ct->methods()) {
      nlohmann::ordered_json mj = {{"name", f->name()}};
      try {
        mj["schema"] = f->getSchema().str();
      } catch (const std::exception& e) {
        mj["error"] = e.what();
      }
      methods.push_back(std::move(mj));
    }
    c["methods"] = std::move(methods);
    classes.push_back(std::move(c));
  }
  j["classes"] = std::move(classes);
  nlohmann::ordered_json params = nlohmann::ordered_json::array(), buffers = nlohmann::ordered_json::array();
  int64_t total = 0;
  for (const auto& [n, t] : m.namedParameters(true)) {
    params.push_back(tensorJson(n, t));
    total += t.numel();
  }
  for (const auto& [n, t] : m.namedBuffers(true)) buffers.push_back(tensorJson(n, t));
  j["parameters"] = std::move(params);
  j["parameter_count"] = total;
  j["buffers"] = std::move(buffers);
  // Invalid UTF-8 in names or values (archives are untrusted) is replaced, never a throw.
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::string describeArchive(const ImportedArchive& a) {
  std::string out;
  const Module& m = a.module;
  if (a.format == "flatbuffer")
    out += fmt::format("flatbuffer archive, format version {}, {} code files\n", a.version, a.records.size());
  else
    out += fmt::format("archive root '{}', format version {}, {} records\n", a.rootName, a.version, a.records.size());
  for (const auto& r : a.records)
    if (r == "bytecode.pkl") out += "lite interpreter archive (.ptl): bytecode.pkl present, code/ used\n";
  if (!a.extraFiles.empty()) {
    out += "extra files:\n";
    for (const auto& [name, data] : a.extraFiles) out += fmt::format("  {} ({} bytes)\n", name, data.size());
  }
  out += fmt::format("constants: {}\n", a.constants.size());
  out += "\nmodule tree:\n";
  describeModule(m, "", 0, out);

  out += "\nclasses:\n";
  for (const TypePtr& t : m.compilationUnit()->types()) {
    auto* ct = t->cast<ClassType>();
    if (!ct) {
      out += "  " + t->str() + "\n";
      continue;
    }
    out += fmt::format("  class {}{}\n", ct->qualName(), ct->isModule() ? " (module)" : "");
    for (const auto& at : ct->attributes()) {
      const char* kind = at.isParameter ? " [parameter]" : at.isBuffer ? " [buffer]" : "";
      out += fmt::format("    {}: {}{}\n", at.name, at.type ? at.type->annotationStr() : "?", kind);
    }
    for (const auto& c : ct->constants())
      out += fmt::format("    {}: Final = {}\n", c.name, c.value ? shortRepr(*c.value) : "?");
    for (Function* f : ct->methods()) {
      std::string sig;
      try {
        sig = f->getSchema().str();
      } catch (const std::exception& e) {
        sig = f->qualname() + " (schema unavailable: " + e.what() + ")";
      }
      out += "    def " + sig + "\n";
    }
  }

  out += "\nparameters:\n";
  size_t total = 0;
  for (const auto& [n, t] : m.namedParameters(true)) {
    out += fmt::format("  {}: {} {}\n", n, t.sizesStr(), dtypeReprName(t.dtype()));
    total += static_cast<size_t>(t.numel());
  }
  out += fmt::format("  total: {} elements\n", total);
  out += "\nbuffers:\n";
  for (const auto& [n, t] : m.namedBuffers(true)) out += fmt::format("  {}: {} {}\n", n, t.sizesStr(), dtypeReprName(t.dtype()));

  out += "\nattributes:\n";
  describeAttributes(m, "", 0, out);
  return out;
}

}  // namespace kindling
