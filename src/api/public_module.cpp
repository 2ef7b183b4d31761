// kindling::api::jit::Module, Method and load (include/kindling/module.h) over the internal Module.
//
// Specialization for inference: `forward` runs the code Module::freezeMethod made for the module object
// (as the CLI's `kindling run` does). A process-wide counter of attribute writes made through the public
// API, and the version counters of the module's parameters and buffers (a tensor written in place, e.g.
// a batch norm's statistics folded into a convolution), tell a module when to specialize again; the first
// call after a write does it, under the module's mutex, so concurrent calls never see a half-made method.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <mutex>
#include <sstream>
#include <unistd.h>
#include <unordered_map>

#include "api/api.h"
#include "api/public_bridge.h"
#include "kindling/threads.h"
#include "runtime/graph_function.h"
#include "runtime/thread_pool.h"
#include "serialize/export_archive.h"
#include "serialize/import_archive.h"

namespace kindling::api {

using detail::in;
using detail::out;
using detail::translateErrors;
using InModule = ::kindling::Module;

namespace {

std::atomic<uint64_t> gAttributeWrites{0};

/// Class type → the compilation unit owning its methods, for IValue::toModule.
struct ClassRegistry {
  std::mutex mu;
  std::unordered_map<const ::kindling::ClassType*, std::weak_ptr<::kindling::CompilationUnit>> map;
};
ClassRegistry& classRegistry() {
  static ClassRegistry* r = new ClassRegistry();  // leaked on purpose: used by static destructors' IValues
  return *r;
}

void registerClasses(const std::shared_ptr<::kindling::CompilationUnit>& cu, const ::kindling::IValue& root) {
  auto& r = classRegistry();
  std::lock_guard<std::mutex> g(r.mu);
  for (auto it = r.map.begin(); it != r.map.end();) it = it->second.expired() ? r.map.erase(it) : std::next(it);
  ::kindling::forEachReachableObject(root, [&](const ::kindling::Object& o) { r.map[o.type.get()] = cu; });
  for (const auto& t : cu->types())
    if (auto* ct = t->cast<::kindling::ClassType>()) r.map[ct] = cu;
}

}  // namespace

void detail::noteAttributeWrite() { gAttributeWrites.fetch_add(1, std::memory_order_acq_rel); }

namespace jit {

struct Module::Impl {
  explicit Impl(InModule m) : module(std::move(m)) {}
  InModule module;
  std::mutex mu;
  std::atomic<uint64_t> specializedAt{UINT64_MAX};
  /// Every parameter and buffer with its version counter when forward was specialized (under mu).
  std::vector<std::pair<::kindling::Tensor, uint64_t>> specializedVersions;
  bool versionsCurrent() const {
    for (const auto& [t, v] : specializedVersions)
      if (t.storage()->version() != v) return false;
    return true;
  }
  /// forward as specialized for the current attribute values (see the file comment).
  void specializeForward() {
    const uint64_t now = gAttributeWrites.load(std::memory_order_acquire);
    std::lock_guard<std::mutex> g(mu);
    if (specializedAt.load(std::memory_order_relaxed) == now && versionsCurrent()) return;
    specializedVersions.clear();
    for (const auto& named : {module.namedParameters(), module.namedBuffers()})
      for (const auto& [name, t] : named)
        if (t.defined()) specializedVersions.emplace_back(t, t.storage()->version());
    if (dynamic_cast<::kindling::GraphFunction*>(module.findMethod("forward"))) module.freezeMethod("forward");
    specializedAt.store(now, std::memory_order_release);
  }
};

struct Method::Impl {
  std::shared_ptr<Module::Impl> owner;
  ::kindling::Function* fn = nullptr;
  std::string name;
};

}  // namespace jit

const InModule& detail::moduleOf(const jit::Module& m, const char* what) {
  if (!m.unsafeImpl()) throw UsageError(std::string(what) + ": the Module is empty");
  return m.unsafeImpl()->module;
}

jit::Module detail::makeModule(InModule m) {
  registerClasses(m.compilationUnit(), ::kindling::IValue(m.object()));
  return jit::Module(std::make_shared<jit::Module::Impl>(std::move(m)));
}

jit::Module IValue::toModule() const {
  if (!isModule()) throw UsageError(std::string("Expected a module object but got ") + in(*this).tagName());
  auto obj = in(*this).toObject();
  std::shared_ptr<::kindling::CompilationUnit> cu;
  {
    auto& r = classRegistry();
    std::lock_guard<std::mutex> g(r.mu);
    auto it = r.map.find(obj->type.get());
    if (it != r.map.end()) cu = it->second.lock();
  }
  if (!cu) throw UsageError("toModule: the module this object belongs to is no longer loaded");
  return jit::Module(std::make_shared<jit::Module::Impl>(InModule(cu, obj)));
}

namespace jit {

namespace {

std::vector<std::pair<std::string, ::kindling::IValue>> inKwargs(const Kwargs& kwargs) {
  std::vector<std::pair<std::string, ::kindling::IValue>> r;
  for (const auto& [k, v] : kwargs) r.emplace_back(k, in(v));
  return r;
}

std::vector<::kindling::IValue> inArgs(std::vector<IValue>& args) {
  std::vector<::kindling::IValue> r;
  r.reserve(args.size());
  for (IValue& a : args) r.push_back(std::move(in(a)));
  return r;
}

Module child(const Module& parent, InModule m) {
  (void)parent;
  return Module(std::make_shared<Module::Impl>(std::move(m)));
}

}  // namespace

// --- Method ---
const std::string& Method::name() const { return impl_->name; }
IValue Method::operator()(std::vector<IValue> args, const Kwargs& kwargs) const {
  auto& owner = *impl_->owner;
  return translateErrors([&] {
    if (impl_->name == "forward") owner.specializeForward();
    return out(::kindling::runMethodChecked(owner.module, impl_->name, inArgs(args), inKwargs(kwargs)));
  });
}
std::string Method::schema() const { return translateErrors([&] { return impl_->fn->getSchema().str(); }); }
size_t Method::num_inputs() const { return impl_->fn->getSchema().arguments.size(); }
std::string Method::graph_str() const {
  return translateErrors([&] {
    auto* gf = dynamic_cast<::kindling::GraphFunction*>(impl_->fn);
    if (!gf) throw UsageError("method '" + impl_->name + "' has no graph");
    gf->ensureDefined();
    return gf->graph()->toString();
  });
}

// --- Module ---
Module::Module() = default;

IValue Module::forward(std::vector<IValue> inputs, const Kwargs& kwargs) const {
  const InModule& m = detail::moduleOf(*this, "forward");
  return translateErrors([&] {
    impl_->specializeForward();
    return out(::kindling::runMethodChecked(m, "forward", inArgs(inputs), inKwargs(kwargs)));
  });
}

std::optional<Method> Module::find_method(const std::string& name) const {
  const InModule& m = detail::moduleOf(*this, "find_method");
  ::kindling::Function* f = m.findMethod(name);
  if (!f) return std::nullopt;
  Method r;
  r.impl_ = std::make_shared<const Method::Impl>(Method::Impl{impl_, f, name});
  return r;
}

Method Module::get_method(const std::string& name) const {
  std::optional<Method> r = find_method(name);
  if (!r) throw UsageError("Method '" + name + "' is not defined on " + type_name());
  return *r;
}

std::vector<Method> Module::get_methods() const {
  const InModule& m = detail::moduleOf(*this, "get_methods");
  std::vector<Method> r;
  for (::kindling::Function* f : m.type()->methods()) {
    Method x;
    x.impl_ = std::make_shared<const Method::Impl>(Method::Impl{impl_, f, f->name()});
    r.push_back(std::move(x));
  }
  return r;
}

IValue Module::attr(const std::string& name) const {
  const InModule& m = detail::moduleOf(*this, "attr");
  if (!m.hasattr(name)) throw UsageError(m.type()->qualName() + " does not have an attribute with name '" + name + "'");
  return translateErrors([&] { return out(m.attr(name)); });
}
IValue Module::attr(const std::string& name, IValue or_else) const {
  const InModule& m = detail::moduleOf(*this, "attr");
  if (!m.hasattr(name)) return or_else;
  return translateErrors([&] { return out(m.attr(name)); });
}
bool Module::hasattr(const std::string& name) const { return detail::moduleOf(*this, "hasattr").hasattr(name); }
void Module::setattr(const std::string& name, IValue value) {
  _ivalue().toObject().setattr(name, std::move(value));  // type-checked; counts as an attribute write
}

namespace {
std::vector<NamedTensor> named(const std::vector<std::pair<std::string, ::kindling::Tensor>>& v) {
  std::vector<NamedTensor> r;
  for (const auto& [n, t] : v) r.push_back(NamedTensor{n, out(t)});
  return r;
}
std::vector<Tensor> values(const std::vector<NamedTensor>& v) {
  std::vector<Tensor> r;
  for (const auto& x : v) r.push_back(x.value);
  return r;
}
}  // namespace

std::vector<NamedTensor> Module::named_parameters(bool recurse) const {
  return named(detail::moduleOf(*this, "named_parameters").namedParameters(recurse));
}
std::vector<Tensor> Module::parameters(bool recurse) const { return values(named_parameters(recurse)); }
std::vector<NamedTensor> Module::named_buffers(bool recurse) const {
  return named(detail::moduleOf(*this, "named_buffers").namedBuffers(recurse));
}
std::vector<Tensor> Module::buffers(bool recurse) const { return values(named_buffers(recurse)); }

std::vector<NamedIValue> Module::named_attributes() const {
  const InModule& m = detail::moduleOf(*this, "named_attributes");
  std::vector<NamedIValue> r;
  const auto& attrs = m.type()->attributes();
  for (size_t i = 0; i < attrs.size(); ++i)
    r.push_back(NamedIValue{attrs[i].name, i < m.object()->slots.size() ? out(m.object()->slots[i]) : IValue()});
  return r;
}

std::vector<NamedModule> Module::named_children() const {
  std::vector<NamedModule> r;
  for (auto& [n, c] : detail::moduleOf(*this, "named_children").namedChildren()) r.push_back(NamedModule{n, child(*this, c)});
  return r;
}
std::vector<Module> Module::children() const {
  std::vector<Module> r;
  for (auto& c : named_children()) r.push_back(c.value);
  return r;
}
std::vector<NamedModule> Module::named_modules() const {
  std::vector<NamedModule> r{NamedModule{"", *this}};
  for (size_t i = 0; i < r.size(); ++i) {  // breadth of the tree below, depth first order by insertion
    std::vector<NamedModule> kids;
    for (auto& c : r[i].value.named_children())
      kids.push_back(NamedModule{r[i].name.empty() ? c.name : r[i].name + "." + c.name, c.value});
    r.insert(r.begin() + static_cast<std::ptrdiff_t>(i) + 1, kids.begin(), kids.end());
  }
  return r;
}
std::vector<Module> Module::modules() const {
  std::vector<Module> r;
  for (auto& c : named_modules()) r.push_back(c.value);
  return r;
}

void Module::train(bool on) {
  for (Module& m : modules())
    if (m.hasattr("training")) m._ivalue().toObject().setattr("training", IValue(on));
  detail::noteAttributeWrite();
}
bool Module::is_training() const {
  const InModule& m = detail::moduleOf(*this, "is_training");
  if (!m.hasattr("training")) return true;
  const ::kindling::IValue& v = m.attr("training");
  return v.isBool() ? v.toBool() : true;
}
void Module::to(Device device, bool) {
  if (!device.is_cpu())
    throw UsageError("Module.to: Kindling computes on the CPU only; device '" + device.str() + "' is not available");
}

std::string Module::type_name() const { return detail::moduleOf(*this, "type_name").type()->qualName(); }
IValue Module::_ivalue() const { return out(::kindling::IValue(detail::moduleOf(*this, "_ivalue").object())); }

void Module::save(const std::string& path, const ExtraFilesMap& extra_files) const {
  const InModule& m = detail::moduleOf(*this, "save");
  translateErrors([&] {
    ::kindling::ExtraFilesMap files(extra_files.begin(), extra_files.end());
    ::kindling::exportModule(m, path, files);
  });
}

void Module::save(std::ostream& os, const ExtraFilesMap& extra_files) const {
  // The archive writer needs a file it can seek; write one and copy it into the stream.
  const char* dir = std::getenv("TMPDIR");
  std::string tmpl = std::string(dir && *dir ? dir : "/tmp") + "/kindling-save-XXXXXX";
  int fd = mkstemp(tmpl.data());
  if (fd < 0) throw LoadError("Module.save: cannot create a temporary file in " + std::string(dir && *dir ? dir : "/tmp"));
  ::close(fd);
  struct Remove {
    std::string p;
    ~Remove() { std::remove(p.c_str()); }
  } remove{tmpl};
  save(tmpl, extra_files);
  std::ifstream f(tmpl, std::ios::binary);
  os << f.rdbuf();
  if (!os) throw LoadError("Module.save: writing to the stream failed");
}

// --- load ---

namespace {

void checkDevice(const std::optional<Device>& device) {
  if (device && !device->is_cpu())
    throw UsageError("jit::load: Kindling computes on the CPU only; cannot load onto device '" + device->str() + "'");
}

Module finish(::kindling::ImportedArchive a, ExtraFilesMap* extra_files) {
  if (extra_files)
    for (auto& [name, value] : *extra_files) {
      auto it = a.extraFiles.find(name);
      if (it != a.extraFiles.end()) value = it->second;
    }
  Module m = detail::makeModule(std::move(a.module));
  m.unsafeImpl()->specializeForward();
  // The root's other methods compile now too (no first-call cliff); forward runs frozen, so its unfrozen
  // code is left to a first call that needs it (after attribute writes, or by name through run_method).
  const ::kindling::Module& in = m.unsafeImpl()->module;
  for (::kindling::Function* f : in.type()->methods())
    if (auto* gf = dynamic_cast<::kindling::GraphFunction*>(f); gf && gf->name() != "forward") gf->code();
  return m;
}

// The module's methods are checked at load; finish() compiles what runs.
::kindling::ImportOptions importOptions() {
  ::kindling::ImportOptions o;
  o.compileRootMethods = false;
  return o;
}

Module loadBytes(::kindling::Storage bytes, const std::string& name, std::optional<Device> device, ExtraFilesMap* extra) {
  checkDevice(device);
  return translateErrors([&] { return finish(::kindling::importArchive(std::move(bytes), name, importOptions()), extra); });
}

Module loadBuffer(const void* data, size_t size, std::optional<Device> device, ExtraFilesMap* extra,
                  const char* name = "<memory buffer>") {
  if (!data && size) throw UsageError("jit::load: data is a null pointer");
  auto bytes = ::kindling::makeIntrusive<::kindling::StorageImpl>(size ? size : 1);
  if (size) std::memcpy(bytes->data(), data, size);
  // A view of exactly `size` bytes (the allocation has at least one) that keeps the allocation alive.
  auto sized = ::kindling::makeIntrusive<::kindling::StorageImpl>(bytes->data(), size,
                                                                  [bytes](void*) mutable { bytes = {}; });
  return loadBytes(std::move(sized), name, device, extra);
}

Module loadStream(std::istream& in, std::optional<Device> device, ExtraFilesMap* extra) {
  checkDevice(device);
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw LoadError("jit::load: reading the stream failed");
  return loadBuffer(data.data(), data.size(), device, extra, "<stream>");
}

}  // namespace

Module load(const std::string& path, std::optional<Device> device) {
  checkDevice(device);
  return translateErrors([&] { return finish(::kindling::importArchive(path, importOptions()), nullptr); });
}
Module load(const std::string& path, std::optional<Device> device, ExtraFilesMap& extra_files) {
  checkDevice(device);
  return translateErrors([&] { return finish(::kindling::importArchive(path, importOptions()), &extra_files); });
}
Module load(std::istream& in, std::optional<Device> device) { return loadStream(in, device, nullptr); }
Module load(std::istream& in, std::optional<Device> device, ExtraFilesMap& extra_files) {
  return loadStream(in, device, &extra_files);
}
Module load(const void* data, size_t size, std::optional<Device> device) { return loadBuffer(data, size, device, nullptr); }
Module load(const void* data, size_t size, std::optional<Device> device, ExtraFilesMap& extra_files) {
  return loadBuffer(data, size, device, &extra_files);
}

}  // namespace jit

// --- threads ---
void set_num_threads(int n) { translateErrors([&] { ::kindling::set_num_threads(n); }); }
int get_num_threads() { return ::kindling::get_num_threads(); }
void set_num_interop_threads(int n) {
  if (n < 1) throw UsageError("set_num_interop_threads: the number of threads must be at least 1, got " + std::to_string(n));
  if (!::kindling::setNumInteropThreads(static_cast<size_t>(n)))
    throw UsageError("set_num_interop_threads: cannot set the number of inter-op threads after the pool has started");
}
int get_num_interop_threads() { return static_cast<int>(::kindling::interopThreads()); }

}  // namespace kindling::api
