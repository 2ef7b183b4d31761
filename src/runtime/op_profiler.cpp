// Per-node-kind operator timing (see runtime/op_profiler.h).
#include "runtime/op_profiler.h"

#include <algorithm>
#include <atomic>
#include <mutex>

#include <time.h>
#include <unordered_map>

namespace kindling::profiler {

namespace {

std::atomic<bool> gEnabled{false};

struct Totals {
  std::mutex mu;
  std::unordered_map<uint32_t, std::pair<Symbol, Entry>> byKind;  // by Symbol::id()
};

Totals& totals() {
  static Totals* t = new Totals();  // leaked on purpose: pool threads may record during exit
  return *t;
}

}  // namespace

void setEnabled(bool on) { gEnabled.store(on); }
bool enabled() { return gEnabled.load(); }

int64_t processCpuNs() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

void record(Symbol kind, int64_t wallNs, int64_t cpuNs) {
  Totals& t = totals();
  std::lock_guard<std::mutex> g(t.mu);
  auto& slot = t.byKind.try_emplace(kind.id(), kind, Entry{}).first->second;
  Entry& e = slot.second;
  ++e.calls;
  e.totalMs += static_cast<double>(wallNs) * 1e-6;
  e.totalCpuMs += static_cast<double>(cpuNs) * 1e-6;
}

void reset() {
  Totals& t = totals();
  std::lock_guard<std::mutex> g(t.mu);
  t.byKind.clear();
}

std::vector<Entry> snapshot() {
  Totals& t = totals();
  std::vector<Entry> out;
  {
    std::lock_guard<std::mutex> g(t.mu);
    for (const auto& [id, slot] : t.byKind) {
      out.push_back(slot.second);
      out.back().kind = slot.first.toQualString();
    }
  }
  std::sort(out.begin(), out.end(), [](const Entry& a, const Entry& b) {
    return a.totalMs != b.totalMs ? a.totalMs > b.totalMs : a.kind < b.kind;
  });
  return out;
}

}  // namespace kindling::profiler
