// Helpers shared by the prim_* builtin families (see prim_util.h).
#include "ops/prim_util.h"

#include <algorithm>
#include <atomic>
#include <cstdio>

namespace kindling::prim {

void sliceIndices(int64_t n, const IValue& startV, const IValue& endV, int64_t step, std::vector<int64_t>& out) {
  KD_CHECK(step != 0, "List slice should have non-zero step");
  if (step > 0) {
    int64_t start = startV.isNone() ? 0 : startV.toInt();
    int64_t end = endV.isNone() ? n : endV.toInt();
    if (start < 0) start = std::max<int64_t>(0, start + n);
    if (end < 0) end = std::max<int64_t>(0, end + n);
    start = std::min(start, n);
    end = std::min(end, n);
    for (int64_t i = start; i < end; i += step) out.push_back(i);
  } else {
    int64_t start = startV.isNone() ? n - 1 : startV.toInt();
    int64_t end = endV.isNone() ? -1 : endV.toInt();
    if (start < 0) start = std::max<int64_t>(-1, start + n);
    if (!endV.isNone() && end < 0) end = std::max<int64_t>(-1, end + n);
    start = std::min(start, n - 1);
    end = std::min(end, n - 1);
    for (int64_t i = start; i > end; i += step) out.push_back(i);
  }
}

namespace {
void stdoutPrint(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}
std::atomic<PrintHandler> gPrintHandler{stdoutPrint};
}  // namespace

PrintHandler setPrintHandler(PrintHandler h) { return gPrintHandler.exchange(h ? h : stdoutPrint); }
PrintHandler printHandler() { return gPrintHandler.load(std::memory_order_relaxed); }

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
  throw RuntimeError(fmt::format("'<' not supported between instances of '{}' and '{}'", a.tagName(), b.tagName()));
}

}  // namespace kindling::prim
