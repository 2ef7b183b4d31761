// The code printer (see serialize/python_print.h). The structure follows PyTorch's PythonPrint: a
// reverse scan decides which values are inlined into the expression that uses them, then a forward walk
// prints statements, keeping for every value either a name or the expression text of its use.
#include "serialize/python_print.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "core/error.h"
#include "core/scalar.h"
#include "ir/ir.h"
#include "ir/printer.h"
#include "ir/subgraph.h"
#include "runtime/graph_function.h"
#include "tensor/tensor.h"

namespace kindling {

namespace {

bool isIdentChar(char c, size_t pos) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (pos > 0 && c >= '0' && c <= '9');
}

bool isValidIdentifier(const std::string& s) {
  if (s.empty()) return false;
  for (size_t i = 0; i < s.size(); ++i)
    if (!isIdentChar(s[i], i)) return false;
  return true;
}

// Names the printed code may not use for locals: the importer's environment and Python's keywords.
const std::unordered_set<std::string>& reservedNames() {
  static const std::unordered_set<std::string> names = {
      "_", "as", "aten", "attribute", "CONSTANTS", "fork", "getattr", "inf", "nan", "infj", "nanj", "ops",
      "__torch__", "and", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif",
      "else", "except", "False", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda",
      "None", "nonlocal", "not", "or", "pass", "raise", "return", "True", "try", "with", "while", "yield",
      "uninitialized", "unchecked_cast"};
  return names;
}

// Lists/dicts whose element type the compiler cannot infer from the elements get annotate(...).
bool elementTypeInferable(const TypePtr& t) {
  if (!t) return false;
  switch (t->kind()) {
    case TypeKind::Union:
    case TypeKind::Optional:
    case TypeKind::Number:
    case TypeKind::Interface:
    case TypeKind::Any: return false;
    default: return true;
  }
}

bool hasNonAscii(const IValue& v) {
  if (v.isString()) {
    for (unsigned char c : v.toStringRef())
      if (c > 0x7f) return true;
    return false;
  }
  if (v.isList()) {
    for (const auto& e : v.toListRef().elements)
      if (hasNonAscii(e)) return true;
  } else if (v.isTuple()) {
    for (const auto& e : v.toTupleRef().elements)
      if (hasNonAscii(e)) return true;
  } else if (v.isDict()) {
    for (const auto& kv : v.toDictRef().items())
      if (hasNonAscii(kv.first) || hasNonAscii(kv.second)) return true;
  }
  return false;
}

bool sameTensor(const Tensor& a, const Tensor& b) {
  if (!a.defined() || !b.defined()) return a.defined() == b.defined();
  if (a.dtype() != b.dtype() || a.sizes() != b.sizes() || a.requires_grad() != b.requires_grad()) return false;
  Tensor ca = a.contiguous(), cb = b.contiguous();
  return std::memcmp(ca.data_ptr(), cb.data_ptr(), ca.nbytes()) == 0;
}

size_t addConstant(std::vector<IValue>& table, const IValue& v) {
  if (v.isTensor()) {
    Tensor t = v.toTensor();
    for (size_t i = 0; i < table.size(); ++i)
      if (table[i].isTensor() && sameTensor(table[i].toTensor(), t)) return i;
  }
  table.push_back(v);
  return table.size() - 1;
}

std::string listTypeAnnotation(const TypePtr& elem) { return "List[" + elem->annotationStr() + "]"; }

void printConstantTo(std::string& out, const IValue& v, std::vector<IValue>* table);

void printSequence(std::string& out, const std::vector<IValue>& elems, const char* open, const char* close,
                   std::vector<IValue>* table) {
  out += open;
  for (size_t i = 0; i < elems.size(); ++i) {
    if (i) out += ", ";
    printConstantTo(out, elems[i], table);
  }
  out += close;
}

// c10's IValue::repr with PythonPrint's formatter (tensors, objects and non-ASCII strings → CONSTANTS.cN).
void printConstantTo(std::string& out, const IValue& v, std::vector<IValue>* table) {
  if (v.isTensor() || v.isObject() || hasNonAscii(v)) {
    if (!table)
      throw Error(std::string("cannot print a ") + v.tagName() + " constant as code without a constant table");
    out += "CONSTANTS.c" + std::to_string(addConstant(*table, v));
    return;
  }
  switch (v.tag()) {
    case IValue::Tag::None: out += "None"; return;
    case IValue::Tag::Int: out += std::to_string(v.toInt()); return;
    case IValue::Tag::Double: out += graphFloatStr(v.toDouble()); return;
    case IValue::Tag::Bool: out += v.toBool() ? "True" : "False"; return;
    case IValue::Tag::String: out += quotedString(v.toStringRef()); return;
    case IValue::Tag::Device: out += "torch.device(" + quotedString(v.toDevice().str()) + ")"; return;
    case IValue::Tag::Tuple: {
      const auto& tv = v.toTupleRef();
      if (tv.type) {
        if (const auto* tt = tv.type->cast<TupleType>(); tt && tt->qualName()) out += tt->annotationStr();
      }
      printSequence(out, tv.elements, "(", tv.elements.size() == 1 ? ",)" : ")", table);
      return;
    }
    case IValue::Tag::List: {
      const auto& lv = v.toListRef();
      TypePtr elem = lv.elementType;
      bool annotated = lv.elements.empty() || !elementTypeInferable(elem);
      if (annotated) {
        if (!elem) elem = AnyType();
        out += "annotate(" + listTypeAnnotation(elem) + ", ";
      }
      printSequence(out, lv.elements, "[", "]", table);
      if (annotated) out += ")";
      return;
    }
    case IValue::Tag::Dict: {
      const auto& dv = v.toDictRef();
      bool annotated = dv.size() == 0 || !elementTypeInferable(dv.keyType) || !elementTypeInferable(dv.valueType);
      if (annotated) {
        TypePtr k = dv.keyType ? dv.keyType : StringType(), val = dv.valueType ? dv.valueType : AnyType();
        out += "annotate(Dict[" + k->annotationStr() + ", " + val->annotationStr() + "], ";
      }
      out += "{";
      bool first = true;
      for (const auto& kv : dv.items()) {
        if (!first) out += ", ";
        first = false;
        printConstantTo(out, kv.first, table);
        out += ": ";
        printConstantTo(out, kv.second, table);
      }
      out += "}";
      if (annotated) out += ")";
      return;
    }
    case IValue::Tag::Enum: {
      const auto& e = *v.toEnum();
      out += (e.type ? e.type->qualName() : std::string("?")) + "." + e.name;
      return;
    }
    default:
      throw Error(std::string("cannot print a constant of kind ") + v.tagName() + " as code");
  }
}

// Python spelling of an IValue as c10's operator<< prints it (enum member values in `class E(Enum)`).
std::string plainValueString(const IValue& v) {
  if (v.isString()) return v.toStringRef();
  return graphValueString(v);
}

std::string debugNameBase(const Value* v) {
  std::string name = v->debugName();
  size_t dot = name.find_last_of('.');
  if (dot != std::string::npos && dot + 1 != name.size() &&
      name.find_first_not_of("0123456789", dot + 1) == std::string::npos)
    return name.substr(0, dot);
  return name;
}

std::string makeValidIdentifier(const std::string& s) {
  std::string out;
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) out += "_";
  for (char c : s) out += isIdentChar(c, 1) ? c : '_';
  return out;
}

bool isOutArgument(const Argument& a) { return a.kwargOnly && a.aliasInfo && a.aliasInfo->isWrite; }

// Schema default of an argument, with an int/float/bool default of a fixed-size list argument broadcast
// to the list ("int[2] stride=1" → [1, 1]) as c10's schema parser stores it.
std::optional<IValue> schemaDefault(const Argument& a) {
  if (!a.defaultValue) return std::nullopt;
  const IValue& d = *a.defaultValue;
  if (a.type && a.type->kind() == TypeKind::List && a.N && (d.isInt() || d.isDouble() || d.isBool())) {
    std::vector<IValue> elems(static_cast<size_t>(*a.N), d);
    TypePtr elem = d.isInt() ? IntType() : d.isDouble() ? FloatType() : BoolType();
    return makeList(elem, std::move(elems));
  }
  return d;
}

// How many leading inputs must be printed (trailing ones equal to their schema default are dropped), and
// how many trailing out= arguments the schema has (torch/csrc/jit/runtime/calculate_necessary_args.h).
std::pair<size_t, size_t> necessaryArguments(const FunctionSchema& schema, const std::vector<Value*>& inputs) {
  const auto& args = schema.arguments;
  if (args.empty()) return {0, 0};
  size_t numOut = 0;
  size_t idx = args.size();
  while (idx > 0 && isOutArgument(args[idx - 1])) {
    ++numOut;
    --idx;
  }
  if (args.size() < inputs.size()) return {inputs.size(), numOut};
  if (inputs.size() < args.size()) return {inputs.size(), 0};  // not a full call: print what is there
  while (idx > 0) {
    const Argument& a = args[idx - 1];
    std::optional<IValue> def = schemaDefault(a);
    if (!def) return {idx, numOut};
    std::optional<IValue> actual = inputs[idx - 1]->constantValue();
    if (!actual) return {idx, numOut};
    if (actual->isTensor() || def->isTensor() || !(*def == *actual)) return {idx, numOut};
    --idx;
  }
  return {0, numOut};
}

GraphFunction* asGraphFunction(const Function& fn) {
  auto* gf = dynamic_cast<GraphFunction*>(const_cast<Function*>(&fn));
  if (!gf)
    throw Error("cannot print " + fn.qualname() + " as code: it is not a TorchScript function (a @torch.jit.ignore'd "
                "Python function, which runs only in the Python process; torch.jit.save refuses a module calling one "
                "too: \"Could not export Python function call\")");
  return gf;
}

std::string unqualifiedName(const std::string& qual) {
  size_t dot = qual.rfind('.');
  return dot == std::string::npos ? qual : qual.substr(dot + 1);
}

}  // namespace

class PythonPrinterImpl {
 public:
  explicit PythonPrinterImpl(std::vector<IValue>* table) : table_(table) {}

  std::string body;
  std::vector<TypePtr> deps;
  uint64_t minVersion = 0;

  void printFunction(const Function& fn, bool firstArgumentTyped) {
    GraphFunction* gf = asGraphFunction(fn);
    std::shared_ptr<Graph> graph = gf->graph();
    const FunctionSchema& schema = fn.getSchema();
    usedNames_.clear();
    exprs_.clear();
    names_.clear();
    inlined_.clear();
    splitVisited_.clear();
    indent();
    body += "def " + fn.name() + "(";
    const auto& inputs = graph->inputs();
    if (schema.arguments.size() != inputs.size())
      throw Error("cannot print " + fn.qualname() + ": its schema and graph disagree on the arguments");
    // A keyword-only parameter without default after one with a default is printed after a bare `*`
    // (torch 1.13 leaves the `*` out, and cannot load the def it printed: "Non-default positional argument
    // follows default argument"); elsewhere the `*` is left out, as torch prints.
    bool seenDefault = false, starPrinted = false;
    for (size_t i = 0; i < schema.arguments.size(); ++i) {
      const Argument& arg = schema.arguments[i];
      TypePtr type = arg.type ? arg.type : inputs[i]->type();
      registerDependencies(type);
      std::string name = genName(arg.name);
      if (i > 0 && arg.kwargOnly && !arg.defaultValue && seenDefault && !starPrinted) {
        body += ",\n    *";
        starPrinted = true;
      }
      seenDefault |= arg.defaultValue.has_value();
      if (i == 0) {
        body += name;
        if (firstArgumentTyped) body += ": " + type->annotationStr();
      } else {
        body += ",\n    " + name + ": " + type->annotationStr();
      }
      if (arg.defaultValue) printDefaultValue(arg);
      names_[inputs[i]] = name;
    }
    TypePtr ret = !schema.returns.empty() && schema.returns[0].type ? schema.returns[0].type : NoneType();
    if (schema.returns.size() > 1) {
      std::vector<TypePtr> ts;
      for (const auto& r : schema.returns) ts.push_back(r.type);
      ret = TupleType::create(ts);
    }
    body += ") -> " + ret->annotationStr() + ":\n";
    registerDependencies(ret);
    printBody(graph->block());
  }

  void printClass(const ClassTypePtr& cls) {
    body += "class " + cls->name();
    if (cls->isModule()) body += "(Module)";
    body += ":\n";
    ++level_;
    const auto& attrs = cls->attributes();
    if (cls->isModule()) {
      indent();
      body += "__parameters__ = [";
      for (const auto& a : attrs)
        if (a.isParameter) body += "\"" + a.name + "\", ";
      body += "]\n";
      indent();
      body += "__buffers__ = [";
      for (const auto& a : attrs)
        if (a.isBuffer) body += "\"" + a.name + "\", ";
      body += "]\n";
    }
    for (size_t i = 0; i < attrs.size(); ++i) {
      const auto& a = attrs[i];
      registerDependencies(a.type);
      indent();
      if (!isValidIdentifier(a.name)) {
        if (i == 0) {
          body += "__annotations__ = []\n";
          indent();
        }
        body += "__annotations__[\"" + a.name + "\"] = " + a.type->annotationStr() + "\n";
      } else {
        body += a.name + " : " + a.type->annotationStr() + "\n";
      }
    }
    for (const auto& c : cls->constants()) {
      indent();
      body += c.name + " : Final[" + c.value->type()->annotationStr() + "] = ";
      std::string v;
      printConstantTo(v, *c.value, table_);
      body += v + "\n";
    }
    for (Function* m : cls->methods()) printFunction(*m, /*firstArgumentTyped=*/true);
    --level_;
  }

  void printNamedType(const TypePtr& type) {
    if (const auto* ft = type->cast<FunctionType>()) {
      printFunction(*ft->function(), true);
    } else if (const auto* ct = type->cast<ClassType>()) {
      printClass(std::static_pointer_cast<ClassType>(std::const_pointer_cast<Type>(type)));
      (void)ct;
    } else if (const auto* tt = type->cast<TupleType>(); tt && tt->qualName()) {
      body += "class " + unqualifiedName(*tt->qualName()) + "(NamedTuple):\n";
      ++level_;
      for (size_t i = 0; i < tt->elements().size(); ++i) {
        registerDependencies(tt->elements()[i]);
        indent();
        body += (i < tt->names().size() ? tt->names()[i] : "_" + std::to_string(i)) + " : " +
                tt->elements()[i]->annotationStr() + "\n";
      }
      --level_;
    } else if (const auto* et = type->cast<EnumType>()) {
      body += "class " + unqualifiedName(et->qualName()) + "(Enum):\n";
      std::string wrap = et->valueType() && et->valueType()->kind() == TypeKind::Str ? "\"" : "";
      ++level_;
      for (const auto& m : et->members) {
        indent();
        body += m.first + " = " + wrap + plainValueString(*m.second) + wrap + "\n";
      }
      --level_;
    } else {
      throw Error("cannot print type " + type->str() + " as a code definition");
    }
  }

 private:
  std::vector<IValue>* table_;
  size_t level_ = 0;
  std::unordered_set<std::string> usedNames_;
  std::unordered_map<std::string, size_t> nextId_;  // kept across functions, as PyTorch's printer does
  std::unordered_map<const Value*, std::string> exprs_;
  std::unordered_map<const Value*, std::string> names_;
  std::unordered_set<const Node*> inlined_;
  std::unordered_map<const Node*, int64_t> splitVisited_;
  std::unordered_set<const Type*> depSeen_;
  std::unordered_set<const Value*> annotatedUnions_;  // Union/Optional variables already annotated
  std::unordered_set<const Value*> aliases_;          // loop body inputs: other names for the loop outputs

  // ------------------------------------------------------------------ dependencies
  void addDependency(const TypePtr& t) {
    if (!depSeen_.insert(t.get()).second) return;
    for (const auto& d : deps)
      if (d->equals(*t)) return;
    deps.push_back(t);
  }
  void registerDependencies(const TypePtr& t) {
    if (!t) return;
    if (t->kind() == TypeKind::Class || t->kind() == TypeKind::Enum || t->kind() == TypeKind::Interface) {
      addDependency(t);
    } else if (const auto* tt = t->cast<TupleType>(); tt && tt->qualName()) {
      addDependency(t);
    }
    for (const auto& c : t->containedTypes()) registerDependencies(c);
  }
  void scanTypeDependencies(const Node* n) {
    for (Value* v : n->inputs()) registerDependencies(v->type());
    for (Value* v : n->outputs()) registerDependencies(v->type());
    for (const auto& name : n->attributeNames()) {
      if (n->hasTypeAttribute(name)) registerDependencies(n->ty(name));
      if (n->hasTypeListAttribute(name))
        for (const auto& t : n->tys(name)) registerDependencies(t);
    }
  }

  // ------------------------------------------------------------------ names
  std::string genName(const std::string& candidate) {
    std::string name = candidate;
    while (usedNames_.count(name) || reservedNames().count(name)) name = candidate + std::to_string(nextId_[name]++);
    usedNames_.insert(name);
    return name;
  }
  std::string genUniqueNameFor(const Value* v) {
    return genName(v->hasDebugName() ? makeValidIdentifier(debugNameBase(v)) : "_");
  }
  void assignNames(const std::vector<Value*>& vs) {
    for (Value* v : vs) names_[v] = genUniqueNameFor(v);
  }
  std::string useOf(const Value* v) const {
    if (auto it = names_.find(v); it != names_.end()) return it->second;
    if (auto it = exprs_.find(v); it != exprs_.end()) return it->second;
    throw Error("code printer: value %" + v->debugName() + " is used before it is defined");
  }

  // ------------------------------------------------------------------ the inlining scan
  static bool isConstant(const Node* n) { return n->kind() == prim::Constant; }

  bool canInline(const Value* v) const {
    const Node* n = v->node();
    if (n->kind() == prim::Param || n->kind() == prim::Return) return false;
    if (n->outputs().size() != 1) return false;
    if (v->uses().size() != 1) return false;
    const Use& use = v->uses()[0];
    if (v->hasDebugName() && use.user->kind() != prim::Return) return false;
    if (!n->blocks().empty()) return false;
    if (use.user->kind() == prim::Loop && use.offset >= 2) return false;
    if (use.user->kind() == prim::fork) return false;
    if (n->kind() == prim::isinstance) return false;
    return true;
  }

  Node* scanValue(Node* blockPoint, Value* v) {
    Node* n = v->node();
    if (n == blockPoint && canInline(v)) {
      blockPoint = scanNode(blockPoint);
      inlined_.insert(n);
    } else if (isConstant(n)) {
      inlined_.insert(n);
    }
    return blockPoint;
  }

  static Node* previousNonConstant(Node* n) {
    do {
      n = n->prev();
    } while (n && isConstant(n));
    return n;
  }

  Node* scanNode(Node* n) {
    if (inlined_.count(n)) return n;
    for (Block* b : n->blocks()) scanBlock(b);
    Node* blockPoint = previousNonConstant(n);
    const auto& ins = n->inputs();
    for (auto it = ins.rbegin(); it != ins.rend(); ++it) blockPoint = scanValue(blockPoint, *it);
    return blockPoint;
  }

  void scanBlock(Block* b) {
    scanNode(b->returnNode());
    for (Node* n = b->lastNode(); n && n != b->paramNode(); n = n->prev()) scanNode(n);
  }

  // ------------------------------------------------------------------ constants
  void buildConstantList(Node* n, std::vector<Node*>& out, std::unordered_set<Node*>& seen) {
    for (Value* in : n->inputs())
      if (isConstant(in->node()) && seen.insert(in->node()).second) out.push_back(in->node());
    for (Block* b : n->blocks()) buildConstantList(b, out, seen);
  }
  void buildConstantList(Block* b, std::vector<Node*>& out, std::unordered_set<Node*>& seen) {
    for (Node* n : *b) buildConstantList(n, out, seen);
    buildConstantList(b->returnNode(), out, seen);
  }

  // ------------------------------------------------------------------ statements
  void indent() {
    for (size_t i = 0; i < level_; ++i) body += "  ";
  }

  // Argument `index` of a call of `callee` (its schema's index; null callee: unknown): `name=value` for a
  // keyword-only parameter, which torch's parser refuses positionally, else the value.
  std::string callArgument(const Function* callee, size_t index, Value* v) const {
    if (callee) {
      const auto& args = callee->getSchema().arguments;
      if (index < args.size() && args[index].kwargOnly) return args[index].name + "=" + useOf(v);
    }
    return useOf(v);
  }

  std::string valueList(const std::vector<Value*>& vs, size_t from = 0) const {
    std::string s;
    for (size_t i = from; i < vs.size(); ++i) {
      if (i > from) s += ", ";
      s += useOf(vs[i]);
    }
    return s;
  }

  void printAssignment(const std::vector<Value*>& lhs, const std::vector<Value*>& rhs, size_t from = 0) {
    if (lhs.size() <= from) return;
    indent();
    body += valueList(lhs, from);
    // A single Union/Optional variable keeps its type: annotated at its first assignment (not in tuple
    // assignments, which Python cannot annotate; not for loop variables, which alias the loop's outputs).
    if (lhs.size() - from == 1) {
      Value* v = lhs[from];
      TypeKind k = v->type()->kind();
      if ((k == TypeKind::Union || k == TypeKind::Optional) && !aliases_.count(v) && annotatedUnions_.insert(v).second)
        body += " : " + v->type()->annotationStr();
    }
    body += " = " + valueList(rhs, from) + "\n";
  }

  // The type the reader gives a printed value: a None constant reads as NoneType whatever its IR type.
  static const Type& printedType(const Value* v) {
    if (v->node()->kind() == prim::Constant) {
      std::optional<IValue> c = v->constantValue();
      if (c && c->isNone() && v->type()->kind() != TypeKind::Function) return *NoneType();
    }
    return *v->type();
  }

  void printAnnotatedAssignment(const std::vector<Value*>& lhs, const std::vector<Value*>& rhs) {
    for (size_t i = 0; i < lhs.size(); ++i) {
      indent();
      body += useOf(lhs[i]);
      if (!lhs[i]->type()->equals(printedType(rhs[i]))) body += ": " + lhs[i]->type()->annotationStr();
      body += " = " + useOf(rhs[i]) + "\n";
    }
  }

  void printIf(Node* n) {
    assignNames(n->outputs());
    indent();
    body += "if " + useOf(n->input(0)) + ":\n";
    for (size_t bi = 0; bi < 2; ++bi) {
      if (bi == 1) {
        indent();
        body += "else:\n";
      }
      ++level_;
      Block* b = n->block(bi);
      printBlock(b, !n->outputs().empty());
      printAssignment(n->outputs(), b->outputs());
      --level_;
    }
  }

  void printLoop(Node* n) {
    // prim::Loop(max_trip_count, cond, carried...) with block(iter, carried...) -> (cond, carried...)
    Value* maxTrip = n->input(0);
    Value* cond = n->input(1);
    Block* body_ = n->block(0);
    Value* nextCond = body_->outputs().at(0);
    Value* trip = body_->inputs().at(0);
    std::optional<IValue> tripConst = maxTrip->constantValue(), condIn = cond->constantValue(),
                          condNext = nextCond->constantValue();
    bool alwaysTrue = condIn && condIn->isBool() && condIn->toBool() && condNext && condNext->isBool() && condNext->toBool();
    bool tripSpecified = !tripConst || !tripConst->isInt() ||
                         tripConst->toInt() != std::numeric_limits<int64_t>::max() || trip->hasUses();
    bool isFor = alwaysTrue && tripSpecified;
    // A loop with both a trip count and a condition (PyTorch's printer refuses these "ModifiedLoop"s;
    // Kindling's frontend emits them for `for` loops with `break`): written as a while loop that counts.
    bool counted = !alwaysTrue && tripSpecified;
    std::vector<Value*> carriedOut = n->outputs();
    std::vector<Value*> carriedIn(n->inputs().begin() + 2, n->inputs().end());
    assignNames(carriedOut);
    for (size_t i = 0; i < carriedOut.size(); ++i) {
      names_[body_->inputs()[i + 1]] = useOf(carriedOut[i]);
      aliases_.insert(body_->inputs()[i + 1]);
    }
    printAnnotatedAssignment(carriedOut, carriedIn);
    assignNames({trip});
    if (counted) {
      std::string maxName = useOf(maxTrip);
      if (!isValidIdentifier(maxName) && !isConstant(maxTrip->node())) {
        std::string tmp = genName("_");
        indent();
        body += tmp + " = " + maxName + "\n";
        maxName = tmp;
      }
      std::string condName = genName("_");
      indent();
      body += useOf(trip) + " = 0\n";
      indent();
      body += condName + " = torch.__and__(torch.lt(" + useOf(trip) + ", " + maxName + "), " + useOf(cond) + ")\n";
      indent();
      body += "while " + condName + ":\n";
      ++level_;
      printBlock(body_, true);
      indent();
      std::string next = "torch.add(" + useOf(trip) + ", 1)";
      body += condName + ", " + useOf(trip);
      for (size_t i = 1; i < body_->inputs().size(); ++i) body += ", " + useOf(body_->inputs()[i]);
      body += " = torch.__and__(torch.lt(" + next + ", " + maxName + "), " + useOf(nextCond) + "), " + next;
      for (size_t i = 1; i < body_->outputs().size(); ++i) body += ", " + useOf(body_->outputs()[i]);
      body += "\n";
      --level_;
      return;
    }
    if (isFor) {
      indent();
      body += "for " + useOf(trip) + " in range(" + useOf(maxTrip) + "):\n";
    } else {
      printAssignment({trip}, {cond});
      indent();
      body += "while " + useOf(trip) + ":\n";
    }
    ++level_;
    size_t offset = isFor ? 1 : 0;
    printBlock(body_, body_->inputs().size() > offset);
    printAssignment(body_->inputs(), body_->outputs(), offset);
    --level_;
  }

  bool isLongLine(const std::string& s) const { return s.size() + level_ * 2 >= 40; }
  bool isNonConstantInline(const Value* v) const { return !isConstant(v->node()) && inlined_.count(v->node()); }

  void splitLongInlines(Value* v) {
    std::vector<Value*> toSplit;
    const Use& u = v->uses().at(0);
    scanLongInlines(u.user, static_cast<int64_t>(u.offset), toSplit);
    for (auto it = toSplit.rbegin(); it != toSplit.rend(); ++it) {
      std::string expr = useOf(*it);
      printOutputDefinition((*it)->node(), expr);
    }
  }

  void scanLongInlines(Node* user, int64_t offset, std::vector<Value*>& toSplit) {
    auto it = splitVisited_.find(user);
    bool present = it != splitVisited_.end();
    int64_t stop = present ? it->second + 1 : 0;
    for (int64_t i = offset; i >= stop; --i) {
      Value* prev = user->input(static_cast<size_t>(i));
      if (isNonConstantInline(prev)) toSplit.push_back(prev);
    }
    splitVisited_[user] = offset;
    if (!present && inlined_.count(user)) {
      const Use& u = user->output()->uses().at(0);
      scanLongInlines(u.user, static_cast<int64_t>(u.offset) - 1, toSplit);
    }
  }

  void printOutputDefinition(Node* n, const std::string& expr) {
    // A value printed as a statement is referred to by its name from now on.
    for (Value* o : n->outputs()) exprs_.erase(o);
    assignNames(n->outputs());
    indent();
    if (!n->outputs().empty()) body += valueList(n->outputs()) + " = ";
    body += expr + "\n";
  }

  // PythonPrint::checkVersion with 1.13's operator version map (see minVersion() in the header).
  void checkVersion(const Node* n) {
    const FunctionSchema* schema = n->schema();
    if (!schema) return;
    const std::string& name = schema->name;
    const std::string& ov = schema->overloadName;
    uint64_t v = 0;
    if (name == "aten::div" || name == "aten::div_") v = 4;
    else if (name == "aten::full" && (ov.empty() || ov == "out")) v = 5;
    else if (name == "aten::linspace" && (ov.empty() || ov == "out")) v = 8;
    else if (name == "aten::logspace" && (ov.empty() || ov == "out")) v = 9;
    else if (name == "aten::gelu" && (ov.empty() || ov == "out")) v = 10;
    minVersion = std::max(minVersion, v);
  }

  void printNode(Node* n, bool printConst) {
    scanTypeDependencies(n);
    checkVersion(n);
    if (!printConst && isConstant(n)) return;
    Symbol k = n->kind();
    if (k == prim::Return) {
      if (!n->inputs().empty()) {
        indent();
        body += "return " + valueList(n->inputs()) + "\n";
      }
      return;
    }
    if (k == prim::Loop) return printLoop(n);
    if (k == prim::If) return printIf(n);
    if (k == prim::Try)  // TorchScript has no try statement: PyTorch could not compile what we wrote
      throw CompileError("'try' statements cannot be saved: PyTorch's TorchScript has no try/except, so "
                         "an archive holding one would not load in PyTorch",
                         n->sourceRange());
    if (k == prim::TupleUnpack || k == prim::ListUnpack) {
      assignNames(n->outputs());
      indent();
      if (!n->outputs().empty()) body += valueList(n->outputs()) + ", = ";
      body += useOf(n->input(0)) + "\n";
      return;
    }
    if (k == prim::SetAttr) {
      indent();
      body += useOf(n->input(0)) + "." + n->s("name") + " = " + useOf(n->input(1)) + "\n";
      return;
    }
    if (k == prim::fork) {
      // The forked call's subgraph becomes a local function: `def __forked_function(): ...` then
      // `fut = fork(__forked_function)`; the subgraph's inputs are the values it captures.
      std::shared_ptr<Graph> sub = subgraphOf(n);
      if (!sub) throw Error("code printer: prim::fork without a subgraph");
      std::string name = genName("__forked_function");
      indent();
      body += "def " + name + "():\n";
      for (size_t i = 0; i < sub->inputs().size() && i < n->inputs().size(); ++i)
      {
        names_[sub->inputs()[i]] = useOf(n->input(i));
        aliases_.insert(sub->inputs()[i]);
      }
      printBody(sub->block());
      printOutputDefinition(n, "fork(" + name + ")");
      return;
    }
    if (k == prim::Enter) {
      indent();
      body += "with " + useOf(n->input(0));
      if (n->output(0)->hasUses()) {
        names_[n->output(0)] = genUniqueNameFor(n->output(0));
        body += " as " + useOf(n->output(0));
      }
      body += ":\n";
      ++level_;
      return;
    }
    if (k == prim::Exit) {
      if (n->prev() && n->prev()->kind() == prim::Enter) {
        indent();
        body += "pass\n";
      }
      if (level_ > 0) --level_;
      return;
    }
    if (k == prim::ModuleContainerIndex) {
      Value* out = n->output(0);
      assignNames({out});
      indent();
      body += useOf(out) + " : " + out->type()->annotationStr() + " = " + useOf(n->input(0)) + "[" +
              useOf(n->input(1)) + "]\n";
      return;
    }
    std::string rhs = printRHS(n);
    if (!inlined_.count(n) || (isConstant(n) && isLongLine(rhs))) {
      printOutputDefinition(n, rhs);
    } else {
      exprs_[n->output(0)] = rhs;
      if (isLongLine(rhs)) splitLongInlines(n->output(0));
    }
  }

  void printBlock(Block* b, bool hasOtherStatements) {
    if (!hasOtherStatements && b->empty()) {
      indent();
      body += "pass\n";
    }
    for (Node* n : *b) printNode(n, false);
  }

  void printBody(Block* b) {
    std::vector<Node*> constants;
    std::unordered_set<Node*> seen;
    buildConstantList(b, constants, seen);
    scanBlock(b);
    ++level_;
    for (Node* c : constants) printNode(c, true);
    printBlock(b, !b->returnNode()->inputs().empty());
    printNode(b->returnNode(), false);
    --level_;
  }

  void printDefaultValue(const Argument& arg) {
    body += "=";
    std::string s;
    std::optional<IValue> d = schemaDefault(arg);
    printConstantTo(s, *d, table_);
    body += s;
  }

  // ------------------------------------------------------------------ expressions
  static std::string opName(Symbol kind) {
    if (kind.toQualString() == "aten::backward") return "torch.autograd.backward";
    if (kind.toQualString() == "aten::grad") return "torch.autograd.grad";
    if (kind.isAten()) return "torch." + kind.unqualName();
    return "ops." + kind.ns() + "." + kind.unqualName();
  }

  std::string callList(const Node* n, const char* open, const char* close) const {
    return open + valueList(n->inputs()) + close;
  }

  std::string printRHS(Node* n) {
    Symbol k = n->kind();
    const std::string& q = k.toQualString();
    if (k == prim::Uninitialized) {
      // NoneType has one value: PyTorch's importer treats NoneType values as the constant None (an
      // uninitialized(NoneType) fails its constant propagation), so print that value.
      if (n->output(0)->type()->kind() == TypeKind::None) return "None";
      return "uninitialized(" + n->output(0)->type()->annotationStr() + ")";
    }
    if (k == prim::Constant) {
      Value* out = n->output(0);
      if (const auto* ft = out->type()->cast<FunctionType>()) {
        if (ft->function()) {
          addDependency(out->type());
          return ft->function()->qualname();
        }
        if (n->hasAttribute("name")) return n->s("name");
      }
      std::optional<IValue> v = out->constantValue();
      if (!v || v->isNone()) return "None";
      std::string s;
      printConstantTo(s, *v, table_);
      return s;
    }
    if (q == "aten::ScalarImplicit" || q == "aten::FloatImplicit" || q == "aten::IntImplicit")
      return "annotate(" + n->output(0)->type()->annotationStr() + ", " + useOf(n->input(0)) + ")";
    if (q == "aten::Int") return callList(n, "int(", ")");
    if (q == "aten::Float") return callList(n, "float(", ")");
    if (q == "aten::Bool") return callList(n, "bool(", ")");
    if (q == "aten::str") return callList(n, "str(", ")");
    if (q == "aten::__getitem__") {
      std::string base = useOf(n->input(0));
      if (!isValidIdentifier(base)) base = "(" + base + ")";
      return base + "[" + useOf(n->input(1)) + "]";
    }
    if (k == prim::Print) return callList(n, "print(", ")");
    if (q == "aten::sorted") return callList(n, "sorted(", ")");
    if (k == prim::TupleConstruct) {
      std::string s;
      if (const auto* tt = n->output(0)->type()->cast<TupleType>(); tt && tt->qualName()) s = tt->annotationStr();
      return s + callList(n, "(", n->inputs().size() == 1 ? ",)" : ")");
    }
    if (k == prim::TupleIndex) return "(" + useOf(n->input(0)) + ")[" + useOf(n->input(1)) + "]";
    if (k == prim::TupleSlice)
      return "(" + useOf(n->input(0)) + ")[" + std::to_string(n->i("beg")) + ":" + std::to_string(n->i("end")) + "]";
    if (k == prim::ListConstruct) {
      const TypePtr& t = n->output(0)->type();
      const auto* lt = t->cast<ListType>();
      if (n->inputs().empty()) return "annotate(" + t->annotationStr() + ", [])";
      if (lt && !elementTypeInferable(lt->elementType())) return "annotate(" + t->annotationStr() + ", " + callList(n, "[", "]") + ")";
      return callList(n, "[", "]");
    }
    if (k == prim::DictConstruct) {
      const TypePtr& t = n->output(0)->type();
      const auto* dt = t->cast<DictType>();
      std::string s = "{";
      for (size_t i = 0; i + 1 < n->inputs().size(); i += 2) {
        if (i) s += ", ";
        s += useOf(n->input(i)) + ": " + useOf(n->input(i + 1));
      }
      s += "}";
      if (n->inputs().empty() || (dt && (!elementTypeInferable(dt->keyType()) || !elementTypeInferable(dt->valueType()))))
        return "annotate(" + t->annotationStr() + ", " + s + ")";
      return s;
    }
    if (k == prim::CreateObject) {
      std::string c = n->output(0)->type()->annotationStr();
      return c + ".__new__(" + c + ")";
    }
    if (k == prim::GetAttr) {
      const std::string& field = n->s("name");
      if (isValidIdentifier(field)) return useOf(n->input(0)) + "." + field;
      return "getattr(" + useOf(n->input(0)) + ", " + quotedString(field) + ")";
    }
    if (k == prim::CallFunction) {
      const Function* callee = nullptr;
      if (auto* ft = n->input(0)->type()->cast<FunctionType>()) callee = ft->function();
      std::string s = useOf(n->input(0)) + "(";
      for (size_t i = 1; i < n->inputs().size(); ++i) s += callArgument(callee, i - 1, n->input(i)) + ", ";
      return s + ")";
    }
    if (k == prim::CallMethod) {
      const Function* callee = nullptr;
      if (auto* ct = n->input(0)->type()->cast<ClassType>()) callee = ct->findMethod(n->s("name"));
      std::string s = "(" + useOf(n->input(0)) + ")." + n->s("name") + "(";
      for (size_t i = 1; i < n->inputs().size(); ++i) s += callArgument(callee, i, n->input(i)) + ", ";
      addDependency(n->input(0)->type());
      return s + ")";
    }
    if (q == "aten::_unwrap_optional") {
      Value* in = n->input(0);
      std::optional<IValue> c = in->constantValue();
      if (in->type()->kind() == TypeKind::None || (c && c->isNone()))
        return opName(k) + "(annotate(" + OptionalType::create(n->output(0)->type())->annotationStr() + ", " +
               useOf(in) + "))";
      return opName(k) + "(" + useOf(in) + ")";
    }
    if (k == prim::unchecked_cast || q == "prim::unchecked_unwrap_optional") {
      // A value refined to NoneType is None (PyTorch's refinement inserts the constant; its importer
      // cannot constant-propagate an unchecked_cast to NoneType).
      if (n->output(0)->type()->kind() == TypeKind::None) return "None";
      return "unchecked_cast(" + n->output(0)->type()->annotationStr() + ", " + useOf(n->input(0)) + ")";
    }
    if (k == prim::isinstance) {
      std::string s = "isinstance(" + useOf(n->input(0)) + ", ";
      const auto& ts = n->tys("types");
      if (ts.size() == 1) {
        s += ts[0]->annotationStr();
      } else {
        s += "(";
        for (size_t i = 0; i < ts.size(); ++i) s += (i ? ", " : "") + ts[i]->annotationStr();
        s += ")";
      }
      return s + ")";
    }
    if (q == "prim::tolist")
      return "annotate(" + n->output(0)->type()->annotationStr() + ", " + useOf(n->input(0)) + ".tolist())";
    if (k == prim::EnumValue) return "(" + useOf(n->input(0)) + ").value";
    if (k == prim::EnumName) return "(" + useOf(n->input(0)) + ").name";

    // An operator call: torch.<name>(...) / ops.<ns>.<name>(...), trailing defaults dropped.
    std::string s = opName(k) + "(";
    const FunctionSchema* schema = n->schema();
    if (!schema) return s + valueList(n->inputs()) + ")";
    auto [necessary, numOut] = necessaryArguments(*schema, n->inputs());
    const auto& args = schema->arguments;
    for (size_t i = 0; i < necessary; ++i) {
      if (i) s += ", ";
      if (i < args.size() && args[i].kwargOnly) s += args[i].name + "=";
      s += useOf(n->input(i));
    }
    for (size_t i = args.size() - numOut; i < args.size(); ++i) {
      size_t inputIdx = n->inputs().size() - (args.size() - i);
      if (inputIdx < n->inputs().size()) {
        s += ", ";
        s += args[i].name + "=" + useOf(n->input(inputIdx));
      }
    }
    return s + ")";
  }
};

PythonPrinter::PythonPrinter(std::vector<IValue>* constantTable)
    : impl_(std::make_unique<PythonPrinterImpl>(constantTable)) {}
PythonPrinter::~PythonPrinter() = default;

void PythonPrinter::printFunction(const Function& fn) { impl_->printFunction(fn, true); }
void PythonPrinter::printMethod(const Function& fn) { impl_->printFunction(fn, false); }
void PythonPrinter::printClass(const ClassTypePtr& cls) { impl_->printClass(cls); }
void PythonPrinter::printNamedType(const TypePtr& type) { impl_->printNamedType(type); }
std::string PythonPrinter::str() const { return impl_->body; }
const std::vector<TypePtr>& PythonPrinter::dependencies() const { return impl_->deps; }
uint64_t PythonPrinter::minVersion() const { return impl_->minVersion; }

std::string pythonCodeOf(const Function& fn, bool isMethod) {
  std::vector<IValue> table;
  PythonPrinter p(&table);
  if (isMethod)
    p.printMethod(fn);
  else
    p.printFunction(fn);
  return p.str();
}

std::string qualifiedNameOf(const TypePtr& type) {
  if (const auto* c = type->cast<ClassType>()) return c->qualName();
  if (const auto* e = type->cast<EnumType>()) return e->qualName();
  if (const auto* t = type->cast<TupleType>(); t && t->qualName()) return *t->qualName();
  if (const auto* f = type->cast<FunctionType>(); f && f->function()) return f->function()->qualname();
  throw Error("type " + type->str() + " has no qualified name");
}

std::vector<CodeFile> printCodeFiles(const std::vector<TypePtr>& roots, std::vector<IValue>* constantTable,
                                     uint64_t* minVersion) {
  std::vector<std::string> order;  // file prefixes in first-use order
  std::unordered_map<std::string, std::unique_ptr<PythonPrinter>> printers;
  std::unordered_set<std::string> done;
  std::vector<TypePtr> todo(roots.begin(), roots.end());
  uint64_t version = 0;
  for (size_t i = 0; i < todo.size(); ++i) {
    TypePtr t = todo[i];
    std::string qual = qualifiedNameOf(t);
    if (!done.insert(qual).second) continue;
    size_t dot = qual.rfind('.');
    std::string prefix = dot == std::string::npos ? qual : qual.substr(0, dot);
    auto& printer = printers[prefix];
    if (!printer) {
      printer = std::make_unique<PythonPrinter>(constantTable);
      order.push_back(prefix);
    }
    size_t seen = printer->dependencies().size();
    printer->printNamedType(t);
    const auto& deps = printer->dependencies();
    // A printer's dependency list grows across its definitions; the new entries are this type's.
    for (size_t d = seen; d < deps.size(); ++d) todo.push_back(deps[d]);
    // Types seen earlier by this printer were queued when first seen.
    version = std::max(version, printer->minVersion());
  }
  std::vector<CodeFile> files;
  for (const std::string& prefix : order) {
    std::string path = prefix;
    std::replace(path.begin(), path.end(), '.', '/');
    files.push_back({path + ".py", printers[prefix]->str()});
  }
  if (minVersion) *minVersion = version;
  return files;
}

std::string pythonConstantString(const IValue& v, std::vector<IValue>* constantTable) {
  std::string s;
  printConstantTo(s, v, constantTable);
  return s;
}

}  // namespace kindling
