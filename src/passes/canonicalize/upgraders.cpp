// Operator upgraders (see passes/canonicalize/upgraders.h).
#include "passes/canonicalize/upgraders.h"

#include <map>
#include <mutex>
#include <unordered_map>

#include "frontend/compiler.h"
#include "passes/canonicalize/inliner.h"
#include "passes/pipeline.h"

namespace kindling {

const std::vector<UpgraderEntry>& operatorVersionMap() {
  static const std::vector<UpgraderEntry> m = {
      {"aten::div.Tensor", 4, "div_Tensor_0_3", "aten::div.Tensor(Tensor self, Tensor other) -> Tensor"},
      {"aten::div.Scalar", 4, "div_Scalar_0_3", "aten::div.Scalar(Tensor self, Scalar other) -> Tensor"},
      {"aten::div.out", 4, "div_out_0_3", "aten::div.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)"},
      {"aten::div_.Tensor", 4, "div__Tensor_0_3", "aten::div_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)"},
      {"aten::div_.Scalar", 4, "div__Scalar_0_3", "aten::div_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)"},
      {"aten::full", 5, "full_0_4",
       "aten::full(int[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
       "bool? pin_memory=None) -> Tensor"},
      {"aten::full.out", 5, "full_out_0_4", "aten::full.out(int[] size, Scalar fill_value, *, Tensor(a!) out) -> Tensor(a!)"},
      {"aten::linspace", 8, "linspace_0_7",
       "aten::linspace(Scalar start, Scalar end, int? steps=None, *, ScalarType? dtype=None, Layout? layout=None, "
       "Device? device=None, bool? pin_memory=None) -> Tensor"},
      {"aten::linspace.out", 8, "linspace_out_0_7",
       "aten::linspace.out(Scalar start, Scalar end, int? steps=None, *, Tensor(a!) out) -> Tensor(a!)"},
      {"aten::logspace", 9, "logspace_0_8",
       "aten::logspace(Scalar start, Scalar end, int? steps=None, float base=10.0, *, ScalarType? dtype=None, "
       "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"},
      {"aten::logspace.out", 9, "logspace_out_0_8",
       "aten::logspace.out(Scalar start, Scalar end, int? steps=None, float base=10.0, *, Tensor(a!) out) -> Tensor(a!)"},
      {"aten::gelu", 10, "gelu_0_9", "aten::gelu(Tensor self) -> Tensor"},
      {"aten::gelu.out", 10, "gelu_out_0_9", "aten::gelu.out(Tensor self, *, Tensor(a!) out) -> Tensor"},
      // Upgraders that only re-call the operator: versioned, but the behaviour did not change.
      {"aten::div.Tensor_mode", 4, "div_Tensor_mode_0_3",
       "aten::div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor"},
      {"aten::div.Scalar_mode", 4, "div_Scalar_mode_0_3",
       "aten::div.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor"},
      {"aten::div.out_mode", 4, "div_out_mode_0_3",
       "aten::div.out_mode(Tensor self, Tensor other, *, str? rounding_mode, Tensor(a!) out) -> Tensor(a!)"},
      {"aten::div_.Tensor_mode", 4, "div__Tensor_mode_0_3",
       "aten::div_.Tensor_mode(Tensor(a!) self, Tensor other, *, str? rounding_mode) -> Tensor(a!)"},
      {"aten::div_.Scalar_mode", 4, "div__Scalar_mode_0_3",
       "aten::div_.Scalar_mode(Tensor(a!) self, Scalar other, *, str? rounding_mode) -> Tensor(a!)"},
      {"aten::full.names", 5, "full_names_0_4",
       "aten::full.names(int[] size, Scalar fill_value, *, Dimname[]? names, ScalarType? dtype=None, Layout? "
       "layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"},
  };
  return m;
}

namespace {

// The upgraders, in TorchScript. Each takes the old schema's arguments in order (keyword-only ones
// included) and reproduces the old behaviour with today's operators. Compiled in archive mode (so
// `ops.prim.*` is available). A Scalar's runtime kind (PyTorch's `isinstance(other, float)`) is read
// through prim::NumToTensor, whose dtype is double exactly for float scalars.
const std::map<std::string, std::string>& upgraderSources() {
  static const std::map<std::string, std::string> s = {
      {"div_Tensor_0_3", R"(
def div_Tensor_0_3(self: Tensor, other: Tensor) -> Tensor:
  if self.is_floating_point() or other.is_floating_point():
    return torch.div(self, other)
  return torch.div(self, other, rounding_mode="trunc")
)"},
      {"div_Scalar_0_3", R"(
def div_Scalar_0_3(self: Tensor, other: number) -> Tensor:
  if self.is_floating_point() or ops.prim.NumToTensor(other).is_floating_point():
    return torch.div(self, other)
  return torch.div(self, other, rounding_mode="trunc")
)"},
      {"div_out_0_3", R"(
def div_out_0_3(self: Tensor, other: Tensor, out: Tensor) -> Tensor:
  if self.is_floating_point() or other.is_floating_point() or out.is_floating_point():
    return torch.div(self, other, out=out)
  return torch.div(self, other, rounding_mode="trunc", out=out)
)"},
      {"div__Tensor_0_3", R"(
def div__Tensor_0_3(self: Tensor, other: Tensor) -> Tensor:
  if self.is_floating_point() or other.is_floating_point():
    return self.div_(other)
  return self.div_(other, rounding_mode="trunc")
)"},
      {"div__Scalar_0_3", R"(
def div__Scalar_0_3(self: Tensor, other: number) -> Tensor:
  if self.is_floating_point() or ops.prim.NumToTensor(other).is_floating_point():
    return self.div_(other)
  return self.div_(other, rounding_mode="trunc")
)"},
      {"full_0_4", R"(
def full_0_4(size: List[int], fill_value: number, dtype: Optional[int], layout: Optional[int],
             device: Optional[Device], pin_memory: Optional[bool]) -> Tensor:
  if dtype is None:
    fill_value = float(fill_value)
  return torch.full(size, fill_value, dtype=dtype, layout=layout, device=device, pin_memory=pin_memory)
)"},
      {"full_out_0_4", R"(
def full_out_0_4(size: List[int], fill_value: number, out: Tensor) -> Tensor:
  return torch.full(size, fill_value, out=out)
)"},
      {"linspace_0_7", R"(
def linspace_0_7(start: number, end: number, steps: Optional[int], dtype: Optional[int], layout: Optional[int],
                 device: Optional[Device], pin_memory: Optional[bool]) -> Tensor:
  if steps is None:
    return torch.linspace(start, end, 100, dtype=dtype, layout=layout, device=device, pin_memory=pin_memory)
  return torch.linspace(start, end, steps, dtype=dtype, layout=layout, device=device, pin_memory=pin_memory)
)"},
      {"linspace_out_0_7", R"(
def linspace_out_0_7(start: number, end: number, steps: Optional[int], out: Tensor) -> Tensor:
  if steps is None:
    return torch.linspace(start, end, 100, out=out)
  return torch.linspace(start, end, steps, out=out)
)"},
      {"logspace_0_8", R"(
def logspace_0_8(start: number, end: number, steps: Optional[int], base: float, dtype: Optional[int],
                 layout: Optional[int], device: Optional[Device], pin_memory: Optional[bool]) -> Tensor:
  if steps is None:
    return torch.logspace(start, end, 100, base, dtype=dtype, layout=layout, device=device, pin_memory=pin_memory)
  return torch.logspace(start, end, steps, base, dtype=dtype, layout=layout, device=device, pin_memory=pin_memory)
)"},
      {"logspace_out_0_8", R"(
def logspace_out_0_8(start: number, end: number, steps: Optional[int], base: float, out: Tensor) -> Tensor:
  if steps is None:
    return torch.logspace(start, end, 100, base, out=out)
  return torch.logspace(start, end, steps, base, out=out)
)"},
      {"gelu_0_9", R"(
def gelu_0_9(self: Tensor) -> Tensor:
  return torch.gelu(self, approximate="none")
)"},
      {"gelu_out_0_9", R"(
def gelu_out_0_9(self: Tensor, out: Tensor) -> Tensor:
  return torch.gelu(self, approximate="none", out=out)
)"},
  };
  return s;
}

const UpgraderEntry* findEntry(const std::string& overload) {
  static const std::unordered_map<std::string, const UpgraderEntry*> index = [] {
    std::unordered_map<std::string, const UpgraderEntry*> m;
    for (const auto& e : operatorVersionMap()) m.emplace(e.overload, &e);
    return m;
  }();
  auto it = index.find(overload);
  return it == index.end() ? nullptr : it->second;
}

// A CompilationTarget that keeps the functions of one upgrader source.
class UpgraderFunction : public Function {
 public:
  UpgraderFunction(std::string qualname, FunctionSchema schema, std::function<void(Graph&)> emit)
      : qualname_(std::move(qualname)), schema_(std::move(schema)), emit_(std::move(emit)) {
    size_t dot = qualname_.rfind('.');
    name_ = dot == std::string::npos ? qualname_ : qualname_.substr(dot + 1);
  }
  const std::string& qualname() const override { return qualname_; }
  const std::string& name() const override { return name_; }
  const FunctionSchema& getSchema() const override { return schema_; }
  void run(Stack&) override { throw Error("upgrader '" + qualname_ + "' is only inlined, never run"); }
  std::shared_ptr<Graph> emit() {
    auto g = std::make_shared<Graph>();
    emit_(*g);
    runCleanupPasses(*g);
    return g;
  }

 private:
  std::string qualname_, name_;
  FunctionSchema schema_;
  std::function<void(Graph&)> emit_;
};

class UpgraderTarget : public CompilationTarget {
 public:
  Function* defineFunction(const std::string& qualname, FunctionSchema schema,
                           std::function<void(Graph& graph)> emitBody) override {
    fns_.push_back(std::make_unique<UpgraderFunction>(qualname, std::move(schema), std::move(emitBody)));
    return fns_.back().get();
  }
  Function* findFunction(const std::string& qualname) const override {
    for (const auto& f : fns_)
      if (f->qualname() == qualname) return f.get();
    return nullptr;
  }
  void addType(TypePtr) override { throw Error("upgraders define no types"); }
  TypePtr findType(const std::string&) const override { return nullptr; }
  std::vector<std::unique_ptr<UpgraderFunction>> fns_;
};

// The upgrader's graph compiled against `base`, once per (base, upgrader).
std::shared_ptr<const Graph> upgraderGraph(const UpgraderEntry& e, const OperatorRegistry& base) {
  static std::mutex mu;
  static std::map<std::pair<const OperatorRegistry*, std::string>, std::shared_ptr<const Graph>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto key = std::make_pair(&base, std::string(e.upgraderName));
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  const auto& sources = upgraderSources();
  auto src = sources.find(e.upgraderName);
  if (src == sources.end()) return nullptr;  // behaviour unchanged: the call stays
  UpgraderTarget target;
  CompileOptions opts;
  opts.prefix = "__torch__.upgraders";
  opts.registry = &base;
  opts.archiveMode = true;
  auto source = std::make_shared<const Source>(src->second, std::string("<upgrader ") + e.upgraderName + ">");
  compileSource(target, source, opts);
  if (target.fns_.size() != 1) throw Error(std::string("upgrader source of ") + e.upgraderName + " must define one function");
  std::shared_ptr<const Graph> g = target.fns_[0]->emit();
  cache.emplace(key, g);
  return g;
}

void collect(Block* b, std::vector<Node*>& out) {
  for (Node* n : *b) {
    out.push_back(n);
    for (Block* sb : n->blocks()) collect(sb, out);
  }
}

}  // namespace

uint64_t minFileVersionForOperator(const std::string& overload) {
  const UpgraderEntry* e = findEntry(overload);
  return e ? e->bumpedAtVersion : 0;
}

const OperatorRegistry& operatorRegistryForVersion(uint64_t version, const OperatorRegistry& base) {
  bool changed = false;
  for (const auto& e : operatorVersionMap())
    if (version < e.bumpedAtVersion && base.find(e.overload)) changed = true;
  if (!changed) return base;
  static std::mutex mu;
  static std::map<std::pair<const OperatorRegistry*, uint64_t>, std::unique_ptr<OperatorRegistry>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto key = std::make_pair(&base, version);
  auto it = cache.find(key);
  if (it != cache.end()) return *it->second;
  auto r = std::make_unique<OperatorRegistry>();
  for (const auto& op : base.all()) {
    const UpgraderEntry* e = findEntry(op->schema.qualifiedName());
    if (e && version < e->bumpedAtVersion) {
      // Old schemas that Kindling cannot parse (Dimname[] of full.names) keep today's schema.
      try {
        r->add(e->oldSchema, op->fn);
        continue;
      } catch (const Error&) {
      }
    }
    r->add(op->schema.str(), op->fn);
  }
  const OperatorRegistry& out = *r;
  cache.emplace(key, std::move(r));
  return out;
}

void replaceOldOperatorsWithUpgraders(Graph& graph, uint64_t version, const OperatorRegistry& base) {
  if (version >= kMaxSupportedFileFormatVersion) return;
  std::vector<Node*> nodes;
  collect(graph.block(), nodes);
  for (Node* n : nodes) {
    const Operator* op = n->op();
    if (!op) continue;
    std::string overload = op->schema.qualifiedName();
    const UpgraderEntry* e = findEntry(overload);
    if (e && version < e->bumpedAtVersion) {
      std::shared_ptr<const Graph> g = upgraderGraph(*e, base);
      if (g) {
        if (g->inputs().size() != n->inputs().size())
          throw CompileError(fmt::format("cannot apply upgrader {} to {}: it takes {} arguments, the call has {}",
                                         e->upgraderName, overload, g->inputs().size(), n->inputs().size()),
                             n->sourceRange());
        inlineCallTo(n, *g, e->upgraderName);
        continue;
      }
    }
    // Compiled against a registry for an old version: point the node at today's operator.
    const Operator* current = base.find(overload);
    if (current && current != op) n->setOp(current);
  }
}

std::string upgraderSource(const std::string& upgraderName) {
  auto it = upgraderSources().find(upgraderName);
  return it == upgraderSources().end() ? "" : it->second;
}

}  // namespace kindling
