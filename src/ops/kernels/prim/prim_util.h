// Shared helpers of the prim_* builtin families (ops layer, not kernels): list access with PyTorch's
// index errors, Python-style value comparisons, and TorchScript's str() of any IValue (c10's IValue
// printer: what print(), str() and "{}".format() produce inside TorchScript).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/ivalue.h"

namespace kindling::prim {

inline ListValue& listRef(const IValue& v) { return v.toListRef(); }

/// Python index normalisation: negative counts from the end; throws RuntimeError(msg) when out of range
/// (PyTorch surfaces it as "RuntimeError: list index out of range").
inline size_t normalizeIndex(int64_t idx, size_t size, const char* msg) {
  int64_t n = static_cast<int64_t>(size);
  if (idx < 0) idx += n;
  if (idx < 0 || idx >= n) throw RuntimeError(msg);
  return static_cast<size_t>(idx);
}

/// Python slice of a sequence of length n: appends the indices [start:end:step] selects (start/end may
/// be None). Throws "List slice should have non-zero step" for step 0.
void sliceIndices(int64_t n, const IValue& start, const IValue& end, int64_t step, std::vector<int64_t>& out);

/// Where prim::Print writes (default: stdout). Returns the previous handler. Not thread-safe to swap
/// while programs run.
using PrintHandler = void (*)(const std::string& text);
PrintHandler setPrintHandler(PrintHandler h);
PrintHandler printHandler();

/// Python == on list elements: numbers by value (nan != nan), strings by content, None == None,
/// devices by value, tensors and objects by identity, containers element-wise (IValue's operator==).
inline bool sameValue(const IValue& a, const IValue& b) { return a == b; }
/// Python < for int, float, bool and str (and lists/tuples lexicographically). Throws RuntimeError for
/// anything else.
bool lessThan(const IValue& a, const IValue& b);

/// str(v) as TorchScript prints it (c10 operator<<; IValue::printStr): 1. for 1.0, strings without
/// quotes (also inside lists: [a, b]), {k: 1} for dicts, (1,) for 1-tuples, tensors in ATen's C++ format.
inline std::string toStr(const IValue& v) { return v.printStr(); }

}  // namespace kindling::prim
