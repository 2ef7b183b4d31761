// Per-node-kind operator timing (`kindling bench --profile`): where a model's time goes, by operator.
//
// When enabled before a function is compiled, the interpreter (runtime/interpreter.h) times every operator
// instruction of the Code it compiles and adds its wall time and the process's CPU time (every thread:
// the OpenMP workers' share too; steadier than wall time on a loaded machine) to its node kind
// (aten::conv2d, kindling::conv_fused, ...). Code compiled while profiling is off has no timing in it at all, so the
// hot loop of a normal run is unchanged. Time of an operator includes everything it calls (composite
// kernels, oneDNN). Thread-safe: forked calls record from pool threads.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ir/symbol.h"

namespace kindling::profiler {

/// Turns timing on or off for Code compiled from now on.
void setEnabled(bool on);
bool enabled();

/// Adds one call of `kind` that took `wallNs` nanoseconds of wall clock and `cpuNs` of process CPU time.
void record(Symbol kind, int64_t wallNs, int64_t cpuNs);

/// Nanoseconds of process CPU time so far (CLOCK_PROCESS_CPUTIME_ID).
int64_t processCpuNs();
/// Forgets everything recorded so far (e.g. the first and warm-up calls).
void reset();

struct Entry {
  std::string kind;  // qualified node kind, e.g. "aten::conv2d"
  int64_t calls = 0;
  double totalMs = 0;     // wall clock
  double totalCpuMs = 0;  // process CPU time
};
/// What was recorded since the last reset(), most time first.
std::vector<Entry> snapshot();

}  // namespace kindling::profiler
