// Schema parser: PyTorch's FunctionSchema syntax (torch/csrc/jit/frontend/function_schema_parser.cpp and
// schema_type_parser.cpp) → FunctionSchema. A small hand-written lexer plus recursive descent; parsing is
// done once per operator at registry start-up, never on a hot path.
#include "ops/registry/schema_parser.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <unordered_map>

#include <fmt/format.h>

#include "core/schema_types.h"

namespace kindling {
namespace {

enum class Tok { Ident, Number, String, Punct, End };

struct Token {
  Tok kind;
  std::string text;  // identifier, number spelling, decoded string, or the punctuation ("::", "->", "...", "(")
  size_t pos;
};

class Lexer {
 public:
  explicit Lexer(const std::string& s) : s_(s) { advance(); }
  const Token& cur() const { return cur_; }
  Token next() { Token t = cur_; advance(); return t; }
  bool isPunct(const char* p) const { return cur_.kind == Tok::Punct && cur_.text == p; }
  bool nextIf(const char* p) { if (isPunct(p)) { advance(); return true; } return false; }
  void expect(const char* p) {
    if (!nextIf(p)) fail(fmt::format("expected '{}' but found {}", p, describe(cur_)));
  }
  std::string expectIdent() {
    if (cur_.kind != Tok::Ident) fail(fmt::format("expected an identifier but found {}", describe(cur_)));
    return next().text;
  }
  /// Peeks at the character right after the current token (skipping spaces).
  char peekChar() const {
    size_t i = end_;
    while (i < s_.size() && s_[i] == ' ') ++i;
    return i < s_.size() ? s_[i] : '\0';
  }
  [[noreturn]] void fail(const std::string& msg) const {
    throw Error(fmt::format("Schema parse error: {} at position {}:\n  {}\n  {}^", msg, cur_.pos, s_,
                            std::string(cur_.pos, ' ')));
  }
  static std::string describe(const Token& t) {
    switch (t.kind) {
      case Tok::End: return "end of input";
      case Tok::String: return "a string";
      default: return "'" + t.text + "'";
    }
  }

 private:
  void advance() {
    size_t i = end_;
    while (i < s_.size() && std::isspace(static_cast<unsigned char>(s_[i]))) ++i;
    cur_.pos = i;
    cur_.text.clear();
    if (i >= s_.size()) { cur_.kind = Tok::End; end_ = i; return; }
    char c = s_[i];
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t j = i;
      while (j < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[j])) || s_[j] == '_')) ++j;
      cur_.kind = Tok::Ident;
      cur_.text = s_.substr(i, j - i);
      end_ = j;
      return;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '-' && i + 1 < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[i + 1])) || s_[i + 1] == '.')) ||
        (c == '.' && i + 1 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i + 1])))) {
      size_t j = i + 1;
      while (j < s_.size()) {
        char d = s_[j];
        if (std::isdigit(static_cast<unsigned char>(d)) || d == '.') { ++j; continue; }
        if ((d == 'e' || d == 'E') && j + 1 < s_.size()) {
          ++j;
          if (s_[j] == '-' || s_[j] == '+') ++j;
          continue;
        }
        break;
      }
      cur_.kind = Tok::Number;
      cur_.text = s_.substr(i, j - i);
      end_ = j;
      return;
    }
    if (c == '"' || c == '\'') {
      size_t j = i + 1;
      std::string out;
      while (true) {
        if (j >= s_.size()) { cur_.pos = i; cur_.kind = Tok::End; end_ = j; fail("unterminated string literal"); }
        char d = s_[j];
        if (d == c) { ++j; break; }
        if (d == '\\' && j + 1 < s_.size()) {
          char e = s_[j + 1];
          j += 2;
          switch (e) {
            case 'n': out += '\n'; break;
            case 't': out += '\t'; break;
            case 'r': out += '\r'; break;
            case 'f': out += '\f'; break;
            case 'v': out += '\v'; break;
            case 'a': out += '\a'; break;
            case 'b': out += '\b'; break;
            case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
              int v = e - '0';
              for (int k = 0; k < 2 && j < s_.size() && s_[j] >= '0' && s_[j] <= '7'; ++k, ++j) v = v * 8 + (s_[j] - '0');
              out += static_cast<char>(v);
              break;
            }
            default: out += e; break;  // \\ \" \'
          }
          continue;
        }
        out += d;
        ++j;
      }
      cur_.kind = Tok::String;
      cur_.text = std::move(out);
      end_ = j;
      return;
    }
    static const char* multi[] = {"...", "::", "->"};
    for (const char* m : multi) {
      size_t n = std::char_traits<char>::length(m);
      if (s_.compare(i, n, m) == 0) {
        cur_.kind = Tok::Punct;
        cur_.text = m;
        end_ = i + n;
        return;
      }
    }
    cur_.kind = Tok::Punct;
    cur_.text = std::string(1, c);
    end_ = i + 1;
  }

  const std::string& s_;
  Token cur_{Tok::End, "", 0};
  size_t end_ = 0;
};

/// A parsed type with PyTorch's fake (runtime) and real (spelled) variants and its alias annotation.
struct ParsedType {
  TypePtr fake;
  TypePtr real;
  std::optional<AliasInfo> alias;
};

class SchemaParser {
 public:
  explicit SchemaParser(const std::string& s) : L(s) {}

  FunctionSchema parseSchema() {
    FunctionSchema fs;
    parseName(fs);
    L.expect("(");
    bool kwargOnly = false;
    if (!L.isPunct(")")) {
      do {
        if (fs.isVarArg) L.fail("'...' must be the last argument");
        if (L.nextIf("*")) { kwargOnly = true; continue; }
        if (L.nextIf("...")) { fs.isVarArg = true; continue; }
        Argument a = parseArgument(/*isReturn=*/false);
        a.kwargOnly = kwargOnly;
        fs.arguments.push_back(std::move(a));
      } while (L.nextIf(","));
    }
    L.expect(")");
    L.expect("->");
    if (L.nextIf("...")) {
      fs.isVarRet = true;
    } else if (L.isPunct("(")) {
      L.next();
      if (!L.isPunct(")")) {
        do {
          if (fs.isVarRet) L.fail("'...' must be the last return");
          if (L.nextIf("...")) { fs.isVarRet = true; continue; }
          fs.returns.push_back(parseArgument(/*isReturn=*/true));
        } while (L.nextIf(","));
      }
      L.expect(")");
    } else {
      fs.returns.push_back(parseArgument(/*isReturn=*/true));
    }
    if (L.cur().kind != Tok::End) L.fail(fmt::format("unexpected {} after the schema", Lexer::describe(L.cur())));
    return fs;
  }

  TypePtr parseTypeOnly() {
    ParsedType t = parseType();
    if (L.cur().kind != Tok::End) L.fail(fmt::format("unexpected {} after the type", Lexer::describe(L.cur())));
    return t.fake;
  }

 private:
  void parseName(FunctionSchema& fs) {
    std::string name = L.expectIdent();
    while (L.nextIf("::")) name += "::" + L.expectIdent();
    if (name.find("::") == std::string::npos) L.fail("operator name needs a namespace (\"aten::add\")");
    fs.name = std::move(name);
    if (L.nextIf(".")) fs.overloadName = L.expectIdent();
  }

  Argument parseArgument(bool isReturn) {
    Argument arg;
    ParsedType t = parseType();
    if (L.isPunct("[")) {  // fixed-size list "int[2]": only at the argument level
      L.next();
      if (L.cur().kind != Tok::Number) L.fail("expected a list size");
      std::string n = L.next().text;
      char* end = nullptr;
      long v = std::strtol(n.c_str(), &end, 10);
      if (*end != '\0' || v < 0) L.fail("bad list size '" + n + "'");
      arg.N = static_cast<int32_t>(v);
      L.expect("]");
      t.fake = ListType::create(t.fake);
      t.real = ListType::create(t.real);
      wrapAliasInList(t);
      if (L.nextIf("?")) {
        t.fake = OptionalType::create(t.fake);
        t.real = OptionalType::create(t.real);
      }
    }
    arg.type = t.fake;
    if (t.real.get() != t.fake.get()) arg.realType = t.real;
    arg.aliasInfo = std::move(t.alias);
    if (L.cur().kind == Tok::Ident) {
      arg.name = L.next().text;
    } else if (!isReturn) {
      L.fail(fmt::format("expected an argument name but found {}", Lexer::describe(L.cur())));
    }
    if (L.nextIf("=")) {
      if (isReturn) L.fail("returns cannot have default values");
      arg.defaultValue = parseDefault(arg.type, arg.N);
    }
    return arg;
  }

  /// After "[]" / "[N]": the element's alias moves into the list's containedTypes; an annotation
  /// right after the brackets ("t[](*)") belongs to the list itself.
  void wrapAliasInList(ParsedType& t) {
    std::optional<AliasInfo> container = parseAliasAnnotation();
    if (t.alias) {
      if (!container) {
        container = AliasInfo();
        container->isWrite = t.alias->isWrite;
      }
      container->containedTypes.push_back(std::move(*t.alias));
    }
    t.alias = std::move(container);
  }

  std::optional<AliasInfo> parseAliasAnnotation() {
    if (!L.isPunct("(")) return std::nullopt;
    L.next();
    AliasInfo info;
    auto parseSet = [&](std::vector<std::string>& out) {
      do {
        if (L.nextIf("*")) out.push_back("*");
        else out.push_back(L.expectIdent());
      } while (L.nextIf("|"));
    };
    parseSet(info.beforeSets);
    if (L.nextIf("!")) info.isWrite = true;
    if (L.nextIf("->")) {
      parseSet(info.afterSets);
      if (L.nextIf("!")) info.isWrite = true;
    } else {
      info.afterSets = info.beforeSets;
    }
    L.expect(")");
    return info;
  }

  ParsedType parseType() {
    if (++depth_ > kMaxDepth) L.fail("type nested too deeply");
    struct DepthGuard {
      int& d;
      ~DepthGuard() { --d; }
    } guard{depth_};
    ParsedType t;
    if (L.isPunct("(")) {  // tuple "(int, float)"
      L.next();
      std::vector<TypePtr> fakes, reals;
      bool differs = false;
      if (!L.isPunct(")")) {
        do {
          ParsedType e = parseType();
          differs |= e.fake.get() != e.real.get();
          fakes.push_back(e.fake);
          reals.push_back(e.real);
        } while (L.nextIf(","));
      }
      L.expect(")");
      t.fake = TupleType::create(fakes);
      t.real = differs ? TupleType::create(reals) : t.fake;
    } else {
      std::string name = L.expectIdent();
      while (L.isPunct(".")) {  // qualified class names: __torch__.torch.classes.quantized.X
        L.next();
        name += "." + L.expectIdent();
      }
      if (name == "Future" || name == "RRef" || name == "Dict" || name == "Union") {
        L.expect("(");
        std::vector<ParsedType> elems;
        if (!L.isPunct(")")) {
          do elems.push_back(parseType()); while (L.nextIf(","));
        }
        L.expect(")");
        auto both = [&](auto make) {
          std::vector<TypePtr> f, r;
          bool differs = false;
          for (auto& e : elems) { f.push_back(e.fake); r.push_back(e.real); differs |= e.fake.get() != e.real.get(); }
          t.fake = make(f);
          t.real = differs ? make(r) : t.fake;
        };
        if (name == "Future" || name == "RRef") {
          if (elems.size() != 1) L.fail(name + " takes one type");
          if (name == "Future") both([](const std::vector<TypePtr>& v) { return FutureType::create(v[0]); });
          else both([](const std::vector<TypePtr>& v) { return schema_types::RRef(v[0]); });
        } else if (name == "Dict") {
          if (elems.size() != 2) L.fail("Dict takes a key and a value type");
          both([](const std::vector<TypePtr>& v) { return DictType::create(v[0], v[1]); });
        } else {
          if (elems.empty()) L.fail("Union needs at least one type");
          both([](const std::vector<TypePtr>& v) { return UnionType::create(v); });
        }
      } else {
        t.real = baseType(name);
        t.fake = t.real->kind() == TypeKind::Int ? IntType() : t.real;  // SymInt → int
      }
      t.alias = parseAliasAnnotation();
    }
    while (true) {
      if (L.isPunct("[") && L.peekChar() == ']') {
        L.next();
        L.next();
        t.fake = ListType::create(t.fake);
        t.real = ListType::create(t.real);
        wrapAliasInList(t);
      } else if (L.nextIf("?")) {
        t.fake = OptionalType::create(t.fake);
        t.real = OptionalType::create(t.real);
      } else {
        break;
      }
    }
    return t;
  }

  TypePtr baseType(const std::string& name) {
    static const std::unordered_map<std::string, TypePtr (*)()> table = {
        {"Tensor", TensorType},
        {"int", IntType},
        {"SymInt", schema_types::SymInt},
        {"float", FloatType},
        {"complex", ComplexType},
        {"bool", BoolType},
        {"str", StringType},
        {"Scalar", NumberType},
        {"number", NumberType},
        {"ScalarType", ScalarTypeType},
        {"Layout", LayoutType},
        {"MemoryFormat", MemoryFormatType},
        {"Device", DeviceObjType},
        {"Generator", GeneratorType},
        {"Storage", StorageType},
        {"Stream", StreamType},
        {"QScheme", QSchemeType},
        {"Capsule", CapsuleType},
        {"Any", AnyType},
        {"NoneType", NoneType},
        {"AnyListType", AnyListType},
        {"AnyTupleType", AnyTupleType},
        {"AnyClassType", AnyClassType},
        {"AnyEnumType", AnyEnumType},
        {"ConstQuantizerPtr", schema_types::ConstQuantizerPtr},
    };
    auto it = table.find(name);
    if (it != table.end()) return it->second();
    if (name.rfind("__torch__.", 0) == 0) return schema_types::customClass(name);
    if (!name.empty() && std::islower(static_cast<unsigned char>(name[0])) && name.find('.') == std::string::npos)
      return VarType::create(name);  // type variables: t, t1, tVal
    L.fail("unknown type '" + name + "'");
  }

  // ---- default values ----

  IValue parseDefault(const TypePtr& type, std::optional<int32_t> N) {
    const Type* t = type.get();
    if (t->kind() == TypeKind::Optional) {
      if (L.cur().kind == Tok::Ident && L.cur().text == "None") { L.next(); return IValue(); }
      t = t->cast<OptionalType>()->elementType().get();
    }
    if (t->kind() == TypeKind::List) {
      const TypePtr& elem = t->cast<ListType>()->elementType();
      if (L.isPunct("[")) {
        L.next();
        std::vector<IValue> elems;
        if (!L.isPunct("]")) {
          do elems.push_back(parseConstant(*elem)); while (L.nextIf(","));
        }
        L.expect("]");
        return makeList(elem, std::move(elems));
      }
      if (!N) L.fail("a list default needs [...] unless the list has a fixed size");
      IValue v = parseConstant(*elem);
      return makeList(elem, std::vector<IValue>(static_cast<size_t>(*N), v));
    }
    return parseConstant(*t);
  }

  IValue parseConstant(const Type& t) {
    const Token tok = L.cur();
    switch (tok.kind) {
      case Tok::String:
        L.next();
        return IValue(tok.text);
      case Tok::Number: {
        L.next();
        bool isFloatSpelling = tok.text.find_first_of(".eE") != std::string::npos;
        if (t.kind() == TypeKind::Float || (isFloatSpelling && t.kind() != TypeKind::Int)) {
          errno = 0;
          char* end = nullptr;
          double d = std::strtod(tok.text.c_str(), &end);
          if (*end != '\0') L.fail("bad number '" + tok.text + "'");
          return IValue(d);
        }
        if (isFloatSpelling) L.fail("expected an integer but found '" + tok.text + "'");
        errno = 0;
        char* end = nullptr;
        long long v = std::strtoll(tok.text.c_str(), &end, 10);
        if (*end != '\0' || errno == ERANGE) L.fail("bad integer '" + tok.text + "'");
        return IValue(static_cast<int64_t>(v));
      }
      case Tok::Ident: {
        L.next();
        const std::string& s = tok.text;
        if (s == "True") return IValue(true);
        if (s == "False") return IValue(false);
        if (s == "None") return IValue();
        if (s == "inf") return IValue(HUGE_VAL);
        if (s == "nan") return IValue(std::nan(""));
        // Enum-like names PyTorch maps to ints (function_schema_parser.cpp parseSingleConstant).
        static const std::unordered_map<std::string, int64_t> named = {
            // ScalarType
            {"float", static_cast<int64_t>(ScalarType::Float)},
            {"float32", static_cast<int64_t>(ScalarType::Float)},
            {"double", static_cast<int64_t>(ScalarType::Double)},
            {"float64", static_cast<int64_t>(ScalarType::Double)},
            {"long", static_cast<int64_t>(ScalarType::Long)},
            {"int64", static_cast<int64_t>(ScalarType::Long)},
            {"int", static_cast<int64_t>(ScalarType::Int)},
            {"complex64", static_cast<int64_t>(ScalarType::ComplexFloat)},
            // Layout
            {"strided", 0},
            // Reduction (at::Reduction)
            {"Mean", 1},
            {"Sum", 2},
            // MemoryFormat
            {"contiguous_format", 0},
            {"preserve_format", 1},
            {"channels_last", 2},
            {"channels_last_3d", 3},
            // QScheme
            {"per_tensor_affine", 0},
            {"per_channel_affine", 1},
            {"per_tensor_symmetric", 2},
            {"per_channel_symmetric", 3},
            {"per_channel_affine_float_qparams", 4},
        };
        auto it = named.find(s);
        if (it != named.end()) return IValue(it->second);
        L.fail("unknown default value '" + s + "'");
      }
      default:
        L.fail(fmt::format("expected a default value but found {}", Lexer::describe(tok)));
    }
  }

  static constexpr int kMaxDepth = 64;
  int depth_ = 0;
  Lexer L;
};

}  // namespace

FunctionSchema parseSchema(const std::string& schema) {
  return SchemaParser(schema).parseSchema();
}

TypePtr parseSchemaType(const std::string& type) {
  return SchemaParser(type).parseTypeOnly();
}

}  // namespace kindling
