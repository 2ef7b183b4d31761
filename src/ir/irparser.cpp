// IR parser (see ir/irparser.h): a character-level recursive-descent reader.
#include "ir/irparser.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <unordered_map>

#include "core/internal_error.h"
#include "ir/lint.h"
#include "ir/operator_matching.h"
#include "ir/subgraph.h"
#include "tensor/tensor.h"
#include "tensor/tensor_print.h"

namespace kindling {

bool isStructuralKind(Symbol k) {
  return k == prim::Constant || k == prim::If || k == prim::Loop || k == prim::GetAttr || k == prim::SetAttr ||
         k == prim::CallMethod || k == prim::CallFunction || k == prim::TupleConstruct || k == prim::TupleUnpack ||
         k == prim::TupleIndex || k == prim::TupleSlice || k == prim::ListConstruct || k == prim::ListUnpack ||
         k == prim::DictConstruct || k == prim::CreateObject || k == prim::Uninitialized ||
         k == prim::unchecked_cast || k == prim::isinstance || k == prim::Enter || k == prim::Exit ||
         k == prim::Param || k == prim::Return;
}

namespace {

class Parser {
 public:
  Parser(const std::string& text, Graph& g, const IRParserOptions& opts) : s_(text), g_(g), opts_(opts) {}

  void parseGraph() {
    parseGraphAndSubgraphs();
    skipWs();
    if (p_ != s_.size()) fail("unexpected text after the graph's return");
  }

  // graph(...): ... return (...) followed by the subgraphs of its prim::fork_<i> nodes, each as
  // "with prim::fork_<i> = graph(...)" (itself followed by its own subgraphs): Graph::toString's layout.
  void parseGraphAndSubgraphs() {
    parseOneGraph();
    // Sections follow depth first (a subgraph's own subgraphs right after it): this graph takes
    // sections while it still waits for subgraphs; later ones belong to an enclosing graph.
    while (!pendingSubgraphs_.empty()) {
      skipWs();
      if (s_.compare(p_, 5, "with ") != 0) break;
      p_ += 5;
      std::string name = parseQualIdent();
      expect('=');
      auto it = pendingSubgraphs_.find(name);
      if (it == pendingSubgraphs_.end()) fail("no node named " + name + " takes a subgraph");
      auto sub = std::make_shared<Graph>();
      DepthGuard guard(*this, blockDepth_, "subgraphs");
      Parser child(s_, *sub, opts_);
      child.p_ = p_;
      child.blockDepth_ = blockDepth_;
      child.parseGraphAndSubgraphs();
      p_ = child.p_;
      setSubgraph(it->second, sub);
      pendingSubgraphs_.erase(it);
    }
    if (!pendingSubgraphs_.empty()) fail("missing the subgraph of " + pendingSubgraphs_.begin()->first);
  }

  void parseOneGraph() {
    skipWs();
    expectWord("graph");
    expect('(');
    skipWs();
    if (peek() != ')') {
      for (;;) {
        std::string name = parseValueName();
        TypePtr t = parseOptType();
        Value* v = g_.addInput();
        define(name, v, t);
        skipWs();
        if (peek() == ',') { ++p_; continue; }
        break;
      }
    }
    expect(')');
    expect(':');
    parseStatements(g_.block());
    skipWs();
    expectWord("return");
    expect('(');
    for (Value* v : parseUseList()) g_.registerOutput(v);
    expect(')');
  }

  TypePtr parseTypeOnly() {
    TypePtr t = parseType();
    skipWs();
    if (p_ != s_.size()) fail("unexpected text after the type");
    return t;
  }

 private:
  const std::string& s_;
  size_t p_ = 0;
  Graph& g_;
  const IRParserOptions& opts_;
  std::unordered_map<std::string, Value*> env_;
  std::unordered_map<std::string, TypePtr> enums_;  // Enum<...> types the resolver does not know
  std::unordered_map<std::string, Node*> pendingSubgraphs_;  // "prim::fork_0" → its node
  // Nesting bounds: the recursion of this parser through blocks and subgraphs, and through types and
  // constants (counted apart: a type inside nested blocks starts at 0), and the depth of the type
  // parseType returned last (its List/Optional suffixes nest without recursing).
  static constexpr int kMaxDepth = 200;
  int blockDepth_ = 0;
  int valueDepth_ = 0;
  int typeDepth_ = 0;

  struct DepthGuard {
    DepthGuard(Parser& p, int& depth, const char* what) : p_(p), depth_(depth) {
      if (++depth_ > kMaxDepth) p_.fail(std::string(what) + " nested too deeply (more than " + std::to_string(kMaxDepth) + " levels)");
    }
    ~DepthGuard() { --depth_; }
    Parser& p_;
    int& depth_;
  };
  void typeNests(int depth) {
    if (depth > kMaxDepth) fail("type nested too deeply (more than " + std::to_string(kMaxDepth) + " levels)");
    typeDepth_ = depth;
  }

  [[noreturn]] void fail(const std::string& msg) const {
    size_t line = 1, col = 1;
    for (size_t i = 0; i < p_ && i < s_.size(); ++i) {
      if (s_[i] == '\n') { ++line; col = 1; } else { ++col; }
    }
    throw Error("IR parse error at line " + std::to_string(line) + ", column " + std::to_string(col) + ": " + msg);
  }

  char peek(size_t k = 0) const { return p_ + k < s_.size() ? s_[p_ + k] : '\0'; }

  // Skips spaces, newlines and "# ..." comments.
  void skipWs() {
    while (p_ < s_.size()) {
      char c = s_[p_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') { ++p_; continue; }
      if (c == '#') {
        while (p_ < s_.size() && s_[p_] != '\n') ++p_;
        continue;
      }
      break;
    }
  }

  void expect(char c) {
    skipWs();
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++p_;
  }

  bool accept(char c) {
    skipWs();
    if (peek() == c) { ++p_; return true; }
    return false;
  }

  static bool isIdentChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }

  // An identifier possibly with "::" and "." parts: aten::add, __torch__.M, block0.
  std::string parseQualIdent() {
    skipWs();
    size_t b = p_;
    while (p_ < s_.size()) {
      char c = s_[p_];
      if (isIdentChar(c)) { ++p_; continue; }
      if (c == ':' && peek(1) == ':') { p_ += 2; continue; }
      if (c == '.' && isIdentChar(peek(1))) { ++p_; continue; }
      break;
    }
    if (p_ == b) fail("expected an identifier");
    return s_.substr(b, p_ - b);
  }

  void expectWord(const std::string& w) {
    skipWs();
    size_t b = p_;
    std::string id = parseQualIdent();
    if (id != w) { p_ = b; fail("expected '" + w + "'"); }
  }

  std::string parseValueName() {
    skipWs();
    if (peek() != '%') fail("expected a value (%name)");
    ++p_;
    size_t b = p_;
    while (p_ < s_.size() && (isIdentChar(s_[p_]) || s_[p_] == '.')) ++p_;
    if (p_ == b) fail("expected a value name after '%'");
    return s_.substr(b, p_ - b);
  }

  TypePtr parseOptType() {
    skipWs();
    if (peek() == ':' && peek(1) != ':') {
      ++p_;
      return parseType();
    }
    return nullptr;
  }

  void define(const std::string& name, Value* v, TypePtr t) {
    if (env_.count(name)) fail("value %" + name + " is defined twice");
    env_[name] = v;
    v->setType(t ? t : TensorType());
    bool numeric = !name.empty();
    for (char c : name) numeric = numeric && c >= '0' && c <= '9';
    if (!numeric) v->setDebugName(name);
  }

  Value* use(const std::string& name) {
    auto it = env_.find(name);
    if (it == env_.end()) fail("value %" + name + " is used before it is defined");
    return it->second;
  }

  std::vector<Value*> parseUseList() {
    std::vector<Value*> r;
    skipWs();
    if (peek() == ')') return r;
    for (;;) {
      r.push_back(use(parseValueName()));
      if (!accept(',')) break;
    }
    return r;
  }

  // --- types ---
  TypePtr parseType() {
    DepthGuard guard(*this, valueDepth_, "type");
    skipWs();
    TypePtr t;
    int depth = 1;
    if (peek() == '(') {
      ++p_;
      std::vector<TypePtr> elems;
      skipWs();
      if (peek() != ')') {
        for (;;) {
          elems.push_back(parseType());
          depth = std::max(depth, typeDepth_ + 1);
          if (!accept(',')) break;
        }
      }
      expect(')');
      t = TupleType::create(std::move(elems));
    } else {
      std::string id = parseQualIdent();
      typeDepth_ = 0;
      t = namedType(id);  // sets typeDepth_ to the depth of its type arguments
      depth = typeDepth_ + 1;
    }
    for (;;) {
      if (peek() == '[' && peek(1) == ']') { p_ += 2; t = ListType::create(t); typeNests(++depth); continue; }
      if (peek() == '?') { ++p_; t = OptionalType::create(t); typeNests(++depth); continue; }
      break;
    }
    typeNests(depth);
    return t;
  }

  /// The type arguments up to `close`; typeDepth_ becomes the deepest argument's depth.
  std::vector<TypePtr> parseTypeArgs(char close) {
    std::vector<TypePtr> r;
    int depth = 0;
    skipWs();
    if (peek() == close) { ++p_; typeDepth_ = 0; return r; }
    for (;;) {
      r.push_back(parseType());
      depth = std::max(depth, typeDepth_);
      if (!accept(',')) break;
    }
    expect(close);
    typeDepth_ = depth;
    return r;
  }

  void skipBalanced(char open, char close) {
    int depth = 0;
    do {
      if (p_ >= s_.size()) fail("unbalanced brackets");
      char c = s_[p_++];
      if (c == open) ++depth;
      else if (c == close) --depth;
    } while (depth > 0);
  }

  TypePtr namedType(const std::string& id) {
    // Generic forms first.
    if (peek() == '(' && (id == "Dict" || id == "Future" || id == "Union" || id == "Tuple")) {
      ++p_;
      auto args = parseTypeArgs(')');
      int depth = typeDepth_;
      TypePtr t = makeGeneric(id, args);
      typeDepth_ = depth;
      return t;
    }
    if (peek() == '[' && peek(1) != ']' &&
        (id == "List" || id == "Optional" || id == "Tuple" || id == "Dict" || id == "Future" || id == "Union")) {
      ++p_;
      auto args = parseTypeArgs(']');
      int depth = typeDepth_;
      TypePtr t = makeGeneric(id, args);
      typeDepth_ = depth;
      return t;
    }
    static const std::unordered_map<std::string, TypePtr (*)()> leaf = {
        {"Tensor", TensorType}, {"int", IntType}, {"float", FloatType}, {"bool", BoolType}, {"str", StringType},
        {"NoneType", NoneType}, {"None", NoneType}, {"Device", DeviceObjType}, {"Any", AnyType},
        {"number", NumberType}, {"Scalar", NumberType}, {"ScalarType", ScalarTypeType}, {"Layout", LayoutType},
        {"MemoryFormat", MemoryFormatType}, {"Generator", GeneratorType}, {"Storage", StorageType},
        {"Capsule", CapsuleType}, {"complex", ComplexType}, {"Stream", StreamType}, {"QScheme", QSchemeType},
        {"AnyListType", AnyListType}, {"AnyTupleType", AnyTupleType}, {"AnyClassType", AnyClassType},
        {"AnyEnumType", AnyEnumType}, {"list", AnyListType}, {"tuple", AnyTupleType}};
    auto it = leaf.find(id);
    if (it != leaf.end()) return it->second();
    static const char* tensorNames[] = {"Float", "Double", "Half", "BFloat16", "Long", "Int", "Short", "Char",
                                        "Byte", "Bool", "ComplexFloat", "ComplexDouble"};
    for (const char* tn : tensorNames) {
      if (id == tn) {
        if (peek() == '(') skipBalanced('(', ')');
        return TensorType();
      }
    }
    if (id == "NamedTuple" && peek() == '(') {  // NamedTuple(values : Tensor, indices : Tensor)
      ++p_;
      std::vector<std::string> names;
      std::vector<TypePtr> elems;
      int depth = 0;
      if (!accept(')')) {
        for (;;) {
          names.push_back(parseQualIdent());
          expect(':');
          elems.push_back(parseType());
          depth = std::max(depth, typeDepth_);
          if (!accept(',')) break;
        }
        expect(')');
      }
      typeDepth_ = depth;
      return TupleType::createNamed(std::move(names), std::move(elems));
    }
    if (id == "Function") return AnyType();  // replaced by FunctionType(fn) for named constants
    if (id == "Enum" && peek() == '<') {  // Enum<__torch__.Color>
      ++p_;
      std::string q = parseQualIdent();
      expect('>');
      if (opts_.resolveType) {
        if (TypePtr t = opts_.resolveType(q); t && t->kind() == TypeKind::Enum) return t;
      }
      auto& e = enums_[q];
      if (!e) e = std::make_shared<EnumType>(q, IntType());  // unknown enum: members by name only
      return e;
    }
    if (opts_.resolveType) {
      if (TypePtr t = opts_.resolveType(id)) return t;
    }
    fail("unknown type '" + id + "'");
  }

  TypePtr makeGeneric(const std::string& id, const std::vector<TypePtr>& a) {
    auto need = [&](size_t n) {
      if (a.size() != n) fail(id + " expects " + std::to_string(n) + " type argument(s)");
    };
    if (id == "List") { need(1); return ListType::create(a[0]); }
    if (id == "Optional") { need(1); return OptionalType::create(a[0]); }
    if (id == "Tuple") return TupleType::create(a);
    if (id == "Dict") { need(2); return DictType::create(a[0], a[1]); }
    if (id == "Future") { need(1); return FutureType::create(a[0]); }
    if (id == "Union") return UnionType::create(a);
    fail("unknown generic type " + id);
  }

  // --- literals ---
  IValue parseLiteral() {
    DepthGuard guard(*this, valueDepth_, "constant");
    skipWs();
    char c = peek();
    if (c == '"' || c == '\'') return IValue(parseString());
    if (c == '[') {
      ++p_;
      std::vector<IValue> elems;
      skipWs();
      if (peek() != ']') {
        for (;;) {
          elems.push_back(parseLiteral());
          if (!accept(',')) break;
          skipWs();
          if (peek() == ']') break;
        }
      }
      expect(']');
      return IValue(makeIntrusive<ListValue>(AnyType(), std::move(elems)));
    }
    if (c == '(') {
      ++p_;
      std::vector<IValue> elems;
      skipWs();
      if (peek() != ')') {
        for (;;) {
          elems.push_back(parseLiteral());
          if (!accept(',')) break;
          skipWs();
          if (peek() == ')') break;
        }
      }
      expect(')');
      return makeTuple(std::move(elems));
    }
    if (c == '{') {
      ++p_;
      IValue v = parseLiteral();
      expect('}');
      Tensor t = v.isDouble() ? Tensor::scalarTensor(Scalar(v.toDouble()), ScalarType::Float)
                              : Tensor::scalarTensor(Scalar(v.toInt()), ScalarType::Long);
      return IValue(std::move(t));
    }
    if (c == '-' || c == '+' || (c >= '0' && c <= '9') || c == '.') return parseNumber();
    std::string id = parseQualIdent();
    if (id == "True") return IValue(true);
    if (id == "False") return IValue(false);
    if (id == "None") return IValue();
    if (id == "inf") return IValue(std::numeric_limits<double>::infinity());
    if (id == "nan") return IValue(std::numeric_limits<double>::quiet_NaN());
    return IValue(id);  // bare identifiers (e.g. device names) read as strings
  }

  IValue parseNumber() {
    size_t b = p_;
    bool neg = false;
    if (peek() == '-' || peek() == '+') { neg = peek() == '-'; ++p_; }
    if (s_.compare(p_, 3, "inf") == 0) {
      p_ += 3;
      return IValue(neg ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity());
    }
    if (s_.compare(p_, 3, "nan") == 0) {
      p_ += 3;
      return IValue(std::numeric_limits<double>::quiet_NaN());
    }
    bool isFloat = false;
    while (p_ < s_.size()) {
      char c = s_[p_];
      if (c >= '0' && c <= '9') { ++p_; continue; }
      if (c == '.') { isFloat = true; ++p_; continue; }
      if ((c == 'e' || c == 'E') && p_ > b) {
        isFloat = true;
        ++p_;
        if (peek() == '-' || peek() == '+') ++p_;
        continue;
      }
      break;
    }
    std::string tok = s_.substr(b, p_ - b);
    if (tok.empty() || tok == "-" || tok == "+") fail("expected a number");
    if (isFloat) return IValue(std::strtod(tok.c_str(), nullptr));
    errno = 0;
    long long v = std::strtoll(tok.c_str(), nullptr, 10);
    if (errno == ERANGE) fail("integer out of range: " + tok);
    return IValue(static_cast<int64_t>(v));
  }

  std::string parseString() {
    char q = s_[p_++];
    std::string r;
    while (p_ < s_.size() && s_[p_] != q) {
      char c = s_[p_++];
      if (c != '\\') { r += c; continue; }
      if (p_ >= s_.size()) break;
      char e = s_[p_++];
      switch (e) {
        case 'n': r += '\n'; break;
        case 't': r += '\t'; break;
        case 'r': r += '\r'; break;
        case 'a': r += '\a'; break;
        case 'b': r += '\b'; break;
        case 'f': r += '\f'; break;
        case 'v': r += '\v'; break;
        default:
          if (e >= '0' && e <= '7') {
            int v = e - '0';
            for (int k = 0; k < 2 && p_ < s_.size() && s_[p_] >= '0' && s_[p_] <= '7'; ++k) v = v * 8 + (s_[p_++] - '0');
            r += static_cast<char>(v);
          } else {
            r += e;
          }
      }
    }
    if (p_ >= s_.size()) fail("unterminated string");
    ++p_;
    return r;
  }

  // Converts a parsed literal to the value a constant of type t holds.
  IValue convert(const IValue& raw, const TypePtr& t) {
    if (!t) return raw;
    switch (t->kind()) {
      case TypeKind::Bool:
        if (raw.isInt()) return IValue(raw.toInt() != 0);
        return raw;
      case TypeKind::Float:
        if (raw.isInt()) return IValue(static_cast<double>(raw.toInt()));
        return raw;
      case TypeKind::Device:
        if (raw.isString()) return IValue(Device::parse(raw.toStringRef()));
        return raw;
      case TypeKind::Optional:
        if (raw.isNone()) return raw;
        return convert(raw, t->cast<OptionalType>()->elementType());
      case TypeKind::List: {
        if (!raw.isList()) return raw;
        const TypePtr& et = t->cast<ListType>()->elementType();
        std::vector<IValue> e;
        for (const IValue& x : raw.toListRef().elements) e.push_back(convert(x, et));
        return IValue(makeIntrusive<ListValue>(et, std::move(e)));
      }
      case TypeKind::Tuple: {
        if (!raw.isTuple()) return raw;
        const auto& ets = t->cast<TupleType>()->elements();
        const auto& xs = raw.toTupleRef().elements;
        std::vector<IValue> e;
        for (size_t i = 0; i < xs.size(); ++i) e.push_back(i < ets.size() ? convert(xs[i], ets[i]) : xs[i]);
        return IValue(makeIntrusive<TupleValue>(std::move(e), t->cast<TupleType>()->qualName() ? t : nullptr));
      }
      case TypeKind::Enum: {  // value=__torch__.Color.RED
        if (!raw.isString()) return raw;
        const std::string& full = raw.toStringRef();
        std::string name = full.substr(full.rfind('.') + 1);
        auto et = std::static_pointer_cast<const EnumType>(t);
        IValue value;
        for (const auto& m : et->members)
          if (m.first == name && m.second) value = *m.second;
        return IValue(makeIntrusive<EnumHolder>(et, name, value));
      }
      case TypeKind::Tensor:
        return raw;
      default:
        return raw;
    }
  }

  // A tensor constant of 2 to 10 elements as the printer writes it, ATen's text on one line
  // (" 1  2 [ CPUFloatType{2} ]"). Reads it into v and returns true; returns false, consuming nothing,
  // when the text up to the next ']' on this line is not of that shape.
  bool parsePrintedTensor(IValue& v) {
    skipWs();
    if (s_.compare(p_, 8, "<Tensor>") == 0)
      fail("tensor constant <Tensor>: the graph text does not hold the values of a tensor of more than 10 "
           "elements");
    size_t eol = s_.find('\n', p_);
    if (eol == std::string::npos) eol = s_.size();
    size_t open = s_.find("[ CPU", p_);
    if (open == std::string::npos || open >= eol) return false;
    for (size_t i = p_; i < open; ++i)
      if (s_[i] == ']' || s_[i] == '"' || s_[i] == '\'' || s_[i] == '[') return false;
    size_t close = s_.find(']', open);
    if (close == std::string::npos || close >= eol) return false;
    Tensor t;
    std::string error;
    if (!parseAtenTensorPrint(s_.substr(p_, close + 1 - p_), t, error)) fail("tensor constant: " + error);
    p_ = close + 1;
    v = IValue(std::move(t));
    return true;
  }

  void parseAttributes(Node* n, const TypePtr& outType) {
    // after '['
    skipWs();
    if (peek() == ']') { ++p_; return; }
    for (;;) {
      std::string name = parseQualIdent();
      expect('=');
      skipWs();
      if (name == "types") {
        expect('[');
        n->tys_(name, parseTypeArgs(']'));
      } else {
        IValue v;
        if (!(n->kind() == prim::Constant && name == "value" && parsePrintedTensor(v))) v = parseLiteral();
        if (n->kind() == prim::Constant && name == "value") v = convert(v, outType);
        n->ival_(name, std::move(v));
      }
      if (!accept(',')) break;
    }
    expect(']');
  }

  // Parses statements until "return" or "->" (not consumed).
  void parseStatements(Block* b) {
    for (;;) {
      skipWs();
      char c = peek();
      if (c == '%' || c == '=') {
        parseNode(b);
        continue;
      }
      return;
    }
  }

  void parseNode(Block* b) {
    std::vector<std::pair<std::string, TypePtr>> outs;
    skipWs();
    if (peek() == '%') {
      for (;;) {
        std::string name = parseValueName();
        TypePtr t = parseOptType();
        outs.emplace_back(name, t);
        if (!accept(',')) break;
      }
    }
    expect('=');
    std::string kind = parseQualIdent();
    if (kind.find("::") == std::string::npos) fail("expected a node kind like aten::add, got '" + kind + "'");
    // "prim::fork_0": a prim::fork whose subgraph follows the graph as "with prim::fork_0 = graph(...)".
    std::string subgraphName;
    if (kind.rfind("prim::fork_", 0) == 0 && kind.size() > 11 &&
        kind.find_first_not_of("0123456789", 11) == std::string::npos) {
      subgraphName = kind;
      kind = "prim::fork";
    }
    Node* n = g_.create(Symbol::fromQualString(kind), {}, outs.size());
    if (!subgraphName.empty()) pendingSubgraphs_[subgraphName] = n;
    b->appendNode(n);
    for (size_t i = 0; i < outs.size(); ++i) define(outs[i].first, n->outputs()[i], outs[i].second);
    skipWs();
    if (peek() == '[') {
      ++p_;
      parseAttributes(n, outs.empty() ? nullptr : n->output(0)->type());
    }
    expect('(');
    for (Value* v : parseUseList()) n->addInput(v);
    expect(')');
    // Function constants: prim::Constant[name="f"]() : Function
    if (n->kind() == prim::Constant && n->hasAttribute("name") && outs.size() == 1 && !n->hasAttribute("value")) {
      Function* fn = opts_.resolveFunction ? opts_.resolveFunction(n->s("name")) : nullptr;
      if (!fn) fail("unknown function '" + n->s("name") + "'");
      n->output()->setType(std::make_shared<FunctionType>(fn));
    }
    if (n->kind() == prim::CallFunction) {
      if (Function* fn = n->callee()) n->setCallee(fn);
    }
    // Blocks.
    for (;;) {
      skipWs();
      if (!(peek() == 'b' && s_.compare(p_, 5, "block") == 0)) break;
      size_t save = p_;
      std::string id = parseQualIdent();
      if (id.rfind("block", 0) != 0) { p_ = save; break; }
      DepthGuard guard(*this, blockDepth_, "blocks");
      Block* nb = n->addBlock();
      expect('(');
      skipWs();
      if (peek() != ')') {
        for (;;) {
          std::string name = parseValueName();
          TypePtr t = parseOptType();
          define(name, nb->addInput(), t);
          if (!accept(',')) break;
        }
      }
      expect(')');
      expect(':');
      parseStatements(nb);
      skipWs();
      if (!(peek() == '-' && peek(1) == '>')) fail("expected '->' closing a block");
      p_ += 2;
      expect('(');
      for (Value* v : parseUseList()) nb->registerOutput(v);
      expect(')');
    }
    if (opts_.resolveOperators && !isStructuralKind(n->kind())) {
      if (const Operator* op = matchOperator(n)) n->setOp(op);
    }
  }
};

}  // namespace

void parseIR(const std::string& text, Graph& graph, const IRParserOptions& options) {
  Parser p(text, graph, options);
  p.parseGraph();
  // Text can spell graphs no builder makes (a loop carrying an int into a Tensor output, an If whose
  // condition is a string): the IR's rules are checked here, and breaking one is an error in the text.
  try {
    lintWithoutOperators(graph);
  } catch (const InternalError& e) {
    throw Error("IR parse error: the graph breaks a rule of the IR: " + e.detail());
  }
}

std::shared_ptr<Graph> parseIR(const std::string& text, const IRParserOptions& options) {
  auto g = std::make_shared<Graph>();
  parseIR(text, *g, options);
  return g;
}

TypePtr parseIRType(const std::string& text, const std::function<TypePtr(const std::string&)>& resolveType) {
  Graph dummy;
  IRParserOptions o;
  o.resolveType = resolveType;
  Parser p(text, dummy, o);
  return p.parseTypeOnly();
}

}  // namespace kindling
