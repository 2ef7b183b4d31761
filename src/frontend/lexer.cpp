#include "frontend/lexer.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "core/unicode.h"

namespace kindling {

const char* tokenKindName(TokenKind k) {
  switch (k) {
    case TokenKind::Name: return "identifier";
    case TokenKind::Int: return "integer literal";
    case TokenKind::Float: return "float literal";
    case TokenKind::String: return "string literal";
    case TokenKind::Op: return "operator";
    case TokenKind::Newline: return "newline";
    case TokenKind::Indent: return "indent";
    case TokenKind::Dedent: return "dedent";
    case TokenKind::Eof: return "eof";
  }
  return "?";
}

std::string Token::text(const Source& src) const {
  switch (kind) {
    case TokenKind::Newline: return "\\n";
    case TokenKind::Indent: return "<indent>";
    case TokenKind::Dedent: return "<dedent>";
    case TokenKind::Eof: return "<eof>";
    default: return src.text.substr(start, end - start);
  }
}

namespace {

// The annotation text of a `# type: ...` comment (what follows "type:"), or nullopt when `comment` (the
// text after '#') is not one. `# type: ignore` and `# type: ignore[code]` are mypy's suppressions, not
// signatures, and are skipped as torch.jit.annotations.get_type_line skips them.
std::optional<std::string> typeCommentText(const std::string& comment) {
  size_t k = comment.find_first_not_of(" \t");
  if (k == std::string::npos || comment.compare(k, 5, "type:") != 0) return std::nullopt;
  std::string text = comment.substr(k + 5);
  size_t b = text.find_first_not_of(" \t");
  if (b != std::string::npos && text.compare(b, 6, "ignore") == 0) {
    size_t e = b + 6;
    if (e < text.size() && text[e] == '[') {
      size_t close = text.find(']', e);
      if (close != std::string::npos) e = close + 1;
    }
    if (text.find_first_not_of(" \t\r", e) == std::string::npos) return std::nullopt;
  }
  return text;
}

// Operators, longest first so that maximal munch works with a linear scan.
const char* const kOps[] = {
    "**=", "//=", ">>=", "<<=", "...", "->", "**", "//", "<<", ">>", "<=", ">=", "==", "!=", "+=", "-=", "*=",
    "/=",  "%=",  "&=",  "|=",  "^=",  "@=", ":=", "+",  "-",  "*",  "/",  "%",  "@",  "&",  "|",  "^",
    "~",   "<",   ">",   "(",   ")",   "[",  "]",  "{",  "}",  ",",  ":",  ".",  ";",  "=",
};

class Lexer {
 public:
  explicit Lexer(const std::shared_ptr<const Source>& src) : src_(src), s_(src->text) {}

  std::vector<Token> run() {
    indents_.push_back(0);
    bool atLineStart = true;
    while (true) {
      if (atLineStart && depth_ == 0) {
        // Measure indentation; skip blank and comment-only lines.
        size_t col = 0, p = pos_;
        while (p < s_.size() && (s_[p] == ' ' || s_[p] == '\t' || s_[p] == '\f')) {
          col = s_[p] == '\t' ? (col / 8 + 1) * 8 : s_[p] == '\f' ? 0 : col + 1;
          ++p;
        }
        if (p >= s_.size()) { pos_ = p; break; }
        if (s_[p] == '\n' || s_[p] == '\r' || s_[p] == '#') {
          size_t cstart = p;
          while (p < s_.size() && s_[p] != '\n') ++p;
          if (s_[cstart] == '#') {
            // `# type: (...) -> ...` on the first line of a def body belongs to the def
            std::optional<std::string> text = typeCommentText(s_.substr(cstart + 1, p - cstart - 1));
            size_t n = toks_.size();
            if (text && n >= 2 && toks_[n - 1].kind == TokenKind::Newline && toks_[n - 1].sval.empty() &&
                toks_[n - 2].kind == TokenKind::Op && toks_[n - 2].sval == ":")
              toks_[n - 1].sval = *text;
          }
          pos_ = p < s_.size() ? p + 1 : p;
          continue;
        }
        if (s_[p] == '\\' && p + 1 < s_.size() && (s_[p + 1] == '\n' || s_[p + 1] == '\r')) {
          // a continuation right at the start of a line: treat as part of indentation
        }
        pos_ = p;
        if (col > indents_.back()) {
          indents_.push_back(col);
          push(TokenKind::Indent, p, p);
        } else {
          while (col < indents_.back()) {
            indents_.pop_back();
            push(TokenKind::Dedent, p, p);
          }
          if (col != indents_.back())
            throw CompileError("unindent does not match any outer indentation level", range(p, p + 1));
        }
        atLineStart = false;
      }
      if (pos_ >= s_.size()) break;
      char c = s_[pos_];
      if (c == ' ' || c == '\t' || c == '\f' || c == '\r') { ++pos_; continue; }
      if (c == '#') {
        size_t b = pos_;
        while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
        if (std::optional<std::string> text = typeCommentText(s_.substr(b + 1, pos_ - b - 1))) {
          if (depth_ > 0 && !toks_.empty()) toks_.back().typeComment = *text;  // per parameter
          else pendingTypeComment_ = *text;
        }
        continue;
      }
      if (c == '\\') {
        size_t p = pos_ + 1;
        if (p < s_.size() && s_[p] == '\r') ++p;
        if (p < s_.size() && s_[p] == '\n') { pos_ = p + 1; continue; }
        throw CompileError("unexpected character after line continuation character", range(pos_, pos_ + 1));
      }
      if (c == '\n') {
        if (depth_ == 0) {
          if (!toks_.empty() && toks_.back().kind != TokenKind::Newline) {
            push(TokenKind::Newline, pos_, pos_ + 1);
            toks_.back().sval = std::move(pendingTypeComment_);
          }
          pendingTypeComment_.clear();
          atLineStart = true;
        }
        ++pos_;
        continue;
      }
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80) {
        size_t b = pos_;
        while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_' ||
                                    static_cast<unsigned char>(s_[pos_]) >= 0x80))
          ++pos_;
        // string prefix?
        if (pos_ < s_.size() && (s_[pos_] == '"' || s_[pos_] == '\'') && pos_ - b <= 2) {
          std::string pre = s_.substr(b, pos_ - b);
          for (auto& ch : pre) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
          if (pre == "r" || pre == "b" || pre == "u" || pre == "f" || pre == "rb" || pre == "br" || pre == "fr" ||
              pre == "rf") {
            lexString(b, pre);
            continue;
          }
        }
        push(TokenKind::Name, b, pos_);
        toks_.back().sval = s_.substr(b, pos_ - b);
        continue;
      }
      if (std::isdigit(static_cast<unsigned char>(c)) ||
          (c == '.' && pos_ + 1 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_ + 1])))) {
        lexNumber();
        continue;
      }
      if (c == '"' || c == '\'') { lexString(pos_, ""); continue; }
      bool matched = false;
      for (const char* op : kOps) {
        size_t n = std::strlen(op);
        if (s_.compare(pos_, n, op) == 0) {
          if (n == 1 && (c == '(' || c == '[' || c == '{')) { ++depth_; openers_.push_back(pos_); }
          if (n == 1 && (c == ')' || c == ']' || c == '}')) {
            if (depth_ == 0) throw CompileError(std::string("unmatched '") + c + "'", range(pos_, pos_ + 1));
            --depth_;
            openers_.pop_back();
          }
          push(TokenKind::Op, pos_, pos_ + n);
          toks_.back().sval = op;
          pos_ += n;
          matched = true;
          break;
        }
      }
      if (!matched) throw CompileError(std::string("invalid character '") + c + "' in source", range(pos_, pos_ + 1));
    }
    if (depth_ > 0) throw CompileError("'(' was never closed", range(openers_.back(), openers_.back() + 1));
    size_t e = s_.size();
    if (!toks_.empty() && toks_.back().kind != TokenKind::Newline && toks_.back().kind != TokenKind::Dedent) {
      push(TokenKind::Newline, e, e);
      toks_.back().sval = std::move(pendingTypeComment_);
    }
    while (indents_.size() > 1) { indents_.pop_back(); push(TokenKind::Dedent, e, e); }
    push(TokenKind::Eof, e, e);
    return std::move(toks_);
  }

 private:
  SourceRange range(size_t b, size_t e) const { return SourceRange(src_, b, std::min(e, s_.size())); }
  void push(TokenKind k, size_t b, size_t e) {
    Token t;
    t.kind = k;
    t.start = b;
    t.end = e;
    toks_.push_back(std::move(t));
  }

  void lexNumber() {
    size_t b = pos_;
    auto digitsOf = [&](auto pred) {
      std::string out;
      while (pos_ < s_.size() && (pred(s_[pos_]) || s_[pos_] == '_')) {
        if (s_[pos_] != '_') out += s_[pos_];
        ++pos_;
      }
      return out;
    };
    auto isDec = [](char ch) { return ch >= '0' && ch <= '9'; };
    if (s_[pos_] == '0' && pos_ + 1 < s_.size() && std::strchr("xXoObB", s_[pos_ + 1]) && s_[pos_ + 1] != '\0') {
      char base = static_cast<char>(std::tolower(static_cast<unsigned char>(s_[pos_ + 1])));
      pos_ += 2;
      std::string d;
      int radix = 10;
      if (base == 'x') { d = digitsOf([](char ch) { return std::isxdigit(static_cast<unsigned char>(ch)) != 0; }); radix = 16; }
      else if (base == 'o') { d = digitsOf([](char ch) { return ch >= '0' && ch <= '7'; }); radix = 8; }
      else { d = digitsOf([](char ch) { return ch == '0' || ch == '1'; }); radix = 2; }
      if (d.empty()) throw CompileError("invalid numeric literal", range(b, pos_));
      errno = 0;
      unsigned long long v = std::strtoull(d.c_str(), nullptr, radix);
      if (errno == ERANGE || v > static_cast<unsigned long long>(INT64_MAX))
        throw CompileError("integer literal is too large to fit in a 64-bit int", range(b, pos_));
      push(TokenKind::Int, b, pos_);
      toks_.back().ival = static_cast<int64_t>(v);
      checkNumberEnd(b);
      return;
    }
    std::string text = digitsOf(isDec);
    bool isFloat = false;
    if (pos_ < s_.size() && s_[pos_] == '.') {
      isFloat = true;
      ++pos_;
      text += '.';
      text += digitsOf(isDec);
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      size_t save = pos_;
      std::string exp = "e";
      ++pos_;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) exp += s_[pos_++];
      std::string ed = digitsOf(isDec);
      if (ed.empty()) {
        pos_ = save;
      } else {
        isFloat = true;
        text += exp + ed;
      }
    }
    if (pos_ < s_.size() && (s_[pos_] == 'j' || s_[pos_] == 'J'))
      throw CompileError("complex literals are not supported", range(b, pos_ + 1));
    if (isFloat) {
      push(TokenKind::Float, b, pos_);
      toks_.back().dval = std::strtod(text.c_str(), nullptr);
    } else {
      if (text.size() > 1 && text[0] == '0' && text.find_first_not_of('0') != std::string::npos)
        throw CompileError("leading zeros in decimal integer literals are not permitted", range(b, pos_));
      errno = 0;
      unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
      constexpr unsigned long long kMinMagnitude = static_cast<unsigned long long>(INT64_MAX) + 1;
      if (errno == ERANGE || v > kMinMagnitude)
        throw CompileError("integer literal is too large to fit in a 64-bit int", range(b, pos_));
      push(TokenKind::Int, b, pos_);
      toks_.back().ival = static_cast<int64_t>(v);  // 2**63 wraps to INT64_MIN
      toks_.back().isInt64MinMagnitude = v == kMinMagnitude;
    }
    checkNumberEnd(b);
  }

  void checkNumberEnd(size_t b) {
    if (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_'))
      throw CompileError("invalid numeric literal", range(b, pos_ + 1));
  }

  void lexString(size_t b, const std::string& prefix) {
    bool raw = prefix.find('r') != std::string::npos;
    bool fstr = prefix.find('f') != std::string::npos;
    bool bytes = prefix.find('b') != std::string::npos;
    pos_ = b + prefix.size();
    char q = s_[pos_];
    bool triple = s_.compare(pos_, 3, std::string(3, q)) == 0;
    pos_ += triple ? 3 : 1;
    std::string out;
    while (true) {
      if (pos_ >= s_.size())
        throw CompileError(triple ? "unterminated triple-quoted string literal" : "unterminated string literal",
                           range(b, s_.size()));
      char c = s_[pos_];
      if (c == q) {
        if (!triple) { ++pos_; break; }
        if (s_.compare(pos_, 3, std::string(3, q)) == 0) { pos_ += 3; break; }
        out += c;
        ++pos_;
        continue;
      }
      if (c == '\n' && !triple) throw CompileError("unterminated string literal", range(b, pos_));
      if (c != '\\') { out += c; ++pos_; continue; }
      // escape
      if (pos_ + 1 >= s_.size()) throw CompileError("unterminated string literal", range(b, s_.size()));
      char e = s_[pos_ + 1];
      if (raw) {
        out += '\\';
        out += e;
        pos_ += 2;
        continue;
      }
      pos_ += 2;
      switch (e) {
        case '\n': break;
        case '\\': out += '\\'; break;
        case '\'': out += '\''; break;
        case '"': out += '"'; break;
        case 'a': out += '\a'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'v': out += '\v'; break;
        case 'x': case 'u': case 'U': {
          size_t n = e == 'x' ? 2 : e == 'u' ? 4 : 8;
          if (bytes && e != 'x') { out += '\\'; out += e; break; }
          if (pos_ + n > s_.size()) throw CompileError("truncated \\" + std::string(1, e) + " escape", range(pos_ - 2, s_.size()));
          uint32_t cp = 0;
          for (size_t i = 0; i < n; ++i) {
            char h = s_[pos_ + i];
            if (!std::isxdigit(static_cast<unsigned char>(h)))
              throw CompileError("truncated \\" + std::string(1, e) + " escape", range(pos_ - 2, pos_ + i + 1));
            cp = cp * 16 + static_cast<uint32_t>(std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : (std::tolower(h) - 'a' + 10));
          }
          pos_ += n;
          if (cp > 0x10FFFF)
            throw CompileError("illegal Unicode character in \\U escape", range(pos_ - n - 2, pos_));
          if (e == 'x' && bytes) out += static_cast<char>(cp);
          else unicode::appendUtf8(out, cp);
          break;
        }
        default:
          if (e >= '0' && e <= '7') {
            uint32_t cp = static_cast<uint32_t>(e - '0');
            for (int i = 0; i < 2 && pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '7'; ++i) cp = cp * 8 + static_cast<uint32_t>(s_[pos_++] - '0');
            unicode::appendUtf8(out, cp);
          } else {
            out += '\\';
            out += e;
          }
      }
    }
    if (!bytes && !unicode::isValidUtf8(out))
      throw CompileError("string literal is not valid UTF-8 (source files are read as UTF-8)", range(b, pos_));
    push(TokenKind::String, b, pos_);
    toks_.back().sval = std::move(out);
    toks_.back().isFString = fstr;
    toks_.back().isBytes = bytes;
  }

  std::shared_ptr<const Source> src_;
  const std::string& s_;
  size_t pos_ = 0;
  int depth_ = 0;
  std::vector<size_t> openers_;
  std::vector<size_t> indents_;
  std::vector<Token> toks_;
  std::string pendingTypeComment_;
};

}  // namespace

std::vector<Token> tokenize(const std::shared_ptr<const Source>& source) { return Lexer(source).run(); }

}  // namespace kindling
