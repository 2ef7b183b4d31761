// Pickle → IValue with an allow-list of globals. See unpickler.h.
#include "serialize/unpickler.h"

#include "core/echo_excerpt.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <unordered_set>

#include "core/unicode.h"

namespace kindling {

namespace {

constexpr size_t kMaxNesting = 1000;

/// A new storage with the bytes of `src`, each `esize`-byte element reversed (big- to little-endian).
/// Trailing bytes that do not fill an element are copied as they are.
// A bool element is one byte holding 0 or 1; any other byte in an archive's record would be read as an
// invalid bool (undefined behaviour in every kernel). Such bytes become 1, Python's truth of a nonzero
// byte. Only bytes that need it are written, so mapped copy-on-write records of valid bools stay shared.
void normalizeBoolBytes(StorageImpl& s, size_t nbytes) {
  auto* p = static_cast<unsigned char*>(s.data());
  for (size_t i = 0; i < nbytes; ++i)
    if (p[i] > 1) p[i] = 1;
}

Storage byteSwappedCopy(const StorageImpl& src, size_t esize) {
  Storage out = makeIntrusive<StorageImpl>(src.nbytes());
  const auto* in = static_cast<const unsigned char*>(src.data());
  auto* dst = static_cast<unsigned char*>(out->data());
  size_t whole = src.nbytes() / esize * esize;
  for (size_t i = 0; i < whole; i += esize)
    for (size_t b = 0; b < esize; ++b) dst[i + b] = in[i + esize - 1 - b];
  std::memcpy(dst + whole, in + whole, src.nbytes() - whole);
  return out;
}

enum Op : uint8_t {
  MARK = '(', STOP = '.', POP = '0', POP_MARK = '1', DUP = '2', FLOAT = 'F', INT = 'I', BININT = 'J',
  BININT1 = 'K', LONG = 'L', BININT2 = 'M', NONE = 'N', PERSID = 'P', BINPERSID = 'Q', REDUCE = 'R',
  STRING = 'S', BINSTRING = 'T', SHORT_BINSTRING = 'U', UNICODE = 'V', BINUNICODE = 'X', APPEND = 'a',
  BUILD = 'b', GLOBAL = 'c', DICT = 'd', EMPTY_DICT = '}', APPENDS = 'e', GET = 'g', BINGET = 'h',
  INST = 'i', LONG_BINGET = 'j', LIST = 'l', EMPTY_LIST = ']', OBJ = 'o', PUT = 'p', BINPUT = 'q',
  LONG_BINPUT = 'r', SETITEM = 's', TUPLE = 't', EMPTY_TUPLE = ')', SETITEMS = 'u', BINFLOAT = 'G',
  PROTO = 0x80, NEWOBJ = 0x81, EXT1 = 0x82, EXT2 = 0x83, EXT4 = 0x84, TUPLE1 = 0x85, TUPLE2 = 0x86,
  TUPLE3 = 0x87, NEWTRUE = 0x88, NEWFALSE = 0x89, LONG1 = 0x8a, LONG4 = 0x8b,
  BINBYTES = 'B', SHORT_BINBYTES = 'C',
  SHORT_BINUNICODE = 0x8c, BINUNICODE8 = 0x8d, BINBYTES8 = 0x8e, EMPTY_SET = 0x8f, ADDITEMS = 0x90,
  FROZENSET = 0x91, NEWOBJ_EX = 0x92, STACK_GLOBAL = 0x93, MEMOIZE = 0x94, FRAME = 0x95,
  BYTEARRAY8 = 0x96, NEXT_BUFFER = 0x97, READONLY_BUFFER = 0x98,
};

/// A resolved GLOBAL on the unpickler stack (never escapes parse()).
struct PickleGlobal : IntrusiveTarget {
  enum Kind {
    RebuildTensorV2, RebuildTensorV3, RebuildTensor, RebuildParameter, RebuildFromTypeV2, TensorClass, StorageType,
    OrderedDict, CodecsEncode, Bytes, RestoreTypeTag, BuildIntList, BuildTensorList, BuildDoubleList,
    BuildBoolList, BuildTensorFromId, DeviceCtor, TorchSize, Class, EnumClass,
  };
  PickleGlobal(Kind k, std::string n) : kind(k), name(std::move(n)) {}
  Kind kind;
  std::string name;
  ScalarType dtype = ScalarType::Undefined;
  ClassTypePtr cls;
  std::shared_ptr<const EnumType> enumType;
};

PickleGlobal* asGlobal(const IValue& v) {
  if (v.tag() != IValue::Tag::Capsule) return nullptr;
  return dynamic_cast<PickleGlobal*>(v.rawPtr());
}

IValue makeGlobal(PickleGlobal* g) { return IValue::fromPtr(IValue::Tag::Capsule, g); }

int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool parseInt64(const std::string& s, int64_t& out) {
  if (s.empty()) return false;
  size_t i = 0;
  bool neg = false;
  if (s[0] == '-' || s[0] == '+') { neg = s[0] == '-'; i = 1; }
  if (i >= s.size()) return false;
  unsigned __int128 v = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + unsigned(s[i] - '0');
    if (v > (unsigned __int128)std::numeric_limits<int64_t>::max() + 1) return false;
  }
  if (!neg && v > (unsigned __int128)std::numeric_limits<int64_t>::max()) return false;
  out = neg ? static_cast<int64_t>(-(__int128)v) : static_cast<int64_t>(v);
  return true;
}

bool isContainer(const IValue& v) {
  return v.isList() || v.isDict() || v.isTuple() || v.isObject();
}

/// Children of a container value (copies: they only bump refcounts).
void childrenOf(const IValue& v, std::vector<IValue>& out) {
  out.clear();
  if (v.isList()) {
    out = v.toListRef().elements;
  } else if (v.isTuple()) {
    out = v.toTupleRef().elements;
  } else if (v.isDict()) {
    for (const auto& kv : v.toDictRef().items()) {
      out.push_back(kv.first);
      out.push_back(kv.second);
    }
  } else if (v.isObject()) {
    out = v.toObjectRef().slots;
  }
}

/// True when tuples nest deeper than `limit` inside v (IValue::type() recurses through tuples).
bool tuplesTooDeep(const IValue& v, size_t limit) {
  if (!v.isTuple()) return false;
  std::vector<std::pair<const TupleValue*, size_t>> work{{&v.toTupleRef(), 1}};
  while (!work.empty()) {
    auto [t, d] = work.back();
    work.pop_back();
    if (d > limit) return true;
    for (const auto& e : t->elements)
      if (e.isTuple()) work.emplace_back(&e.toTupleRef(), d + 1);
  }
  return false;
}

/// v.type(), or Any for values whose type would be absurdly deep.
TypePtr safeType(const IValue& v) { return tuplesTooDeep(v, 100) ? AnyType() : v.type(); }

/// Does a freshly unpickled value fit an attribute's declared type? Untagged containers (element type Any,
/// archives before version 3) are checked element by element. Guards the interpreter, which trusts
/// declared attribute types, against type-confused archives.
bool valueFits(const IValue& v, const TypePtr& t, size_t depth = 0) {
  if (!t || depth > 64) return true;
  switch (t->kind()) {
    case TypeKind::Any:
    case TypeKind::Interface:
    case TypeKind::AnyClass:
    case TypeKind::Var:
      return true;
    case TypeKind::Optional:
      return v.isNone() || valueFits(v, t->cast<OptionalType>()->elementType(), depth + 1);
    case TypeKind::Union:
      for (const auto& u : t->cast<UnionType>()->types())
        if (valueFits(v, u, depth + 1)) return true;
      return false;
    case TypeKind::Tensor: return v.isTensor();
    case TypeKind::Int:
    case TypeKind::ScalarTypeK:
    case TypeKind::Layout:
    case TypeKind::MemoryFormat: return v.isInt();
    case TypeKind::Float: return v.isDouble();
    case TypeKind::Bool: return v.isBool();
    case TypeKind::Str: return v.isString();
    case TypeKind::None: return v.isNone();
    case TypeKind::Number: return v.isInt() || v.isDouble() || v.isBool();
    case TypeKind::Device: return v.isDevice();
    case TypeKind::List: {
      if (!v.isList()) return false;
      const ListValue& l = v.toListRef();
      const TypePtr& et = t->cast<ListType>()->elementType();
      if (l.elementType->kind() != TypeKind::Any) return l.elementType->equals(*et) || l.elementType->isSubtypeOf(et);
      for (const auto& e : l.elements)
        if (!valueFits(e, et, depth + 1)) return false;
      return true;
    }
    case TypeKind::Dict: {
      if (!v.isDict()) return false;
      const DictValue& d = v.toDictRef();
      auto* dt = t->cast<DictType>();
      if (d.keyType->kind() != TypeKind::Any)
        return d.keyType->isSubtypeOf(dt->keyType()) && d.valueType->isSubtypeOf(dt->valueType());
      for (const auto& kv : d.items())
        if (!valueFits(kv.first, dt->keyType(), depth + 1) || !valueFits(kv.second, dt->valueType(), depth + 1)) return false;
      return true;
    }
    case TypeKind::Tuple: {
      if (!v.isTuple()) return false;
      const auto& el = v.toTupleRef().elements;
      const auto& ts = t->cast<TupleType>()->elements();
      if (el.size() != ts.size()) return false;
      for (size_t i = 0; i < el.size(); ++i)
        if (!valueFits(el[i], ts[i], depth + 1)) return false;
      return true;
    }
    case TypeKind::Class:
      return v.isObject() && v.toObjectRef().type->qualName() == t->cast<ClassType>()->qualName();
    case TypeKind::Enum: return v.isEnum();
    default:
      return safeType(v)->isSubtypeOf(t);
  }
}

}  // namespace

namespace {

/// Releases what a parse leaves behind (its stack, memo and every popped value). Each container reachable
/// from `work` was made by this parse and is referenced only from the parse's own values, so one outside
/// `keep` (the containers of the returned result) is emptied outright instead of waiting for its reference
/// count: that frees the cycles a hostile pickle builds through the memo (a list appended to itself, then
/// popped, or rejected as recursive), which reference counting alone never frees. Iterative, so nesting
/// depth does not matter.
void releaseParseLeftovers(std::vector<IValue> work, const std::unordered_set<const IntrusiveTarget*>& keep) {
  std::unordered_set<const IntrusiveTarget*> emptied;
  while (!work.empty()) {
    IValue v = std::move(work.back());
    work.pop_back();
    if (!isContainer(v) || keep.count(v.rawPtr()) || !emptied.insert(v.rawPtr()).second) continue;
    moveOutContained(v, work);
  }
}

}  // namespace

// ------------------------------------------------------------------------------------------------------
// Type tags

namespace {

struct TypeTagParser {
  const std::string& s;
  const Unpickler::ClassResolver& resolver;
  size_t p = 0;

  [[noreturn]] void bad() const { throw LoadError(fmt::format("malformed type tag '{}'", echoExcerpt(s))); }
  void ws() { while (p < s.size() && s[p] == ' ') ++p; }
  std::string ident() {
    ws();
    size_t b = p;
    while (p < s.size() && (std::isalnum(static_cast<unsigned char>(s[p])) || s[p] == '_' || s[p] == '.')) ++p;
    if (b == p) bad();
    return s.substr(b, p - b);
  }
  bool eat(char c) {
    ws();
    if (p < s.size() && s[p] == c) { ++p; return true; }
    return false;
  }
  void expect(char c) { if (!eat(c)) bad(); }
  std::vector<TypePtr> args(size_t depth) {
    std::vector<TypePtr> out;
    expect('[');
    if (eat(']')) return out;
    do out.push_back(parse(depth + 1)); while (eat(','));
    expect(']');
    return out;
  }
  TypePtr parse(size_t depth = 0) {
    if (depth > 100) bad();
    std::string n = ident();
    if (n == "List" || n == "list") { auto a = args(depth); if (a.size() != 1) bad(); return ListType::create(a[0]); }
    if (n == "Dict" || n == "dict") { auto a = args(depth); if (a.size() != 2) bad(); return DictType::create(a[0], a[1]); }
    if (n == "Optional") { auto a = args(depth); if (a.size() != 1) bad(); return OptionalType::create(a[0]); }
    if (n == "Tuple" || n == "tuple") return TupleType::create(args(depth));
    if (n == "Union") return UnionType::create(args(depth));
    if (n == "Future") { auto a = args(depth); if (a.size() != 1) bad(); return FutureType::create(a[0]); }
    if (n == "Tensor") return TensorType();
    if (n == "int") return IntType();
    if (n == "float") return FloatType();
    if (n == "bool") return BoolType();
    if (n == "str") return StringType();
    if (n == "complex") return ComplexType();
    if (n == "NoneType" || n == "None") return NoneType();
    if (n == "Any") return AnyType();
    if (n == "number" || n == "Scalar") return NumberType();
    if (n == "Device" || n == "device") return DeviceObjType();
    if (n == "Storage") return StorageType();
    if (n == "Generator") return GeneratorType();
    if (n == "ScalarType") return ScalarTypeType();
    if (n == "Layout") return LayoutType();
    if (n == "MemoryFormat") return MemoryFormatType();
    if (n.rfind("__torch__", 0) == 0 && resolver) {
      if (TypePtr t = resolver(n)) return t;
      throw LoadError(fmt::format("unknown class '{}' in type tag '{}'", echoExcerpt(n), echoExcerpt(s)));
    }
    throw LoadError(fmt::format("unknown type '{}' in type tag '{}'", echoExcerpt(n), echoExcerpt(s)));
  }
};

}  // namespace

TypePtr parseTypeTag(const std::string& s, const Unpickler::ClassResolver& resolver) {
  TypeTagParser p{s, resolver};
  TypePtr t = p.parse();
  p.ws();
  if (p.p != s.size()) p.bad();
  return t;
}

// ------------------------------------------------------------------------------------------------------
// Unpickler

Unpickler::Unpickler(const void* data, size_t size, std::string name)
    : data_(static_cast<const unsigned char*>(data)), size_(size), name_(std::move(name)) {}

void Unpickler::fail(const std::string& what) const {
  // Messages quote what they read through echoExcerpt; the cap here bounds any that do not.
  throw LoadError(fmt::format("{}: {} at byte {}", name_, what.size() > 4 * kMaxEchoChars ? echoExcerpt(what, 4 * kMaxEchoChars) : what,
                              opStart_));
}

const unsigned char* Unpickler::need(size_t n) {
  if (n > size_ - pos_) fail("truncated pickle (unexpected end of data)");
  const unsigned char* p = data_ + pos_;
  pos_ += n;
  return p;
}
uint8_t Unpickler::u8() { return *need(1); }
uint16_t Unpickler::u16() { const unsigned char* p = need(2); return uint16_t(p[0] | p[1] << 8); }
uint32_t Unpickler::u32() {
  const unsigned char* p = need(4);
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
uint64_t Unpickler::u64() {
  const unsigned char* p = need(8);
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | p[i];
  return v;
}

std::string Unpickler::readLine() {
  const void* nl = std::memchr(data_ + pos_, '\n', size_ - pos_);
  if (!nl) fail("truncated pickle (unterminated line)");
  size_t end = static_cast<const unsigned char*>(nl) - data_;
  std::string s(reinterpret_cast<const char*>(data_ + pos_), end - pos_);
  pos_ = end + 1;
  if (!s.empty() && s.back() == '\r') s.pop_back();
  return s;
}

IValue Unpickler::popValue() {
  if (stack_.empty() || (!marks_.empty() && marks_.back() == stack_.size())) fail("stack underflow");
  IValue v = std::move(stack_.back());
  stack_.pop_back();
  graveyard_.push_back(v);  // released iteratively at the end of parse(), even when an error unwinds
  return v;
}

IValue& Unpickler::top() {
  if (stack_.empty() || (!marks_.empty() && marks_.back() == stack_.size())) fail("stack underflow");
  return stack_.back();
}

size_t Unpickler::popMark() {
  if (marks_.empty()) fail("MARK expected but not found");
  size_t m = marks_.back();
  marks_.pop_back();
  return m;
}

std::vector<IValue> Unpickler::popToMark() {
  size_t m = popMark();
  std::vector<IValue> items(std::make_move_iterator(stack_.begin() + m), std::make_move_iterator(stack_.end()));
  stack_.resize(m);
  graveyard_.insert(graveyard_.end(), items.begin(), items.end());
  return items;
}

void Unpickler::memoPut(uint64_t idx, const IValue& v) {
  if (idx > size_) fail(fmt::format("memo index {} out of range", idx));
  if (idx >= memo_.size()) {
    memo_.resize(idx + 1);
    memoSet_.resize(idx + 1, false);
  }
  if (!memoSet_[idx]) ++memoCount_;
  memo_[idx] = v;
  memoSet_[idx] = true;
}

IValue Unpickler::memoGet(uint64_t idx) {
  if (idx >= memo_.size() || !memoSet_[idx]) fail(fmt::format("memo key {} not found", idx));
  return memo_[idx];
}

IValue Unpickler::resolveGlobal(const std::string& module, const std::string& name) {
  using K = PickleGlobal::Kind;
  std::string full = module + "." + name;
  static const std::unordered_map<std::string, K> table = {
      {"torch._utils._rebuild_tensor_v2", K::RebuildTensorV2},
      {"torch._utils._rebuild_tensor", K::RebuildTensor},
      {"torch._utils._rebuild_tensor_v3", K::RebuildTensorV3},
      {"torch._utils._rebuild_parameter", K::RebuildParameter},
      {"torch._tensor._rebuild_from_type_v2", K::RebuildFromTypeV2},
      {"torch._tensor.Tensor", K::TensorClass},
      {"torch.Tensor", K::TensorClass},
      {"torch.nn.parameter.Parameter", K::TensorClass},
      {"collections.OrderedDict", K::OrderedDict},
      {"_codecs.encode", K::CodecsEncode},
      {"builtins.bytes", K::Bytes},
      {"__builtin__.bytes", K::Bytes},
      {"torch.jit._pickle.restore_type_tag", K::RestoreTypeTag},
      {"torch.jit._pickle.build_intlist", K::BuildIntList},
      {"torch.jit._pickle.build_tensorlist", K::BuildTensorList},
      {"torch.jit._pickle.build_doublelist", K::BuildDoubleList},
      {"torch.jit._pickle.build_boollist", K::BuildBoolList},
      {"torch.jit._pickle.build_tensor_from_id", K::BuildTensorFromId},
      {"torch.device", K::DeviceCtor},
      {"torch.Size", K::TorchSize},
  };
  auto it = table.find(full);
  if (it != table.end()) return makeGlobal(new PickleGlobal(it->second, full));

  if (module == "torch") {
    // Storage types: torch.FloatStorage, ...
    static const std::unordered_map<std::string, ScalarType> storages = {
        {"FloatStorage", ScalarType::Float},   {"DoubleStorage", ScalarType::Double},
        {"HalfStorage", ScalarType::Half},     {"BFloat16Storage", ScalarType::BFloat16},
        {"LongStorage", ScalarType::Long},     {"IntStorage", ScalarType::Int},
        {"ShortStorage", ScalarType::Short},   {"CharStorage", ScalarType::Char},
        {"ByteStorage", ScalarType::Byte},     {"BoolStorage", ScalarType::Bool},
        {"ComplexFloatStorage", ScalarType::ComplexFloat}, {"ComplexDoubleStorage", ScalarType::ComplexDouble},
        {"ComplexHalfStorage", ScalarType::ComplexHalf},   {"QInt8Storage", ScalarType::QInt8},
        {"QUInt8Storage", ScalarType::QUInt8}, {"QInt32Storage", ScalarType::QInt32},
        {"UntypedStorage", ScalarType::Byte},  // 2.x: bytes; _rebuild_tensor_v3 names the dtype
    };
    auto s = storages.find(name);
    if (s != storages.end()) {
      auto* g = new PickleGlobal(K::StorageType, full);
      g->dtype = s->second;
      return makeGlobal(g);
    }
    // dtypes are ints at runtime (torch.float32 → 6).
    ScalarType st;
    if (scalarTypeFromPythonName(name, st)) return IValue(st);
    static const std::unordered_map<std::string, int64_t> enums = {
        {"strided", 0}, {"sparse_coo", 1}, {"_mkldnn", 2},                       // layouts
        {"contiguous_format", 0}, {"preserve_format", 1}, {"channels_last", 2},  // memory formats
        {"channels_last_3d", 3},
    };
    auto e = enums.find(name);
    if (e != enums.end()) return IValue(e->second);
  }
  if (module == "__torch__" || module.rfind("__torch__.", 0) == 0) {
    TypePtr t = classResolver_ ? classResolver_(full) : nullptr;
    if (!t) fail(fmt::format("unknown class '{}'", echoExcerpt(full)));
    if (auto et = std::dynamic_pointer_cast<const EnumType>(t)) {
      auto* g = new PickleGlobal(K::EnumClass, full);
      g->enumType = std::move(et);
      return makeGlobal(g);
    }
    auto cls = std::const_pointer_cast<ClassType>(std::dynamic_pointer_cast<const ClassType>(t));
    if (!cls) fail(fmt::format("'{}' is a {}, not a class", echoExcerpt(full), t->str()));
    auto* g = new PickleGlobal(K::Class, full);
    g->cls = std::move(cls);
    return makeGlobal(g);
  }
  fail(fmt::format("disallowed global '{}'", echoExcerpt(full)));
}

namespace {
/// "cpu", "cuda", "cuda:1", "mps", ...: a device type torch.save can name, with an optional index.
bool isStorageLocation(const std::string& loc) {
  static const char* kinds[] = {"cpu", "cuda", "mps", "xpu", "hpu", "ipu", "xla", "lazy", "vulkan", "meta"};
  for (const char* k : kinds) {
    const size_t n = std::strlen(k);
    if (loc.compare(0, n, k) != 0) continue;
    if (loc.size() == n) return true;
    if (loc[n] != ':' || loc.size() == n + 1 || loc.size() > n + 6) return false;
    for (size_t i = n + 1; i < loc.size(); ++i)
      if (loc[i] < '0' || loc[i] > '9') return false;
    return true;
  }
  return false;
}
}  // namespace

IValue Unpickler::persistentLoad(const IValue& pid) {
  if (!pid.isTuple()) fail("persistent id is not a tuple");
  auto& e = pid.toTupleRef().elements;
  if (e.size() < 5 || !e[0].isString() || e[0].toStringRef() != "storage")
    fail("unsupported persistent id (expected ('storage', type, key, location, numel))");
  PickleGlobal* g = asGlobal(e[1]);
  if (!g || g->kind != PickleGlobal::StorageType) fail("persistent id: expected a storage type");
  if (!e[2].isString() && !e[2].isInt()) fail("persistent id: storage key is not a string");
  std::string key = e[2].isString() ? e[2].toStringRef() : std::to_string(e[2].toInt());
  if (!e[4].isInt() || e[4].toInt() < 0) fail("persistent id: bad storage size");
  // The location torch.save recorded ("cpu", "cuda:0", ...): tensors are read onto the CPU whatever it
  // says, but a location that names no device is a broken file.
  if (!e[3].isString() || !isStorageLocation(e[3].toStringRef()))
    fail(fmt::format("persistent id: unknown storage location '{}'",
                     e[3].isString() ? echoExcerpt(e[3].toStringRef(), 40) : e[3].tagName()));
  ScalarType dtype = g->dtype;
  size_t esize = elementSize(dtype);
  uint64_t numel = static_cast<uint64_t>(e[4].toInt());
  if (numel > std::numeric_limits<size_t>::max() / esize) fail("persistent id: storage size overflows");
  size_t nbytes = numel * esize;
  Storage storage;
  auto it = storages_.find(key);
  if (it != storages_.end()) {
    storage = it->second.storage;
    // torch.load would view it with the dtype it was first read as, torch.jit.load with each persistent
    // id's own: a file that does this means two different things, and neither writer makes one.
    if (it->second.dtype != dtype)
      fail(fmt::format("storage '{}' is read as {} and as {}", echoExcerpt(key), scalarTypeName(it->second.dtype), scalarTypeName(dtype)));
    if (storage->nbytes() < nbytes)
      fail(fmt::format("storage '{}' has {} bytes, a persistent id needs {}", echoExcerpt(key), storage->nbytes(), nbytes));
  } else {
    if (!storageLoader_) fail("tensor data referenced but no storage records are available");
    storage = storageLoader_(key, nbytes);
    if (!storage || storage->nbytes() < nbytes)
      fail(fmt::format("storage record '{}' is smaller than the {} bytes it should hold", echoExcerpt(key), nbytes));
    if (swapTensorBytes_ && esize > 1) storage = byteSwappedCopy(*storage, esize);
    if (dtype == ScalarType::Bool) normalizeBoolBytes(*storage, nbytes);
    storages_.emplace(key, LoadedStorage{storage, dtype});
  }
  return IValue(Tensor::fromStorage(storage, dtype, {static_cast<int64_t>(numel)}, {1}, 0));
}

IValue Unpickler::rebuildTensor(std::vector<IValue>& a, bool v2) {
  if (a.size() < 4 || !a[0].isTensor()) fail("_rebuild_tensor: expected (storage, offset, size, stride, ...)");
  Tensor base = a[0].toTensor();
  if (!a[1].isInt()) fail("_rebuild_tensor: storage offset is not an int");
  auto ints = [&](const IValue& v, const char* what) {
    std::vector<int64_t> out;
    if (!v.isTuple() && !v.isList()) fail(fmt::format("_rebuild_tensor: {} is not a tuple", what));
    const auto& el = v.isTuple() ? v.toTupleRef().elements : v.toListRef().elements;
    for (const auto& x : el) {
      if (!x.isInt()) fail(fmt::format("_rebuild_tensor: {} holds a non-int", what));
      out.push_back(x.toInt());
    }
    return out;
  };
  IntArray sizes = ints(a[2], "size"), strides = ints(a[3], "stride");
  int64_t offset = a[1].toInt();
  if (sizes.size() != strides.size()) fail("_rebuild_tensor: size and stride differ in length");
  // The view must lie inside the storage.
  int64_t storageNumel = base.numel();
  if (offset < 0) fail("_rebuild_tensor: negative storage offset");
  bool empty = false;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] < 0 || strides[i] < 0) fail("_rebuild_tensor: negative size or stride");
    if (sizes[i] == 0) empty = true;
  }
  // The element count must fit in int64 too: a view of stride 0 reaches no further than its storage
  // whatever its sizes, but every kernel counts its elements.
  int64_t count = 1;
  for (int64_t n : sizes)
    if (__builtin_mul_overflow(count, n, &count))
      fail(fmt::format("_rebuild_tensor: size {} overflows int64 elements", IValue(makeIntList(sizes)).repr()));
  if (!empty) {
    int64_t last = offset;
    for (size_t i = 0; i < sizes.size(); ++i) {
      int64_t ext;
      if (__builtin_mul_overflow(sizes[i] - 1, strides[i], &ext) || __builtin_add_overflow(last, ext, &last))
        fail("_rebuild_tensor: size overflows");
    }
    if (last >= storageNumel)
      fail(fmt::format("_rebuild_tensor: view (offset {}, size {}) exceeds its storage of {} elements", offset,
                       IValue(makeIntList(sizes)).repr(), storageNumel));
  }
  Tensor t = Tensor::fromStorage(base.storage(), base.dtype(), std::move(sizes), std::move(strides), offset);
  if (v2 && a.size() >= 5) {
    if (!a[4].isBool()) fail(fmt::format("_rebuild_tensor_v2: requires_grad must be a bool, not {}", a[4].tagName()));
    t.impl()->requiresGrad = a[4].toBool();
  }
  return IValue(t);
}

TypePtr Unpickler::parseTypeString(const std::string& s) {
  try {
    return parseTypeTag(s, classResolver_);
  } catch (const LoadError& e) {
    fail(e.what());
  }
}

IValue Unpickler::reduce(const IValue& callable, IValue argsValue) {
  using K = PickleGlobal::Kind;
  PickleGlobal* g = asGlobal(callable);
  if (!g) fail(fmt::format("REDUCE on a {} (only allow-listed globals can be called)", callable.tagName()));
  if (g->kind == K::EnumClass) {
    // libtorch pickles an Enum member as GLOBAL <enum class>, <value>, REDUCE.
    for (int pass = 0; pass < 2; ++pass) {
      const IValue* val = &argsValue;
      if (pass == 1) {
        if (!argsValue.isTuple() || argsValue.toTupleRef().elements.size() != 1) break;
        val = &argsValue.toTupleRef().elements[0];
      }
      for (const auto& [name, member] : g->enumType->members) {
        if (!member) continue;
        if (member->isEnum()) {  // the frontend stores each member as its EnumHolder
          const IValue& mv = member->toEnum()->value;
          if (mv.tag() == val->tag() && mv == *val) return *member;
        } else if (member->tag() == val->tag() && *member == *val) {
          return IValue(makeIntrusive<EnumHolder>(g->enumType, name, *member));
        }
      }
    }
    fail(fmt::format("enum '{}' has no member with value {}", g->name,
                     argsValue.isScalar() || argsValue.isString() ? argsValue.repr() : std::string(argsValue.tagName())));
  }
  if (!argsValue.isTuple()) fail(fmt::format("REDUCE of '{}': arguments are not a tuple", g->name));
  std::vector<IValue> a = argsValue.toTupleRef().elements;
  auto want = [&](size_t n) {
    if (a.size() != n) fail(fmt::format("'{}' expects {} arguments, got {}", g->name, n, a.size()));
  };
  switch (g->kind) {
    case K::RebuildTensorV2:
      if (a.size() < 5 || a.size() > 7) fail("_rebuild_tensor_v2: wrong number of arguments");
      return rebuildTensor(a, true);
    case K::RebuildTensorV3: {
      // (storage, offset, size, stride, requires_grad, hooks, dtype[, metadata]): the storage's bytes seen as dtype.
      if (a.size() < 7 || !a[0].isTensor() || !a[6].isInt()) fail("_rebuild_tensor_v3: wrong arguments");
      ScalarType dt = static_cast<ScalarType>(a[6].toInt());
      if (a[6].toInt() < 0 || a[6].toInt() > static_cast<int64_t>(ScalarType::BFloat16)) fail("_rebuild_tensor_v3: bad dtype");
      Tensor base = a[0].toTensor();
      int64_t n = static_cast<int64_t>(base.storage()->nbytes() / elementSize(dt));
      a[0] = IValue(Tensor::fromStorage(base.storage(), dt, {n}, {1}, 0));
      return rebuildTensor(a, true);
    }
    case K::RebuildTensor:
      want(4);
      return rebuildTensor(a, false);
    case K::RebuildParameter: {
      if (a.size() < 2 || !a[0].isTensor() || !a[1].isBool()) fail("_rebuild_parameter: expected (tensor, requires_grad, ...)");
      Tensor t = a[0].toTensor();
      t.impl()->requiresGrad = a[1].toBool();
      return a[0];
    }
    case K::RebuildFromTypeV2: {
      if (a.size() < 3 || !a[2].isTuple()) fail("_rebuild_from_type_v2: expected (func, type, args, state)");
      PickleGlobal* t = asGlobal(a[1]);
      if (!t || t->kind != K::TensorClass) fail("_rebuild_from_type_v2: only torch.Tensor/Parameter types are allowed");
      return reduce(a[0], a[2]);
    }
    case K::OrderedDict: {
      auto d = makeIntrusive<DictValue>(AnyType(), AnyType());
      if (a.size() == 1 && (a[0].isList() || a[0].isTuple())) {
        const auto& items = a[0].isList() ? a[0].toListRef().elements : a[0].toTupleRef().elements;
        for (const auto& kv : items) {
          const std::vector<IValue>* p = kv.isTuple() ? &kv.toTupleRef().elements : kv.isList() ? &kv.toListRef().elements : nullptr;
          if (!p || p->size() != 2) fail("OrderedDict: items are not pairs");
          d->insertOrAssign((*p)[0], (*p)[1]);
        }
      } else if (!a.empty()) {
        fail("OrderedDict: unsupported arguments");
      }
      return IValue(d);
    }
    case K::CodecsEncode: {
      if (a.size() != 2 || !a[0].isString() || !a[1].isString() || a[1].toStringRef() != "latin1")
        fail("_codecs.encode: only (str, 'latin1') is supported");
      // UTF-8 → latin-1 bytes.
      const std::string& s = a[0].toStringRef();
      std::string out;
      for (size_t i = 0; i < s.size(); ++i) {
        unsigned char c = s[i];
        if (c < 0x80) out.push_back(char(c));
        else if ((c & 0xE0) == 0xC0 && i + 1 < s.size()) { out.push_back(char(((c & 0x1F) << 6) | (s[i + 1] & 0x3F))); ++i; }
        else fail("_codecs.encode: character outside latin-1");
      }
      return IValue(out);
    }
    case K::Bytes:
      if (!a.empty()) fail("bytes(): unsupported arguments");
      return IValue(std::string());
    case K::RestoreTypeTag: {
      want(2);
      if (!a[1].isString()) fail("restore_type_tag: type is not a string");
      TypePtr t = parseTypeString(a[1].toStringRef());
      if (a[0].isList()) {
        auto* lt = t->cast<ListType>();
        if (!lt) fail(fmt::format("restore_type_tag: list tagged with non-list type '{}'", echoExcerpt(a[1].toStringRef())));
        a[0].toListRef().elementType = lt->elementType();
        typedContainers_.push_back(a[0].rawPtr());
      } else if (a[0].isDict()) {
        auto* dt = t->cast<DictType>();
        if (!dt) fail(fmt::format("restore_type_tag: dict tagged with non-dict type '{}'", echoExcerpt(a[1].toStringRef())));
        a[0].toDictRef().keyType = dt->keyType();
        a[0].toDictRef().valueType = dt->valueType();
        typedContainers_.push_back(a[0].rawPtr());
      }
      return a[0];
    }
    case K::BuildIntList:
    case K::BuildTensorList:
    case K::BuildDoubleList:
    case K::BuildBoolList: {
      want(1);
      if (!a[0].isList()) fail(fmt::format("'{}': argument is not a list", g->name));
      TypePtr et = g->kind == K::BuildIntList ? IntType() : g->kind == K::BuildTensorList ? TensorType()
                 : g->kind == K::BuildDoubleList ? FloatType() : BoolType();
      for (const auto& x : a[0].toListRef().elements)
        if (!safeType(x)->isSubtypeOf(et)) fail(fmt::format("'{}': element of the wrong type", g->name));
      a[0].toListRef().elementType = et;
      typedContainers_.push_back(a[0].rawPtr());
      return a[0];
    }
    case K::BuildTensorFromId: {
      want(1);
      if (!a[0].isInt() || a[0].toInt() < 0 || static_cast<uint64_t>(a[0].toInt()) >= tensorTable_.size())
        fail("build_tensor_from_id: tensor id out of range");
      return IValue(tensorTable_[static_cast<size_t>(a[0].toInt())]);
    }
    case K::DeviceCtor: {
      if (a.empty() || a.size() > 2 || !a[0].isString()) fail("torch.device: expected (str[, int])");
      std::string s = a[0].toStringRef();
      if (a.size() == 2) {
        if (!a[1].isInt()) fail("torch.device: index is not an int");
        s.push_back(':');
        s.append(std::to_string(a[1].toInt()));
      }
      try {
        return IValue(Device::parse(s));
      } catch (const Error& e) {
        fail(fmt::format("bad device '{}'", echoExcerpt(s)));
      }
    }
    case K::TorchSize: {
      want(1);
      if (!a[0].isTuple()) fail("torch.Size: expected a tuple");
      for (const auto& x : a[0].toTupleRef().elements)
        if (!x.isInt()) fail("torch.Size: expected ints");
      return a[0];
    }
    case K::TensorClass:
    case K::StorageType:
    case K::Class:
    case K::EnumClass:
      break;
  }
  fail(fmt::format("'{}' cannot be called", g->name));
}

void Unpickler::build(IValue& target, IValue state) {
  if (target.isObject()) {
    Object& obj = target.toObjectRef();
    ClassType& cls = const_cast<ClassType&>(*obj.type);
    if (Function* setstate = cls.findMethod("__setstate__")) {
      Stack s{target, std::move(state)};
      setstate->run(s);
      return;
    }
    if (!state.isDict()) fail(fmt::format("BUILD of '{}': state is not a dict", cls.qualName()));
    for (const auto& kv : state.toDictRef().items()) {
      if (!kv.first.isString()) fail(fmt::format("BUILD of '{}': attribute name is not a string", cls.qualName()));
      const std::string& attr = kv.first.toStringRef();
      int slot = cls.findAttributeSlot(attr);
      if (slot < 0) {
        if (tuplesTooDeep(kv.second, 100)) fail(fmt::format("attribute '{}' of '{}' nests tuples too deeply", echoExcerpt(attr), cls.qualName()));
        slot = static_cast<int>(cls.addAttribute(attr, kv.second.type()));  // as libtorch's addOrCheckAttribute
      } else if (!valueFits(kv.second, cls.attributes()[static_cast<size_t>(slot)].type)) {
        fail(fmt::format("attribute '{}' of '{}' is declared {} but the pickle holds a value of type {}", attr,
                         cls.qualName(), cls.attributes()[static_cast<size_t>(slot)].type->annotationStr(),
                         safeType(kv.second)->annotationStr()));
      }
      if (obj.slots.size() < cls.attributes().size()) obj.slots.resize(cls.attributes().size());
      obj.slots[static_cast<size_t>(slot)] = kv.second;
    }
    return;
  }
  if (target.isDict() || target.isTensor()) return;  // Python-side attributes (OrderedDict._metadata, ...) are dropped
  fail(fmt::format("BUILD on a {}", target.tagName()));
}

IValue Unpickler::parse() {
  IValue result;
  std::vector<IValue> rest;
  auto collectLeftovers = [&] {
    for (auto& v : stack_) rest.push_back(std::move(v));
    for (auto& m : memo_) rest.push_back(std::move(m));
    for (auto& g : graveyard_) rest.push_back(std::move(g));
    stack_.clear();
    memo_.clear();
    graveyard_.clear();
  };
  try {
    result = run();
    collectLeftovers();
    finishTypes(result, &resultContainers_);
  } catch (...) {
    collectLeftovers();
    rest.push_back(std::move(result));
    resultContainers_.clear();
    releaseParseLeftovers(std::move(rest), resultContainers_);
    throw;
  }
  releaseParseLeftovers(std::move(rest), resultContainers_);
  resultContainers_.clear();
  return result;
}

IValue Unpickler::run() {
  if (size_ == 0) fail("empty pickle");
  while (true) {
    opStart_ = pos_;
    uint8_t op = u8();
    switch (op) {
      case PROTO: {
        uint8_t v = u8();
        if (v > 5) fail(fmt::format("unsupported pickle protocol {}", v));
        break;
      }
      case FRAME: {
        // Frames only group the opcodes that follow; one cannot hold more than what is left (Python: "pickle
        // data was truncated").
        uint64_t n = u64();
        if (n > size_ - pos_) fail(fmt::format("FRAME of {} bytes runs past the end of the pickle ({} left)", n, size_ - pos_));
        break;
      }
      case STOP: {
        IValue v = popValue();
        if (asGlobal(v)) fail("pickle result is a bare global");
        return v;
      }
      case MARK: marks_.push_back(stack_.size()); break;
      case POP:
        if (!marks_.empty() && marks_.back() == stack_.size()) marks_.pop_back();  // POP of a mark
        else popValue();
        break;
      case POP_MARK: popToMark(); break;
      case DUP: { IValue v = top(); stack_.push_back(std::move(v)); break; }
      case NONE: stack_.emplace_back(); break;
      case NEWTRUE: stack_.emplace_back(true); break;
      case NEWFALSE: stack_.emplace_back(false); break;
      case BININT: stack_.emplace_back(int64_t(int32_t(u32()))); break;
      case BININT1: stack_.emplace_back(int64_t(u8())); break;
      case BININT2: stack_.emplace_back(int64_t(u16())); break;
      case LONG1:
      case LONG4: {
        uint64_t n = op == LONG1 ? u8() : u32();
        if (op == LONG4 && n > size_) fail("truncated pickle (unexpected end of data)");
        const unsigned char* p = need(n);
        if (n > 8) {
          // Allow redundant sign-extension bytes.
          for (size_t i = 8; i < n; ++i)
            if (p[i] != ((p[7] & 0x80) ? 0xFF : 0x00)) fail("integer does not fit in 64 bits");
        }
        uint64_t v = 0;
        size_t m = n < 8 ? n : 8;
        for (size_t i = 0; i < m; ++i) v |= uint64_t(p[i]) << (8 * i);
        if (m > 0 && m < 8 && (p[m - 1] & 0x80)) v |= ~uint64_t(0) << (8 * m);  // sign-extend
        stack_.emplace_back(static_cast<int64_t>(v));
        break;
      }
      case INT: {
        std::string s = readLine();
        if (s == "01") { stack_.emplace_back(true); break; }
        if (s == "00") { stack_.emplace_back(false); break; }
        int64_t v;
        if (!parseInt64(s, v)) fail(fmt::format("bad INT '{}'", s.substr(0, 40)));
        stack_.emplace_back(v);
        break;
      }
      case LONG: {
        std::string s = readLine();
        if (!s.empty() && s.back() == 'L') s.pop_back();
        int64_t v;
        if (!parseInt64(s, v)) fail(fmt::format("bad or too large LONG '{}'", s.substr(0, 40)));
        stack_.emplace_back(v);
        break;
      }
      case FLOAT: {
        std::string s = readLine();
        char* end = nullptr;
        double d = std::strtod(s.c_str(), &end);
        if (s.empty() || end != s.c_str() + s.size()) fail(fmt::format("bad FLOAT '{}'", s.substr(0, 40)));
        stack_.emplace_back(d);
        break;
      }
      case BINFLOAT: {
        const unsigned char* p = need(8);
        uint64_t bits = 0;
        for (int i = 0; i < 8; ++i) bits = bits << 8 | p[i];  // big-endian
        double d;
        std::memcpy(&d, &bits, 8);
        stack_.emplace_back(d);
        break;
      }
      case BINUNICODE:
      case SHORT_BINUNICODE:
      case BINUNICODE8:
      case BINBYTES:
      case SHORT_BINBYTES:
      case BINBYTES8:
      case BINSTRING:
      case SHORT_BINSTRING:
      case BYTEARRAY8: {
        uint64_t n;
        if (op == SHORT_BINUNICODE || op == SHORT_BINBYTES || op == SHORT_BINSTRING) n = u8();
        else if (op == BINUNICODE8 || op == BINBYTES8 || op == BYTEARRAY8) n = u64();
        else if (op == BINSTRING) { int32_t l = int32_t(u32()); if (l < 0) fail("negative string length"); n = uint64_t(l); }
        else n = u32();
        if (n > size_ - pos_) fail("truncated pickle (unexpected end of data)");
        const unsigned char* p = need(n);
        stack_.emplace_back(std::string(reinterpret_cast<const char*>(p), n));
        break;
      }
      case UNICODE: {  // raw-unicode-escape, latin-1 bytes otherwise
        std::string s = readLine(), out;
        for (size_t i = 0; i < s.size(); ++i) {
          unsigned char c = s[i];
          if (c == '\\' && i + 1 < s.size() && (s[i + 1] == 'u' || s[i + 1] == 'U')) {
            size_t len = s[i + 1] == 'u' ? 4 : 8;
            if (i + 2 + len > s.size()) fail("bad \\u escape in UNICODE");
            uint32_t cp = 0;
            for (size_t k = 0; k < len; ++k) {
              int h = hexDigit(s[i + 2 + k]);
              if (h < 0) fail("bad \\u escape in UNICODE");
              cp = cp * 16 + uint32_t(h);
            }
            if (cp > 0x10FFFF) fail("bad code point in UNICODE");
            unicode::appendUtf8(out, cp);
            i += 1 + len;
          } else {
            unicode::appendUtf8(out, c);
          }
        }
        stack_.emplace_back(std::move(out));
        break;
      }
      case STRING: {  // Python 2 str repr: 'abc' with escapes
        std::string s = readLine(), out;
        if (s.size() < 2 || s.front() != s.back() || (s.front() != '\'' && s.front() != '"')) fail("bad STRING");
        std::string in = s.substr(1, s.size() - 2);
        for (size_t i = 0; i < in.size(); ++i) {
          char c = in[i];
          if (c != '\\') { out.push_back(c); continue; }
          if (++i >= in.size()) fail("bad escape in STRING");
          char e = in[i];
          switch (e) {
            case 'n': out.push_back('\n'); break;
            case 't': out.push_back('\t'); break;
            case 'r': out.push_back('\r'); break;
            case '\\': case '\'': case '"': out.push_back(e); break;
            case 'x': {
              if (i + 2 >= in.size() || hexDigit(in[i + 1]) < 0 || hexDigit(in[i + 2]) < 0) fail("bad \\x escape in STRING");
              out.push_back(char(hexDigit(in[i + 1]) * 16 + hexDigit(in[i + 2])));
              i += 2;
              break;
            }
            default: fail("unsupported escape in STRING");
          }
        }
        stack_.emplace_back(std::move(out));
        break;
      }
      case EMPTY_TUPLE: stack_.emplace_back(makeTuple({})); break;
      case TUPLE1:
      case TUPLE2:
      case TUPLE3: {
        size_t n = op - TUPLE1 + 1;
        std::vector<IValue> e(n);
        for (size_t i = n; i-- > 0;) e[i] = popValue();
        stack_.emplace_back(makeTuple(std::move(e)));
        break;
      }
      case TUPLE: stack_.emplace_back(makeTuple(popToMark())); break;
      case EMPTY_LIST: stack_.emplace_back(IValue(makeIntrusive<ListValue>(AnyType()))); break;
      case LIST: stack_.emplace_back(IValue(makeIntrusive<ListValue>(AnyType(), popToMark()))); break;
      case APPEND: {
        IValue v = popValue();
        IValue& l = top();
        if (!l.isList()) fail(fmt::format("APPEND to a {}", l.tagName()));
        l.toListRef().elements.push_back(std::move(v));
        break;
      }
      case APPENDS: {
        std::vector<IValue> items = popToMark();
        IValue& l = top();
        if (!l.isList()) fail(fmt::format("APPENDS to a {}", l.tagName()));
        auto& el = l.toListRef().elements;
        for (auto& x : items) el.push_back(std::move(x));
        break;
      }
      case EMPTY_DICT: stack_.emplace_back(IValue(makeIntrusive<DictValue>(AnyType(), AnyType()))); break;
      case DICT:
      case SETITEM:
      case SETITEMS: {
        std::vector<IValue> items;
        if (op == SETITEM) {
          IValue v = popValue();
          IValue k = popValue();
          items.push_back(std::move(k));
          items.push_back(std::move(v));
        } else {
          items = popToMark();
        }
        if (items.size() % 2) fail("odd number of items for a dict");
        if (op == DICT) stack_.emplace_back(IValue(makeIntrusive<DictValue>(AnyType(), AnyType())));
        IValue& d = top();
        if (!d.isDict()) fail(fmt::format("SETITEM on a {}", d.tagName()));
        for (size_t i = 0; i < items.size(); i += 2) {
          const IValue& k = items[i];
          if (!(k.isString() || k.isInt() || k.isDouble() || k.isBool() || k.isTensor()))
            fail(fmt::format("unsupported dict key of type {}", k.tagName()));
          d.toDictRef().insertOrAssign(k, std::move(items[i + 1]));
        }
        break;
      }
      case EMPTY_SET:
      case ADDITEMS:
      case FROZENSET:
        fail("sets are not supported by TorchScript");
      case BINPUT: memoPut(u8(), top()); break;
      case LONG_BINPUT: memoPut(u32(), top()); break;
      case PUT: {
        std::string s = readLine();
        int64_t i;
        if (!parseInt64(s, i) || i < 0) fail("bad PUT index");
        memoPut(uint64_t(i), top());
        break;
      }
      case MEMOIZE: memoPut(memoCount_, top()); break;
      case BINGET: stack_.push_back(memoGet(u8())); break;
      case LONG_BINGET: stack_.push_back(memoGet(u32())); break;
      case GET: {
        std::string s = readLine();
        int64_t i;
        if (!parseInt64(s, i) || i < 0) fail("bad GET index");
        stack_.push_back(memoGet(uint64_t(i)));
        break;
      }
      case GLOBAL: {
        std::string module = readLine();
        std::string name = readLine();
        stack_.push_back(resolveGlobal(module, name));
        break;
      }
      case STACK_GLOBAL: {
        IValue name = popValue();
        IValue module = popValue();
        if (!name.isString() || !module.isString()) fail("STACK_GLOBAL: module and name must be strings");
        stack_.push_back(resolveGlobal(module.toStringRef(), name.toStringRef()));
        break;
      }
      case REDUCE: {
        IValue args = popValue();
        IValue callable = popValue();
        stack_.push_back(reduce(callable, std::move(args)));
        break;
      }
      case NEWOBJ:
      case NEWOBJ_EX: {
        if (op == NEWOBJ_EX) {
          IValue kwargs = popValue();
          if (!kwargs.isDict() || kwargs.toDictRef().size() != 0) fail("NEWOBJ_EX with keyword arguments");
        }
        IValue args = popValue();
        IValue cls = popValue();
        PickleGlobal* g = asGlobal(cls);
        if (g && g->kind == PickleGlobal::Class) {
          if (!args.isTuple() || !args.toTupleRef().elements.empty()) fail(fmt::format("NEWOBJ of '{}' with arguments", g->name));
          stack_.emplace_back(IValue(makeIntrusive<Object>(g->cls, g->cls->attributes().size())));
        } else {
          stack_.push_back(reduce(cls, std::move(args)));
        }
        break;
      }
      case BUILD: {
        IValue state = popValue();
        build(top(), std::move(state));
        break;
      }
      case BINPERSID: {
        IValue pid = popValue();
        stack_.push_back(persistentLoad(pid));
        break;
      }
      case PERSID: fail("text persistent ids (PERSID) are not supported");
      case INST:
      case OBJ: fail("INST/OBJ (construction of arbitrary Python objects) is not allowed");
      case EXT1:
      case EXT2:
      case EXT4: fail("extension registry opcodes are not supported");
      case NEXT_BUFFER:
      case READONLY_BUFFER: fail("out-of-band buffers are not supported");
      default: fail(fmt::format("unknown opcode 0x{:02x}", op));
    }
  }
}

void Unpickler::finishTypes(const IValue& root, std::unordered_set<const IntrusiveTarget*>* reached) {
  // Iterative post-order walk: rejects cycles and deep nesting, infers element types of untagged
  // containers from their (already finished) elements, applies declared attribute types of objects.
  std::unordered_set<const IntrusiveTarget*> tagged(typedContainers_.begin(), typedContainers_.end());
  std::unordered_map<const IntrusiveTarget*, uint8_t> state;  // 1 = in progress, 2 = done
  struct Frame {
    IValue v;
    std::vector<IValue> children;
    size_t next = 0;
  };
  std::vector<Frame> frames;
  if (!isContainer(root)) return;
  opStart_ = size_;
  frames.push_back({root, {}, 0});
  childrenOf(root, frames.back().children);
  state[root.rawPtr()] = 1;
  auto inferElem = [](const std::vector<IValue>& el, size_t start, size_t step) -> TypePtr {
    TypePtr t;
    for (size_t i = start; i < el.size(); i += step) {
      TypePtr et = el[i].type();
      if (!t) { t = et; continue; }
      if (t->equals(*et)) continue;
      auto u = unifyTypes(t, et);
      if (!u) return AnyType();
      t = *u;
    }
    return t ? t : AnyType();
  };
  while (!frames.empty()) {
    Frame& f = frames.back();
    if (f.next < f.children.size()) {
      const IValue& c = f.children[f.next++];
      if (!isContainer(c)) continue;
      auto it = state.find(c.rawPtr());
      if (it != state.end()) {
        if (it->second == 1) fail("recursive (self-containing) containers are not supported");
        continue;
      }
      if (frames.size() >= kMaxNesting) fail(fmt::format("containers nested deeper than {}", kMaxNesting));
      state[c.rawPtr()] = 1;
      Frame nf{c, {}, 0};
      childrenOf(c, nf.children);
      frames.push_back(std::move(nf));
      continue;
    }
    const IValue& v = f.v;
    if (!tagged.count(v.rawPtr())) {
      if (v.isList()) {
        auto& l = v.toListRef();
        if (l.elementType->kind() == TypeKind::Any) l.elementType = inferElem(l.elements, 0, 1);
      } else if (v.isDict()) {
        auto& d = v.toDictRef();
        if (d.keyType->kind() == TypeKind::Any && d.size() > 0) {
          std::vector<IValue> flat;
          for (const auto& kv : d.items()) { flat.push_back(kv.first); flat.push_back(kv.second); }
          d.keyType = inferElem(flat, 0, 2);
          d.valueType = inferElem(flat, 1, 2);
        }
      }
    }
    if (v.isObject()) {
      // Untagged containers in attributes take the attribute's declared type (archives older than version 3).
      Object& o = v.toObjectRef();
      const auto& attrs = o.type->attributes();
      for (size_t i = 0; i < o.slots.size() && i < attrs.size(); ++i) {
        const IValue& s = o.slots[i];
        if (tagged.count(s.rawPtr()) || !attrs[i].type) continue;
        if (s.isList()) {
          if (auto* lt = attrs[i].type->cast<ListType>()) s.toListRef().elementType = lt->elementType();
        } else if (s.isDict()) {
          if (auto* dt = attrs[i].type->cast<DictType>()) {
            s.toDictRef().keyType = dt->keyType();
            s.toDictRef().valueType = dt->valueType();
          }
        }
      }
    }
    state[v.rawPtr()] = 2;
    frames.pop_back();
  }
  if (reached)
    for (const auto& [p, st] : state) reached->insert(p);
}

IValue unpickle(const void* data, size_t size, const std::string& name, Unpickler::ClassResolver classResolver,
                Unpickler::StorageLoader storageLoader) {
  Unpickler u(data, size, name);
  if (classResolver) u.setClassResolver(std::move(classResolver));
  if (storageLoader) u.setStorageLoader(std::move(storageLoader));
  return u.parse();
}

}  // namespace kindling
