// List builtins TorchScript programs call: len, indexing, append/extend/insert/pop/remove/clear,
// slicing, concatenation, repetition, sort, membership, comparisons, min/max/sum/any/all.
// Lists have reference semantics (ListValue is shared); the in-place ops mutate it.
// Registered with PyTorch 1.13's schemas (aten::append.t, aten::__getitem__.t, prim::min.self_int, ...);
// messages follow PyTorch ("list index out of range", "pop from empty list", "'3' is not in list").
#include <algorithm>
#include <cmath>
#include <string>

#include "ops/registry/operator.h"
#include "ops/kernels/prim/prim_util.h"

namespace kindling {
namespace {

using prim::listRef;
using prim::normalizeIndex;
using prim::sliceIndices;

IValue newList(const ListValue& like, std::vector<IValue> elems) {
  return IValue(makeIntrusive<ListValue>(like.elementType, std::move(elems)));
}

void len(Stack& s) { push(s, static_cast<int64_t>(listRef(pop(s)).elements.size())); }

void getItem(Stack& s) {  // __getitem__.t / select.t
  int64_t idx = pop(s).toInt();
  IValue l = pop(s);
  auto& el = listRef(l).elements;
  size_t i = normalizeIndex(idx, el.size(), "list index out of range");
  push(s, el[i]);
}

void setItem(Stack& s) {  // _set_item.t(t[](a!) l, int idx, t(b -> *) el) -> t[](a!)
  IValue v = pop(s);
  int64_t idx = pop(s).toInt();
  IValue l = pop(s);
  auto& el = listRef(l).elements;
  el[normalizeIndex(idx, el.size(), "list index out of range")] = std::move(v);
  push(s, std::move(l));
}

void append(Stack& s) {
  IValue v = pop(s);
  IValue l = pop(s);
  listRef(l).elements.push_back(std::move(v));
  push(s, std::move(l));
}

void extend(Stack& s) {
  IValue other = pop(s);
  IValue l = pop(s);
  auto& dst = listRef(l).elements;
  const auto src = listRef(other).elements;  // copy: l.extend(l) is legal
  dst.insert(dst.end(), src.begin(), src.end());
}

void addInPlace(Stack& s) {  // add_.t: l += other, returns l
  IValue other = pop(s);
  IValue l = pop(s);
  auto& dst = listRef(l).elements;
  const auto src = listRef(other).elements;
  dst.insert(dst.end(), src.begin(), src.end());
  push(s, std::move(l));
}

void insert(Stack& s) {  // Python semantics: the index is clamped into [0, len]
  IValue v = pop(s);
  int64_t idx = pop(s).toInt();
  IValue l = pop(s);
  auto& el = listRef(l).elements;
  int64_t n = static_cast<int64_t>(el.size());
  if (idx < 0) idx = std::max<int64_t>(0, idx + n);
  if (idx > n) idx = n;
  el.insert(el.begin() + idx, std::move(v));
}

void popAt(Stack& s) {
  int64_t idx = pop(s).toInt();
  IValue l = pop(s);
  auto& el = listRef(l).elements;
  KD_CHECK(!el.empty(), "pop from empty list");
  size_t i = normalizeIndex(idx, el.size(), "list index out of range");
  IValue v = std::move(el[i]);
  el.erase(el.begin() + static_cast<ptrdiff_t>(i));
  push(s, std::move(v));
}

void deleteAt(Stack& s) {  // Delete.t: del l[idx]
  int64_t idx = pop(s).toInt();
  IValue l = pop(s);
  auto& el = listRef(l).elements;
  size_t i = normalizeIndex(idx, el.size(), "list index out of range");
  el.erase(el.begin() + static_cast<ptrdiff_t>(i));
}

void clear(Stack& s) { listRef(pop(s)).elements.clear(); }

void reverse(Stack& s) {
  auto& el = listRef(pop(s)).elements;
  std::reverse(el.begin(), el.end());
}

void copy(Stack& s) {  // list.t / copy.t: shallow copy
  IValue l = pop(s);
  const auto& src = listRef(l);
  push(s, newList(src, src.elements));
}

void identityList(Stack& s) {}  // aten::Size(int[] sizes) -> int[]: the list itself

void concat(Stack& s) {  // add.t
  IValue b = pop(s);
  IValue a = pop(s);
  const auto& la = listRef(a);
  std::vector<IValue> out = la.elements;
  const auto& eb = listRef(b).elements;
  out.insert(out.end(), eb.begin(), eb.end());
  push(s, newList(la, std::move(out)));
}

std::vector<IValue> repeat(const std::vector<IValue>& src, int64_t n) {
  std::vector<IValue> out;
  if (n <= 0 || src.empty()) return out;
  KD_CHECK(static_cast<uint64_t>(n) <= (uint64_t(1) << 40) / src.size(), "list repetition too large");
  out.reserve(src.size() * static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) out.insert(out.end(), src.begin(), src.end());
  return out;
}
void mulLeft(Stack& s) {  // mul.left_t(t[] l, int n)
  int64_t n = pop(s).toInt();
  IValue l = pop(s);
  const auto& lv = listRef(l);
  push(s, newList(lv, repeat(lv.elements, n)));
}
void mulRight(Stack& s) {  // mul.right_(int n, t[] l)
  IValue l = pop(s);
  int64_t n = pop(s).toInt();
  const auto& lv = listRef(l);
  push(s, newList(lv, repeat(lv.elements, n)));
}
void mulInPlace(Stack& s) {  // mul_.t(t[](a!) l, int n) -> t[](a!)
  int64_t n = pop(s).toInt();
  IValue l = pop(s);
  auto& el = listRef(l).elements;
  el = repeat(el, n);
  push(s, std::move(l));
}

void slice(Stack& s) {  // slice.t(t[] l, int? start=None, int? end=None, int step=1) -> t[]
  int64_t step = pop(s).toInt();
  IValue end = pop(s);
  IValue start = pop(s);
  IValue l = pop(s);
  const auto& lv = listRef(l);
  std::vector<int64_t> idx;
  sliceIndices(static_cast<int64_t>(lv.elements.size()), start, end, step, idx);
  std::vector<IValue> out;
  out.reserve(idx.size());
  for (int64_t i : idx) out.push_back(lv.elements[static_cast<size_t>(i)]);
  push(s, newList(lv, std::move(out)));
}

// ---- element comparisons (int, float, bool, str) ----

using prim::lessThan;
using prim::sameValue;

void contains(Stack& s) {  // __contains__.X_list(X[] l, X item)
  IValue item = pop(s);
  IValue l = pop(s);
  bool found = false;
  for (const auto& e : listRef(l).elements)
    if (sameValue(e, item)) { found = true; break; }
  push(s, found);
}

void count(Stack& s) {
  IValue item = pop(s);
  IValue l = pop(s);
  int64_t c = 0;
  for (const auto& e : listRef(l).elements) c += sameValue(e, item);
  push(s, c);
}

void indexOf(Stack& s) {
  IValue item = pop(s);
  IValue l = pop(s);
  const auto& el = listRef(l).elements;
  for (size_t i = 0; i < el.size(); ++i)
    if (sameValue(el[i], item)) { push(s, static_cast<int64_t>(i)); return; }
  throw RuntimeError(fmt::format("'{}' is not in list", prim::toStr(item)));
}

void remove(Stack& s) {
  IValue item = pop(s);
  IValue l = pop(s);
  auto& el = listRef(l).elements;
  for (size_t i = 0; i < el.size(); ++i) {
    if (sameValue(el[i], item)) {
      el.erase(el.begin() + static_cast<ptrdiff_t>(i));
      return;
    }
  }
  throw RuntimeError("list.remove(x): x not in list");
}

bool listsEqual(const IValue& a, const IValue& b) {
  const auto& x = listRef(a).elements;
  const auto& y = listRef(b).elements;
  if (x.size() != y.size()) return false;
  for (size_t i = 0; i < x.size(); ++i)
    if (!sameValue(x[i], y[i])) return false;
  return true;
}
void listEq(Stack& s) {
  IValue b = pop(s);
  IValue a = pop(s);
  push(s, listsEqual(a, b));
}
void listNe(Stack& s) {
  IValue b = pop(s);
  IValue a = pop(s);
  push(s, !listsEqual(a, b));
}

void sortImpl(std::vector<IValue>& el, bool reverse) {
  if (reverse) std::stable_sort(el.begin(), el.end(), [](const IValue& a, const IValue& b) { return lessThan(b, a); });
  else std::stable_sort(el.begin(), el.end(), [](const IValue& a, const IValue& b) { return lessThan(a, b); });
}
void sortInPlace(Stack& s) {  // sort.X(X[](a!) self, bool reverse=False) -> ()
  bool rev = pop(s).toBool();
  IValue l = pop(s);
  sortImpl(listRef(l).elements, rev);
}
void sortedCopy(Stack& s) {  // sorted.X(X[](a) input) -> X[]
  IValue l = pop(s);
  const auto& lv = listRef(l);
  std::vector<IValue> el = lv.elements;
  sortImpl(el, false);
  push(s, newList(lv, std::move(el)));
}

// ---- reductions over one list ----

template <bool IsMin>
void minMaxOfList(Stack& s) {  // prim::min.self_int(int[] self) -> int, ...
  IValue l = pop(s);
  const auto& el = listRef(l).elements;
  KD_CHECK(!el.empty(), "{}() arg is an empty sequence", IsMin ? "min" : "max");
  IValue best = el[0];
  for (size_t i = 1; i < el.size(); ++i)
    if (IsMin ? lessThan(el[i], best) : lessThan(best, el[i])) best = el[i];
  push(s, best);
}

bool lexLess(const std::vector<IValue>& a, const std::vector<IValue>& b) {
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    if (lessThan(a[i], b[i])) return true;
    if (lessThan(b[i], a[i])) return false;
  }
  return a.size() < b.size();
}

template <bool IsMin>
void minMaxOfTwoLists(Stack& s) {  // prim::min.int_list(int[] l, int[] r) -> int[]: lexicographic, as Python
  IValue r = pop(s);
  IValue l = pop(s);
  const auto& a = listRef(l).elements;
  const auto& b = listRef(r).elements;
  bool pickR = IsMin ? lexLess(b, a) : lexLess(a, b);
  push(s, pickR ? r : l);
}

void sumInts(Stack& s) {
  IValue l = pop(s);
  uint64_t acc = 0;
  for (const auto& e : listRef(l).elements) acc += static_cast<uint64_t>(e.isBool() ? int64_t(e.toBool()) : e.toInt());
  push(s, static_cast<int64_t>(acc));
}
void sumFloats(Stack& s) {
  IValue l = pop(s);
  double acc = 0;
  for (const auto& e : listRef(l).elements) acc += e.toDouble();
  push(s, acc);
}
bool truthy(const IValue& e) {
  if (e.isBool()) return e.toBool();
  if (e.isInt()) return e.toInt() != 0;
  if (e.isDouble()) return e.toDouble() != 0;
  if (e.isString()) return !e.toStringRef().empty();
  return !e.isNone();
}
void anyOf(Stack& s) {
  IValue l = pop(s);
  bool r = false;
  for (const auto& e : listRef(l).elements)
    if (truthy(e)) { r = true; break; }
  push(s, r);
}
void allOf(Stack& s) {
  IValue l = pop(s);
  bool r = true;
  for (const auto& e : listRef(l).elements)
    if (!truthy(e)) { r = false; break; }
  push(s, r);
}

void rangeList(Stack& s) {  // prim::rangelist(int n) -> int[]
  int64_t n = pop(s).toInt();
  KD_CHECK(n <= (int64_t(1) << 32), "rangelist: {} elements is too many", n);
  std::vector<int64_t> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(i);
  push(s, makeIntList(v));
}

}  // namespace

void registerPrimListOps(OperatorRegistry& r) {
  r.add("aten::len.t(t[] a) -> int", len);
  r.add("aten::len.any(Any[] a) -> int", len);
  r.add("aten::__getitem__.t(t[](a) list, int idx) -> t(*)", getItem);
  r.add("aten::select.t(t[](a) list, int idx) -> t(*)", getItem);
  r.add("aten::_set_item.t(t[](a!) l, int idx, t(b -> *) el) -> t[](a!)", setItem);
  r.add("aten::append.t(t[](a!) self, t(c -> *) el) -> t[](a!)", append);
  r.add("aten::extend.t(t[](a!) self, t[] other) -> ()", extend);
  r.add("aten::insert.t(t[](a!) self, int idx, t(b -> *) el) -> ()", insert);
  r.add("aten::pop.t(t[](a!) self, int idx=-1) -> t(*)", popAt);
  r.add("aten::Delete.t(t[](a!) self, int idx) -> ()", deleteAt);
  r.add("aten::clear.t(t[](a!) self) -> ()", clear);
  r.add("aten::reverse.t(t[](a!) self) -> ()", reverse);
  r.add("aten::list.t(t[] l) -> t[]", copy);
  r.add("aten::copy.t(t[](a) self) -> t[]", copy);
  r.add("aten::Size(int[] sizes) -> int[]", identityList);
  r.add("aten::add.t(t[] a, t[] b) -> t[]", concat);
  r.add("aten::add_.t(t[](a!) self, t[] b) -> t[]", addInPlace);
  r.add("aten::mul.left_t(t[] l, int n) -> t[]", mulLeft);
  r.add("aten::mul.right_(int n, t[] l) -> t[]", mulRight);
  r.add("aten::mul_.t(t[](a!) l, int n) -> t[](a!)", mulInPlace);
  r.add("aten::slice.t(t[] l, int? start=None, int? end=None, int step=1) -> t[]", slice);

  r.add("aten::sort.any(t[](a!) self, bool reverse=False) -> ()", sortInPlace);
  r.add("aten::sorted.any(t[](a) self) -> t[]", sortedCopy);
  r.add("aten::__contains__.int_list(int[] l, int item) -> bool", contains);
  r.add("aten::__contains__.float_list(float[] l, float item) -> bool", contains);
  r.add("aten::__contains__.str_list(str[] l, str item) -> bool", contains);
  for (const char* t : {"int", "float", "bool", "str"}) {
    r.add(fmt::format("aten::count.{0}({0}[] self, {0} el) -> int", t), count);
    r.add(fmt::format("aten::index.list_{0}({0}[] self, {0} el) -> int", t), indexOf);
    r.add(fmt::format("aten::remove.{0}({0}[](a!) self, {0} el) -> ()", t), remove);
    r.add(fmt::format("aten::eq.{0}_list({0}[] a, {0}[] b) -> bool", t), listEq);
    r.add(fmt::format("aten::ne.{0}_list({0}[] a, {0}[] b) -> bool", t), listNe);
    r.add(fmt::format("aten::sort.{0}({0}[](a!) self, bool reverse=False) -> ()", t), sortInPlace);
    r.add(fmt::format("aten::sorted.{0}({0}[](a) input) -> {0}[]", t), sortedCopy);
  }
  for (const char* t : {"int", "float", "bool"}) {
    r.add(fmt::format("prim::min.self_{0}({0}[] self) -> {0}", t), minMaxOfList<true>);
    r.add(fmt::format("prim::max.self_{0}({0}[] self) -> {0}", t), minMaxOfList<false>);
    r.add(fmt::format("prim::min.{0}_list({0}[] l, {0}[] r) -> {0}[]", t), minMaxOfTwoLists<true>);
    r.add(fmt::format("prim::max.{0}_list({0}[] l, {0}[] r) -> {0}[]", t), minMaxOfTwoLists<false>);
    r.add(fmt::format("aten::all.{0}({0}[] self) -> bool", t), allOf);
  }
  r.add("aten::any.bool(bool[] self) -> bool", anyOf);
  r.add("aten::any.int(int[] self) -> bool", anyOf);
  r.add("aten::any.float(float[] self) -> bool", anyOf);
  r.add("aten::any.str(str[] self) -> bool", anyOf);
  r.add("aten::sum.int(int[] self) -> int", sumInts);
  r.add("aten::sum.bool(bool[] self) -> int", sumInts);
  r.add("aten::sum.float(float[] self) -> float", sumFloats);
  r.add("prim::rangelist(int n) -> int[]", rangeList);
}

}  // namespace kindling
