// `dot -T<format>` as a child process, input and output through pipes. See graphviz_render.h.
#include "graphviz_render.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

#include "core/error.h"

extern char** environ;

namespace kindling {

namespace {

struct Fd {
  int fd = -1;
  ~Fd() { reset(); }
  void reset() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

}  // namespace

std::string renderDot(const std::string& dotText, const std::string& format) {
  const std::string notInstalled = "rendering " + format +
                                   " needs Graphviz's 'dot' program, which is not installed (Debian: apt install "
                                   "graphviz); --format dot writes the DOT text without it";
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) != 0) throw LoadError("cannot create a pipe for Graphviz: " + std::string(std::strerror(errno)));
  Fd inR{in[0]}, inW{in[1]};
  if (pipe2(out, O_CLOEXEC) != 0) throw LoadError("cannot create a pipe for Graphviz: " + std::string(std::strerror(errno)));
  Fd outR{out[0]}, outW{out[1]};
  if (pipe2(err, O_CLOEXEC) != 0) throw LoadError("cannot create a pipe for Graphviz: " + std::string(std::strerror(errno)));
  Fd errR{err[0]}, errW{err[1]};
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, inR.fd, 0);
  posix_spawn_file_actions_adddup2(&fa, outW.fd, 1);
  posix_spawn_file_actions_adddup2(&fa, errW.fd, 2);
  std::string t = "-T" + format;
  char* argv[] = {const_cast<char*>("dot"), t.data(), nullptr};
  pid_t pid;
  int rc = posix_spawnp(&pid, "dot", &fa, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw LoadError(notInstalled);
  inR.reset();
  outW.reset();
  errW.reset();
  // Feed the input and drain both outputs together, so neither side blocks on a full pipe.
  std::signal(SIGPIPE, SIG_IGN);
  std::string result, messages;
  size_t written = 0;
  fcntl(inW.fd, F_SETFL, O_NONBLOCK);
  while (outR.fd >= 0 || errR.fd >= 0) {
    pollfd p[3];
    int n = 0;
    if (outR.fd >= 0) p[n++] = {outR.fd, POLLIN, 0};
    if (errR.fd >= 0) p[n++] = {errR.fd, POLLIN, 0};
    if (inW.fd >= 0) p[n++] = {inW.fd, POLLOUT, 0};
    if (poll(p, static_cast<nfds_t>(n), -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < n; ++i) {
      if (!p[i].revents) continue;
      if (p[i].fd == inW.fd) {
        ssize_t w = ::write(inW.fd, dotText.data() + written, dotText.size() - written);
        if (w > 0) written += static_cast<size_t>(w);
        if (w < 0 && errno != EAGAIN) written = dotText.size();
        if (written == dotText.size()) inW.reset();
        continue;
      }
      char buf[65536];
      ssize_t r = ::read(p[i].fd, buf, sizeof buf);
      Fd& which = p[i].fd == outR.fd ? outR : errR;
      if (r <= 0) {
        if (r < 0 && errno == EINTR) continue;
        which.reset();
      } else {
        (&which == &outR ? result : messages).append(buf, static_cast<size_t>(r));
      }
    }
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) throw LoadError(notInstalled);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    while (!messages.empty() && messages.back() == '\n') messages.pop_back();
    throw LoadError("Graphviz's dot failed rendering " + format + (messages.empty() ? "" : ": " + messages));
  }
  return result;
}

}  // namespace kindling
