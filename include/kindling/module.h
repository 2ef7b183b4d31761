// Loading TorchScript archives and calling their methods (libtorch's torch::jit::load and
// torch::jit::Module look-alikes).
//
//   kindling::jit::Module m = kindling::jit::load("model.pt");
//   kindling::IValue y = m.forward({kindling::ones({1, 3, 224, 224})});
//
// What loads: archives written by torch.jit.save of PyTorch 1.x and 2.x (file format versions 1 to 10),
// `.ptl` archives of _save_for_lite_interpreter, flatbuffer archives of save_jit_module_to_flatbuffer
// (magic "PTMF"), and archives Kindling writes. Loading compiles every method the module reaches and
// specializes `forward` for inference (attributes the code never writes become constants, batch norms
// are folded into convolutions), so the first call costs little more than later ones; results are
// PyTorch's.
//
// Ownership: a Module is a shared handle (as torch::jit::Module): copies refer to the same module
// object, parameters and compiled code. The module and everything it owns live while any handle, Method,
// or IValue taken from it lives.
//
// Threads: forward, run_method, Method calls and the read-only accessors may be called on one Module
// from several threads at the same time; each call runs on its calling thread (plus Kindling's intra-op
// threads, see set_num_threads) with its own registers, and shares only the read-only weights. Calls that
// change the module (setattr, train, eval, register-style mutations inside a method that assigns to
// self.x) must not run concurrently with any other call on the same module.
//
// Errors: LoadError (file/stream/archive), CompileError (its code), RuntimeError (wrong arguments,
// errors raised while running), UsageError (wrong use: unknown method or attribute, unsupported device).
#pragma once
#include <cstddef>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "kindling/export.h"
#include "kindling/ivalue.h"
#include "kindling/scalar_type.h"
#include "kindling/tensor.h"

namespace kindling {
namespace api {
namespace jit {

/// extra/<name> records of an archive (torch.jit.save's _extra_files): name → bytes.
using ExtraFilesMap = std::unordered_map<std::string, std::string>;
/// Keyword arguments of a call: argument name → value.
using Kwargs = std::unordered_map<std::string, IValue>;

class Module;

struct NamedTensor {
  std::string name;
  Tensor value;
};
struct NamedIValue {
  std::string name;
  IValue value;
};
struct NamedModule;

/// One method of a module, or a function (torch::jit::Method). Keeps its module alive.
class KINDLING_API Method {
 public:
  /// "forward".
  const std::string& name() const;
  /// Calls the method: arguments are checked against its schema first (count, types; missing trailing
  /// ones take their defaults; ints convert to float where a float is declared), then it runs. Throws
  /// RuntimeError "forward() Expected a value of type 'Tensor' for argument 'x' but instead found type
  /// 'int'." as TorchScript does, or the program's own error.
  IValue operator()(std::vector<IValue> args, const Kwargs& kwargs = {}) const;
  /// The schema as TorchScript prints it: "forward(__torch__.M self, Tensor x) -> Tensor".
  std::string schema() const;
  /// Number of arguments, self included (as torch::jit::Method::num_inputs).
  size_t num_inputs() const;
  /// The graph as print(m.forward.graph) prints it, and the code as print(m.forward.code) does.
  std::string graph_str() const;

 private:
  friend class Module;
  struct Impl;
  std::shared_ptr<const Impl> impl_;
};

class KINDLING_API Module {
 public:
  /// An empty handle; every call but is_empty() throws UsageError.
  Module();
  bool is_empty() const { return impl_ == nullptr; }

  /// Calls `forward` (see Method::operator()).
  IValue forward(std::vector<IValue> inputs, const Kwargs& kwargs = {}) const;
  IValue operator()(std::vector<IValue> inputs, const Kwargs& kwargs = {}) const { return forward(std::move(inputs), kwargs); }
  /// The method; UsageError "Method 'x' is not defined on __torch__.M" when there is none.
  Method get_method(const std::string& name) const;
  std::optional<Method> find_method(const std::string& name) const;
  /// Every method of the module's class (the compiled ones, in declaration order).
  std::vector<Method> get_methods() const;
  /// get_method(name)({args...}).
  template <class... Ts> IValue run_method(const std::string& name, Ts&&... args) const {
    return get_method(name)(std::vector<IValue>{IValue(std::forward<Ts>(args))...});
  }

  // --- attributes ---
  /// An attribute, parameter, buffer or submodule (as an object IValue; toModule() gives a Module).
  /// UsageError when there is none of that name.
  IValue attr(const std::string& name) const;
  IValue attr(const std::string& name, IValue or_else) const;
  bool hasattr(const std::string& name) const;
  /// Sets an existing attribute (the value must fit its declared type: UsageError otherwise). Methods
  /// specialized at load see the new value on their next call.
  void setattr(const std::string& name, IValue value);

  // --- traversal (names dotted with recurse, as named_parameters() in PyTorch) ---
  std::vector<NamedTensor> named_parameters(bool recurse = true) const;
  std::vector<Tensor> parameters(bool recurse = true) const;
  std::vector<NamedTensor> named_buffers(bool recurse = true) const;
  std::vector<Tensor> buffers(bool recurse = true) const;
  /// Every attribute of this module (parameters, buffers, submodules, plain attributes).
  std::vector<NamedIValue> named_attributes() const;
  std::vector<NamedModule> named_children() const;
  std::vector<Module> children() const;
  /// This module (name "") and every submodule below it, depth first, dotted names.
  std::vector<NamedModule> named_modules() const;
  std::vector<Module> modules() const;

  // --- state ---
  /// Sets `training` on this module and every submodule (nn.Module.train / eval); the methods
  /// specialized at load are specialized again on their next call.
  void train(bool on = true);
  void eval() { train(false); }
  bool is_training() const;
  /// CPU: returns without change. Any other device: UsageError.
  void to(Device device, bool non_blocking = false);

  /// "__torch__.MyModule".
  std::string type_name() const;
  /// This module as an object IValue (torch::jit::Module::_ivalue).
  IValue _ivalue() const;

  /// Writes the module as a TorchScript archive (torch.jit.save) PyTorch 1.13 loads, with `extra_files`
  /// as extra/<name>. LoadError when the file cannot be written.
  void save(const std::string& path, const ExtraFilesMap& extra_files = {}) const;
  void save(std::ostream& out, const ExtraFilesMap& extra_files = {}) const;

  struct Impl;  // Kindling's module, opaque here
  explicit Module(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  const std::shared_ptr<Impl>& unsafeImpl() const { return impl_; }

 private:
  std::shared_ptr<Impl> impl_;
};

struct NamedModule {
  std::string name;
  Module value;
};

/// Loads a TorchScript archive from a file (torch::jit::load). `device`: where tensors go
/// (map_location); only the CPU (the default) is supported, so tensors saved from CUDA load onto the CPU
/// and any other device is a UsageError. `extra_files`: for every key present, the value is replaced by
/// the archive's extra/<key> record when there is one (other keys keep their values).
KINDLING_API Module load(const std::string& path, std::optional<Device> device = std::nullopt);
KINDLING_API Module load(const std::string& path, std::optional<Device> device, ExtraFilesMap& extra_files);
/// From a stream read to its end (the stream's position is left at the end).
KINDLING_API Module load(std::istream& in, std::optional<Device> device = std::nullopt);
KINDLING_API Module load(std::istream& in, std::optional<Device> device, ExtraFilesMap& extra_files);
/// From `size` bytes in memory, copied (the buffer may be freed after the call).
KINDLING_API Module load(const void* data, size_t size, std::optional<Device> device = std::nullopt);
KINDLING_API Module load(const void* data, size_t size, std::optional<Device> device, ExtraFilesMap& extra_files);

/// torch.jit.save(module, path, _extra_files).
inline void save(const Module& m, const std::string& path, const ExtraFilesMap& extra_files = {}) {
  m.save(path, extra_files);
}

}  // namespace jit
}  // namespace api
#if KINDLING_EXPOSE_PUBLIC_NAMES
using namespace api;
#endif
}  // namespace kindling
