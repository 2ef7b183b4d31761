// Variables that start as None and are assigned a T later: Optional[T] (see none_widening.h).
#include "frontend/emitter/none_widening.h"

#include <set>

#include "frontend/emitter/control_flow_analysis.h"
#include "frontend/emitter/environment.h"

namespace kindling::emitter {

namespace {

// Names assigned the literal None (`x = None`, unannotated) and names assigned anything, over the whole body.
void scanAssignments(const StmtList& stmts, std::set<std::string>& none, std::set<std::string>& other) {
  for (const StmtPtr& s : stmts) {
    switch (s->kind) {
      case StmtKind::Assign: {
        auto& a = s->as<AssignStmt>();
        bool isNone = a.value && a.value->kind == ExprKind::None && !a.annotation;
        for (const ExprPtr& t : a.targets) {
          if (isNone && t->kind == ExprKind::Name) none.insert(t->as<NameExpr>().id);
          else collectTargetNames(t, other);
        }
        break;
      }
      case StmtKind::AugAssign: collectTargetNames(s->as<AugAssignStmt>().target, other); break;
      case StmtKind::If:
        scanAssignments(s->as<IfStmt>().body, none, other);
        scanAssignments(s->as<IfStmt>().orelse, none, other);
        break;
      case StmtKind::While:
        scanAssignments(s->as<WhileStmt>().body, none, other);
        scanAssignments(s->as<WhileStmt>().orelse, none, other);
        break;
      case StmtKind::For:
        collectTargetNames(s->as<ForStmt>().target, other);
        scanAssignments(s->as<ForStmt>().body, none, other);
        scanAssignments(s->as<ForStmt>().orelse, none, other);
        break;
      case StmtKind::With:
        for (const WithItem& w : s->as<WithStmt>().items)
          if (w.target) collectTargetNames(w.target, other);
        scanAssignments(s->as<WithStmt>().body, none, other);
        break;
      case StmtKind::Try: {
        auto& t = s->as<TryStmt>();
        scanAssignments(t.body, none, other);
        for (const ExceptHandler& h : t.handlers) scanAssignments(h.body, none, other);
        scanAssignments(t.orelse, none, other);
        scanAssignments(t.finalbody, none, other);
        break;
      }
      default: break;
    }
  }
}

}  // namespace

NoneWidenings settleNoneWidenings(const DefStmt& def, const FunctionSchema& schema, const TypePtr& selfType,
                                  const EmitContext& ctx) {
  NoneWidenings found;
  if (ctx.archiveMode) return found;
  std::set<std::string> none, other;
  scanAssignments(def.body, none, other);
  bool candidate = false;
  for (const std::string& n : none)
    if (other.count(n)) candidate = true;
  if (!candidate) return found;
  // Each round widens one more name; a function has finitely many names, and a name requested twice
  // means its widened type does not fit either: the real emission reports that error.
  for (size_t round = 0; round <= none.size(); ++round) {
    Graph scratch;
    FunctionEmitter e(scratch, ctx);
    e.setNoneWidenings(found, /*collect=*/true);
    try {
      e.emitDef(def, schema, selfType);
      return found;
    } catch (const NoneWideningRequest& r) {
      if (found.count(r.name) || !none.count(r.name)) return found;
      found[r.name] = r.type;
    } catch (const CompileError&) {
      return found;  // reported by the real emission
    }
  }
  return found;
}

}  // namespace kindling::emitter
