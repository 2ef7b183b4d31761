#include "frontend/type_parser.h"

#include "frontend/parser.h"

namespace kindling {

std::string dottedName(const ExprPtr& e) {
  if (!e) return "";
  if (e->kind == ExprKind::Name) return e->as<NameExpr>().id;
  if (e->kind == ExprKind::Attribute) {
    std::string base = dottedName(e->as<AttributeExpr>().value);
    if (base.empty()) return "";
    return base + "." + e->as<AttributeExpr>().attr;
  }
  return "";
}

namespace {
// Strips "typing.", "torch.jit.", "t." prefixes used for typing constructs.
std::string typingName(const std::string& n) {
  static const char* const prefixes[] = {"typing.", "torch.jit.", "torch.", "builtins."};
  for (const char* p : prefixes) {
    std::string ps(p);
    if (n.compare(0, ps.size(), ps) == 0) return n.substr(ps.size());
  }
  return n;
}
}  // namespace

TypePtr TypeParser::parseName(const std::string& name, const SourceRange& loc, bool mustResolve) const {
  std::string n = name;
  if (n == "Tensor" || n == "torch.Tensor") return TensorType();
  if (n == "int") return IntType();
  if (n == "float") return FloatType();
  if (n == "bool") return BoolType();
  if (n == "str") return StringType();
  if (n == "complex") return ComplexType();
  if (n == "None" || n == "NoneType") return NoneType();
  if (n == "Any" || n == "typing.Any") return AnyType();
  if (n == "number" || n == "Scalar") return NumberType();
  if (n == "Device" || n == "torch.device") return DeviceObjType();
  if (n == "torch.dtype" || n == "dtype") return IntType();
  if (n == "torch.Stream" || n == "Stream") return StreamType();
  if (n == "torch.Generator" || n == "Generator") return GeneratorType();
  if (n == "Layout" || n == "torch.layout") return IntType();
  if (n == "MemoryFormat" || n == "torch.memory_format") return IntType();
  if (n == "ScalarType") return IntType();
  if (n == "Storage") return StorageType();
  if (n == "Capsule") return CapsuleType();
  if (resolver_) {
    if (TypePtr t = resolver_(n, loc)) return t;
  }
  if (!mustResolve) return nullptr;
  throw CompileError("Unknown type name '" + n + "'", loc);
}

TypePtr TypeParser::parse(const ExprPtr& e, bool* isFinal) const {
  if (isFinal) *isFinal = false;
  switch (e->kind) {
    case ExprKind::None: return NoneType();
    case ExprKind::Name:
    case ExprKind::Attribute: {
      std::string n = dottedName(e);
      if (n.empty()) throw CompileError("Expected a type annotation", e->range);
      std::string t = typingName(n);
      if (t == "List" || t == "Dict" || t == "Tuple" || t == "Optional" || t == "Union" || t == "Future")
        throw CompileError(t + " needs type parameters (e.g. " + t + "[int])", e->range);
      if (t == "Final") throw CompileError("Final without a type is not supported; write Final[T]", e->range);
      return parseName(n, e->range, true);
    }
    case ExprKind::Subscript: return parseSubscript(e->as<SubscriptExpr>(), isFinal);
    case ExprKind::Str: {
      // forward reference: 'Foo' or 'List[int]'
      auto src = std::make_shared<Source>(e->as<StrExpr>().value, e->range.valid() ? e->range.source->filename : "");
      ExprPtr inner;
      try {
        inner = parseExpression(src);
      } catch (const CompileError&) {
        throw CompileError("Unknown type annotation '" + e->as<StrExpr>().value + "'", e->range);
      }
      try {
        return parse(inner, isFinal);
      } catch (const CompileError& err) {
        // the inner expression's ranges point into the string: report at the string literal (as PyTorch)
        throw CompileError(err.message(), e->range);
      }
    }
    case ExprKind::BinOp: {
      // PEP 604: int | None
      auto& b = e->as<BinOpExpr>();
      if (b.op == BinOpKind::BitOr) return UnionType::create({parse(b.lhs), parse(b.rhs)});
      break;
    }
    default: break;
  }
  throw CompileError("Expected a type annotation", e->range);
}

TypePtr TypeParser::parseSubscript(const SubscriptExpr& s, bool* isFinal) const {
  std::string base = typingName(dottedName(s.value));
  const auto& subs = s.subscripts;
  auto one = [&](const char* what) -> TypePtr {
    if (subs.size() != 1) throw CompileError(std::string(what) + " expects exactly one type parameter", s.range);
    return parse(subs[0]);
  };
  if (base == "List" || base == "list") return ListType::create(one("List"));
  // BroadcastingList2[int] (torch/nn/functional.py annotations): a list; a single value broadcasts to
  // N entries (the argument's N, set by schemaForDef).
  if (base.rfind("BroadcastingList", 0) == 0) return ListType::create(one("BroadcastingList"));
  if (base == "Optional") return OptionalType::create(one("Optional"));
  if (base == "Future") return FutureType::create(one("Future"));
  if (base == "Final") {
    if (!isFinal) throw CompileError("Final can only be used to annotate class attributes and constants", s.range);
    TypePtr t = one("Final");
    *isFinal = true;
    return t;
  }
  if (base == "Dict" || base == "dict") {
    if (subs.size() != 2) throw CompileError("Dict expects exactly two type parameters", s.range);
    TypePtr k = parse(subs[0]);
    switch (k->kind()) {
      case TypeKind::Str: case TypeKind::Int: case TypeKind::Float: case TypeKind::Bool: case TypeKind::Tensor:
      case TypeKind::Complex: break;
      default:
        throw CompileError("Dict key type must be str, int, float, bool, complex or Tensor, got " + k->annotationStr(),
                           subs[0]->range);
    }
    return DictType::create(k, parse(subs[1]));
  }
  if (base == "Tuple" || base == "tuple") {
    std::vector<TypePtr> elems;
    if (subs.size() == 1 && subs[0]->kind == ExprKind::Tuple && subs[0]->as<SequenceExpr>().elts.empty())
      return TupleType::create({});
    for (auto& x : subs) {
      if (x->kind == ExprKind::Ellipsis) throw CompileError("Tuple[T, ...] (variable length tuples) are not supported", x->range);
      elems.push_back(parse(x));
    }
    return TupleType::create(std::move(elems));
  }
  if (base == "Union") {
    std::vector<TypePtr> ts;
    for (auto& x : subs) ts.push_back(parse(x));
    return UnionType::create(std::move(ts));
  }
  if (base == "Await" || base == "RRef")
    throw CompileError(base + " types are not supported", s.range);
  throw CompileError("Unknown type constructor " + (base.empty() ? std::string("<expression>") : base), s.value->range);
}

bool TypeParser::isTypeExpr(const ExprPtr& e) const {
  switch (e->kind) {
    case ExprKind::None: return true;
    case ExprKind::Subscript: {
      std::string b = typingName(dottedName(e->as<SubscriptExpr>().value));
      return b == "List" || b == "list" || b == "Dict" || b == "dict" || b == "Tuple" || b == "tuple" ||
             b == "Optional" || b == "Union" || b == "Future" || b == "Final";
    }
    case ExprKind::Name:
    case ExprKind::Attribute: {
      std::string n = dottedName(e);
      if (n.empty()) return false;
      try {
        return parseName(n, e->range, false) != nullptr;
      } catch (const CompileError&) {
        return false;
      }
    }
    case ExprKind::Tuple: {
      for (auto& x : e->as<SequenceExpr>().elts)
        if (!isTypeExpr(x)) return false;
      return true;
    }
    default: return false;
  }
}

}  // namespace kindling
