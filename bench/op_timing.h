// op_timing.h: the timing loop shared by the two op-benchmark drivers (bench/op_bench.cpp for Kindling,
// bench/libtorch_op_bench.cpp for libtorch), so both sides measure a single-op program the same way.
//
// A case is one scripted module whose forward runs one operator. Per case: one first call, warm-up calls
// for at least `warmupMs`, a calibration that picks K calls per batch so a batch lasts about `batchMs`,
// then `batches` batches. Each batch is timed by wall clock and by process CPU time (CLOCK_PROCESS_CPUTIME_ID,
// which a noisy shared machine disturbs less for 1-thread runs); per-call figures are the batch time / K,
// and the case reports the median over batches. Timing whole batches keeps the clock's own cost (~0.3 us
// for the CPU-time clock) out of sub-microsecond ops.
//
// Manifest (one case a line, tab-separated): name, archive path, input path (torch.save'd tuple).
// Output (stdout, one line per case): `case <name> cpu_ns=<f> wall_ns=<f> k=<int>` or
// `case <name> error=<message>`.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace opbench {

inline double wallNs() {
  return static_cast<double>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}
inline double cpuNs() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}
inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n == 0 ? 0.0 : (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]));
}

struct Case {
  std::string name, archive, input;
};

struct Options {
  std::string manifest;
  std::string only;  // run only cases whose name contains this
  int threads = 1;
  int batches = 7;
  double batchMs = 8.0;
  double warmupMs = 20.0;
};

inline bool parseArgs(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    const char* v = nullptr;
    if (a == "--threads" && (v = next())) o.threads = std::atoi(v);
    else if (a == "--batches" && (v = next())) o.batches = std::atoi(v);
    else if (a == "--batch-ms" && (v = next())) o.batchMs = std::atof(v);
    else if (a == "--warmup-ms" && (v = next())) o.warmupMs = std::atof(v);
    else if (a == "--only" && (v = next())) o.only = v;
    else if (!a.empty() && a[0] != '-' && o.manifest.empty()) o.manifest = a;
    else return false;
  }
  return !o.manifest.empty() && o.threads >= 1 && o.batches >= 1 && o.batchMs > 0;
}

inline std::vector<Case> readManifest(const std::string& path) {
  std::vector<Case> cases;
  std::ifstream f(path);
  std::string line;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::stringstream ss(line);
    Case c;
    std::getline(ss, c.name, '\t');
    std::getline(ss, c.archive, '\t');
    std::getline(ss, c.input, '\t');
    if (!c.input.empty()) cases.push_back(c);
  }
  return cases;
}

/// Times `call` as described above and prints the case line.
inline void timeCase(const std::string& name, const Options& o, const std::function<void()>& call) {
  call();  // first call
  double t0 = wallNs();
  int warm = 0;
  while (warm < 3 || (wallNs() - t0) < o.warmupMs * 1e6) {
    call();
    ++warm;
  }
  // calibration: K so that one batch lasts about batchMs
  const double perCall = (wallNs() - t0) / warm;
  int64_t k = std::max<int64_t>(1, static_cast<int64_t>(o.batchMs * 1e6 / std::max(perCall, 1.0)));
  std::vector<double> cpu, wall;
  for (int b = 0; b < o.batches; ++b) {
    const double w = wallNs(), c = cpuNs();
    for (int64_t i = 0; i < k; ++i) call();
    const double c1 = cpuNs(), w1 = wallNs();
    cpu.push_back((c1 - c) / k);
    wall.push_back((w1 - w) / k);
  }
  std::printf("case %s cpu_ns=%.1f wall_ns=%.1f k=%lld\n", name.c_str(), median(cpu), median(wall),
              static_cast<long long>(k));
  std::fflush(stdout);
}

inline void printError(const std::string& name, std::string msg) {
  std::replace(msg.begin(), msg.end(), '\n', ' ');
  if (msg.size() > 300) msg.resize(300);
  std::printf("case %s error=%s\n", name.c_str(), msg.c_str());
  std::fflush(stdout);
}

}  // namespace opbench
