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

namespace {

// Bounds of what an excerpt echoes of the source: a line longer than kMaxEchoColumns shows a window of
// that many characters around the error ("..." at a cut end, and the line's length), and a range or a
// whole file of more than kMaxEchoLines lines shows its first lines, a count of the rest, and (for a
// range) its last line, so a 100k-character line or a 100k-line file never floods the terminal.
constexpr size_t kMaxEchoColumns = 200;
constexpr size_t kMaxEchoLines = 20;

/// First column shown of a line of `length` characters whose error starts at column `focus`.
size_t windowStart(size_t length, size_t focus) {
  if (length <= kMaxEchoColumns) return 0;
  size_t from = focus > kMaxEchoColumns / 4 ? focus - kMaxEchoColumns / 4 : 0;
  return std::min(from, length - kMaxEchoColumns);
}

/// `line` (without its newline) seen from column `from`, followed by a newline.
std::string clipped(const std::string& line, size_t from) {
  if (line.size() <= kMaxEchoColumns) return line + "\n";
  std::string out = from > 0 ? "..." : "";
  out += line.substr(from, kMaxEchoColumns);
  if (from + kMaxEchoColumns < line.size()) out += "...";
  out += " (line of " + std::to_string(line.size()) + " characters)\n";
  return out;
}

/// The lines of str[begin, end), each clipped from its start.
std::string clippedLines(const std::string& str, size_t begin, size_t end) {
  std::string out;
  while (begin < end) {
    size_t nl = str.find('\n', begin);
    size_t stop = nl == std::string::npos || nl >= end ? end : nl;
    out += clipped(str.substr(begin, stop - begin), 0);
    if (nl == std::string::npos || nl >= end) break;
    begin = nl + 1;
  }
  return out;
}

}  // namespace

// Mirrors SourceRange::print_with_context(out, CONTEXT=3, highlight=true): a "File" line, up to two lines of
// context before, each line of the range followed by a "~~~" underline ("<--- HERE" after the last one),
// then up to two lines of context after; long lines and long ranges are cut as above.
std::string SourceRange::highlight() const {
  if (!source) return "";
  const std::string& str = source->text;
  constexpr size_t kContext = 3;
  if (end - start == str.size()) {  // the whole file: print it as is, up to kMaxEchoLines lines
    size_t pos = 0, lines = 0;
    while (pos < str.size() && lines < kMaxEchoLines) {
      size_t nl = str.find('\n', pos);
      pos = nl == std::string::npos ? str.size() : nl + 1;
      ++lines;
    }
    if (pos >= str.size() && str.size() <= kMaxEchoColumns * kMaxEchoLines) return str;
    std::string out = clippedLines(str, 0, pos);
    if (pos < str.size()) {
      size_t rest = 0;
      for (size_t i = pos; i < str.size(); ++i) rest += str[i] == '\n';
      if (str.back() != '\n') ++rest;
      out += "... (" + std::to_string(rest) + " more lines)\n";
    }
    return out;
  }
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
  // The start of the range's last line: lines past kMaxEchoLines jump there.
  size_t lastLineStart = rangeEnd > 0 ? rangeEnd - 1 : 0;
  while (lastLineStart > beginLine && str[lastLineStart - 1] != '\n') --lastLineStart;

  std::string out;
  if (!source->filename.empty())
    out += "  File \"" + source->filename + "\", line " + std::to_string(line()) + "\n";
  out += clippedLines(str, beginContext, beginLine);

  size_t lineStartPos = beginLine;
  size_t lineEndPos = beginLine;
  size_t shownLines = 0;
  while (lineStartPos < rangeEnd) {
    if (++shownLines > kMaxEchoLines && lineStartPos < lastLineStart) {
      size_t skipped = 0;
      for (size_t i = lineStartPos; i < lastLineStart; ++i) skipped += str[i] == '\n';
      out += "... (" + std::to_string(skipped) + " more lines)\n";
      lineStartPos = lineEndPos = lastLineStart;
    }
    while (lineEndPos < str.size() && str[lineEndPos] != '\n') ++lineEndPos;
    const std::string actual = str.substr(lineStartPos, lineEndPos - lineStartPos);

    size_t hlBegin = lineStartPos, hlEnd = lineStartPos;
    while (hlEnd < rangeEnd && str[hlEnd] != '\n') ++hlEnd;
    size_t empty = 0;
    for (size_t i = hlBegin; i < hlEnd; ++i) {
      if (str[i] == ' ' || i < start) ++empty;
      else break;
    }
    size_t marked = hlEnd - hlBegin - empty;
    const size_t from = windowStart(actual.size(), empty);
    out += clipped(actual, from);
    if (marked > 0) {
      bool moreLines = false;
      for (size_t i = lineEndPos; i <= rangeEnd && i < str.size(); ++i)
        if (str[i] != '\n' && str[i] != ' ') moreLines = true;
      std::string marker = std::string(empty, ' ') + std::string(marked, '~');
      if (actual.size() > kMaxEchoColumns) {  // the same window as the line above
        marker = (from > 0 ? "   " : "") + (from < marker.size() ? marker.substr(from, kMaxEchoColumns) : std::string());
      }
      out += marker;
      out += (moreLines && lineEndPos != rangeEnd) ? "\n" : " <--- HERE\n";
    }
    ++lineEndPos;
    lineStartPos = lineEndPos;
  }

  if (lineEndPos <= str.size()) out += clippedLines(str, lineEndPos, endContext > lineEndPos ? endContext : lineEndPos);
  return out;
}

static std::string compileErrorText(const std::string& msg, const SourceRange& range) {
  if (!range.valid()) return msg;
  return msg + ":\n" + range.highlight();
}

CompileError::CompileError(const std::string& msg, SourceRange range)
    : Error(compileErrorText(msg, range)), message_(msg), range_(std::move(range)) {}

}  // namespace kindling
