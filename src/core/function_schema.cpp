// FunctionSchema / Argument printing in exactly PyTorch 1.13's syntax (c10 function_schema.h
// operator<<), plus the small FunctionSchema queries (see core/function_schema.h). The parser is
// ops/registry/schema_parser.h.
#include <string>

#include "core/function_schema.h"
#include "core/schema_types.h"

namespace kindling {

static std::string aliasStr(const AliasInfo& a) {
  std::string s = "(";
  for (size_t i = 0; i < a.beforeSets.size(); ++i) {
    if (i) s += "|";
    s += a.beforeSets[i];
  }
  if (a.isWrite) s += "!";
  if (a.beforeSets != a.afterSets) {
    s += " -> ";
    for (size_t i = 0; i < a.afterSets.size(); ++i) {
      if (i) s += "|";
      s += a.afterSets[i];
    }
  }
  return s + ")";
}

std::string Argument::str() const {
  const TypePtr& t = realType ? realType : type;
  bool isOpt = t->kind() == TypeKind::Optional;
  const TypePtr& unopt = isOpt ? t->cast<OptionalType>()->elementType() : t;
  std::string out;
  if (unopt->kind() == TypeKind::List) {
    out += schema_types::typeStr(unopt->cast<ListType>()->elementType());
    if (aliasInfo && !aliasInfo->containedTypes.empty()) out += aliasStr(aliasInfo->containedTypes[0]);
    out += "[";
    if (N) out += std::to_string(*N);
    out += "]";
  } else {
    out += schema_types::typeStr(unopt);
  }
  if (aliasInfo && !aliasInfo->beforeSets.empty()) out += aliasStr(*aliasInfo);
  if (isOpt) out += "?";
  if (!name.empty()) out += " " + name;
  if (defaultValue) {
    out += "=";
    const IValue& v = *defaultValue;
    if (t->kind() == TypeKind::List && v.isList() &&
        t->cast<ListType>()->elementType()->kind() == TypeKind::Int) {
      // PyTorch writes "int[2] stride=1" rather than "[1, 1]" when all elements are equal.
      const auto& el = v.toListRef().elements;
      bool same = el.size() > 1;
      for (size_t i = 1; same && i < el.size(); ++i) same = el[i].isInt() && el[0].isInt() && el[i].toInt() == el[0].toInt();
      out += same ? schema_types::valueStr(el[0]) : schema_types::valueStr(v);
    } else {
      out += schema_types::valueStr(v);
    }
  }
  return out;
}

std::string FunctionSchema::str() const {
  std::string out = qualifiedName();
  out += "(";
  bool seenKwargOnly = false;
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (i > 0) out += ", ";
    if (arguments[i].kwargOnly && !seenKwargOnly) {
      out += "*, ";
      seenKwargOnly = true;
    }
    out += arguments[i].str();
  }
  if (isVarArg) {
    if (!arguments.empty()) out += ", ";
    out += "...";
  }
  out += ") -> ";
  bool needParen = !((returns.size() == 1 && !isVarRet) || (returns.empty() && isVarRet));
  std::string single;
  if (returns.size() == 1 && !isVarRet) {
    single = returns[0].str();
    if (!single.empty() && single.front() == '(') needParen = true;
  }
  if (needParen) out += "(";
  for (size_t i = 0; i < returns.size(); ++i) {
    if (i > 0) out += ", ";
    out += (i == 0 && !single.empty()) ? single : returns[i].str();
  }
  if (isVarRet) {
    if (!returns.empty()) out += ", ";
    out += "...";
  }
  if (needParen) out += ")";
  return out;
}

int FunctionSchema::argumentIndex(const std::string& n) const {
  for (size_t i = 0; i < arguments.size(); ++i)
    if (arguments[i].name == n) return static_cast<int>(i);
  return -1;
}

static bool anyWrite(const AliasInfo& a) {
  if (a.isWrite) return true;
  for (const auto& c : a.containedTypes)
    if (anyWrite(c)) return true;
  return false;
}

bool FunctionSchema::isMutable() const {
  for (const auto& a : arguments)
    if (a.aliasInfo && anyWrite(*a.aliasInfo)) return true;
  return false;
}

}  // namespace kindling
