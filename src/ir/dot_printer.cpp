// Graphviz (DOT) printing of a Graph. See dot_printer.h.
#include "ir/dot_printer.h"

#include <unordered_map>

#include "ir/symbol.h"

namespace kindling {

namespace {

/// A DOT double-quoted string: quotes and backslashes escaped, newlines as \n (centered lines).
std::string quoted(const std::string& s) {
  std::string r = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') r += '\\';
    if (c == '\n') { r += "\\n"; continue; }
    r += c;
  }
  return r + "\"";
}

/// A short form of a value for labels, at most 40 characters.
std::string shortRepr(const IValue& v) {
  std::string s;
  try {
    s = v.repr();
  } catch (const Error&) {
    s = v.tagName();
  }
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return s;
}

std::string shortClass(const TypePtr& t) {
  std::string s = t->annotationStr();
  size_t dot = s.rfind('.');
  return dot == std::string::npos ? s : s.substr(dot + 1);
}

class DotPrinter {
 public:
  explicit DotPrinter(std::string& out) : out_(out) {}

  void print(const Graph& g, const std::string& name) {
    out_ += "digraph " + quoted(name) + " {\n";
    out_ += "  graph [rankdir=TB, fontname=\"Helvetica\", fontsize=11, labelloc=t, label=" + quoted(name) + "];\n";
    out_ += "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#eef3fb\", color=\"#5b7db1\", fontname=\"Helvetica\", fontsize=10];\n";
    out_ += "  edge [fontname=\"Helvetica\", fontsize=8, color=\"#555555\"];\n";
    const auto& inputs = g.inputs();
    for (size_t i = 0; i < inputs.size(); ++i) {
      const Value* v = inputs[i];
      std::string id = "in" + std::to_string(i);
      source_[v] = id;
      if (i == 0 && v->type()->kind() == TypeKind::Class && v->type()->cast<ClassType>()->isModule()) path_[v] = "self";
      out_ += "  " + id + " [shape=ellipse, fillcolor=\"#e6f4e6\", color=\"#3b8a3b\", label=" +
              quoted(v->debugName() + " : " + v->type()->annotationStr()) + "];\n";
    }
    printNodes(*g.block(), "  ");
    out_ += "  ret [shape=ellipse, fillcolor=\"#fbeee6\", color=\"#b1705b\", label=\"return\"];\n";
    edgesTo(g.outputs(), "ret", "  ", "");
    out_ += "}\n";
  }

 private:
  void printNodes(const Block& b, const std::string& ind) {
    for (Node* n : b) printNode(*n, ind);
  }

  std::string label(const Node& n) {
    const std::string& kind = n.kind().toQualString();
    static const Symbol kConstant = Symbol::fromQualString("prim::Constant");
    static const Symbol kGetAttr = Symbol::fromQualString("prim::GetAttr");
    static const Symbol kCallMethod = Symbol::fromQualString("prim::CallMethod");
    if (n.kind() == kConstant) {
      if (!n.hasAttribute("value")) return "None";
      return shortRepr(n.ival("value"));
    }
    std::string attrs;
    for (const std::string& a : n.attributeNames()) {
      if (!attrs.empty()) attrs += ", ";
      attrs += a + "=" + shortRepr(n.ival(a));
    }
    std::string l = kind + (attrs.empty() ? "" : "[" + attrs + "]");
    if (n.kind() == kGetAttr && !n.inputs().empty() && n.hasAttribute("name")) {
      auto it = path_.find(n.inputs()[0]);
      if (it != path_.end()) {
        std::string p = it->second + "." + n.s("name");
        const Value* o = n.outputs()[0];
        if (o->type()->kind() == TypeKind::Class && o->type()->cast<ClassType>()->isModule()) {
          path_[o] = p;
          l += "\n" + p + " (" + shortClass(o->type()) + ")";
        } else {
          l += "\n" + p;
        }
      }
    } else if (n.kind() == kCallMethod && !n.inputs().empty()) {
      auto it = path_.find(n.inputs()[0]);
      if (it != path_.end()) l += "\n" + it->second + " (" + shortClass(n.inputs()[0]->type()) + ")";
    }
    return l;
  }

  void printNode(const Node& n, const std::string& ind) {
    std::string id = "n" + std::to_string(nextId_++);
    static const Symbol kConstant = Symbol::fromQualString("prim::Constant");
    const bool constant = n.kind() == kConstant;
    std::string attrs = "label=" + quoted(label(n));
    if (constant) attrs += ", shape=plaintext, style=\"\", fontsize=9";
    if (!n.blocks().empty()) attrs += ", shape=diamond, style=filled, fillcolor=\"#fff6d5\", color=\"#b19a5b\"";
    if (n.sourceRange().valid()) attrs += ", tooltip=" + quoted(n.sourceRange().location());
    out_ += ind + id + " [" + attrs + "];\n";
    edgesTo(n.inputs(), id, ind, "");
    for (const Value* o : n.outputs()) source_[o] = id;
    for (size_t bi = 0; bi < n.blocks().size(); ++bi) {
      const Block& b = *n.blocks()[bi];
      std::string cid = id + "_b" + std::to_string(bi);
      out_ += ind + "subgraph cluster_" + cid + " {\n";
      out_ += ind + "  label=" + quoted(blockTitle(n, bi)) + "; style=\"rounded,dashed\"; color=\"#b19a5b\"; fontsize=9;\n";
      if (!b.inputs().empty()) {
        std::string pid = cid + "_param";
        out_ += ind + "  " + pid + " [shape=point, width=0.08, xlabel=\"param\"];\n";
        for (const Value* v : b.inputs()) source_[v] = pid;
      }
      printNodes(b, ind + "  ");
      std::string rid = cid + "_return";
      out_ += ind + "  " + rid + " [shape=point, width=0.08, xlabel=\"return\"];\n";
      edgesTo(b.outputs(), rid, ind + "  ", "");
      out_ += ind + "}\n";
      out_ += ind + rid + " -> " + id + " [style=dashed, constraint=false, arrowhead=empty];\n";
    }
  }

  static std::string blockTitle(const Node& n, size_t bi) {
    const std::string& kind = n.kind().toQualString();
    if (kind == "prim::If") return bi == 0 ? "prim::If: then" : "prim::If: else";
    if (kind == "prim::Loop") return "prim::Loop: body";
    return kind + ": block " + std::to_string(bi);
  }

  void edgesTo(const std::vector<Value*>& values, const std::string& to, const std::string& ind, const std::string& extra) {
    for (const Value* v : values) {
      auto it = source_.find(v);
      if (it == source_.end()) continue;  // a value from outside the graph (never in a verified graph)
      std::string label = "%";  // built by appending: `"%" + std::string&&` trips GCC 12's -Wrestrict
      label += v->debugName();
      label += " : ";
      label += v->type()->annotationStr();
      out_ += ind + it->second + " -> " + to + " [label=" + quoted(label) + extra + "];\n";
    }
  }

  std::string& out_;
  size_t nextId_ = 0;
  std::unordered_map<const Value*, std::string> source_;  // value -> DOT id of what produces it
  std::unordered_map<const Value*, std::string> path_;    // module values -> "self.a.b"
};

}  // namespace

std::string graphToDot(const Graph& graph, const std::string& name) {
  std::string out;
  DotPrinter(out).print(graph, name);
  return out;
}

}  // namespace kindling
