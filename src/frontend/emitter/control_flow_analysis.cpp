// Syntactic queries on statement lists (see control_flow_analysis.h).
#include "frontend/emitter/control_flow_analysis.h"

#include "frontend/type_parser.h"

namespace kindling::emitter {

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
      default: break;
    }
  }
  return TermNone;
}

void collectTargetNames(const ExprPtr& t, std::set<std::string>& out) {
  if (!t) return;
  switch (t->kind) {
    case ExprKind::Name: out.insert(t->as<NameExpr>().id); break;
    case ExprKind::Tuple: case ExprKind::List:
      for (auto& e : t->as<SequenceExpr>().elts) collectTargetNames(e, out);
      break;
    case ExprKind::Starred: collectTargetNames(t->as<StarredExpr>().value, out); break;
    default: break;
  }
}

void assignedNames(const StmtList& stmts, std::set<std::string>& out) {
  for (auto& s : stmts) {
    switch (s->kind) {
      case StmtKind::Assign:
        for (auto& t : s->as<AssignStmt>().targets) collectTargetNames(t, out);
        break;
      case StmtKind::AugAssign: collectTargetNames(s->as<AugAssignStmt>().target, out); break;
      case StmtKind::If:
        assignedNames(s->as<IfStmt>().body, out);
        assignedNames(s->as<IfStmt>().orelse, out);
        break;
      case StmtKind::For:
        collectTargetNames(s->as<ForStmt>().target, out);
        assignedNames(s->as<ForStmt>().body, out);
        break;
      case StmtKind::While: assignedNames(s->as<WhileStmt>().body, out); break;
      case StmtKind::With:
        for (auto& i : s->as<WithStmt>().items) collectTargetNames(i.target, out);
        assignedNames(s->as<WithStmt>().body, out);
        break;
      default: break;
    }
  }
}

bool containsBreak(const StmtList& stmts) {
  for (auto& s : stmts) {
    if (s->kind == StmtKind::Break) return true;
    if (s->kind == StmtKind::If && (containsBreak(s->as<IfStmt>().body) || containsBreak(s->as<IfStmt>().orelse)))
      return true;
    if (s->kind == StmtKind::With && containsBreak(s->as<WithStmt>().body)) return true;
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
      case StmtKind::For: if (containsReturn(s->as<ForStmt>().body)) return true; break;
      case StmtKind::While: if (containsReturn(s->as<WhileStmt>().body)) return true; break;
      case StmtKind::With: if (containsReturn(s->as<WithStmt>().body)) return true; break;
      default: break;
    }
  }
  return false;
}

}  // namespace kindling::emitter
