// Unpickler: Python pickle (protocols 0–5) → IValue, for data.pkl / constants.pkl in TorchScript archives
// and the data.pkl of torch.save files (torch::jit::Unpickler plus what torch.save emits).
//
// Loading a model must never run arbitrary code, so GLOBAL / STACK_GLOBAL go through an allow-list:
//   torch._utils._rebuild_tensor_v2 / _rebuild_tensor / _rebuild_parameter, torch._tensor._rebuild_from_type_v2,
//   torch.<X>Storage (storage types in persistent ids), torch.<dtype> (→ int ScalarType), torch.device,
//   torch layouts / memory formats (→ ints), collections.OrderedDict, _codecs.encode (protocol ≤ 2 bytes),
//   torch.jit._pickle.{restore_type_tag, build_intlist, build_tensorlist, build_doublelist, build_boollist,
//   build_tensor_from_id}, and `__torch__.*` classes resolved through a callback (objects are made by NEWOBJ
//   and filled by BUILD from the attribute dict, or by the class's TorchScript __setstate__).
// Anything else is a LoadError naming the global ("disallowed global 'os.system' in data.pkl").
//
// Persistent ids ('storage', torch.FloatStorage, key, location, numel) are turned into storages by a
// callback (the archive reads record `data/<key>`); one key → one shared StorageImpl. Any device location
// loads on CPU.
//
// Value mapping: int/bool/float/str/None as such (bytes → str), tuple → Tuple, list → List, dict and
// OrderedDict → Dict. Containers without a type tag get the unified type of their elements (Any when mixed
// or empty). Sets, complex numbers and arbitrary Python objects are rejected.
//
// Malformed input (unknown opcode, stack underflow, truncation, memo miss, recursive containers, nesting
// deeper than 1000) → LoadError "<name>: <what> at byte <offset>". Allocations are bounded by the input size.
#pragma once
#include <functional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/function.h"
#include "core/ivalue.h"
#include "tensor/tensor.h"

namespace kindling {

class Unpickler {
 public:
  /// Resolves a qualified class name ("__torch__.torchvision.models.resnet.ResNet") to its type;
  /// returns nullptr when unknown.
  using ClassResolver = std::function<TypePtr(const std::string& qualname)>;
  /// Returns the storage behind a persistent id: record `key`, which must hold at least `nbytes` bytes
  /// (throws LoadError otherwise).
  using StorageLoader = std::function<Storage(const std::string& key, size_t nbytes)>;

  /// `name` is used in error messages ("data.pkl"). The bytes must outlive parse().
  Unpickler(const void* data, size_t size, std::string name);

  void setClassResolver(ClassResolver r) { classResolver_ = std::move(r); }
  void setStorageLoader(StorageLoader l) { storageLoader_ = std::move(l); }
  /// Storages hold big-endian elements (a `byteorder` record saying "big"): each storage is copied once,
  /// its elements byte-swapped to this machine's little-endian order.
  void setSwapTensorBytes(bool swap) { swapTensorBytes_ = swap; }
  /// Tensors for the legacy torch.jit._pickle.build_tensor_from_id(i).
  void setTensorTable(std::vector<Tensor> t) { tensorTable_ = std::move(t); }

  /// Runs the pickle to its STOP and returns the value. Throws LoadError on malformed input.
  IValue parse();

 private:
  IValue run();
  [[noreturn]] void fail(const std::string& what) const;
  const unsigned char* need(size_t n);
  uint8_t u8();
  uint16_t u16();
  uint32_t u32();
  uint64_t u64();
  std::string readLine();
  IValue popValue();
  IValue& top();
  size_t popMark();
  std::vector<IValue> popToMark();
  void memoPut(uint64_t idx, const IValue& v);
  IValue memoGet(uint64_t idx);
  IValue resolveGlobal(const std::string& module, const std::string& name);
  IValue reduce(const IValue& callable, IValue args);
  void build(IValue& target, IValue state);
  IValue persistentLoad(const IValue& pid);
  IValue rebuildTensor(std::vector<IValue>& args, bool v2);
  TypePtr parseTypeString(const std::string& s);
  /// Checks and completes the container types of the result; `reached` (if given) receives every
  /// container reachable from `root`.
  void finishTypes(const IValue& root, std::unordered_set<const IntrusiveTarget*>* reached = nullptr);

  const unsigned char* data_;
  size_t size_;
  size_t pos_ = 0;
  size_t opStart_ = 0;
  std::string name_;
  std::vector<IValue> stack_;
  std::vector<size_t> marks_;
  std::vector<IValue> memo_;
  std::vector<IValue> graveyard_;  // every popped value, so that deep values are never freed recursively
  std::vector<bool> memoSet_;
  size_t memoCount_ = 0;
  ClassResolver classResolver_;
  StorageLoader storageLoader_;
  bool swapTensorBytes_ = false;
  std::vector<Tensor> tensorTable_;
  struct LoadedStorage {
    Storage storage;
    ScalarType dtype;
  };
  std::unordered_map<std::string, LoadedStorage> storages_;
  std::unordered_set<const IntrusiveTarget*> resultContainers_;  // the result's, kept when a parse is released
  std::vector<const IntrusiveTarget*> typedContainers_;  // lists/dicts whose type came from a tag
};

/// Convenience: unpickle a buffer with optional callbacks.
IValue unpickle(const void* data, size_t size, const std::string& name,
                Unpickler::ClassResolver classResolver = nullptr, Unpickler::StorageLoader storageLoader = nullptr);

/// Parses a TorchScript type in annotation syntax as type tags spell it: "List[str]", "Dict[str, int]",
/// "Optional[Tensor]", "Tuple[int, float]", "Union[int, str]", "NoneType", "__torch__.Foo" (via resolver).
/// Throws LoadError on anything else.
TypePtr parseTypeTag(const std::string& s, const Unpickler::ClassResolver& resolver);


}  // namespace kindling
