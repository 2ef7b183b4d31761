// Syntactic queries on statement lists (see control_flow_analysis.h).
#include "frontend/emitter/control_flow_analysis.h"

#include <functional>

#include "frontend/type_parser.h"

namespace kindling::emitter {

namespace {
/// Every statement list of a try statement: the body, each handler, else, finally.
std::vector<const StmtList*> tryClauses(const TryStmt& s) {
  std::vector<const StmtList*> out{&s.body};
  for (auto& h : s.handlers) out.push_back(&h.body);
  out.push_back(&s.orelse);
  out.push_back(&s.finalbody);
  return out;
}
}  // namespace

bool isRaiseCall(const StmtPtr& s) {
  if (s->kind != StmtKind::Expr) return false;
  const ExprPtr& e = s->as<ExprStmt>().value;
  if (e->kind != ExprKind::Call) return false;
  return dottedName(e->as<CallExpr>().func) == "ops.prim.RaiseException";
}

unsigned terminates(const StmtList& stmts) {
  for (auto& s : stmts) {
    switch (s->kind) {
      case StmtKind::Return: return TermReturn;
      case StmtKind::Raise: return TermRaise;
      case StmtKind::Continue: return TermContinue;
      case StmtKind::Break: return TermBreak;
      case StmtKind::If: {
        auto& i = s->as<IfStmt>();
        unsigned a = terminates(i.body), b = terminates(i.orelse);
        if (a && b) return a | b;
        break;
      }
      case StmtKind::Expr:
        if (isRaiseCall(s)) return TermRaise;
        break;
      case StmtKind::Try: {
        auto& ts = s->as<TryStmt>();
        if (unsigned f = terminates(ts.finalbody)) return f;
        // the body (or else) ends every normal path and every handler ends the paths that raise
        unsigned b = terminates(ts.body);
        if (!b && !ts.orelse.empty()) b = terminates(ts.orelse);
        if (!b || ts.handlers.empty()) return b ? b : TermNone;
        for (auto& h : ts.handlers) {
          unsigned x = terminates(h.body);
          if (!x) { b = TermNone; break; }
          b |= x;
        }
        if (b) return b;
        break;
      }
      default: break;
    }
  }
  return TermNone;
}

namespace {

// Calls leaf(e) for each element of the assignment target `t` that is not a tuple, list or starred target.
void forEachTargetLeaf(const ExprPtr& t, const std::function<void(const Expr&)>& leaf) {
  if (!t) return;
  switch (t->kind) {
    case ExprKind::Tuple: case ExprKind::List:
      for (auto& e : t->as<SequenceExpr>().elts) forEachTargetLeaf(e, leaf);
      break;
    case ExprKind::Starred: forEachTargetLeaf(t->as<StarredExpr>().value, leaf); break;
    default: leaf(*t); break;
  }
}


// Calls target(t) for every assignment target of the list, nested blocks included, and name(n) for the
// names it binds otherwise (an except clause's `as n`).
void forEachTarget(const StmtList& stmts, const std::function<void(const ExprPtr&)>& target,
                   const std::function<void(const std::string&)>& name) {
  for (auto& s : stmts) {
    switch (s->kind) {
      case StmtKind::Assign:
        for (auto& t : s->as<AssignStmt>().targets) target(t);
        break;
      case StmtKind::AugAssign: target(s->as<AugAssignStmt>().target); break;
      case StmtKind::If:
        forEachTarget(s->as<IfStmt>().body, target, name);
        forEachTarget(s->as<IfStmt>().orelse, target, name);
        break;
      case StmtKind::For:
        target(s->as<ForStmt>().target);
        forEachTarget(s->as<ForStmt>().body, target, name);
        forEachTarget(s->as<ForStmt>().orelse, target, name);
        break;
      case StmtKind::While:
        forEachTarget(s->as<WhileStmt>().body, target, name);
        forEachTarget(s->as<WhileStmt>().orelse, target, name);
        break;
      case StmtKind::Try:
        for (auto& h : s->as<TryStmt>().handlers)
          if (!h.name.empty()) name(h.name);
        for (const StmtList* c : tryClauses(s->as<TryStmt>())) forEachTarget(*c, target, name);
        break;
      case StmtKind::With:
        for (auto& i : s->as<WithStmt>().items) target(i.target);
        forEachTarget(s->as<WithStmt>().body, target, name);
        break;
      default: break;
    }
  }
}

}  // namespace

void collectTargetNames(const ExprPtr& t, std::set<std::string>& out) {
  forEachTargetLeaf(t, [&](const Expr& e) {
    if (e.kind == ExprKind::Name) out.insert(e.as<NameExpr>().id);
  });
}

void assignedNames(const StmtList& stmts, std::set<std::string>& out) {
  forEachTarget(stmts, [&](const ExprPtr& t) { collectTargetNames(t, out); },
                [&](const std::string& n) { out.insert(n); });
}

void assignedAttributeNames(const StmtList& stmts, std::set<std::string>& out) {
  forEachTarget(
      stmts,
      [&](const ExprPtr& t) {
        forEachTargetLeaf(t, [&](const Expr& e) {
          if (e.kind == ExprKind::Attribute) out.insert(e.as<AttributeExpr>().attr);
        });
      },
      [](const std::string&) {});
}

bool containsBreak(const StmtList& stmts) {
  for (auto& s : stmts) {
    if (s->kind == StmtKind::Break) return true;
    if (s->kind == StmtKind::If && (containsBreak(s->as<IfStmt>().body) || containsBreak(s->as<IfStmt>().orelse)))
      return true;
    if (s->kind == StmtKind::With && containsBreak(s->as<WithStmt>().body)) return true;
    // a nested loop's else clause runs in this loop
    if (s->kind == StmtKind::For && containsBreak(s->as<ForStmt>().orelse)) return true;
    if (s->kind == StmtKind::While && containsBreak(s->as<WhileStmt>().orelse)) return true;
    if (s->kind == StmtKind::Try)
      for (const StmtList* c : tryClauses(s->as<TryStmt>()))
        if (containsBreak(*c)) return true;
  }
  return false;
}

bool containsReturn(const StmtList& stmts) {
  for (auto& s : stmts) {
    switch (s->kind) {
      case StmtKind::Return: return true;
      case StmtKind::If:
        if (containsReturn(s->as<IfStmt>().body) || containsReturn(s->as<IfStmt>().orelse)) return true;
        break;
      case StmtKind::For:
        if (containsReturn(s->as<ForStmt>().body) || containsReturn(s->as<ForStmt>().orelse)) return true;
        break;
      case StmtKind::While:
        if (containsReturn(s->as<WhileStmt>().body) || containsReturn(s->as<WhileStmt>().orelse)) return true;
        break;
      case StmtKind::With: if (containsReturn(s->as<WithStmt>().body)) return true; break;
      case StmtKind::Try:
        for (const StmtList* c : tryClauses(s->as<TryStmt>()))
          if (containsReturn(*c)) return true;
        break;
      default: break;
    }
  }
  return false;
}

bool containsContinue(const StmtList& stmts) {
  for (auto& s : stmts) {
    switch (s->kind) {
      case StmtKind::Continue: return true;
      case StmtKind::If:
        if (containsContinue(s->as<IfStmt>().body) || containsContinue(s->as<IfStmt>().orelse)) return true;
        break;
      case StmtKind::With: if (containsContinue(s->as<WithStmt>().body)) return true; break;
      case StmtKind::For: if (containsContinue(s->as<ForStmt>().orelse)) return true; break;  // runs in this loop
      case StmtKind::While: if (containsContinue(s->as<WhileStmt>().orelse)) return true; break;
      case StmtKind::Try:
        for (const StmtList* c : tryClauses(s->as<TryStmt>()))
          if (containsContinue(*c)) return true;
        break;
      default: break;
    }
  }
  return false;
}

}  // namespace kindling::emitter
