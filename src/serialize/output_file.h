// OutputFile: how Kindling writes a file the user names (`kindling save -o P`, `run --output P`,
// Module::save, torch.save-format results).
//
// - P is a regular file, or does not exist: the bytes go to a new file next to it ("P.kindling-XXXXXX",
//   same directory, so same file system) that replaces P by rename() on commit(). P is never left
//   truncated or half written, a reader that has the old P mapped (saving an archive onto itself) keeps
//   its pages, and the new file gets P's permission bits (and owner, where the process may set it); a new
//   P gets 0666 less the umask, as open(2) would give it.
// - P is a symbolic link: the file it points to is what is written, by the rules here (a regular target
//   is replaced by rename in its own directory); the link itself stays.
// - P is anything else (a character or block device such as /dev/null, a FIFO, a socket): it is opened
//   and written in place, never replaced.
//
// Errors (a directory, no permission, no space, EIO) throw LoadError naming P and the system's reason; on
// an error, or when the OutputFile is destroyed without commit(), the temporary file is removed and P is
// left as it was (for in-place targets, what was written stays written).
#pragma once
#include <cstdio>
#include <string>

namespace kindling {

class OutputFile {
 public:
  /// Opens P for writing as above. Throws LoadError.
  explicit OutputFile(const std::string& path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  /// Appends n bytes. Throws LoadError on a write error.
  void write(const void* data, size_t n);
  /// Flushes and closes the file and, for a replaced regular file, renames it over P. Throws LoadError
  /// (the temporary file is removed). Idempotent.
  void commit();
  /// Closes without publishing: removes the temporary file (in-place targets keep what was written).
  void abort() noexcept;

  const std::string& path() const { return path_; }

 private:
  [[noreturn]] void fail(const char* what, int err);
  std::string path_;     // as the user named it (messages)
  std::string target_;   // the file replaced on commit (a symbolic link's resolved target); empty: in place
  std::string tmpPath_;  // the temporary file (empty when writing in place)
  std::FILE* f_ = nullptr;
};

}  // namespace kindling
