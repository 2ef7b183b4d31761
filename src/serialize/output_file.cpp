// Writing a user-named output file safely. See output_file.h.
#include "serialize/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "core/error.h"

namespace kindling {

namespace {

std::string directoryOf(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

/// Creates "<target>.kindling-<unique>" with mode 0666 (less the umask) and O_EXCL; returns its fd, or -1
/// with errno set.
int createTemporary(const std::string& target, std::string& tmpPath) {
  static std::atomic<unsigned> counter{0};
  for (int attempt = 0; attempt < 100; ++attempt) {
    auto ticks = static_cast<unsigned long long>(std::chrono::steady_clock::now().time_since_epoch().count());
    tmpPath = fmt::format("{}.kindling-{:x}-{:x}-{:x}", target, static_cast<unsigned>(getpid()), counter++,
                          ticks & 0xFFFFFF);
    int fd = ::open(tmpPath.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  errno = EEXIST;
  return -1;
}

}  // namespace

void OutputFile::fail(const char* what, int err) {
  std::string msg = fmt::format("cannot write '{}'", path_);
  if (*what) msg += std::string(": ") + what;
  if (err) msg += std::string(": ") + std::strerror(err);
  throw LoadError(msg);
}

OutputFile::OutputFile(const std::string& path) : path_(path) {
  if (path.empty()) throw LoadError("cannot write '': No such file or directory");
  std::string target = path;
  struct stat st {};
  bool exists = ::lstat(path.c_str(), &st) == 0;
  if (!exists && errno != ENOENT) fail("", errno);
  bool inPlace = false;
  if (exists && S_ISLNK(st.st_mode)) {
    // Write what the link points to; the link stays.
    if (char* resolved = ::realpath(path.c_str(), nullptr)) {
      target = resolved;
      std::free(resolved);
      exists = ::stat(target.c_str(), &st) == 0;
      if (!exists) fail("", errno);
    } else if (errno == ENOENT) {
      inPlace = true;  // a dangling link: open(2) creates its target
      exists = false;
    } else {
      fail("", errno);  // a loop of links, a component that is no directory, ...
    }
  }
  if (exists && S_ISDIR(st.st_mode)) fail("", EISDIR);
  if (exists && !S_ISREG(st.st_mode)) inPlace = true;  // a device, FIFO or socket: written, never replaced
  if (exists && S_ISREG(st.st_mode) && ::access(target.c_str(), W_OK) != 0) fail("", errno);

  int fd;
  if (inPlace) {
    fd = ::open(target.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0666);
    if (fd < 0) fail("", errno);
  } else {
    fd = createTemporary(target, tmpPath_);
    if (fd < 0) {
      int err = errno;
      tmpPath_.clear();
      fail(fmt::format("cannot create a file in its directory '{}'", directoryOf(target)).c_str(), err);
    }
    if (exists) {
      // The replacement keeps the replaced file's owner (when allowed) and permission bits.
      if (st.st_uid != ::geteuid() || st.st_gid != ::getegid()) (void)!::fchown(fd, st.st_uid, st.st_gid);
      (void)!::fchmod(fd, st.st_mode & 07777);
    }
    target_ = target;
  }
  f_ = ::fdopen(fd, "wb");
  if (!f_) {
    int err = errno;
    ::close(fd);
    abort();
    fail("", err);
  }
}

OutputFile::~OutputFile() { abort(); }

void OutputFile::write(const void* data, size_t n) {
  if (!f_) fail("the file is closed", 0);
  if (n && std::fwrite(data, 1, n, f_) != n) {
    int err = errno;
    abort();
    fail("", err);
  }
}

void OutputFile::commit() {
  if (!f_) return;
  int err = 0;
  if (std::fflush(f_) != 0 || std::ferror(f_)) err = errno ? errno : EIO;
  if (!err && !tmpPath_.empty() && ::fsync(fileno(f_)) != 0) err = errno;
  if (std::fclose(f_) != 0 && !err) err = errno ? errno : EIO;
  f_ = nullptr;
  if (!err && !tmpPath_.empty() && std::rename(tmpPath_.c_str(), target_.c_str()) != 0) err = errno;
  if (err) {
    abort();
    fail("", err);
  }
  tmpPath_.clear();
}

void OutputFile::abort() noexcept {
  if (f_) {
    std::fclose(f_);
    f_ = nullptr;
  }
  if (!tmpPath_.empty()) {
    ::unlink(tmpPath_.c_str());
    tmpPath_.clear();
  }
}

}  // namespace kindling
