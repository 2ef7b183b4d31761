// Syntactic queries on statement lists that the emitter's lowering of control flow needs before it emits
// a block: how a list always ends (return / raise / continue / break), which names a list assigns (the
// loop-carried variables), whether it contains a break or a return.
#pragma once
#include <set>
#include <string>

#include "frontend/tree.h"

namespace kindling::emitter {

enum Term : unsigned { TermNone = 0, TermReturn = 1, TermRaise = 2, TermContinue = 4, TermBreak = 8 };

/// An expression statement calling ops.prim.RaiseException (archive code's spelling of raise).
bool isRaiseCall(const StmtPtr& s);

/// How a statement list always ends (bitmask of Term), or TermNone if it may fall through.
unsigned terminates(const StmtList& stmts);

/// The names an assignment target binds (`a`, `(a, b)`, `[a, *b]`).
void collectTargetNames(const ExprPtr& t, std::set<std::string>& out);

/// Variables a statement list assigns (syntactically), for loop-carried values.
void assignedNames(const StmtList& stmts, std::set<std::string>& out);

/// The attribute names a statement list assigns (`x.a = v`, `x.a += v`, `for x.a in ...`): "a".
void assignedAttributeNames(const StmtList& stmts, std::set<std::string>& out);

/// A `break` of this loop level (not inside a nested loop).
bool containsBreak(const StmtList& stmts);

/// A `continue` of this loop level (not inside a nested loop).
bool containsContinue(const StmtList& stmts);

/// A `return` anywhere in the list, nested loops included.
bool containsReturn(const StmtList& stmts);

}  // namespace kindling::emitter
