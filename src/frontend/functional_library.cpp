// torch.nn.functional for Kindling's frontend: the embedded TorchScript library, the builtin aliases and
// the boolean dispatch table (see functional_library.h).
#include "frontend/functional_library.h"

#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>
#include <unordered_map>
#include <unordered_set>

#include "frontend/compiler.h"
#include "frontend/library_sources.h"
#include "frontend/parser.h"

namespace kindling {

const char* const kFunctionalPrefix = "__torch__.torch.nn.functional";
const char* const kTorchFunctionalPrefix = "__torch__.torch.functional";

namespace {

// One compiled unit: a source file compiled as a whole under `prefix` into a target on first use.
struct Unit {
  std::string prefix;
  std::shared_ptr<const Source> source;
  std::unordered_set<std::string> names;
};

Unit makeUnit(const char* path, std::string prefix, const char* file) {
  Unit u;
  u.prefix = std::move(prefix);
  std::optional<std::string_view> text = embeddedLibrarySource(path);
  if (!text) throw std::logic_error(std::string("the embedded library has no file ") + path);
  u.source = std::make_shared<Source>(std::string(*text), file);
  auto parsed = parseFile(u.source);
  for (auto& s : parsed->body)
    if (s->kind == StmtKind::Def) u.names.insert(s->as<DefStmt>().name);
  return u;
}

// Each library file (src/frontend/library/) with the qualified-name prefix its functions get and the file
// name its source ranges show.
const std::vector<Unit>& units() {
  static const std::vector<Unit> all = [] {
    const std::string tf = kTorchFunctionalPrefix;
    std::vector<Unit> v;
    v.push_back(makeUnit("torch/nn/functional.py", kFunctionalPrefix, "torch/nn/functional.py"));
    v.push_back(makeUnit("torch/functional.py", tf, "torch/functional.py"));
    v.push_back(makeUnit("torch/nn/functional_overloads/interpolate_optional_float.py",
                         std::string(kFunctionalPrefix) + ".___torch_mangle_1", "torch/nn/functional.py"));
    v.push_back(makeUnit("torch/functional_overloads/norm_number_list.py", tf + ".___torch_mangle_1", "torch/functional.py"));
    v.push_back(makeUnit("torch/functional_overloads/norm_number_int.py", tf + ".___torch_mangle_2", "torch/functional.py"));
    v.push_back(makeUnit("torch/functional_overloads/norm_str_int.py", tf + ".___torch_mangle_3", "torch/functional.py"));
    v.push_back(makeUnit("torch/functional_overloads/tensordot_tuple.py", tf + ".___torch_mangle_4", "torch/functional.py"));
    v.push_back(makeUnit("torch/functional_overloads/tensordot_list.py", tf + ".___torch_mangle_5", "torch/functional.py"));
    v.push_back(makeUnit("torch/functional_overloads/tensordot_tensor.py", tf + ".___torch_mangle_6", "torch/functional.py"));
    return v;
  }();
  return all;
}

/// The unit defining qualName, or nullptr.
const Unit* unitOf(const std::string& qualName) {
  const size_t dot = qualName.rfind('.');
  if (dot == std::string::npos) return nullptr;
  const std::string prefix = qualName.substr(0, dot), name = qualName.substr(dot + 1);
  for (const Unit& u : units())
    if (u.prefix == prefix && u.names.count(name)) return &u;
  return nullptr;
}

}  // namespace

bool isFunctionalLibraryFunction(const std::string& name) { return units()[0].names.count(name) != 0; }

bool isLibraryQualifiedName(const std::string& qualName) {
  for (const char* p : {kFunctionalPrefix, kTorchFunctionalPrefix}) {
    const size_t n = std::char_traits<char>::length(p);
    if (qualName.compare(0, n, p) == 0 && qualName.size() > n && qualName[n] == '.') return true;
  }
  return false;
}

Function* functionalLibraryFunction(CompilationTarget& target, const std::string& qualName,
                                    const OperatorRegistry* registry) {
  const Unit* u = unitOf(qualName);
  if (!u) return nullptr;
  if (Function* f = target.findFunction(qualName)) return f;
  // Not compiled into this target yet: compile the unit once (bodies are emitted on first use).
  CompileOptions opts;
  opts.prefix = u->prefix;
  opts.registry = registry;
  compileSource(target, u->source, opts);
  return target.findFunction(qualName);
}

bool isTorchFunctionalName(const std::string& name) {
  return name == "unique" || name == "unique_consecutive" || name == "norm" || name == "tensordot" ||
         name == "cdist";
}

std::string torchFunctionalTarget(const std::string& name, const CallShape& call) {
  const std::string tf = std::string(kTorchFunctionalPrefix) + ".";
  // the type of the argument `arg` (keyword) or at `index`; nullptr when not passed
  auto argType = [&](const std::string& arg, size_t index) -> TypePtr {
    for (auto& [k, t] : call.keywords)
      if (k == arg) return t;
    return index < call.positional.size() ? call.positional[index] : nullptr;
  };
  auto flag = [&](const std::string& arg, size_t index) {
    int v = call.flag(arg, index);
    if (v == 2)
      throw std::invalid_argument("the value of '" + arg + "' of torch." + name +
                                  " must be a constant bool (its return type depends on it)");
    return v == 1;
  };
  auto stripOptional = [](TypePtr t) -> TypePtr {
    if (t && t->kind() == TypeKind::Optional) return t->containedTypes()[0];
    return t;
  };
  if (name == "unique" || name == "unique_consecutive") {
    const bool consecutive = name == "unique_consecutive";
    const size_t base = consecutive ? 1 : 2;
    const bool inverse = flag("return_inverse", base), counts = flag("return_counts", base + 1);
    if (consecutive) {
      if (inverse && counts) return tf + "_unique_consecutive_impl";
      if (inverse) return tf + "_consecutive_return_inverse";
      return tf + (counts ? "_consecutive_return_counts" : "_consecutive_return_output");
    }
    if (inverse && counts) return tf + "_unique_impl";
    if (inverse) return tf + "_return_inverse";
    return tf + (counts ? "_return_counts" : "_return_output");
  }
  if (name == "norm") {
    TypePtr p = stripOptional(argType("p", 1)), dim = stripOptional(argType("dim", 2));
    const bool strP = !p || p->kind() == TypeKind::Str;
    const bool intDim = dim && dim->kind() == TypeKind::Int;
    if (strP) return intDim ? tf + "___torch_mangle_3.norm" : tf + "norm";
    return intDim ? tf + "___torch_mangle_2.norm" : tf + "___torch_mangle_1.norm";
  }
  if (name == "tensordot") {
    TypePtr d = argType("dims", 2);
    if (d && d->kind() == TypeKind::Tuple) return tf + "___torch_mangle_4.tensordot";
    if (d && d->kind() == TypeKind::List) return tf + "___torch_mangle_5.tensordot";
    if (d && d->kind() == TypeKind::Tensor) return tf + "___torch_mangle_6.tensordot";
    return tf + "tensordot";
  }
  return tf + name;
}

std::optional<BooleanDispatch> functionalBooleanDispatch(const std::string& name) {
  static const std::unordered_map<std::string, BooleanDispatch> table = {
      {"max_pool1d", {6, "max_pool1d_with_indices", "_max_pool1d"}},
      {"max_pool2d", {6, "max_pool2d_with_indices", "_max_pool2d"}},
      {"max_pool3d", {6, "max_pool3d_with_indices", "_max_pool3d"}},
      {"adaptive_max_pool1d", {2, "adaptive_max_pool1d_with_indices", "_adaptive_max_pool1d"}},
      {"adaptive_max_pool2d", {2, "adaptive_max_pool2d_with_indices", "_adaptive_max_pool2d"}},
      {"adaptive_max_pool3d", {2, "adaptive_max_pool3d_with_indices", "_adaptive_max_pool3d"}},
  };
  auto it = table.find(name);
  if (it == table.end()) return std::nullopt;
  return it->second;
}

std::string functionalBuiltinName(const std::string& name) {
  // torch.nn.functional attributes that are the C++ builtins themselves (torch.conv2d, torch._C._nn.*),
  // as torch.jit._builtins finds them in PyTorch 1.13.
  static const std::unordered_map<std::string, std::string> table = {
      {"adaptive_avg_pool1d", "aten::adaptive_avg_pool1d"}, {"avg_pool1d", "aten::avg_pool1d"},
      {"avg_pool2d", "aten::avg_pool2d"}, {"avg_pool3d", "aten::avg_pool3d"}, {"bilinear", "aten::bilinear"},
      {"celu_", "aten::celu_"}, {"channel_shuffle", "aten::channel_shuffle"}, {"conv1d", "aten::conv1d"},
      {"conv2d", "aten::conv2d"}, {"conv3d", "aten::conv3d"}, {"conv_tbc", "aten::conv_tbc"},
      {"conv_transpose1d", "aten::conv_transpose1d"}, {"conv_transpose2d", "aten::conv_transpose2d"},
      {"conv_transpose3d", "aten::conv_transpose3d"}, {"cosine_similarity", "aten::cosine_similarity"},
      {"elu_", "aten::elu_"}, {"gelu", "aten::gelu"}, {"hardshrink", "aten::hardshrink"},
      {"hardtanh_", "aten::hardtanh_"}, {"leaky_relu_", "aten::leaky_relu_"}, {"linear", "aten::linear"},
      {"logsigmoid", "aten::log_sigmoid"}, {"native_channel_shuffle", "aten::native_channel_shuffle"},
      {"one_hot", "aten::one_hot"}, {"pad", "aten::pad"}, {"pairwise_distance", "aten::pairwise_distance"},
      {"pdist", "aten::pdist"}, {"pixel_shuffle", "aten::pixel_shuffle"},
      {"pixel_unshuffle", "aten::pixel_unshuffle"}, {"prelu", "aten::prelu"}, {"relu_", "aten::relu_"},
      {"rrelu_", "aten::rrelu_"}, {"selu_", "aten::selu_"}, {"softplus", "aten::softplus"},
      {"softshrink", "aten::softshrink"}, {"threshold_", "aten::threshold_"},
      {"_scaled_dot_product_attention", "aten::_scaled_dot_product_attention"},
  };
  auto it = table.find(name);
  return it == table.end() ? std::string() : it->second;
}

}  // namespace kindling
