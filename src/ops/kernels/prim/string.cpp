// str builtins (methods of Python's str as TorchScript implements them), str() / format / % of any
// value, print, warnings and raise. Strings are byte strings (as in PyTorch's C++ implementation:
// lower/upper/isX are ASCII-only). Registered with PyTorch 1.13's schemas; where PyTorch 1.13 differs from
// Python (end=-1 meaning "to the end" in find/count/startswith, center's padding side, splitlines,
// isidentifier) Kindling follows PyTorch, checked against it.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>

#include "ops/registry/operator.h"
#include "ops/kernels/prim/prim_util.h"

namespace kindling {
namespace {

using prim::toStr;

inline const std::string& str(const IValue& v) { return v.toStringRef(); }

IValue strList(std::vector<std::string> parts) {
  std::vector<IValue> e;
  e.reserve(parts.size());
  for (auto& p : parts) e.emplace_back(std::move(p));
  return makeList(StringType(), std::move(e));
}

// ---- conversion and formatting ----

void toStrOp(Stack& s) { push(s, toStr(pop(s))); }  // aten::str(t elem) -> str

/// aten::format(str self, ...) -> str: each "{}" takes the next argument (no format specs, as PyTorch).
void format(Stack& s) {
  size_t n = static_cast<size_t>(pop(s).toInt());
  KD_CHECK(n >= 1 && n <= s.size(), "format: bad number of inputs {}", n);
  const std::string fmtStr = str(peek(s, 0, n));
  std::string out;
  size_t used = 0, begin = 0;
  while (true) {
    size_t loc = fmtStr.find("{}", begin);
    if (loc == std::string::npos) {
      out.append(fmtStr, begin, std::string::npos);
      break;
    }
    out.append(fmtStr, begin, loc - begin);
    KD_CHECK(used + 1 < n, "Too few arguments for format string: {}", fmtStr);
    out += toStr(peek(s, 1 + used, n));
    ++used;
    begin = loc + 2;
  }
  drop(s, n);
  push(s, std::move(out));
}

/// aten::percentFormat(str self, ...) -> str: "%s %d" % (a, b) as PyTorch (%d %i %e %f %c %s %%).
void percentFormat(Stack& s) {
  size_t n = static_cast<size_t>(pop(s).toInt());
  KD_CHECK(n == 2 && s.size() >= 2, "percentFormat: expected a format string and one argument");
  const std::string f = str(peek(s, 0, 2));
  IValue args = peek(s, 1, 2);
  size_t argc = args.isTuple() ? args.toTupleRef().elements.size() : 1;
  std::string out;
  size_t used = 0, begin = 0;
  while (true) {
    size_t pct = f.find('%', begin);
    if (pct == std::string::npos) {
      out.append(f, begin, std::string::npos);
      break;
    }
    KD_CHECK(pct + 1 < f.size(), "Incomplete format specifier");
    out.append(f, begin, pct - begin);
    char key = f[pct + 1];
    begin = pct + 2;
    if (key == '%') {
      out += '%';
      continue;
    }
    KD_CHECK(used < argc, "Too few arguments for format string");
    IValue arg = args.isTuple() ? args.toTupleRef().elements[used] : args;
    ++used;
    char buf[512];
    switch (key) {
      case 'd': case 'i':
        KD_CHECK(arg.isScalar(), "%{} requires a number for formatting, but got {}", key, arg.tagName());
        out += arg.isDouble() ? std::to_string(static_cast<int>(arg.toDouble())) : std::to_string(arg.isBool() ? int64_t(arg.toBool()) : arg.toInt());
        break;
      case 'e': case 'f': {
        KD_CHECK(arg.isScalar(), "%{} requires a number for formatting, but got {}", key, arg.tagName());
        double v = arg.isDouble() ? arg.toDouble() : static_cast<double>(arg.isBool() ? int64_t(arg.toBool()) : arg.toInt());
        std::snprintf(buf, sizeof buf, key == 'e' ? "%e" : "%f", static_cast<double>(static_cast<float>(v)));
        out += buf;
        break;
      }
      case 'c':
        KD_CHECK(arg.isInt() || (arg.isString() && arg.toStringRef().size() == 1),
                 "%c requires an int or char for formatting, but got {}", arg.tagName());
        out += arg.isInt() ? std::string(1, static_cast<char>(arg.toInt())) : arg.toStringRef();
        break;
      case 's': out += toStr(arg); break;
      default:
        throw RuntimeError(fmt::format("The specifier %{} is not supported in TorchScript format strings", key));
    }
  }
  KD_CHECK(used == argc, "Too many arguments for format string");
  drop(s, 2);
  push(s, std::move(out));
}

/// prim::Print(...) -> (): str() of the arguments separated by spaces, then a newline.
void print(Stack& s) {
  size_t n = static_cast<size_t>(pop(s).toInt());
  KD_CHECK(n <= s.size(), "Print: bad number of inputs {}", n);
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    if (i) out += ' ';
    out += toStr(peek(s, i, n));
  }
  out += '\n';
  drop(s, n);
  prim::printHandler()(out);
}

/// prim::RaiseException(str msg, str? cls=None) -> (): `raise ValueError(msg)` in TorchScript.
void raiseException(Stack& s) {
  IValue cls = pop(s);
  std::string msg = pop(s).toStringRef();
  throw RuntimeError(msg, cls.isNone() ? std::string("builtins.RuntimeError") : cls.toStringRef());
}

/// aten::warn(str message, int stacklevel=2) -> (): warnings.warn(msg) → "UserWarning: msg" on stderr.
void warn(Stack& s) {
  pop(s);  // stacklevel
  std::string msg = pop(s).toStringRef();
  std::fprintf(stderr, "UserWarning: %s\n", msg.c_str());
}

// ---- access ----

void strLen(Stack& s) { push(s, static_cast<int64_t>(str(pop(s)).size())); }

void strGetItem(Stack& s) {  // __getitem__.str(str s, int index) / prim::StringIndex
  int64_t idx = pop(s).toInt();
  IValue v = pop(s);
  const std::string& x = str(v);
  int64_t n = static_cast<int64_t>(x.size());
  int64_t i = idx < 0 ? idx + n : idx;
  if (i < 0 || i >= n)
    throw RuntimeError(fmt::format("basic_string::at: __n (which is {}) >= this->size() (which is {})",
                                   static_cast<uint64_t>(i), n));
  push(s, std::string(1, x[static_cast<size_t>(i)]));
}

void strSlice(Stack& s) {  // slice.str(str string, int? start=None, int? end=None, int step=1) -> str
  int64_t step = pop(s).toInt();
  IValue end = pop(s);
  IValue start = pop(s);
  IValue v = pop(s);
  const std::string& x = str(v);
  std::vector<int64_t> idx;
  prim::sliceIndices(static_cast<int64_t>(x.size()), start, end, step, idx);
  std::string out;
  out.reserve(idx.size());
  for (int64_t i : idx) out += x[static_cast<size_t>(i)];
  push(s, std::move(out));
}

void strToList(Stack& s) {  // aten::list(str t) -> str[]
  IValue v = pop(s);
  std::vector<std::string> parts;
  for (char c : str(v)) parts.emplace_back(1, c);
  push(s, strList(std::move(parts)));
}

void strAdd(Stack& s) {
  IValue b = pop(s);
  IValue a = pop(s);
  push(s, str(a) + str(b));
}

template <class Cmp>
void strCompare(Stack& s) {
  IValue b = pop(s);
  IValue a = pop(s);
  push(s, static_cast<bool>(Cmp()(str(a), str(b))));
}

// ---- search ----

/// PyTorch's start/end normalisation for find/count/startswith: negative start counts from the end;
/// a negative end counts from one past the end (end=-1 means "to the end").
void normalizeRange(int64_t size, int64_t& start, int64_t& end) {
  if (start < 0) start = std::max<int64_t>(0, size + start);
  if (end < 0) end = std::max<int64_t>(0, size + end + 1);
}

[[noreturn]] void substrOutOfRange(int64_t pos, int64_t size) {  // std::string::substr's message, as PyTorch
  throw RuntimeError(fmt::format("basic_string::substr: __pos (which is {}) > this->size() (which is {})", pos, size));
}

int64_t findImpl(const std::string& x, const std::string& sub, int64_t start, int64_t end, bool reverse) {
  int64_t size = static_cast<int64_t>(x.size());
  normalizeRange(size, start, end);
  std::string_view window;
  if (end > start) {
    if (start > size) substrOutOfRange(start, size);
    window = std::string_view(x).substr(static_cast<size_t>(start), static_cast<size_t>(end - start));
  }
  if (window.size() < sub.size()) return -1;
  size_t pos = reverse ? window.rfind(sub) : window.find(sub);
  return pos == std::string_view::npos ? -1 : static_cast<int64_t>(pos) + start;
}

template <bool Reverse, bool Throw>
void find(Stack& s) {  // find / rfind / index.str / rindex (str self, str substr, int start=0, int end=-1)
  int64_t end = pop(s).toInt();
  int64_t start = pop(s).toInt();
  IValue sub = pop(s);
  IValue v = pop(s);
  int64_t r = findImpl(str(v), str(sub), start, end, Reverse);
  if (Throw && r < 0) throw RuntimeError("ValueError: substring not found");
  push(s, r);
}

void count(Stack& s) {  // count(str self, str substr, int start=0, int end=-1) -> int
  int64_t end = pop(s).toInt();
  int64_t start = pop(s).toInt();
  IValue subV = pop(s);
  IValue v = pop(s);
  const std::string& x = str(v);
  const std::string& sub = str(subV);
  int64_t size = static_cast<int64_t>(x.size());
  if (start > size) { push(s, int64_t(0)); return; }
  normalizeRange(size, start, end);
  end = std::min(end, size);
  if (sub.empty()) { push(s, std::max<int64_t>(0, end - start + 1)); return; }
  int64_t c = 0;
  size_t pos = static_cast<size_t>(start);
  while ((pos = x.find(sub, pos)) != std::string::npos && static_cast<int64_t>(pos) < end) {  // as PyTorch
    ++c;
    pos += sub.size();
  }
  push(s, c);
}

template <bool Ends>
void startsEnds(Stack& s) {  // startswith / endswith(str self, str substr, int start=0, int end=-1) -> bool
  int64_t end = pop(s).toInt();
  int64_t start = pop(s).toInt();
  IValue subV = pop(s);
  IValue v = pop(s);
  const std::string& x = str(v);
  const std::string& sub = str(subV);
  int64_t size = static_cast<int64_t>(x.size());
  normalizeRange(size, start, end);
  if (start > size) substrOutOfRange(start, size);
  // As PyTorch: substr(start, end - start), where end < start means "to the end of the string".
  std::string_view w = std::string_view(x).substr(static_cast<size_t>(start),
                                                  end >= start ? static_cast<size_t>(end - start) : std::string_view::npos);
  bool r = w.size() >= sub.size() &&
           (Ends ? w.compare(w.size() - sub.size(), sub.size(), sub) == 0 : w.compare(0, sub.size(), sub) == 0);
  push(s, r);
}

void replace(Stack& s) {  // replace(str self, str old, str new, int max=-1) -> str
  int64_t max = pop(s).toInt();
  IValue nw = pop(s);
  IValue old = pop(s);
  IValue v = pop(s);
  const std::string& x = str(v);
  const std::string& o = str(old);
  const std::string& r = str(nw);
  std::string out;
  int64_t done = 0;
  if (o.empty()) {  // Python: insert `new` between characters
    for (size_t i = 0; i <= x.size(); ++i) {
      if (max < 0 || done < max) { out += r; ++done; }
      if (i < x.size()) out += x[i];
    }
    push(s, std::move(out));
    return;
  }
  size_t pos = 0;
  while (max < 0 || done < max) {
    size_t f = x.find(o, pos);
    if (f == std::string::npos) break;
    out.append(x, pos, f - pos);
    out += r;
    pos = f + o.size();
    ++done;
  }
  out.append(x, pos, std::string::npos);
  push(s, std::move(out));
}

// ---- split / join / partition ----

bool isSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

void split(Stack& s) {  // split.str(str self, str? separator=None, int max=-1) -> str[]
  int64_t max = pop(s).toInt();
  IValue sepV = pop(s);
  IValue v = pop(s);
  const std::string& x = str(v);
  std::vector<std::string> parts;
  if (sepV.isNone()) {  // runs of whitespace; PyTorch 1.13 ignores `max` here
    size_t i = 0;
    while (true) {
      while (i < x.size() && isSpace(x[i])) ++i;
      if (i >= x.size()) break;
      size_t j = i;
      while (j < x.size() && !isSpace(x[j])) ++j;
      parts.push_back(x.substr(i, j - i));
      i = j;
    }
  } else {
    const std::string& sep = str(sepV);
    KD_CHECK(!sep.empty(), "ValueError: empty separator");
    size_t pos = 0;
    int64_t splits = 0;
    while (max < 0 || splits < max) {
      size_t f = x.find(sep, pos);
      if (f == std::string::npos) break;
      parts.push_back(x.substr(pos, f - pos));
      pos = f + sep.size();
      ++splits;
    }
    parts.push_back(x.substr(pos));
  }
  push(s, strList(std::move(parts)));
}

void rsplit(Stack& s) {  // rsplit(str self, str separator=" ", int max=-1) -> str[]
  int64_t max = pop(s).toInt();
  IValue sepV = pop(s);
  IValue v = pop(s);
  const std::string& x = str(v);
  const std::string& sep = str(sepV);
  KD_CHECK(!sep.empty(), "ValueError: empty separator");
  std::vector<std::string> parts;
  size_t end = x.size();
  int64_t splits = 0;
  while (max < 0 || splits < max) {
    if (end < sep.size()) break;
    size_t f = x.rfind(sep, end - sep.size());
    if (f == std::string::npos) break;
    parts.push_back(x.substr(f + sep.size(), end - f - sep.size()));
    end = f;
    ++splits;
  }
  parts.push_back(x.substr(0, end));
  std::reverse(parts.begin(), parts.end());
  push(s, strList(std::move(parts)));
}

void splitlines(Stack& s) {  // as PyTorch 1.13 (keepends emits each line break as its own element)
  bool keepends = pop(s).toBool();
  IValue v = pop(s);
  const std::string& x = str(v);
  static const std::string delimiters = "\n\r\r\n\v\x0b\f\x0c\x1c\x1d\x1e\x85\xe2\x80\xa8\xe2\x80\xa9";
  std::vector<std::string> parts;
  size_t prev = 0, pos = 0;
  while ((pos = x.find_first_of(delimiters, pos)) != std::string::npos) {
    parts.push_back(x.substr(prev, pos - prev));
    if (keepends) parts.push_back(x.substr(pos, 1));
    ++pos;
    prev = pos;
  }
  if (prev != x.size()) parts.push_back(x.substr(prev));
  push(s, strList(std::move(parts)));
}

void join(Stack& s) {  // join(str self, str[] values) -> str
  IValue values = pop(s);
  IValue sepV = pop(s);
  const std::string& sep = str(sepV);
  std::string out;
  const auto& el = values.toListRef().elements;
  for (size_t i = 0; i < el.size(); ++i) {
    if (i) out += sep;
    out += str(el[i]);
  }
  push(s, std::move(out));
}

template <bool Reverse>
void partition(Stack& s) {  // (r)partition(str self, str separator) -> (str, str, str)
  IValue sepV = pop(s);
  IValue v = pop(s);
  const std::string& x = str(v);
  const std::string& sep = str(sepV);  // an empty separator is accepted, as in PyTorch 1.13
  size_t f = Reverse ? x.rfind(sep) : x.find(sep);
  if (f == std::string::npos) {
    // three outputs, as the schema says (not one tuple)
    if (Reverse) push(s, std::string(), std::string(), x);
    else push(s, x, std::string(), std::string());
    return;
  }
  push(s, x.substr(0, f), sep, x.substr(f + sep.size()));
}

// ---- case, padding, stripping ----

template <int (*F)(int)>
void mapChars(Stack& s) {
  std::string x = str(pop(s));
  for (char& c : x) c = static_cast<char>(F(static_cast<unsigned char>(c)));
  push(s, std::move(x));
}
int swapCase(int c) { return std::islower(c) ? std::toupper(c) : std::isupper(c) ? std::tolower(c) : c; }

void capitalize(Stack& s) {
  std::string x = str(pop(s));
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<char>(i == 0 ? std::toupper(static_cast<unsigned char>(x[i])) : std::tolower(static_cast<unsigned char>(x[i])));
  push(s, std::move(x));
}
void title(Stack& s) {
  std::string x = str(pop(s));
  bool prevCased = false;
  for (char& c : x) {
    unsigned char u = static_cast<unsigned char>(c);
    if (std::isalpha(u)) {
      c = static_cast<char>(prevCased ? std::tolower(u) : std::toupper(u));
      prevCased = true;
    } else {
      prevCased = false;
    }
  }
  push(s, std::move(x));
}

std::string fillOf(const IValue& v) {
  const std::string& f = str(v);
  KD_CHECK(f.size() == 1, "TypeError: The fill character must be exactly one character long");
  return f;
}
void center(Stack& s) {
  std::string fill = fillOf(pop(s));
  int64_t width = pop(s).toInt();
  std::string x = str(pop(s));
  int64_t n = static_cast<int64_t>(x.size());
  if (width <= n) { push(s, std::move(x)); return; }
  int64_t full = width - n, l = full / 2, r = (full + 1) / 2;
  if (width % 2) std::swap(l, r);
  push(s, std::string(static_cast<size_t>(l), fill[0]) + x + std::string(static_cast<size_t>(r), fill[0]));
}
template <bool Left>
void just(Stack& s) {  // ljust / rjust(str self, int width, str fillchar=" ")
  std::string fill = fillOf(pop(s));
  int64_t width = pop(s).toInt();
  std::string x = str(pop(s));
  int64_t pad = std::max<int64_t>(0, width - static_cast<int64_t>(x.size()));
  std::string p(static_cast<size_t>(pad), fill[0]);
  push(s, Left ? x + p : p + x);
}
void zfill(Stack& s) {
  int64_t width = pop(s).toInt();
  std::string x = str(pop(s));
  int64_t pad = std::max<int64_t>(0, width - static_cast<int64_t>(x.size()));
  push(s, std::string(static_cast<size_t>(pad), '0') + x);
}
void expandtabs(Stack& s) {
  int64_t tab = pop(s).toInt();
  std::string x = str(pop(s));
  std::string out;
  int64_t col = 0;
  for (char c : x) {
    if (c == '\t') {
      if (tab > 0) {
        int64_t k = tab - col % tab;
        out.append(static_cast<size_t>(k), ' ');
        col += k;
      }
    } else {
      out += c;
      col = (c == '\n' || c == '\r') ? 0 : col + 1;
    }
  }
  push(s, std::move(out));
}

template <bool L, bool R>
void stripChars(Stack& s) {  // strip / lstrip / rstrip(str self, str chars=" \n\t\f\v")
  IValue charsV = pop(s);
  std::string x = str(pop(s));
  const std::string& chars = str(charsV);
  size_t b = 0, e = x.size();
  if (L) b = x.find_first_not_of(chars);
  if (b == std::string::npos) { push(s, std::string()); return; }
  if (R) {
    size_t last = x.find_last_not_of(chars);
    e = last == std::string::npos ? b : last + 1;
  }
  push(s, x.substr(b, e > b ? e - b : 0));
}

// ---- predicates ----

template <int (*F)(int)>
void allChars(Stack& s) {  // isalnum, isalpha, isdigit, isdecimal, isnumeric, isspace: non-empty and all
  IValue v = pop(s);
  const std::string& x = str(v);
  bool r = !x.empty() && std::all_of(x.begin(), x.end(), [](char c) { return F(static_cast<unsigned char>(c)) != 0; });
  push(s, r);
}
void isprintable(Stack& s) {
  IValue v = pop(s);
  const std::string& x = str(v);
  push(s, std::all_of(x.begin(), x.end(), [](char c) { return std::isprint(static_cast<unsigned char>(c)) != 0; }));
}
template <bool Upper>
void isCase(Stack& s) {  // isupper / islower: at least one cased character and none of the other case
  IValue v = pop(s);
  const std::string& x = str(v);
  bool found = false, ok = true;
  for (char ch : x) {
    unsigned char c = static_cast<unsigned char>(ch);
    found |= std::isalpha(c) != 0;
    ok &= !std::isalpha(c) || (Upper ? std::isupper(c) : std::islower(c)) != 0;
  }
  push(s, found && ok);
}
void istitle(Stack& s) {
  IValue v = pop(s);
  const std::string& x = str(v);
  bool prevCased = false, any = false, ok = true;
  for (char ch : x) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (std::isupper(c)) {
      if (prevCased) ok = false;
      prevCased = any = true;
    } else if (std::islower(c)) {
      if (!prevCased) ok = false;
      prevCased = any = true;
    } else {
      prevCased = false;
    }
  }
  push(s, any && ok);
}
void isidentifier(Stack& s) {  // PyTorch 1.13's (Python 2) rule: alphanumeric, not starting with a digit
  IValue v = pop(s);
  const std::string& x = str(v);
  bool r = !x.empty() && !std::isdigit(static_cast<unsigned char>(x[0])) &&
           std::all_of(x.begin(), x.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; });
  push(s, r);
}

// ---- int → str and back ----

std::string toBase(int64_t v, int base, const char* prefix) {
  uint64_t u = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  std::string digits;
  do {
    digits += "0123456789abcdef"[u % static_cast<uint64_t>(base)];
    u /= static_cast<uint64_t>(base);
  } while (u);
  std::reverse(digits.begin(), digits.end());
  std::string out = v < 0 ? "-" : "";
  out += prefix;
  out += digits;
  return out;
}
void bin(Stack& s) { push(s, toBase(pop(s).toInt(), 2, "0b")); }
void hex(Stack& s) { push(s, toBase(pop(s).toInt(), 16, "0x")); }
void oct(Stack& s) { push(s, toBase(pop(s).toInt(), 8, "0o")); }
void chr(Stack& s) {
  int64_t i = pop(s).toInt();
  KD_CHECK(i >= 0 && i < 1114111, "chr() arg not in range(0x110000), found {}", i);
  push(s, std::string(1, static_cast<char>(i)));
}
void ord(Stack& s) {
  IValue v = pop(s);
  const std::string& x = str(v);
  KD_CHECK(x.size() == 1, "String for ord() must be 1 character, found {}", x.size());
  push(s, static_cast<int64_t>(static_cast<uint8_t>(x[0])));
}

void device(Stack& s) {  // aten::device(str a) -> Device
  IValue v = pop(s);
  push(s, Device::parse(str(v)));
}

}  // namespace

void registerPrimStringOps(OperatorRegistry& r) {
  r.add("aten::str(t elem) -> str", toStrOp);
  r.add("aten::format(str self, ...) -> str", format);
  r.add("aten::percentFormat(str self, ...) -> str", percentFormat);
  r.add("prim::Print(...) -> ()", print);
  r.add("prim::RaiseException(str msg, str? cls=None) -> ()", raiseException);
  r.add("aten::warn(str message, int stacklevel=2) -> ()", warn);

  r.add("aten::len.str(str s) -> int", strLen);
  r.add("aten::__getitem__.str(str s, int index) -> str", strGetItem);
  r.add("prim::StringIndex(str string, int index) -> str", strGetItem);
  r.add("aten::slice.str(str string, int? start=None, int? end=None, int step=1) -> str", strSlice);
  r.add("aten::list(str t) -> str[]", strToList);
  r.add("aten::add.str(str a, str b) -> str", strAdd);
  r.add("aten::eq.str(str a, str b) -> bool", strCompare<std::equal_to<>>);
  r.add("aten::ne.str(str a, str b) -> bool", strCompare<std::not_equal_to<>>);
  r.add("aten::lt.str(str a, str b) -> bool", strCompare<std::less<>>);
  r.add("aten::le.str(str a, str b) -> bool", strCompare<std::less_equal<>>);
  r.add("aten::gt.str(str a, str b) -> bool", strCompare<std::greater<>>);
  r.add("aten::ge.str(str a, str b) -> bool", strCompare<std::greater_equal<>>);

  r.add("aten::find(str self, str substr, int start=0, int end=-1) -> int", find<false, false>);
  r.add("aten::rfind(str self, str substr, int start=0, int end=-1) -> int", find<true, false>);
  r.add("aten::index.str(str self, str substr, int start=0, int end=-1) -> int", find<false, true>);
  r.add("aten::rindex(str self, str substr, int start=0, int end=-1) -> int", find<true, true>);
  r.add("aten::count(str self, str substr, int start=0, int end=-1) -> int", count);
  r.add("aten::startswith(str self, str substr, int start=0, int end=-1) -> bool", startsEnds<false>);
  r.add("aten::endswith(str self, str substr, int start=0, int end=-1) -> bool", startsEnds<true>);
  r.add("aten::replace(str self, str old, str new, int max=-1) -> str", replace);

  r.add("aten::split.str(str self, str? separator=None, int max=-1) -> str[]", split);
  r.add("aten::rsplit(str self, str separator=\" \", int max=-1) -> str[]", rsplit);
  r.add("aten::splitlines(str self, bool keepends=False) -> str[]", splitlines);
  r.add("aten::join(str self, str[] values) -> str", join);
  r.add("aten::partition(str self, str separator) -> (str, str, str)", partition<false>);
  r.add("aten::rpartition(str self, str separator) -> (str, str, str)", partition<true>);

  r.add("aten::lower(str self) -> str", mapChars<std::tolower>);
  r.add("aten::upper(str self) -> str", mapChars<std::toupper>);
  r.add("aten::swapcase(str self) -> str", mapChars<swapCase>);
  r.add("aten::capitalize(str self) -> str", capitalize);
  r.add("aten::title(str self) -> str", title);
  r.add("aten::center(str self, int width, str fillchar=\" \") -> str", center);
  r.add("aten::ljust(str self, int width, str fillchar=\" \") -> str", just<true>);
  r.add("aten::rjust(str self, int width, str fillchar=\" \") -> str", just<false>);
  r.add("aten::zfill(str self, int width) -> str", zfill);
  r.add("aten::expandtabs(str self, int tabsize=8) -> str", expandtabs);
  r.add("aten::strip(str self, str chars=\" \\n\\t\\f\\v\") -> str", stripChars<true, true>);
  r.add("aten::lstrip(str self, str chars=\" \\n\\t\\f\\v\") -> str", stripChars<true, false>);
  r.add("aten::rstrip(str self, str chars=\" \\n\\t\\f\\v\") -> str", stripChars<false, true>);

  r.add("aten::isalnum(str self) -> bool", allChars<std::isalnum>);
  r.add("aten::isalpha(str self) -> bool", allChars<std::isalpha>);
  r.add("aten::isdigit(str self) -> bool", allChars<std::isdigit>);
  r.add("aten::isdecimal(str self) -> bool", allChars<std::isdigit>);
  r.add("aten::isnumeric(str self) -> bool", allChars<std::isdigit>);
  r.add("aten::isspace(str self) -> bool", allChars<std::isspace>);
  r.add("aten::isprintable(str self) -> bool", isprintable);
  r.add("aten::isupper(str self) -> bool", isCase<true>);
  r.add("aten::islower(str self) -> bool", isCase<false>);
  r.add("aten::istitle(str self) -> bool", istitle);
  r.add("aten::isidentifier(str self) -> bool", isidentifier);

  r.add("aten::bin(int i) -> str", bin);
  r.add("aten::hex(int i) -> str", hex);
  r.add("aten::oct(int i) -> str", oct);
  r.add("aten::chr(int i) -> str", chr);
  r.add("aten::ord(str string) -> int", ord);
  r.add("aten::device(str a) -> Device", device);
}

}  // namespace kindling
