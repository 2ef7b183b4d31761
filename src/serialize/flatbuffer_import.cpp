// Flatbuffer archive import. See flatbuffer_import.h.
#include "serialize/flatbuffer_import.h"

#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include "passes/canonicalize/upgraders.h"
#include "runtime/graph_function.h"
#include "serialize/import_source.h"
#include "serialize/mobile_bytecode_generated.h"
#include "serialize/unpickler.h"

namespace kindling {

namespace fb = torch::jit::mobile::serialization;

bool isFlatbufferArchive(const void* data, size_t size) {
  return size >= 8 && std::memcmp(static_cast<const char*>(data) + 4, "PTMF", 4) == 0;
}

namespace {

constexpr size_t kMaxDepth = 200;

class FlatbufferReader {
 public:
  FlatbufferReader(const fb::Module& m, const std::string& name, SourceImporter& importer)
      : m_(m), name_(name), importer_(importer) {}

  [[noreturn]] void fail(const std::string& what) const { throw LoadError(fmt::format("flatbuffer archive '{}': {}", name_, what)); }

  IValue value(uint32_t index, size_t depth = 0) {
    const auto* values = m_.ivalues();
    if (!values || index >= values->size())
      fail(fmt::format("value index {} is out of range ({} values)", index, values ? values->size() : 0));
    auto it = memo_.find(index);
    if (it != memo_.end()) return it->second;
    if (depth > kMaxDepth) fail(fmt::format("values nest more than {} levels deep", kMaxDepth));
    if (!inProgress_.insert(index).second) fail(fmt::format("value {} contains itself", index));
    IValue v = convert(*values->Get(index), depth);
    inProgress_.erase(index);
    memo_.emplace(index, v);
    return v;
  }

 private:
  TypePtr typeFrom(const flatbuffers::String* annotation, const char* what) {
    if (!annotation) fail(fmt::format("a {} has no type annotation", what));
    try {
      return parseTypeTag(annotation->str(), [this](const std::string& q) -> TypePtr { return importer_.loadType(q); });
    } catch (const LoadError& e) {
      fail(e.what());
    }
  }

  std::vector<IValue> items(const flatbuffers::Vector<uint32_t>* v, size_t depth) {
    std::vector<IValue> r;
    if (!v) return r;
    r.reserve(v->size());
    for (uint32_t i : *v) r.push_back(value(i, depth + 1));
    return r;
  }

  Storage storage(uint32_t index) {
    const auto* s = m_.storage_data();
    if (!s || index >= s->size()) fail(fmt::format("storage index {} is out of range", index));
    auto it = storages_.find(index);
    if (it != storages_.end()) return it->second;
    const auto* data = s->Get(index)->data();
    size_t n = data ? data->size() : 0;
    auto st = makeIntrusive<StorageImpl>(n ? n : 1);
    if (n) std::memcpy(st->data(), data->data(), n);
    Storage sized = makeIntrusive<StorageImpl>(st->data(), n, [st](void*) mutable { st = {}; });
    storages_.emplace(index, sized);
    return sized;
  }

  IValue tensor(const fb::TensorMetadata& t) {
    if (t.quantized_schema()) fail("quantized tensors are not supported");
    auto dtype = static_cast<ScalarType>(t.scalar_type());
    size_t es;
    try {
      es = elementSize(dtype);
    } catch (const Error&) {
      fail(fmt::format("tensor of unknown scalar type {}", int(t.scalar_type())));
    }
    if (isComplexType(dtype) || dtype == ScalarType::QInt8 || dtype == ScalarType::QUInt8 || dtype == ScalarType::QInt32)
      fail(fmt::format("tensors of type {} are not supported", scalarTypeName(dtype)));
    IntArray sizes, strides;
    if (t.sizes()) sizes.assign(t.sizes()->begin(), t.sizes()->end());
    if (t.strides()) strides.assign(t.strides()->begin(), t.strides()->end());
    if (sizes.size() != strides.size()) fail("a tensor has different numbers of sizes and strides");
    Storage st = storage(t.storage_location_index());
    // Bounds: the last addressed element must lie inside the storage.
    int64_t offset = t.storage_offset();
    if (offset < 0) fail("a tensor has a negative storage offset");
    uint64_t last = static_cast<uint64_t>(offset), numel = 1;
    for (size_t i = 0; i < sizes.size(); ++i) {
      if (sizes[i] < 0 || strides[i] < 0) fail("a tensor has a negative size or stride");
      if (sizes[i] == 0) numel = 0;
      else last += static_cast<uint64_t>(sizes[i] - 1) * static_cast<uint64_t>(strides[i]);
      if (last > (uint64_t(1) << 48)) fail("a tensor is larger than its storage");
    }
    if (numel != 0 && (last + 1) * es > st->nbytes())
      fail(fmt::format("a tensor needs {} bytes but its storage has {}", (last + 1) * es, st->nbytes()));
    Tensor r = Tensor::fromStorage(st, dtype, sizes, strides, offset);
    r.impl()->requiresGrad = t.requires_grad();
    return IValue(r);
  }

  IValue object(const fb::Object& o, size_t depth) {
    const auto* types = m_.object_types();
    if (!types || o.type_index() >= types->size()) fail(fmt::format("object type index {} is out of range", o.type_index()));
    const fb::ObjectType& ot = *types->Get(o.type_index());
    if (!ot.type_name()) fail("an object type has no name");
    const std::string qual = ot.type_name()->str();
    switch (ot.type()) {
      case fb::TypeType::CLASS_WITH_FIELD:
      case fb::TypeType::CLASS_WITH_SETSTATE:
        break;
      case fb::TypeType::CUSTOM_CLASS:
        fail(fmt::format("custom class '{}' (torch.classes) is not supported", qual));
      default:
        fail(fmt::format("object of class '{}' has an unknown kind {}", qual, int(ot.type())));
    }
    ClassTypePtr cls = importer_.loadClass(qual);
    auto obj = makeIntrusive<Object>(cls, cls->attributes().size());
    IValue result(obj);
    if (ot.type() == fb::TypeType::CLASS_WITH_SETSTATE) {
      Function* setstate = cls->findMethod("__setstate__");
      if (!setstate) fail(fmt::format("class '{}' is saved with __setstate__ but defines none", qual));
      Stack s{result, value(o.state(), depth + 1)};
      setstate->run(s);
      return result;
    }
    const auto* names = ot.attr_names();
    const auto* attrs = o.attrs();
    size_t n = names ? names->size() : 0;
    if ((attrs ? attrs->size() : 0) != n) fail(fmt::format("object of '{}' has {} attribute names but {} values", qual, n, attrs ? attrs->size() : 0));
    for (size_t i = 0; i < n; ++i) {
      std::string attr = names->Get(static_cast<flatbuffers::uoffset_t>(i))->str();
      IValue v = value(attrs->Get(static_cast<flatbuffers::uoffset_t>(i)), depth + 1);
      int slot = cls->findAttributeSlot(attr);
      if (slot < 0) slot = static_cast<int>(const_cast<ClassType&>(*cls).addAttribute(attr, v.type()));
      if (obj->slots.size() < cls->attributes().size()) obj->slots.resize(cls->attributes().size());
      obj->slots[static_cast<size_t>(slot)] = std::move(v);
    }
    return result;
  }

  IValue convert(const fb::IValue& v, size_t depth) {
    using U = fb::IValueUnion;
    switch (v.val_type()) {
      case U::NONE: return IValue();
      case U::Int: return IValue(v.val_as_Int()->int_val());
      case U::Bool: return IValue(v.val_as_Bool()->bool_val());
      case U::Double: return IValue(v.val_as_Double()->double_val());
      case U::ComplexDouble: fail("complex numbers are not supported");
      case U::TensorMetadata: return tensor(*v.val_as_TensorMetadata());
      case U::String: {
        const auto* s = v.val_as_String()->data();
        return IValue(s ? s->str() : std::string());
      }
      case U::List: {
        const auto* l = v.val_as_List();
        TypePtr t = typeFrom(l->annotation_str(), "list");
        auto* lt = t->cast<ListType>();
        if (!lt) fail(fmt::format("a list is annotated '{}'", t->annotationStr()));
        return makeList(lt->elementType(), items(l->items(), depth));
      }
      case U::Tuple: return makeTuple(items(v.val_as_Tuple()->items(), depth));
      case U::Dict: {
        const auto* d = v.val_as_Dict();
        TypePtr t = typeFrom(d->annotation_str(), "dict");
        auto* dt = t->cast<DictType>();
        if (!dt) fail(fmt::format("a dict is annotated '{}'", t->annotationStr()));
        std::vector<IValue> keys = items(d->keys(), depth), vals = items(d->values(), depth);
        if (keys.size() != vals.size()) fail("a dict has different numbers of keys and values");
        auto r = makeIntrusive<DictValue>(dt->keyType(), dt->valueType());
        for (size_t i = 0; i < keys.size(); ++i) r->insertOrAssign(keys[i], vals[i]);
        return IValue(r);
      }
      case U::Object: return object(*v.val_as_Object(), depth);
      case U::IntList: {
        std::vector<int64_t> r;
        if (const auto* x = v.val_as_IntList()->items()) r.assign(x->begin(), x->end());
        return makeIntList(r);
      }
      case U::DoubleList: {
        std::vector<double> r;
        if (const auto* x = v.val_as_DoubleList()->items()) r.assign(x->begin(), x->end());
        return makeDoubleList(r);
      }
      case U::BoolList: {
        std::vector<bool> r;
        if (const auto* x = v.val_as_BoolList()->items())
          for (auto b : *x) r.push_back(b != 0);
        return makeBoolList(r);
      }
      case U::Device: {
        const auto* s = v.val_as_Device()->str();
        try {
          return IValue(Device::parse(s ? s->str() : ""));
        } catch (const Error& e) {
          fail(e.what());
        }
      }
      case U::EnumValue: fail("enum values in module state are not supported");
      case U::Function: return IValue();  // mobile bytecode: Kindling compiles the sources instead
    }
    fail(fmt::format("value of unknown kind {}", int(v.val_type())));
  }

  const fb::Module& m_;
  const std::string& name_;
  SourceImporter& importer_;
  std::unordered_map<uint32_t, IValue> memo_;
  std::unordered_set<uint32_t> inProgress_;
  std::unordered_map<uint32_t, Storage> storages_;
};

/// "__torch__.torch.nn.modules.linear" → "code/__torch__/torch/nn/modules/linear.py".
std::string codePath(const std::string& qualified) {
  std::string p = "code/" + qualified + ".py";
  for (size_t i = 5; i + 3 < p.size(); ++i)
    if (p[i] == '.') p[i] = '/';
  return p;
}

}  // namespace

ImportedArchive importFlatbufferArchive(Storage bytes, const std::string& name, const ImportOptions& options) {
  const auto* data = static_cast<const uint8_t*>(bytes->data());
  const size_t size = bytes->nbytes();
  if (!isFlatbufferArchive(data, size)) throw LoadError(fmt::format("'{}' is not a flatbuffer archive", name));
  if (size >= (size_t(1) << 31) - 1) throw LoadError(fmt::format("flatbuffer archive '{}' is larger than 2 GB", name));
  flatbuffers::Verifier::Options vo;
  vo.max_depth = 128;
  vo.max_tables = 50'000'000;
  flatbuffers::Verifier verifier(data, size, vo);
  if (!fb::VerifyModuleBuffer(verifier))
    throw LoadError(fmt::format("'{}' is a corrupt flatbuffer archive (the flatbuffer does not verify)", name));
  const fb::Module& m = *fb::GetModule(data);
  if (m.bytecode_version() > kMaxFlatbufferBytecodeVersion)
    throw LoadError(fmt::format("flatbuffer archive '{}' has bytecode version {}; Kindling reads versions up to {}", name,
                                m.bytecode_version(), kMaxFlatbufferBytecodeVersion));
  // The operator version plays the zip archive's `version` record part (upgraders below it). Files that
  // do not set it were written after every upgrader's bump.
  uint64_t version = m.operator_version() ? m.operator_version() : kMaxSupportedFileFormatVersion;
  if (version > kMaxSupportedFileFormatVersion)
    throw LoadError(fmt::format("flatbuffer archive '{}' has file format (operator) version {}; Kindling supports versions {} to {}",
                                name, version, kMinSupportedFileFormatVersion, kMaxSupportedFileFormatVersion));
  if (!m.jit_sources() || m.jit_sources()->size() == 0)
    throw LoadError(fmt::format("flatbuffer archive '{}' holds mobile bytecode only, without TorchScript sources; Kindling "
                                "compiles the sources: save the module with torch.jit.save_jit_module_to_flatbuffer "
                                "or torch.jit.save",
                                name));

  ImportedArchive out;
  out.format = "flatbuffer";
  out.version = static_cast<int64_t>(version);
  auto sources = std::make_shared<std::unordered_map<std::string, std::string>>();
  for (const fb::ExtraFile* f : *m.jit_sources()) {
    if (!f->name()) continue;
    std::string path = codePath(f->name()->str());
    (*sources)[path] = f->content() ? f->content()->str() : std::string();
    out.records.push_back(path);
  }
  if (m.extra_files())
    for (const fb::ExtraFile* f : *m.extra_files())
      if (f->name()) out.extraFiles[f->name()->str()] = f->content() ? f->content()->str() : std::string();

  auto cu = std::make_shared<CompilationUnit>();
  // Constants first (CONSTANTS.c<N> in the sources); they are tensors and need no classes.
  SourceImporter* importerPtr = nullptr;
  std::vector<IValue> constants;
  {
    SourceImporter bootstrap(*cu, [](const std::string&) { return std::nullopt; }, {}, version);
    FlatbufferReader r(m, name, bootstrap);
    if (m.jit_constants())
      for (uint32_t i : *m.jit_constants()) constants.push_back(r.value(i));
  }
  out.constants = constants;
  SourceImporter importer(
      *cu,
      [sources](const std::string& rec) -> std::optional<std::string> {
        auto it = sources->find(rec);
        if (it == sources->end()) return std::nullopt;
        return it->second;
      },
      constants, version);
  importerPtr = &importer;
  FlatbufferReader reader(m, name, *importerPtr);
  IValue root = reader.value(m.state_obj());
  if (!root.isObject()) throw LoadError(fmt::format("flatbuffer archive '{}': the state object is a {}, not a module", name, root.tagName()));
  out.module = Module(cu, root.toObject());
  compileReachable(root, options.compileRootMethods);
  return out;
}

}  // namespace kindling
