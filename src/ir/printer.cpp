// Graph printer in PyTorch's format (see ir/printer.h).
#include "ir/printer.h"
#include "ir/subgraph.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "ir/ir.h"
#include "tensor/tensor.h"
#include "tensor/tensor_print.h"

namespace kindling {


static std::string shortDouble(double d) {
  std::ostringstream ss;
  ss << d;  // ostream default: 6 significant digits, as at::Tensor printing of a boxed scalar
  return ss.str();
}

// As printAttribute(std::ostream&, const at::Tensor&) in torch/csrc/jit/ir/ir.cpp: one element → "{v}",
// up to 10 elements → ATen's print with newlines as spaces, more → "<Tensor>".
static std::string tensorAttrString(const Tensor& t) {
  if (!t.defined()) return "None";
  if (t.numel() == 1) {
    Scalar s = t.item();
    if (s.isFloatingPoint()) return fmt::format("{{{}}}", shortDouble(s.toDouble()));
    return fmt::format("{{{}}}", s.toLong());
  }
  if (t.numel() <= 10) {
    std::string str = tensorPrintForIValue(IValue(t));
    for (char& c : str)
      if (c == '\n') c = ' ';
    return str;
  }
  return "<Tensor>";
}

std::string graphValueString(const IValue& v) {
  switch (v.tag()) {
    case IValue::Tag::None: return "None";
    case IValue::Tag::Int: return std::to_string(v.toInt());
    case IValue::Tag::Double: return graphFloatStr(v.toDouble());
    case IValue::Tag::Bool: return v.toBool() ? "True" : "False";
    case IValue::Tag::String: return quotedString(v.toStringRef());
    case IValue::Tag::Device: return v.toDevice().str();
    case IValue::Tag::Tensor: return tensorAttrString(v.toTensor());
    case IValue::Tag::Tuple: {
      const auto& e = v.toTupleRef().elements;
      std::string s = "(";
      for (size_t i = 0; i < e.size(); ++i) s += (i ? ", " : "") + graphValueString(e[i]);
      if (e.size() == 1) s += ",";
      return s + ")";
    }
    case IValue::Tag::List: {
      const auto& e = v.toListRef().elements;
      std::string s = "[";
      for (size_t i = 0; i < e.size(); ++i) s += (i ? ", " : "") + graphValueString(e[i]);
      return s + "]";
    }
    case IValue::Tag::Dict: {
      std::string s = "{";
      bool first = true;
      for (const auto& kv : v.toDictRef().items()) {
        if (!first) s += ", ";
        first = false;
        s += graphValueString(kv.first) + ": " + graphValueString(kv.second);
      }
      return s + "}";
    }
    case IValue::Tag::Enum: {
      const auto& e = *v.toEnum();
      return (e.type ? e.type->qualName() : std::string("?")) + "." + e.name;  // as print(fn.graph) shows it
    }
    case IValue::Tag::Object: return "<" + v.toObjectRef().type->qualName() + " object>";
    default: return std::string("<") + v.tagName() + ">";
  }
}

// Attribute value as Node::printAttrValue prints it. Constants store bools and ints as "i" attributes
// in PyTorch (printed 1/0) and devices as "s" attributes (printed quoted).
static std::string attrValueString(const Node* n, const std::string& name) {
  if (n->hasTypeAttribute(name)) return n->ty(name)->str();
  if (n->hasTypeListAttribute(name)) {
    std::string s = "[";
    const auto& ts = n->tys(name);
    for (size_t i = 0; i < ts.size(); ++i) s += (i ? ", " : "") + ts[i]->str();
    return s + "]";
  }
  const IValue& v = n->ival(name);
  if (v.isBool()) return v.toBool() ? "1" : "0";
  if (v.isDevice()) return quotedString(v.toDevice().str());
  return graphValueString(v);
}

static std::string typeString(const Value* v) { return v->type() ? v->type()->str() : std::string("Tensor"); }

static void printValueList(std::ostream& out, const std::vector<Value*>& vs, bool withTypes) {
  for (size_t i = 0; i < vs.size(); ++i) {
    if (i) out << ", ";
    out << "%" << vs[i]->debugName();
    if (withTypes) out << " : " << typeString(vs[i]);
  }
}

// `groups` collects nodes with a subgraph (prim::fork): they print as "prim::fork_<i>" and their graphs
// follow the main graph as "with prim::fork_<i> = graph(...)" (PyTorch's Node::print / Graph::print).
using SubgraphNodes = std::vector<const Node*>;
static void printNode(std::ostream& out, const Node* n, size_t indent, bool locs, SubgraphNodes* groups = nullptr);

static void printBlock(std::ostream& out, const Block* b, size_t index, size_t indent, bool locs, SubgraphNodes* groups) {
  out << std::string(indent, ' ') << "block" << index << "(";
  printValueList(out, b->inputs(), true);
  out << "):\n";
  for (Node* n : *b) printNode(out, n, indent + 2, locs, groups);
  out << std::string(indent + 2, ' ') << "-> (";
  printValueList(out, b->outputs(), false);
  out << ")\n";
}

static void printNode(std::ostream& out, const Node* n, size_t indent, bool locs, SubgraphNodes* groups) {
  out << std::string(indent, ' ');
  printValueList(out, n->outputs(), true);
  out << " = " << n->kind().toQualString();
  bool hasSubgraph = subgraphOf(n) != nullptr;
  if (hasSubgraph && groups) {
    out << "_" << groups->size();
    groups->push_back(n);
  }
  std::vector<std::string> names;
  for (const std::string& a : n->attributeNames())
    if (!isSubgraphAttribute(n, a)) names.push_back(a);
  if (!names.empty()) {
    out << "[";
    for (size_t i = 0; i < names.size(); ++i) {
      if (i) out << ", ";
      out << names[i] << "=" << attrValueString(n, names[i]);
    }
    out << "]";
  }
  out << "(";
  printValueList(out, n->inputs(), false);
  out << ")";
  if (locs && n->sourceRange().valid()) {
    std::string loc = n->sourceRange().location();
    if (!loc.empty()) out << " # " << loc;
  }
  out << "\n";
  for (size_t i = 0; i < n->blocks().size(); ++i) printBlock(out, n->blocks()[i], i, indent + 2, locs, groups);
}

std::string nodeToString(const Node* n, size_t indent, bool printSourceLocations) {
  std::ostringstream out;
  printNode(out, n, indent, printSourceLocations);
  return out.str();
}

std::string Graph::toString(bool printSourceLocations) const {
  std::ostringstream out;
  out << "graph(";
  const auto& ins = inputs();
  for (size_t i = 0; i < ins.size(); ++i) {
    if (i) out << ",\n      ";
    out << "%" << ins[i]->debugName() << " : " << typeString(ins[i]);
  }
  out << "):\n";
  SubgraphNodes groups;
  for (Node* n : *block_) printNode(out, n, 2, printSourceLocations, &groups);
  out << "  return (";
  printValueList(out, outputs(), false);
  out << ")\n";
  for (size_t i = 0; i < groups.size(); ++i)
    out << "with " << groups[i]->kind().toQualString() << "_" << i << " = "
        << subgraphOf(groups[i])->toString(printSourceLocations);
  return out.str();
}

}  // namespace kindling
