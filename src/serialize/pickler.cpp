// IValue → pickle in PyTorch's dialect. See pickler.h.
#include "serialize/pickler.h"

#include <cstring>

#include "core/function.h"
#include "core/unicode.h"

namespace kindling {

namespace {
enum : uint8_t {
  MARK = '(', STOP = '.', NONE = 'N', BINPERSID = 'Q', REDUCE = 'R', BINUNICODE = 'X', BUILD = 'b',
  GLOBAL = 'c', EMPTY_DICT = '}', APPENDS = 'e', BINGET = 'h', LONG_BINGET = 'j', EMPTY_LIST = ']',
  BINPUT = 'q', LONG_BINPUT = 'r', TUPLE = 't', EMPTY_TUPLE = ')', SETITEMS = 'u', BINFLOAT = 'G',
  BININT = 'J', BININT1 = 'K', BININT2 = 'M', PROTO = 0x80, NEWOBJ = 0x81, TUPLE1 = 0x85, TUPLE2 = 0x86,
  TUPLE3 = 0x87, NEWTRUE = 0x88, NEWFALSE = 0x89, LONG1 = 0x8a,
};
constexpr size_t kMaxDepth = 1000;
}  // namespace

Pickler::Pickler(Mode mode) : mode_(mode) {}

std::string Pickler::pickle(const IValue& v) {
  out_.clear();
  op(PROTO);
  op(2);
  push(v, 0);
  op(STOP);
  return out_;
}

void Pickler::pushInt(int64_t i) {
  if (i >= 0 && i < 256) {
    op(BININT1);
    op(static_cast<uint8_t>(i));
  } else if (i >= 0 && i < 65536) {
    op(BININT2);
    op(static_cast<uint8_t>(i & 0xFF));
    op(static_cast<uint8_t>(i >> 8));
  } else if (i >= INT32_MIN && i <= INT32_MAX) {
    op(BININT);
    uint32_t u = static_cast<uint32_t>(static_cast<int32_t>(i));
    for (int k = 0; k < 4; ++k) op(static_cast<uint8_t>(u >> (8 * k)));
  } else {
    op(LONG1);
    op(8);
    uint64_t u = static_cast<uint64_t>(i);
    for (int k = 0; k < 8; ++k) op(static_cast<uint8_t>(u >> (8 * k)));
  }
}

void Pickler::pushString(const std::string& s) {
  op(BINUNICODE);
  uint32_t n = static_cast<uint32_t>(s.size());
  if (s.size() > UINT32_MAX) throw Error("cannot pickle a string longer than 4 GB");
  // BINUNICODE is read back with Python's 'utf-8'/'surrogatepass' codec: never write what it cannot decode.
  if (!unicode::isValidUtf8(s))
    throw Error("cannot save a str that is not valid UTF-8 (torch.load could not decode it): " + pythonStringRepr(s));
  for (int k = 0; k < 4; ++k) op(static_cast<uint8_t>(n >> (8 * k)));
  out_ += s;
}

void Pickler::pushGlobal(const std::string& module, const std::string& name) {
  std::string key = module + "\n" + name + "\n";
  auto it = globalMemo_.find(key);
  if (it != globalMemo_.end()) {
    pushMemoGet(it->second);
    return;
  }
  op(GLOBAL);
  out_ += key;
  globalMemo_.emplace(std::move(key), putMemo());
}

void Pickler::pushMemoGet(uint32_t idx) {
  if (idx < 256) {
    op(BINGET);
    op(static_cast<uint8_t>(idx));
  } else {
    op(LONG_BINGET);
    for (int k = 0; k < 4; ++k) op(static_cast<uint8_t>(idx >> (8 * k)));
  }
}

uint32_t Pickler::putMemo() {
  uint32_t idx = memoNext_++;
  if (idx < 256) {
    op(BINPUT);
    op(static_cast<uint8_t>(idx));
  } else {
    op(LONG_BINPUT);
    for (int k = 0; k < 4; ++k) op(static_cast<uint8_t>(idx >> (8 * k)));
  }
  return idx;
}

bool Pickler::pushMemoized(const void* container) {
  auto it = containerMemo_.find(container);
  if (it == containerMemo_.end()) return false;
  pushMemoGet(it->second);
  return true;
}

void Pickler::pushTensor(const Tensor& t0) {
  Tensor t = t0;
  size_t esize = t.element_size();
  auto it = storageIndex_.find(t.storage().get());
  if (it != storageIndex_.end() && storages_[it->second].dtype != t.dtype()) {
    t = t.clone();  // the same bytes seen as another dtype: write a separate copy
    it = storageIndex_.end();
  }
  size_t index;
  if (it == storageIndex_.end()) {
    index = storages_.size();
    size_t numel = t.storage()->nbytes() / esize;
    storages_.push_back({std::to_string(index), t.storage(), numel * esize, t.dtype()});
    storageIndex_.emplace(t.storage().get(), index);
  } else {
    index = it->second;
  }
  const StorageRecord& rec = storages_[index];
  pushGlobal("torch._utils", "_rebuild_tensor_v2");
  op(MARK);
  // persistent id
  op(MARK);
  pushString("storage");
  pushGlobal("torch", std::string(scalarTypeName(t.dtype())) + "Storage");
  pushString(rec.key);
  pushString("cpu");
  pushInt(static_cast<int64_t>(rec.nbytes / esize));
  op(TUPLE);
  op(BINPERSID);
  pushInt(t.storage_offset());
  op(MARK);
  for (int64_t s : t.sizes()) pushInt(s);
  op(TUPLE);
  op(MARK);
  for (int64_t s : t.strides()) pushInt(s);
  op(TUPLE);
  op(t.requires_grad() ? NEWTRUE : NEWFALSE);
  pushGlobal("collections", "OrderedDict");
  op(EMPTY_TUPLE);
  op(REDUCE);
  op(TUPLE);
  op(REDUCE);
}

void Pickler::push(const IValue& v, size_t depth) {
  if (depth > kMaxDepth)
    throw RuntimeError(fmt::format("maximum recursion depth exceeded while pickling a value nested more than {} levels deep",
                                   kMaxDepth),
                       "builtins.RecursionError");
  switch (v.tag()) {
    case IValue::Tag::None: op(NONE); return;
    case IValue::Tag::Bool: op(v.toBool() ? NEWTRUE : NEWFALSE); return;
    case IValue::Tag::Int: pushInt(v.toInt()); return;
    case IValue::Tag::Double: {
      double d = v.toDouble();
      uint64_t bits;
      std::memcpy(&bits, &d, 8);
      op(BINFLOAT);
      for (int k = 7; k >= 0; --k) op(static_cast<uint8_t>(bits >> (8 * k)));  // big-endian
      return;
    }
    case IValue::Tag::String: pushString(v.toStringRef()); return;
    case IValue::Tag::Tensor: pushTensor(v.toTensor()); return;
    case IValue::Tag::Device:
      pushGlobal("torch", "device");
      pushString(v.toDevice().str());
      op(TUPLE1);
      op(REDUCE);
      return;
    case IValue::Tag::Tuple: {
      const auto& e = v.toTupleRef().elements;
      if (e.empty()) { op(EMPTY_TUPLE); return; }
      if (pushMemoized(v.rawPtr())) return;
      if (e.size() > 3) op(MARK);
      for (const auto& x : e) push(x, depth + 1);
      op(e.size() == 1 ? TUPLE1 : e.size() == 2 ? TUPLE2 : e.size() == 3 ? TUPLE3 : TUPLE);
      containerMemo_.emplace(v.rawPtr(), putMemo());
      return;
    }
    case IValue::Tag::List: {
      const auto& l = v.toListRef();
      if (pushMemoized(v.rawPtr())) return;
      bool tag = mode_ == Mode::TorchScript;
      if (tag) pushGlobal("torch.jit._pickle", "restore_type_tag");
      op(EMPTY_LIST);
      // Memoized before its elements (as Python's pickle does), so a list that contains itself pickles too;
      // a tagged list once its tag is applied.
      if (!tag) containerMemo_.emplace(v.rawPtr(), putMemo());
      if (!l.elements.empty()) {
        op(MARK);
        for (const auto& x : l.elements) push(x, depth + 1);
        op(APPENDS);
      }
      if (tag) {
        pushString(ListType::create(l.elementType)->annotationStr());
        op(TUPLE2);
        op(REDUCE);
        containerMemo_.emplace(v.rawPtr(), putMemo());
      }
      return;
    }
    case IValue::Tag::Dict: {
      const auto& d = v.toDictRef();
      if (pushMemoized(v.rawPtr())) return;
      bool tag = mode_ == Mode::TorchScript;
      if (tag) pushGlobal("torch.jit._pickle", "restore_type_tag");
      op(EMPTY_DICT);
      if (!tag) containerMemo_.emplace(v.rawPtr(), putMemo());
      if (d.size()) {
        op(MARK);
        for (const auto& kv : d.items()) {
          push(kv.first, depth + 1);
          push(kv.second, depth + 1);
        }
        op(SETITEMS);
      }
      if (tag) {
        pushString(DictType::create(d.keyType, d.valueType)->annotationStr());
        op(TUPLE2);
        op(REDUCE);
        containerMemo_.emplace(v.rawPtr(), putMemo());
      }
      return;
    }
    case IValue::Tag::Object: {
      const Object& o = v.toObjectRef();
      if (mode_ != Mode::TorchScript)
        throw Error(fmt::format("cannot save an object of TorchScript class '{}' in torch.save format", o.type->qualName()));
      const std::string& q = o.type->qualName();
      size_t dot = q.rfind('.');
      pushGlobal(dot == std::string::npos ? q : q.substr(0, dot), dot == std::string::npos ? q : q.substr(dot + 1));
      op(EMPTY_TUPLE);
      op(NEWOBJ);
      if (Function* getstate = o.type->findMethod("__getstate__")) {
        Stack s{v};
        getstate->run(s);
        if (s.empty()) throw Error(fmt::format("{}.__getstate__ returned nothing", q));
        keepAlive_.push_back(s.back());  // its containers are memoized by address: none may be freed and reused
        push(keepAlive_.back(), depth + 1);
      } else {
        op(EMPTY_DICT);
        op(MARK);
        const auto& attrs = o.type->attributes();
        for (size_t i = 0; i < attrs.size() && i < o.slots.size(); ++i) {
          pushString(attrs[i].name);
          push(o.slots[i], depth + 1);
        }
        op(SETITEMS);
      }
      op(BUILD);
      return;
    }
    case IValue::Tag::Enum: {
      // As libtorch: GLOBAL <enum class>, <value>, REDUCE.
      const EnumHolder& e = *v.toEnum();
      const std::string& q = e.type->qualName();
      size_t dot = q.rfind('.');
      pushGlobal(dot == std::string::npos ? q : q.substr(0, dot), dot == std::string::npos ? q : q.substr(dot + 1));
      push(e.value, depth + 1);
      op(REDUCE);
      return;
    }
    default:
      throw Error(fmt::format("cannot pickle a value of type {}", v.tagName()));
  }
}

}  // namespace kindling
