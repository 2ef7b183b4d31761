// Helpers for the serialize tests: a scratch directory and running the PyTorch oracle (/usr/bin/python3).
#pragma once
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace kindling::testing {

/// A fresh directory under /tmp, removed at exit of the test binary.
inline const std::string& scratchDir() {
  static std::string dir = [] {
    char tmpl[] = "/tmp/kindling_serialize_XXXXXX";
    const char* d = mkdtemp(tmpl);
    std::string s = d ? d : "/tmp";
    static char path[sizeof tmpl];  // outlives static destructors, for the exit handler
    if (d) {
      std::memcpy(path, d, sizeof tmpl);
      std::atexit([] { std::error_code ec; std::filesystem::remove_all(path, ec); });
    }
    return s;
  }();
  return dir;
}

inline std::string scratchPath(const std::string& name) { return scratchDir() + "/" + name; }

/// Runs a Python script with the oracle interpreter; returns its exit code, stdout into *out.
inline int runPython(const std::string& script, std::string* out = nullptr) {
  std::string file = scratchPath("script_" + std::to_string(::getpid()) + "_" + std::to_string(std::rand()) + ".py");
  {
    std::ofstream f(file);
    f << script;
  }
  std::string cmd = "cd '" + scratchDir() + "' && /usr/bin/python3 '" + file + "' 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return -1;
  std::string o;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) o.append(buf, n);
  int rc = pclose(p);
  if (out) *out = o;
  if (rc != 0) std::fprintf(stderr, "python output:\n%s\n", o.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

inline std::string readFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline void writeFile(const std::string& path, const std::string& data) {
  std::ofstream f(path, std::ios::binary);
  f << data;
}

}  // namespace kindling::testing
