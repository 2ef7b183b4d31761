// Helpers shared by the prim_* builtin families (see prim_util.h).
#include "ops/prim_util.h"

namespace kindling::prim {

bool lessThan(const IValue& a, const IValue& b) {
  if (a.isString() && b.isString()) return a.toStringRef() < b.toStringRef();
  if (a.isScalar() && b.isScalar()) {
    if (a.isDouble() || b.isDouble()) {
      auto d = [](const IValue& v) {
        return v.isDouble() ? v.toDouble() : v.isInt() ? static_cast<double>(v.toInt()) : (v.toBool() ? 1.0 : 0.0);
      };
      return d(a) < d(b);
    }
    auto i = [](const IValue& v) { return v.isInt() ? v.toInt() : int64_t(v.toBool()); };
    return i(a) < i(b);
  }
  if ((a.isList() && b.isList()) || (a.isTuple() && b.isTuple())) {
    const auto& x = a.isList() ? a.toListRef().elements : a.toTupleRef().elements;
    const auto& y = b.isList() ? b.toListRef().elements : b.toTupleRef().elements;
    size_t n = std::min(x.size(), y.size());
    for (size_t k = 0; k < n; ++k) {
      if (lessThan(x[k], y[k])) return true;
      if (lessThan(y[k], x[k])) return false;
    }
    return x.size() < y.size();
  }
  throw RuntimeError(fmt::format("'<' not supported between instances of '{}' and '{}'", a.tagName(), b.tagName()),
                     "builtins.TypeError");
}

}  // namespace kindling::prim
