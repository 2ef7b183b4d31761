// Destructors of the IValue containers (tuples, lists, dicts, objects, futures, enum members) that free
// nested containers iteratively.
//
// A container that dies moves each element that is the last reference to another container onto a
// per-thread list instead of letting the element's destructor run inside its own. The outermost such
// destructor on the thread then pops the list one value at a time; each value it frees adds its own
// nested containers to the list. However deep a value nests (a list built by `x = [x]` 300,000 times, a
// linked list of objects), the stack holds at most two of these destructors at once.
#include <cstdlib>
#include <new>
#include <vector>

#include "core/ivalue.h"

namespace kindling {

namespace {

/// Values waiting to be released. Trivially destructible on purpose: containers may die during thread or
/// process exit, after thread_local objects with destructors are gone. The buffer is freed whenever a
/// drain finishes, so an idle thread holds none.
struct DeferredReleases {
  IValue* data = nullptr;
  size_t size = 0;
  size_t capacity = 0;
  bool draining = false;
};
thread_local DeferredReleases tDeferred;

bool holdsContainer(const IValue& v) {
  switch (v.tag()) {
    case IValue::Tag::Tuple: case IValue::Tag::List: case IValue::Tag::Dict: case IValue::Tag::Object:
    case IValue::Tag::Future: case IValue::Tag::Enum:
      return v.rawPtr() != nullptr;
    default:
      return false;
  }
}

/// Scope of one container's destructor: defer() its elements; the outermost scope drains the list.
class ReleaseScope {
 public:
  ReleaseScope() : outermost_(!tDeferred.draining) { tDeferred.draining = true; }
  ReleaseScope(const ReleaseScope&) = delete;
  ReleaseScope& operator=(const ReleaseScope&) = delete;

  /// Takes `v` over when it is the last reference to a container; other values stay where they are (the
  /// caller's destructor frees them without nesting: their payload dies elsewhere or holds no IValues).
  void defer(IValue& v) noexcept {
    if (!holdsContainer(v) || v.rawPtr()->use_count() != 1) return;
    DeferredReleases& d = tDeferred;
    if (d.size == d.capacity) {
      size_t cap = d.capacity ? d.capacity * 2 : 64;
      auto* grown = static_cast<IValue*>(std::malloc(cap * sizeof(IValue)));
      if (!grown) return;  // out of memory: v is released in place (recursively) instead
      for (size_t i = 0; i < d.size; ++i) {
        new (&grown[i]) IValue(std::move(d.data[i]));
        d.data[i].~IValue();
      }
      std::free(d.data);
      d.data = grown;
      d.capacity = cap;
    }
    new (&d.data[d.size++]) IValue(std::move(v));
  }

  ~ReleaseScope() {
    if (!outermost_) return;
    DeferredReleases& d = tDeferred;
    while (d.size > 0) {
      IValue v(std::move(d.data[d.size - 1]));
      d.data[--d.size].~IValue();
      // v dies here; its destructor runs in a nested (non-outermost) scope and only appends to d.
    }
    std::free(d.data);
    d.data = nullptr;
    d.capacity = 0;
    d.draining = false;
  }

 private:
  bool outermost_;
};

}  // namespace

void moveOutContained(const IValue& container, std::vector<IValue>& out) {
  switch (container.tag()) {
    case IValue::Tag::List: case IValue::Tag::Tuple: case IValue::Tag::Object: {
      std::vector<IValue>& e = container.isList()    ? container.toListRef().elements
                               : container.isTuple() ? container.toTupleRef().elements
                                                     : container.toObjectRef().slots;
      for (IValue& x : e) out.push_back(std::move(x));
      e.clear();
      return;
    }
    case IValue::Tag::Dict: {
      DictValue& d = container.toDictRef();
      for (const auto& kv : d.items()) {
        out.push_back(kv.first);
        out.push_back(kv.second);
      }
      d.clear();
      return;
    }
    default:
      return;
  }
}

TupleValue::~TupleValue() {
  ReleaseScope scope;
  for (IValue& e : elements) scope.defer(e);
}

ListValue::~ListValue() {
  ReleaseScope scope;
  for (IValue& e : elements) scope.defer(e);
}

DictValue::~DictValue() {
  ReleaseScope scope;
  index_.clear();  // its copies of the keys would keep them shared
  for (auto& kv : items_) {
    scope.defer(kv.first);
    scope.defer(kv.second);
  }
}

Object::~Object() {
  ReleaseScope scope;
  for (IValue& s : slots) scope.defer(s);
}

FutureValue::~FutureValue() {
  ReleaseScope scope;
  scope.defer(value);
}

EnumHolder::~EnumHolder() {
  ReleaseScope scope;
  scope.defer(value);
}

}  // namespace kindling
