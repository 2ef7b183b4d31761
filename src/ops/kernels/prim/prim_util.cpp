// Helpers shared by the prim_* builtin families (see prim_util.h).
#include "ops/kernels/prim/prim_util.h"

#include "core/value_nesting.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <limits>

namespace kindling::prim {

void sliceIndices(int64_t n, const IValue& startV, const IValue& endV, int64_t step, std::vector<int64_t>& out) {
  // CPython's PySlice_Unpack + PySlice_AdjustIndices, which PyTorch 1.13 follows (no overflow anywhere).
  KD_CHECK(step != 0, "List slice should have non-zero step");
  KD_CHECK(step != std::numeric_limits<int64_t>::min(), "List slice step is out of bounds");
  // None is INT64_MAX, and so is an explicit INT64_MAX (PyTorch's slice_indices_adjust).
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  int64_t start = startV.isNone() ? kMax : startV.toInt();
  int64_t stop = endV.isNone() ? kMax : endV.toInt();
  if (start == kMax) start = step < 0 ? kMax : 0;
  if (stop == kMax) stop = step < 0 ? std::numeric_limits<int64_t>::min() : kMax;
  auto adjust = [&](int64_t& v) {
    if (v < 0) {
      v += n;
      if (v < 0) v = step < 0 ? -1 : 0;
    } else if (v >= n) {
      v = step < 0 ? n - 1 : n;
    }
  };
  adjust(start);
  adjust(stop);
  int64_t len = 0;
  if (step < 0) {
    if (stop < start) len = (start - stop - 1) / (0 - step) + 1;
  } else if (start < stop) {
    len = (stop - start - 1) / step + 1;
  }
  out.reserve(out.size() + static_cast<size_t>(len));
  for (int64_t k = 0; k < len; ++k) out.push_back(start + k * step);
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

namespace {
// -1, 0 or 1: a before, tied with or after b. Containers compare element by element in one walk (the first
// element that is not tied decides, then the shorter one is first), so that nested tuples cost their size
// rather than twice per level, and deep ones raise RecursionError instead of overflowing the stack.
int threeWay(const IValue& a, const IValue& b) {
  if (a.isString() && b.isString()) {
    int c = a.toStringRef().compare(b.toStringRef());
    return c < 0 ? -1 : c > 0;
  }
  if (a.isScalar() && b.isScalar()) {
    if (a.isDouble() || b.isDouble()) {
      auto d = [](const IValue& v) {
        return v.isDouble() ? v.toDouble() : v.isInt() ? static_cast<double>(v.toInt()) : (v.toBool() ? 1.0 : 0.0);
      };
      double x = d(a), y = d(b);
      return x < y ? -1 : y < x;
    }
    auto i = [](const IValue& v) { return v.isInt() ? v.toInt() : int64_t(v.toBool()); };
    int64_t x = i(a), y = i(b);
    return x < y ? -1 : y < x;
  }
  if ((a.isList() && b.isList()) || (a.isTuple() && b.isTuple())) {
    if (a.is(b)) return 0;
    ValueNestingGuard nesting("comparing");
    const auto& x = a.isList() ? a.toListRef().elements : a.toTupleRef().elements;
    const auto& y = b.isList() ? b.toListRef().elements : b.toTupleRef().elements;
    size_t n = std::min(x.size(), y.size());
    for (size_t k = 0; k < n; ++k)
      if (int c = threeWay(x[k], y[k])) return c;
    return x.size() < y.size() ? -1 : y.size() < x.size();
  }
  throw RuntimeError(fmt::format("'<' not supported between instances of '{}' and '{}'", a.tagName(), b.tagName()));
}
}  // namespace

bool lessThan(const IValue& a, const IValue& b) { return threeWay(a, b) < 0; }

}  // namespace kindling::prim
