// Tensor printing (see tensor/tensor_print.h), two formats:
//  * Tensor::repr(): Python's repr of a tensor, following torch/_tensor_str.py of PyTorch 1.13 with the default
//    print options (precision 4, threshold 1000, edgeitems 3, linewidth 80, sci_mode auto).
//  * tensorPrintForIValue(): ATen's C++ operator<< (aten/src/ATen/core/Formatting.cpp), which is what
//    TorchScript's print() writes for tensors, and parseAtenTensorPrint() reading it back.
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <vector>

#include "tensor/tensor_print.h"

namespace kindling {

namespace {

constexpr int kPrecision = 4;
constexpr int64_t kThreshold = 1000;
constexpr int64_t kEdgeItems = 3;
constexpr int64_t kLineWidth = 80;

// All elements as doubles, row-major (the tensor converted to float64 for the purpose of printing).
std::vector<double> flatValues(const Tensor& t) {
  Tensor c = t.to(ScalarType::Double).contiguous();
  const double* p = c.data_ptr<double>();
  return std::vector<double>(p, p + c.numel());
}

// Python's '{:.Nf}' / '{:.Ne}' of a float; NaN always prints as "nan" (no sign), as Python does.
std::string pyFixed(double v, int prec) {
  if (std::isnan(v)) return "nan";
  return fmt::format("{:.{}f}", v, prec);
}
std::string pySci(double v, int prec) {
  if (std::isnan(v)) return "nan";
  return fmt::format("{:.{}e}", v, prec);
}

// One element of an integral or bool tensor as Python prints it.
std::string intStr(double v, ScalarType t) {
  if (t == ScalarType::Bool) return v != 0 ? "True" : "False";
  return fmt::format("{}", static_cast<int64_t>(v));
}

// _Formatter from torch/_tensor_str.py.
struct Formatter {
  bool floating = false;
  bool intMode = true;
  bool sciMode = false;
  size_t maxWidth = 1;
  ScalarType dtype;

  Formatter(const std::vector<double>& values, ScalarType t) : dtype(t) {
    floating = isFloatingType(t);
    if (!floating) {
      for (double v : values) maxWidth = std::max(maxWidth, intStr(v, t).size());
      return;
    }
    std::vector<double> nz;
    for (double v : values)
      if (std::isfinite(v) && v != 0) nz.push_back(v);
    if (nz.empty()) return;
    double mn = std::fabs(nz[0]), mx = std::fabs(nz[0]);
    for (double v : nz) {
      mn = std::min(mn, std::fabs(v));
      mx = std::max(mx, std::fabs(v));
    }
    for (double v : nz) {
      if (v != std::ceil(v)) {
        intMode = false;
        break;
      }
    }
    if (intMode) {
      if (mx / mn > 1000. || mx > 1.e8) {
        sciMode = true;
        for (double v : nz) maxWidth = std::max(maxWidth, pySci(v, kPrecision).size());
      } else {
        for (double v : nz) maxWidth = std::max(maxWidth, pyFixed(v, 0).size() + 1);
      }
    } else {
      if (mx / mn > 1000. || mx > 1.e8 || mn < 1.e-4) {
        sciMode = true;
        for (double v : nz) maxWidth = std::max(maxWidth, pySci(v, kPrecision).size());
      } else {
        for (double v : nz) maxWidth = std::max(maxWidth, pyFixed(v, kPrecision).size());
      }
    }
  }

  std::string format(double v) const {
    std::string ret;
    if (floating) {
      if (sciMode) {
        ret = pySci(v, kPrecision);
      } else if (intMode) {
        ret = pyFixed(v, 0);
        if (std::isfinite(v)) ret += ".";
      } else {
        ret = pyFixed(v, kPrecision);
      }
    } else {
      ret = intStr(v, dtype);
    }
    if (ret.size() < maxWidth) ret.insert(0, maxWidth - ret.size(), ' ');
    return ret;
  }
};

// get_summarized_data: the first and last edgeitems rows of every dimension longer than 2*edgeitems.
void summarizedValues(const Tensor& t, std::vector<double>& out) {
  if (t.dim() == 0) {
    out.push_back(t.doubleAt(0));
    return;
  }
  int64_t n = t.size(0);
  auto take = [&](int64_t i) {
    if (t.dim() == 1) out.push_back(t.select(0, i).doubleAt(0));
    else summarizedValues(t.select(0, i), out);
  };
  if (n > 2 * kEdgeItems) {
    for (int64_t i = 0; i < kEdgeItems; ++i) take(i);
    for (int64_t i = n - kEdgeItems; i < n; ++i) take(i);
  } else {
    for (int64_t i = 0; i < n; ++i) take(i);
  }
}

std::string vectorStr(const Tensor& t, int64_t indent, bool summarize, const Formatter& f) {
  int64_t elementLength = static_cast<int64_t>(f.maxWidth) + 2;
  int64_t perLine = std::max<int64_t>(1, (kLineWidth - indent) / elementLength);
  std::vector<std::string> data;
  int64_t n = t.size(0);
  if (summarize && n > 2 * kEdgeItems) {
    for (int64_t i = 0; i < kEdgeItems; ++i) data.push_back(f.format(t.doubleAt(i)));
    data.push_back(" ...");
    for (int64_t i = n - kEdgeItems; i < n; ++i) data.push_back(f.format(t.doubleAt(i)));
  } else {
    std::vector<double> vals = flatValues(t);
    for (double v : vals) data.push_back(f.format(v));
  }
  std::string out = "[";
  for (size_t i = 0; i < data.size(); ++i) {
    if (i) {
      if (i % static_cast<size_t>(perLine) == 0) {
        out += ",\n";
        out.append(static_cast<size_t>(indent + 1), ' ');
      } else {
        out += ", ";
      }
    }
    out += data[i];
  }
  out += "]";
  return out;
}

std::string tensorStrWithFormatter(const Tensor& t, int64_t indent, bool summarize, const Formatter& f) {
  int64_t d = t.dim();
  if (d == 0) return f.format(t.doubleAt(0));
  if (d == 1) return vectorStr(t, indent, summarize, f);
  std::vector<std::string> slices;
  int64_t n = t.size(0);
  if (summarize && n > 2 * kEdgeItems) {
    for (int64_t i = 0; i < kEdgeItems; ++i) slices.push_back(tensorStrWithFormatter(t.select(0, i), indent + 1, summarize, f));
    slices.push_back("...");
    for (int64_t i = n - kEdgeItems; i < n; ++i)
      slices.push_back(tensorStrWithFormatter(t.select(0, i), indent + 1, summarize, f));
  } else {
    for (int64_t i = 0; i < n; ++i) slices.push_back(tensorStrWithFormatter(t.select(0, i), indent + 1, summarize, f));
  }
  std::string sep = ",";
  sep.append(static_cast<size_t>(d - 1), '\n');
  sep.append(static_cast<size_t>(indent + 1), ' ');
  std::string out = "[";
  for (size_t i = 0; i < slices.size(); ++i) {
    if (i) out += sep;
    out += slices[i];
  }
  out += "]";
  return out;
}

std::string tensorStr(const Tensor& t, int64_t indent) {
  if (t.numel() == 0) return "[]";
  bool summarize = t.numel() > kThreshold;
  std::vector<double> vals;
  if (summarize) summarizedValues(t, vals);
  else vals = flatValues(t);
  Formatter f(vals, t.dtype());
  return tensorStrWithFormatter(t, indent, summarize, f);
}

std::string addSuffixes(const std::string& tensorStr, const std::vector<std::string>& suffixes, int64_t indent) {
  std::string out = tensorStr;
  auto nl = tensorStr.rfind('\n');
  int64_t lastLineLen = static_cast<int64_t>(tensorStr.size()) -
                        (nl == std::string::npos ? -1 : static_cast<int64_t>(nl)) + 1;
  for (const auto& s : suffixes) {
    int64_t len = static_cast<int64_t>(s.size());
    if (lastLineLen + len + 2 > kLineWidth) {
      out += ",\n";
      out.append(static_cast<size_t>(indent), ' ');
      out += s;
      lastLineLen = indent + len;
    } else {
      out += ", ";
      out += s;
      lastLineLen += len + 2;
    }
  }
  out += ")";
  return out;
}

// ------------------------------------------------------------------ ATen C++ format

struct AtenFormat {
  double scale = 1;
  int64_t width = 0;
  enum Mode { Default, Sci, Fixed } mode = Default;
  std::string fmt(double v) const {
    std::string s;
    if (std::isnan(v)) s = std::signbit(v) ? "-nan" : "nan";
    else if (std::isinf(v)) s = v < 0 ? "-inf" : "inf";
    else if (mode == Sci) s = fmt::format("{:.4e}", v);
    else if (mode == Fixed) s = fmt::format("{:.4f}", v);
    else s = fmt::format("{:g}", v);
    if (static_cast<int64_t>(s.size()) < width) s.insert(0, static_cast<size_t>(width) - s.size(), ' ');
    return s;
  }
};

// __printFormat from aten/src/ATen/core/Formatting.cpp (quirks included).
AtenFormat atenPrintFormat(const double* p, int64_t size) {
  AtenFormat f;
  if (size == 0) return f;
  bool intMode = true;
  for (int64_t i = 0; i < size; ++i) {
    if (std::isfinite(p[i]) && p[i] != std::ceil(p[i])) {
      intMode = false;
      break;
    }
  }
  int64_t offset = 0;
  while (offset < size && !std::isfinite(p[offset])) ++offset;
  double expMin = 1, expMax = 1;
  if (offset != size) {
    expMin = std::fabs(p[offset]);
    expMax = std::fabs(p[offset]);
    for (int64_t i = offset; i < size; ++i) {
      double z = std::fabs(p[i]);
      if (std::isfinite(z)) {
        if (z < expMin) expMin = z;
        if (p[i] > expMax) expMax = z;
      }
    }
    expMin = expMin != 0 ? std::floor(std::log10(expMin)) + 1 : 1;
    expMax = expMax != 0 ? std::floor(std::log10(expMax)) + 1 : 1;
  }
  if (intMode) {
    if (expMax > 9) {
      f.width = 11;
      f.mode = AtenFormat::Sci;
    } else {
      f.width = static_cast<int64_t>(expMax) + 1;
      f.mode = AtenFormat::Default;
    }
  } else {
    if (expMax - expMin > 4) {
      f.width = 11;
      if (std::fabs(expMax) > 99 || std::fabs(expMin) > 99) f.width += 1;
      f.mode = AtenFormat::Sci;
    } else if (expMax > 5 || expMax < 0) {
      f.width = 7;
      f.scale = std::pow(10, expMax - 1);
      f.mode = AtenFormat::Fixed;
    } else {
      f.width = expMax == 0 ? 7 : static_cast<int64_t>(expMax) + 6;
      f.mode = AtenFormat::Fixed;
    }
  }
  return f;
}

void printScale(std::string& out, double scale) { out += fmt::format("{:g} *\n", scale); }

void atenPrintMatrix(std::string& out, const Tensor& m, int64_t linesize, int64_t indent) {
  // m: contiguous float64 2-d
  const double* base = m.data_ptr<double>();
  AtenFormat f = atenPrintFormat(base, m.numel());
  std::string ind(static_cast<size_t>(indent), ' ');
  out += ind;
  int64_t rows = m.size(0), cols = m.size(1);
  int64_t perLine = (linesize - indent) / (f.width + 1);
  if (perLine < 1) perLine = 1;
  int64_t first = 0, last = -1;
  while (first < cols) {
    last = first + perLine <= cols ? first + perLine - 1 : cols - 1;
    if (perLine < cols) {
      if (first != 0) out += "\n";
      out += fmt::format("Columns {} to {}", first + 1, last + 1);
      out += ind;
    }
    if (f.scale != 1) {
      printScale(out, f.scale);
      out += ind;
    }
    for (int64_t l = 0; l < rows; ++l) {
      const double* row = base + l * cols;
      for (int64_t c = first; c <= last; ++c) {
        out += f.fmt(row[c] / f.scale);
        if (c == last) {
          out += "\n";
          if (l != rows - 1) {
            out += ind;
            if (f.scale != 1) out += " ";
          }
        } else {
          out += " ";
        }
      }
    }
    first = last + 1;
  }
}

std::string atenTypeString(ScalarType t) { return std::string("CPU") + scalarTypeName(t) + "Type"; }

}  // namespace

std::string Tensor::repr() const {
  if (!defined()) return "None";
  const std::string prefix = "tensor(";
  const int64_t indent = static_cast<int64_t>(prefix.size());
  std::vector<std::string> suffixes;
  std::string body;
  ScalarType t = dtype();
  bool defaultDtype = t == ScalarType::Float || t == ScalarType::Long || t == ScalarType::Bool;
  if (numel() == 0) {
    if (dim() != 1) {
      std::string shape = "(";
      for (int64_t i = 0; i < dim(); ++i) {
        if (i) shape += ", ";
        shape += std::to_string(sizes()[i]);
      }
      if (dim() == 1) shape += ",";
      shape += ")";
      suffixes.push_back("size=" + shape);
    }
    if (t != ScalarType::Float) suffixes.push_back("dtype=" + dtypeReprName(t));
    body = "[]";
  } else {
    if (!defaultDtype) suffixes.push_back("dtype=" + dtypeReprName(t));
    body = tensorStr(*this, indent);
  }
  if (requires_grad()) suffixes.push_back("requires_grad=True");
  return addSuffixes(prefix + body, suffixes, indent);
}

std::string tensorReprForIValue(const IValue& v) { return v.toTensor().repr(); }

// ATen's operator<<(ostream&, const Tensor&) with linesize 80.
std::string tensorPrintForIValue(const IValue& v) {
  Tensor src = v.toTensor();
  Tensor t = src.to(ScalarType::Double).contiguous();
  std::string out;
  std::string typeStr = atenTypeString(src.dtype());
  if (t.dim() == 0) {
    out += fmt::format("{:g}\n", t.data_ptr<double>()[0]);
    out += "[ " + typeStr + "{}";
  } else if (t.dim() == 1) {
    if (t.numel() > 0) {
      AtenFormat f = atenPrintFormat(t.data_ptr<double>(), t.numel());
      if (f.scale != 1) printScale(out, f.scale);
      const double* p = t.data_ptr<double>();
      for (int64_t i = 0; i < t.size(0); ++i) out += f.fmt(p[i] / f.scale) + "\n";
    }
    out += "[ " + typeStr + "{" + std::to_string(t.size(0)) + "}";
  } else if (t.dim() == 2) {
    if (t.numel() > 0) atenPrintMatrix(out, t, kLineWidth, 0);
    out += "[ " + typeStr + "{" + std::to_string(t.size(0)) + "," + std::to_string(t.size(1)) + "}";
  } else {
    if (t.numel() > 0) {
      int64_t nd = t.dim();
      std::vector<int64_t> counter(static_cast<size_t>(nd - 2), 0);
      int64_t outer = 1;
      for (int64_t i = 0; i < nd - 2; ++i) outer *= t.size(i);
      for (int64_t k = 0; k < outer; ++k) {
        // counter holds the index of the k-th matrix, first dimension fastest (as ATen's loop does).
        if (k) out += "\n";
        out += "(";
        Tensor m = t;
        for (int64_t i = 0; i < nd - 2; ++i) {
          out += std::to_string(counter[static_cast<size_t>(i)] + 1);
          out += ',';
        }
        for (int64_t i = 0; i < nd - 2; ++i) m = m.select(0, counter[static_cast<size_t>(i)]);
        out += ".,.) = \n";
        atenPrintMatrix(out, m.contiguous(), kLineWidth, 1);
        for (int64_t i = 0; i < nd - 2; ++i) {
          if (++counter[static_cast<size_t>(i)] < t.size(i)) break;
          counter[static_cast<size_t>(i)] = 0;
        }
      }
    }
    out += "[ " + typeStr + "{" + std::to_string(t.size(0));
    for (int64_t i = 1; i < t.dim(); ++i) {
      out += ',';
      out += std::to_string(t.size(i));
    }
    out += "}";
  }
  out += " ]";
  return out;
}

// ------------------------------------------------------------------ reading ATen's format back

namespace {

std::vector<std::string> splitWhitespace(const std::string& s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    size_t b = i;
    while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    if (i > b) out.push_back(s.substr(b, i - b));
  }
  return out;
}

// A whole token as a number the format writes: decimal, scientific, "nan", "-nan", "inf", "-inf".
bool readNumber(const std::string& tok, double& v) {
  if (tok == "nan" || tok == "-nan") {
    v = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  if (tok == "inf" || tok == "-inf") {
    v = tok[0] == '-' ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    return true;
  }
  if (tok.empty() || tok.find_first_not_of("0123456789.eE+-") != std::string::npos) return false;
  char* end = nullptr;
  errno = 0;
  v = std::strtod(tok.c_str(), &end);
  return end == tok.c_str() + tok.size() && errno == 0;
}

bool readIndex(const std::string& tok, int64_t& v) {
  if (tok.empty() || tok.size() > 18 || tok.find_first_not_of("0123456789") != std::string::npos) return false;
  v = std::stoll(tok);
  return true;
}

}  // namespace

bool parseAtenTensorPrint(const std::string& text, Tensor& out, std::string& error) {
  // Trailer: "[ CPU<Name>Type{d0,d1,...} ]".
  size_t open = text.rfind("[ CPU");
  if (open == std::string::npos) {
    error = "expected a trailer like [ CPUFloatType{3} ]";
    return false;
  }
  size_t brace = text.find('{', open);
  size_t close = brace == std::string::npos ? brace : text.find('}', brace);
  std::string after = close == std::string::npos ? "" : text.substr(close + 1);
  if (close == std::string::npos || splitWhitespace(after) != std::vector<std::string>{"]"} ||
      brace < open + 9 || text.compare(brace - 4, 4, "Type") != 0) {
    error = "malformed trailer '" + text.substr(open) + "'";
    return false;
  }
  std::string name = text.substr(open + 5, brace - 4 - (open + 5));
  ScalarType dtype = ScalarType::Undefined;
  for (int k = 0; k <= static_cast<int>(ScalarType::BFloat16); ++k) {
    auto t = static_cast<ScalarType>(k);
    if (isComplexType(t) || t == ScalarType::QInt8 || t == ScalarType::QUInt8 || t == ScalarType::QInt32) continue;
    if (name == scalarTypeName(t)) dtype = t;
  }
  if (dtype == ScalarType::Undefined) {
    error = "unsupported element type '" + name + "' in the trailer";
    return false;
  }
  std::vector<std::string> body = splitWhitespace(text.substr(0, open));
  std::vector<int64_t> sizes;
  std::string dims = text.substr(brace + 1, close - brace - 1);
  for (size_t b = 0; !dims.empty() && b <= dims.size();) {
    size_t e = dims.find(',', b);
    if (e == std::string::npos) e = dims.size();
    int64_t d = 0;
    if (!readIndex(dims.substr(b, e - b), d)) {
      error = "malformed size '" + dims + "' in the trailer";
      return false;
    }
    sizes.push_back(d);
    b = e + 1;
  }
  // Element count, bounded by the tokens present so absurd sizes fail before anything is allocated.
  const int64_t maxElements = static_cast<int64_t>(body.size());
  bool empty = false;
  for (int64_t d : sizes) empty = empty || d == 0;
  int64_t numel = empty ? 0 : 1;
  for (int64_t d : sizes) {
    if (!empty && numel > maxElements / d) {
      error = "the trailer's size {" + dims + "} has more elements than the text has values";
      return false;
    }
    numel *= d;
  }
  const size_t nd = sizes.size();
  // Each matrix (the last two dimensions; a 1-d tensor is one column, a 0-d one element) is written as
  // chunks of columns, each optionally preceded by "Columns a to b" and a "s *" scale.
  const int64_t rows = nd >= 2 ? sizes[nd - 2] : (nd == 1 ? sizes[0] : 1);
  const int64_t cols = nd >= 2 ? sizes[nd - 1] : 1;
  std::vector<double> data(static_cast<size_t>(numel), 0.0);
  std::vector<bool> filled(static_cast<size_t>(numel), false);
  int64_t matrixBase = 0, colFirst = 0, colLast = cols - 1, inChunk = 0;
  double scale = 1;
  bool haveMatrix = nd < 3;
  for (size_t i = 0; i < body.size(); ++i) {
    const std::string& tok = body[i];
    double v = 0;
    if (tok == "Columns") {
      int64_t a = 0, b = 0;
      if (i + 3 >= body.size() || !readIndex(body[i + 1], a) || body[i + 2] != "to" || !readIndex(body[i + 3], b) ||
          a < 1 || b < a || b > cols) {
        error = "malformed 'Columns a to b' header";
        return false;
      }
      colFirst = a - 1;
      colLast = b - 1;
      inChunk = 0;
      i += 3;
    } else if (tok.size() > 2 && tok.front() == '(' && tok.back() == ')') {
      // "(i,j,.,.)": 1-based indices of the leading dimensions, then "=".
      std::string inner = tok.substr(1, tok.size() - 2);
      std::vector<std::string> parts;
      for (size_t b = 0; b <= inner.size();) {
        size_t e = inner.find(',', b);
        if (e == std::string::npos) e = inner.size();
        parts.push_back(inner.substr(b, e - b));
        b = e + 1;
      }
      if (nd < 3 || parts.size() != nd || parts[nd - 2] != "." || parts[nd - 1] != "." || i + 1 >= body.size() ||
          body[i + 1] != "=") {
        error = "malformed matrix header '" + tok + "'";
        return false;
      }
      int64_t base = 0;
      for (size_t k = 0; k + 2 < nd; ++k) {
        int64_t idx = 0;
        if (!readIndex(parts[k], idx) || idx < 1 || idx > sizes[k]) {
          error = "matrix header '" + tok + "' is out of the size {" + dims + "}";
          return false;
        }
        base = base * sizes[k] + (idx - 1);
      }
      matrixBase = base * rows * cols;
      colFirst = 0;
      colLast = cols - 1;
      inChunk = 0;
      scale = 1;
      haveMatrix = true;
      ++i;
    } else if (readNumber(tok, v)) {
      if (i + 1 < body.size() && body[i + 1] == "*") {
        scale = v;
        ++i;
        continue;
      }
      const int64_t width = colLast - colFirst + 1;
      if (!haveMatrix || inChunk >= rows * width) {
        error = "value '" + tok + "' is beyond the size {" + dims + "}";
        return false;
      }
      int64_t at = matrixBase + (inChunk / width) * cols + colFirst + inChunk % width;
      if (filled[static_cast<size_t>(at)]) {
        error = "value '" + tok + "' repeats an element already given";
        return false;
      }
      data[static_cast<size_t>(at)] = v * scale;
      filled[static_cast<size_t>(at)] = true;
      ++inChunk;
    } else {
      error = "unexpected '" + tok + "' in a printed tensor";
      return false;
    }
  }
  for (bool f : filled)
    if (!f) {
      error = "fewer values than the size {" + dims + "} needs";
      return false;
    }
  out = Tensor::fromVector(data, dtype).reshape(sizes);
  return true;
}

}  // namespace kindling
