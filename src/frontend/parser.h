// Parser: tokens (frontend/lexer.h) → AST (frontend/tree.h). Recursive descent over Python's grammar
// as TorchScript accepts it: def (with decorators, annotations, defaults, `# type:` comments), class
// (attribute declarations `x : int`, `x : Final[int] = 1`, `__parameters__ = [...]`), if/elif/else,
// for, while, return, raise, assert, pass, break, continue, del, with, import, global, assignment
// (chained, tuple targets, annotated), augmented assignment; expressions with Python's precedence
// (lambda < if-else < or < and < not < comparisons < | < ^ < & < shifts < + - < * / // % @ < unary
// < ** < await/primary), calls with keywords and starred arguments, subscripts and slices,
// list/dict/tuple literals, comprehensions, f-strings, adjacent string concatenation.
//
// Errors: CompileError at the offending token, in the style of TorchScript's parser
// ("expected an expression but found 'def' here:").
#pragma once
#include <memory>

#include "frontend/tree.h"

namespace kindling {

/// Parses a whole file (top-level defs, classes, imports and other statements).
std::shared_ptr<SourceFile> parseFile(const std::shared_ptr<const Source>& source);
/// Parses a single expression (the whole source must be one expression), e.g. a type annotation string.
ExprPtr parseExpression(const std::shared_ptr<const Source>& source);
/// Parses a function type comment "(int, Tensor) -> Tensor": fills argument annotations and return type.
/// Throws CompileError at `range` when malformed.
void parseTypeComment(const std::string& comment, const SourceRange& range, std::vector<ExprPtr>& argTypes,
                      ExprPtr& returnType);

}  // namespace kindling
