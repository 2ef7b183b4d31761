// Source text bookkeeping and TorchScript-style error excerpts (torch/csrc/jit/frontend/source_range.cpp).
#include "core/error.h"

#include <algorithm>

namespace kindling {

Source::Source(std::string t, std::string f, size_t starting)
    : text(std::move(t)), filename(std::move(f)), startingLine(starting) {
  lineStarts_.push_back(0);
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') lineStarts_.push_back(i + 1);
}

size_t Source::lineOf(size_t offset) const {
  auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
  return static_cast<size_t>(it - lineStarts_.begin()) - 1;
}

size_t Source::lineEnd(size_t line) const {
  if (line + 1 < lineStarts_.size()) return lineStarts_[line + 1] - 1;
  return text.size();
}

size_t SourceRange::line() const { return source ? source->lineOf(start) + source->startingLine : 0; }

size_t SourceRange::column() const {
  if (!source) return 0;
  return start - source->lineStart(source->lineOf(start));
}

std::string SourceRange::location() const {
  if (!source || source->filename.empty()) return "";
  return source->filename + ":" + std::to_string(line()) + ":" + std::to_string(column());
}

// Mirrors SourceRange::print_with_context(out, CONTEXT=3, highlight=true): a "File" line, up to two lines of
// context before, each line of the range followed by a "~~~" underline ("<--- HERE" after the last one),
// then up to two lines of context after.
std::string SourceRange::highlight() const {
  if (!source) return "";
  const std::string& str = source->text;
  constexpr size_t kContext = 3;
  if (end - start == str.size()) return str;  // the whole file: print it as is
  size_t rangeEnd = std::min(end, str.size());
  if (start > str.size()) return "";
  // A range that ends in blank lines or trailing spaces (a statement followed by its block's dedent) is
  // highlighted up to its last visible character, so the "<--- HERE" marker lands on a line.
  while (rangeEnd > start + 1 && (str[rangeEnd - 1] == '\n' || str[rangeEnd - 1] == ' ' || str[rangeEnd - 1] == '\r'))
    --rangeEnd;

  size_t beginLine = start, endLine = rangeEnd;
  while (beginLine > 0 && str[beginLine - 1] != '\n') --beginLine;
  while (endLine < str.size() && str[endLine] != '\n') ++endLine;

  size_t beginContext = beginLine;
  for (size_t seen = 0; beginContext > 0; --beginContext) {
    if (str[beginContext - 1] == '\n') ++seen;
    if (seen >= kContext) break;
  }
  size_t endContext = endLine;
  for (size_t seen = 0; endContext < str.size(); ++endContext) {
    if (str[endContext] == '\n') ++seen;
    if (seen >= kContext) break;
  }

  std::string out;
  if (!source->filename.empty())
    out += "  File \"" + source->filename + "\", line " + std::to_string(line()) + "\n";
  out += str.substr(beginContext, start - beginContext);

  size_t lineStartPos = start;
  size_t lineEndPos = start;
  while (lineStartPos < rangeEnd) {
    while (lineEndPos < str.size() && str[lineEndPos] != '\n') ++lineEndPos;
    std::string actual = str.substr(lineStartPos, lineEndPos - lineStartPos + 1);
    out += actual;
    if (actual.empty() || actual.back() != '\n') out += "\n";

    size_t hlBegin = lineStartPos, hlEnd = lineStartPos;
    while (hlBegin > 0 && str[hlBegin - 1] != '\n') --hlBegin;
    while (hlEnd < rangeEnd && str[hlEnd] != '\n') ++hlEnd;
    size_t empty = 0;
    for (size_t i = hlBegin; i < hlEnd; ++i) {
      if (str[i] == ' ' || i < start) ++empty;
      else break;
    }
    size_t marked = hlEnd - hlBegin - empty;
    if (marked > 0) {
      bool moreLines = false;
      for (size_t i = lineEndPos; i <= rangeEnd && i < str.size(); ++i)
        if (str[i] != '\n' && str[i] != ' ') moreLines = true;
      out += std::string(empty, ' ');
      out += std::string(marked, '~');
      out += (moreLines && lineEndPos != rangeEnd) ? "\n" : " <--- HERE\n";
    }
    ++lineEndPos;
    lineStartPos = lineEndPos;
  }

  if (lineEndPos <= str.size()) {
    std::string tail = str.substr(lineEndPos, endContext > lineEndPos ? endContext - lineEndPos : 0);
    out += tail;
    if (!tail.empty() && tail.back() != '\n') out += "\n";
  }
  return out;
}

static std::string compileErrorText(const std::string& msg, const SourceRange& range) {
  if (!range.valid()) return msg;
  return msg + ":\n" + range.highlight();
}

CompileError::CompileError(const std::string& msg, SourceRange range)
    : Error(compileErrorText(msg, range)), message_(msg), range_(std::move(range)) {}

}  // namespace kindling
