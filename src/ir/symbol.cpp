// Symbol interning: a process-wide table of qualified names ("aten::add"), guarded by a mutex for
// interning; reading a Symbol's string is lock-free once interned (entries are never moved).
#include "ir/symbol.h"

#include <deque>
#include <mutex>
#include <unordered_map>

#include "core/error.h"

namespace kindling {
namespace {

struct SymbolEntry {
  std::string qual;
  std::string ns;
  std::string unqual;
};

struct SymbolTable {
  std::mutex mu;
  std::deque<SymbolEntry> entries;  // deque: references stay valid while growing
  std::unordered_map<std::string, uint32_t> index;
  SymbolTable() {
    entries.push_back({"", "", ""});
    index.emplace("", 0);
  }
};

SymbolTable& table() {
  static SymbolTable* t = new SymbolTable();  // never destroyed: Symbols may be used during exit
  return *t;
}

const SymbolEntry& entry(uint32_t id) {
  SymbolTable& t = table();
  std::lock_guard<std::mutex> g(t.mu);
  return t.entries[id];
}

}  // namespace

Symbol Symbol::fromQualString(const std::string& s) {
  SymbolTable& t = table();
  std::lock_guard<std::mutex> g(t.mu);
  auto it = t.index.find(s);
  if (it != t.index.end()) return Symbol(it->second);
  SymbolEntry e;
  e.qual = s;
  auto pos = s.find("::");
  if (pos == std::string::npos) {
    e.unqual = s;
  } else {
    e.ns = s.substr(0, pos);
    e.unqual = s.substr(pos + 2);
  }
  uint32_t id = static_cast<uint32_t>(t.entries.size());
  t.entries.push_back(std::move(e));
  t.index.emplace(s, id);
  return Symbol(id);
}

const std::string& Symbol::toQualString() const { return entry(id_).qual; }
std::string Symbol::ns() const { return entry(id_).ns; }
std::string Symbol::unqualName() const { return entry(id_).unqual; }
bool Symbol::isAten() const { return entry(id_).ns == "aten"; }
bool Symbol::isPrim() const { return entry(id_).ns == "prim"; }

namespace prim {
#define KD_PRIM(n) const Symbol n = Symbol::fromQualString("prim::" #n);
KD_PRIM(Constant) KD_PRIM(Param) KD_PRIM(Return) KD_PRIM(If) KD_PRIM(Loop) KD_PRIM(GetAttr)
KD_PRIM(SetAttr) KD_PRIM(CallMethod) KD_PRIM(CallFunction) KD_PRIM(CreateObject) KD_PRIM(TupleConstruct)
KD_PRIM(TupleUnpack) KD_PRIM(TupleIndex) KD_PRIM(TupleSlice) KD_PRIM(ListConstruct) KD_PRIM(ListUnpack)
KD_PRIM(DictConstruct) KD_PRIM(Uninitialized) KD_PRIM(unchecked_cast) KD_PRIM(RaiseException)
KD_PRIM(Print) KD_PRIM(isinstance) KD_PRIM(NumToTensor) KD_PRIM(device) KD_PRIM(dtype) KD_PRIM(Enter)
KD_PRIM(Exit) KD_PRIM(fork) KD_PRIM(wait) KD_PRIM(Closure) KD_PRIM(EnumName) KD_PRIM(EnumValue)
KD_PRIM(Store) KD_PRIM(Load) KD_PRIM(IgnoredPythonOp) KD_PRIM(MethodCall) KD_PRIM(FunctionCall)
KD_PRIM(ModuleContainerIndex) KD_PRIM(StringIndex) KD_PRIM(AutogradZero) KD_PRIM(TypeCheck) KD_PRIM(Guard)
KD_PRIM(Try)
#undef KD_PRIM
}  // namespace prim
namespace aten {
#define KD_ATEN(n) const Symbol n = Symbol::fromQualString("aten::" #n);
KD_ATEN(__is__) KD_ATEN(__isnot__) KD_ATEN(__not__) KD_ATEN(format) KD_ATEN(size) KD_ATEN(dim) KD_ATEN(len)
KD_ATEN(add) KD_ATEN(add_) KD_ATEN(batch_norm) KD_ATEN(conv1d) KD_ATEN(conv2d) KD_ATEN(conv3d) KD_ATEN(_convolution)
KD_ATEN(convolution) KD_ATEN(eq) KD_ATEN(hardtanh) KD_ATEN(hardtanh_) KD_ATEN(linear) KD_ATEN(manual_seed) KD_ATEN(ne)
KD_ATEN(relu) KD_ATEN(relu_) KD_ATEN(wait) KD_ATEN(warn)
#undef KD_ATEN
}  // namespace aten

}  // namespace kindling
