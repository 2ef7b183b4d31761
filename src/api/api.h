// The public C++ API behind include/kindling/kindling.h (libtorch's torch::jit look-alike): load an archive
// (with its extra files), save a module, call its methods with argument checking, set the thread count. Thin on purpose: it forwards to
// serialize/import_archive.h and runtime/module.h.
#pragma once
#include <string>
#include <vector>

#include "core/function_schema.h"
#include "core/ivalue.h"
#include "runtime/module.h"
#include "serialize/export_archive.h"

namespace kindling {

namespace jit {

/// torch::jit::Module's look-alike: the runtime Module plus save().
class Module : public ::kindling::Module {
 public:
  Module() = default;
  Module(::kindling::Module m) : ::kindling::Module(std::move(m)) {}  // NOLINT: implicit, as a handle
  /// torch::jit::Module::save / torch.jit.save: writes the module as a TorchScript archive PyTorch 1.13
  /// loads (serialize/export_archive.h: code/ printed from the compiled classes, state in data.pkl,
  /// `extraFiles` as extra/<name>). Throws LoadError when the file cannot be written, Error for state
  /// that cannot be pickled.
  void save(const std::string& path, const ExtraFilesMap& extraFiles = {}) const;
};

/// Loads a TorchScript archive written by torch.jit.save (or by Kindling): classes compiled from code/,
/// the module tree from data.pkl, every method reachable from the root compiled and optimized now (no
/// first-call cliff). Throws LoadError (bad file/archive/pickle) or CompileError (bad code/).
Module load(const std::string& path);
/// As torch::jit::load(path, device, extra_files): for every key of `extraFiles` the archive has as
/// extra/<key>, the value is replaced by the record's content (other keys are left as they are).
Module load(const std::string& path, ExtraFilesMap& extraFiles);
/// map_location: Kindling computes on the CPU, so every tensor loads on the CPU whatever device it was
/// saved from (torch.jit.load(path, map_location="cpu")). Any other device is a UsageError.
Module load(const std::string& path, const Device& device, ExtraFilesMap& extraFiles);

/// torch.jit.save(module, path, _extra_files).
void save(const ::kindling::Module& module, const std::string& path, const ExtraFilesMap& extraFiles = {});

}  // namespace jit

/// Checks call arguments (without self) against a method's schema as TorchScript does before running it:
/// count (defaults fill missing trailing arguments) and types. Throws RuntimeError
/// "forward() expected argument 'x' to be Tensor but got int" /
/// "forward() expected at most 1 argument(s) but received 2 argument(s)". Returns the completed list.
/// `skipSelf`: the schema's first argument is `self` and is not part of args.
std::vector<IValue> checkArguments(const FunctionSchema& schema, std::vector<IValue> args, bool skipSelf);

/// Runs a module's method after checkArguments (the API's Module::forward goes through this).
IValue runMethodChecked(const Module& m, const std::string& method, std::vector<IValue> args);

/// Intra-op threads for kernels (OpenMP; oneDNN follows OpenMP). n >= 1; throws UsageError otherwise.
void set_num_threads(int n);
int get_num_threads();

}  // namespace kindling
