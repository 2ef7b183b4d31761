// str builtins (methods of Python's str as TorchScript implements them), str() / format / % of any
// value, print, warnings and raise. Strings hold UTF-8 and every method counts code points, as Python's
// str does (core/unicode.h): lengths, indices, slices, widths, find/count positions, and the character
// predicates and case mappings of non-ASCII characters are Python's. (PyTorch 1.13 works on bytes: its
// results differ from Python's on any non-ASCII string and its slices can split a character.) On ASCII
// strings the kernels keep PyTorch 1.13's results where they differ from Python (end=-1 meaning "to the
// end" in find/count/startswith, count's overlap at the window's end, zfill before a sign, isspace and
// split without \x1c-\x1f, splitlines, isidentifier without '_'), checked against it; docs/str-unicode.md
// lists the differences.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>
#include <string_view>

#include "core/unicode.h"

#include "ops/registry/operator.h"
#include "ops/kernels/prim/prim_util.h"

namespace kindling {
namespace {

using prim::toStr;

inline const std::string& str(const IValue& v) { return v.toStringRef(); }

bool isAscii(std::string_view x) {
  for (char c : x)
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  return true;
}

/// The characters of a string: character k is bytes [byte(k), byte(k + 1)). ASCII strings (the common
/// case) need no table.
class Chars {
 public:
  explicit Chars(std::string_view x) : x_(x), ascii_(isAscii(x)) {
    if (!ascii_) off_ = unicode::charOffsets(x);
  }
  int64_t size() const { return ascii_ ? static_cast<int64_t>(x_.size()) : static_cast<int64_t>(off_.size()) - 1; }
  size_t byte(int64_t k) const { return ascii_ ? static_cast<size_t>(k) : off_[static_cast<size_t>(k)]; }
  /// The character index of byte offset `b` (a character boundary).
  int64_t index(size_t b) const {
    if (ascii_) return static_cast<int64_t>(b);
    return std::lower_bound(off_.begin(), off_.end(), b) - off_.begin();
  }
  std::string_view at(int64_t k) const { return x_.substr(byte(k), byte(k + 1) - byte(k)); }
  std::string_view range(int64_t b, int64_t e) const { return x_.substr(byte(b), byte(e) - byte(b)); }
  uint32_t cp(int64_t k) const { return ascii_ ? static_cast<unsigned char>(x_[static_cast<size_t>(k)]) : unicode::decodeAt(x_, byte(k)).cp; }

 private:
  std::string_view x_;
  bool ascii_;
  std::vector<size_t> off_;
};

/// ch.isspace() of one code point, with C's isspace on ASCII (PyTorch's: \x1c-\x1f are not spaces).
bool isSpaceCp(uint32_t cp) {
  return cp < 0x80 ? std::isspace(static_cast<int>(cp)) != 0 : unicode::has(cp, unicode::kSpace);
}

/// The single character of a fill or %c argument (Python: "must be exactly one character long").
uint32_t singleChar(const std::string& f, const char* what) {
  KD_CHECK(!f.empty() && unicode::decodeAt(f, 0).size == f.size(), "TypeError: {}", what);
  return unicode::decodeAt(f, 0).cp;
}

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
        KD_CHECK(arg.isInt() || (arg.isString() && unicode::length(arg.toStringRef()) == 1),
                 "%c requires an int or char for formatting, but got {}", arg.tagName());
        if (arg.isInt()) {
          KD_CHECK(arg.toInt() >= 0 && arg.toInt() <= 0x10FFFF, "OverflowError: %c arg not in range(0x110000)");
          unicode::appendUtf8(out, static_cast<uint32_t>(arg.toInt()));
        } else {
          out += arg.toStringRef();
        }
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

void strLen(Stack& s) { push(s, static_cast<int64_t>(unicode::length(str(pop(s))))); }

void strGetItem(Stack& s) {  // __getitem__.str(str s, int index) / prim::StringIndex
  int64_t idx = pop(s).toInt();
  IValue v = pop(s);
  Chars x(str(v));
  int64_t n = x.size();
  int64_t i = idx < 0 ? idx + n : idx;
  if (i < 0 || i >= n)
    throw RuntimeError(fmt::format("basic_string::at: __n (which is {}) >= this->size() (which is {})",
                                   static_cast<uint64_t>(i), n));
  push(s, std::string(x.at(i)));
}

void strSlice(Stack& s) {  // slice.str(str string, int? start=None, int? end=None, int step=1) -> str
  int64_t step = pop(s).toInt();
  IValue end = pop(s);
  IValue start = pop(s);
  IValue v = pop(s);
  Chars x(str(v));
  std::vector<int64_t> idx;
  prim::sliceIndices(x.size(), start, end, step, idx);
  std::string out;
  out.reserve(idx.size());
  for (int64_t i : idx) out += x.at(i);
  push(s, std::move(out));
}

void strToList(Stack& s) {  // aten::list(str t) -> str[]
  IValue v = pop(s);
  std::vector<std::string> parts;
  Chars x(str(v));
  for (int64_t k = 0; k < x.size(); ++k) parts.emplace_back(x.at(k));
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

int64_t findImpl(const std::string& xs, const std::string& sub, int64_t start, int64_t end, bool reverse) {
  Chars x(xs);
  int64_t size = x.size();
  normalizeRange(size, start, end);
  std::string_view window;
  if (end > start) {
    if (start > size) return -1;  // Python (PyTorch 1.13 raises std::string::substr's out_of_range)
    window = x.range(start, std::min(end, size));
  }
  if (window.size() < sub.size()) return -1;
  size_t pos = reverse ? window.rfind(sub) : window.find(sub);
  return pos == std::string_view::npos ? -1 : x.index(pos + x.byte(start));
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
  Chars cx(x);
  int64_t size = cx.size();
  if (start > size) { push(s, int64_t(0)); return; }
  normalizeRange(size, start, end);
  end = std::min(end, size);
  if (sub.empty()) { push(s, std::max<int64_t>(0, end - start + 1)); return; }
  int64_t c = 0;
  size_t pos = cx.byte(std::min(start, size));
  const size_t endByte = cx.byte(std::max<int64_t>(0, end));
  while ((pos = x.find(sub, pos)) != std::string::npos && pos < endByte) {  // as PyTorch
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
  const std::string& sub = str(subV);
  Chars x(str(v));
  int64_t size = x.size();
  normalizeRange(size, start, end);
  if (start > size) {  // Python (PyTorch 1.13 raises std::string::substr's out_of_range)
    push(s, false);
    return;
  }
  // As PyTorch: substr(start, end - start), where end < start means "to the end of the string".
  std::string_view w = x.range(start, end >= start ? std::min(end, size) : size);
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
    Chars cx(x);
    for (int64_t i = 0; i <= cx.size(); ++i) {
      if (max < 0 || done < max) { out += r; ++done; }
      if (i < cx.size()) out += cx.at(i);
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

void split(Stack& s) {  // split.str(str self, str? separator=None, int max=-1) -> str[]
  int64_t max = pop(s).toInt();
  IValue sepV = pop(s);
  IValue v = pop(s);
  const std::string& x = str(v);
  std::vector<std::string> parts;
  if (sepV.isNone()) {  // runs of whitespace; PyTorch 1.13 ignores `max` here
    Chars cx(x);
    int64_t i = 0, n = cx.size();
    while (true) {
      while (i < n && isSpaceCp(cx.cp(i))) ++i;
      if (i >= n) break;
      int64_t j = i;
      while (j < n && !isSpaceCp(cx.cp(j))) ++j;
      parts.emplace_back(cx.range(i, j));
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
  Chars x(str(v));
  // Each line break is one break, "\r\n" too (as PyTorch); \x85, \u2028 and \u2029 are line breaks as in
  // Python.
  auto isBreak = [](uint32_t c) {
    return c == '\n' || c == '\r' || c == '\v' || c == '\f' || c == 0x1c || c == 0x1d || c == 0x1e ||
           c == 0x85 || c == 0x2028 || c == 0x2029;
  };
  std::vector<std::string> parts;
  int64_t prev = 0, n = x.size();
  for (int64_t pos = 0; pos < n; ++pos) {
    if (!isBreak(x.cp(pos))) continue;
    parts.emplace_back(x.range(prev, pos));
    if (keepends) parts.emplace_back(x.at(pos));
    prev = pos + 1;
  }
  if (prev != n) parts.emplace_back(x.range(prev, n));
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

template <unicode::CaseOp Op>
void mapCase(Stack& s) {
  IValue v = pop(s);
  push(s, unicode::mapCase(str(v), Op));
}

std::string fillOf(const IValue& v) {
  const std::string& f = str(v);
  singleChar(f, "The fill character must be exactly one character long");
  return f;
}
std::string repeat(const std::string& fill, int64_t n) {
  std::string out;
  out.reserve(fill.size() * static_cast<size_t>(std::max<int64_t>(0, n)));
  for (int64_t i = 0; i < n; ++i) out += fill;
  return out;
}
void center(Stack& s) {
  std::string fill = fillOf(pop(s));
  int64_t width = pop(s).toInt();
  std::string x = str(pop(s));
  int64_t n = static_cast<int64_t>(unicode::length(x));
  if (width <= n) { push(s, std::move(x)); return; }
  int64_t full = width - n, l = full / 2, r = (full + 1) / 2;
  if (width % 2) std::swap(l, r);
  push(s, repeat(fill, l) + x + repeat(fill, r));
}
template <bool Left>
void just(Stack& s) {  // ljust / rjust(str self, int width, str fillchar=" ")
  std::string fill = fillOf(pop(s));
  int64_t width = pop(s).toInt();
  std::string x = str(pop(s));
  std::string p = repeat(fill, width - static_cast<int64_t>(unicode::length(x)));
  push(s, Left ? x + p : p + x);
}
void zfill(Stack& s) {
  int64_t width = pop(s).toInt();
  std::string x = str(pop(s));
  push(s, repeat("0", width - static_cast<int64_t>(unicode::length(x))) + x);
}
void expandtabs(Stack& s) {
  int64_t tab = pop(s).toInt();
  std::string x = str(pop(s));
  Chars cx(x);
  std::string out;
  int64_t col = 0;
  for (int64_t i = 0; i < cx.size(); ++i) {
    uint32_t c = cx.cp(i);
    if (c == '\t') {
      if (tab > 0) {
        int64_t k = tab - col % tab;
        out.append(static_cast<size_t>(k), ' ');
        col += k;
      }
    } else {
      out += cx.at(i);
      col = (c == '\n' || c == '\r') ? 0 : col + 1;
    }
  }
  push(s, std::move(out));
}

template <bool L, bool R>
void stripChars(Stack& s) {  // strip / lstrip / rstrip(str self, str chars=" \n\t\f\v")
  IValue charsV = pop(s);
  IValue v = pop(s);
  Chars x(str(v));
  std::vector<uint32_t> chars = unicode::codePoints(str(charsV));
  // The schema's default (strip() without an argument): PyTorch's ASCII set, and Python's whitespace
  // beyond ASCII.
  const bool byDefault = str(charsV) == " \n\t\f\v";
  auto strips = [&](int64_t k) {
    uint32_t c = x.cp(k);
    if (byDefault && c >= 0x80) return unicode::has(c, unicode::kSpace);
    return std::find(chars.begin(), chars.end(), c) != chars.end();
  };
  int64_t b = 0, e = x.size();
  if (L)
    while (b < e && strips(b)) ++b;
  if (R)
    while (e > b && strips(e - 1)) --e;
  push(s, std::string(x.range(b, e)));
}

// ---- predicates ----

bool isAlnumCp(uint32_t c) {
  return unicode::has(c, static_cast<unsigned>(unicode::kAlpha | unicode::kDecimal | unicode::kDigit | unicode::kNumeric));
}

template <bool (*F)(uint32_t)>
void allChars(Stack& s) {  // isalnum, isalpha, isdigit, isdecimal, isnumeric, isspace: non-empty and all
  IValue v = pop(s);
  Chars x(str(v));
  bool r = x.size() > 0;
  for (int64_t k = 0; r && k < x.size(); ++k) r = F(x.cp(k));
  push(s, r);
}
template <unsigned P>
bool hasCp(uint32_t c) { return unicode::has(c, P); }

void isprintable(Stack& s) {
  IValue v = pop(s);
  Chars x(str(v));
  bool r = true;
  for (int64_t k = 0; r && k < x.size(); ++k) r = unicode::has(x.cp(k), unicode::kPrintable);
  push(s, r);
}
template <bool Upper>
void isCase(Stack& s) {  // isupper / islower: at least one cased character and none of the other case
  IValue v = pop(s);
  Chars x(str(v));
  bool cased = false;
  for (int64_t k = 0; k < x.size(); ++k) {
    uint16_t p = unicode::properties(x.cp(k));
    if (p & (unicode::kTitle | (Upper ? unicode::kLower : unicode::kUpper))) { push(s, false); return; }
    cased |= (p & (Upper ? unicode::kUpper : unicode::kLower)) != 0;
  }
  push(s, cased);
}
void istitle(Stack& s) {
  IValue v = pop(s);
  Chars x(str(v));
  bool prevCased = false, any = false;
  for (int64_t k = 0; k < x.size(); ++k) {
    uint16_t p = unicode::properties(x.cp(k));
    if (p & (unicode::kUpper | unicode::kTitle)) {
      if (prevCased) { push(s, false); return; }
      prevCased = any = true;
    } else if (p & unicode::kLower) {
      if (!prevCased) { push(s, false); return; }
      prevCased = any = true;
    } else {
      prevCased = false;
    }
  }
  push(s, any);
}
void isidentifier(Stack& s) {
  // ASCII characters by PyTorch 1.13's (Python 2) rule: alphanumeric, not starting with a digit ('_' is
  // not accepted); other characters by Python's: XID_Start first, XID_Continue after.
  IValue v = pop(s);
  Chars x(str(v));
  bool r = x.size() > 0;
  for (int64_t k = 0; r && k < x.size(); ++k) {
    uint32_t c = x.cp(k);
    if (c < 0x80) r = std::isalnum(static_cast<int>(c)) && !(k == 0 && std::isdigit(static_cast<int>(c)));
    else r = unicode::has(c, k == 0 ? unicode::kXidStart : unicode::kXidContinue);
  }
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
  KD_CHECK(i >= 0 && i <= 0x10FFFF, "chr() arg not in range(0x110000), found {}", i);
  std::string out;
  unicode::appendUtf8(out, static_cast<uint32_t>(i));
  push(s, std::move(out));
}
void ord(Stack& s) {
  IValue v = pop(s);
  const std::string& x = str(v);
  size_t n = unicode::length(x);
  KD_CHECK(n == 1, "String for ord() must be 1 character, found {}", n);
  push(s, static_cast<int64_t>(unicode::decodeAt(x, 0).cp));
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

  r.add("aten::lower(str self) -> str", mapCase<unicode::CaseOp::Lower>);
  r.add("aten::upper(str self) -> str", mapCase<unicode::CaseOp::Upper>);
  r.add("aten::swapcase(str self) -> str", mapCase<unicode::CaseOp::SwapCase>);
  r.add("aten::capitalize(str self) -> str", mapCase<unicode::CaseOp::Capitalize>);
  r.add("aten::title(str self) -> str", mapCase<unicode::CaseOp::Title>);
  r.add("aten::center(str self, int width, str fillchar=\" \") -> str", center);
  r.add("aten::ljust(str self, int width, str fillchar=\" \") -> str", just<true>);
  r.add("aten::rjust(str self, int width, str fillchar=\" \") -> str", just<false>);
  r.add("aten::zfill(str self, int width) -> str", zfill);
  r.add("aten::expandtabs(str self, int tabsize=8) -> str", expandtabs);
  r.add("aten::strip(str self, str chars=\" \\n\\t\\f\\v\") -> str", stripChars<true, true>);
  r.add("aten::lstrip(str self, str chars=\" \\n\\t\\f\\v\") -> str", stripChars<true, false>);
  r.add("aten::rstrip(str self, str chars=\" \\n\\t\\f\\v\") -> str", stripChars<false, true>);

  r.add("aten::isalnum(str self) -> bool", allChars<isAlnumCp>);
  r.add("aten::isalpha(str self) -> bool", allChars<hasCp<unicode::kAlpha>>);
  r.add("aten::isdigit(str self) -> bool", allChars<hasCp<unicode::kDigit>>);
  r.add("aten::isdecimal(str self) -> bool", allChars<hasCp<unicode::kDecimal>>);
  r.add("aten::isnumeric(str self) -> bool", allChars<hasCp<unicode::kNumeric>>);
  r.add("aten::isspace(str self) -> bool", allChars<isSpaceCp>);
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
