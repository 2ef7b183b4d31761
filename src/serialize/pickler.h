// Pickler: IValue → Python pickle (protocol 2), the inverse of unpickler.h, in the dialect PyTorch writes:
//   - tensors as torch._utils._rebuild_tensor_v2(<persistent id ('storage', torch.FloatStorage, key, 'cpu',
//     numel)>, offset, size, stride, requires_grad, OrderedDict()); each distinct storage gets one key
//     ("0", "1", ...) and its bytes are handed back through storages() for the caller to write as
//     data/<key> (or constants/<key>);
//   - ints (BININT1/BININT2/BININT/LONG1), floats (BINFLOAT, big-endian), bools, None, str (BINUNICODE),
//     tuples, lists (EMPTY_LIST + APPENDS), dicts (EMPTY_DICT + SETITEMS), devices (torch.device(str)); a
//     container met again is a BINGET of its memo entry.
// Mode::TorchScript (data.pkl of an archive) also writes objects (GLOBAL '__torch__.x C' + NEWOBJ + state dict
// + BUILD, or the class's __getstate__ result) and type tags for lists and dicts
// (torch.jit._pickle.restore_type_tag), as torch.jit.save does. Mode::TorchSave writes what torch.save
// writes and rejects objects.
// Errors: values that cannot be pickled (futures, objects in TorchSave mode, ...) throw Error.
#pragma once
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ivalue.h"
#include "tensor/tensor.h"

namespace kindling {

class Pickler {
 public:
  enum class Mode { TorchSave, TorchScript };
  struct StorageRecord {
    std::string key;
    Storage storage;
    size_t nbytes;
    ScalarType dtype;
  };
  explicit Pickler(Mode mode = Mode::TorchSave);
  /// Pickles one value (the whole pickle: PROTO ... STOP). Call once.
  std::string pickle(const IValue& v);
  /// The storages the pickle refers to, in key order.
  const std::vector<StorageRecord>& storages() const { return storages_; }

 private:
  void push(const IValue& v, size_t depth);
  void pushInt(int64_t i);
  void pushString(const std::string& s);
  void pushGlobal(const std::string& module, const std::string& name);
  void pushTensor(const Tensor& t);
  void op(uint8_t o) { out_.push_back(static_cast<char>(o)); }
  /// BINPUT of the next memo index (returned).
  uint32_t putMemo();
  /// BINGET / LONG_BINGET of memo entry `idx`.
  void pushMemoGet(uint32_t idx);
  /// BINGET of a container pickled before (true), so that a value sharing containers pickles each once, as
  /// Python's pickle and torch.jit.save do; false when it was not.
  bool pushMemoized(const void* container);
  Mode mode_;
  std::string out_;
  std::vector<StorageRecord> storages_;
  std::unordered_map<const StorageImpl*, size_t> storageIndex_;
  std::unordered_map<std::string, uint32_t> globalMemo_;
  std::unordered_map<const void*, uint32_t> containerMemo_;
  std::vector<IValue> keepAlive_;  // values made while pickling (__getstate__ results)
  uint32_t memoNext_ = 0;
};

}  // namespace kindling
