// Future: the value of a torch.jit.fork()ed call (c10::ivalue::Future) — an IValue of tag Future whose
// task runs on the inter-op pool (runtime/thread_pool.h) and which aten::wait blocks on.
//
// It extends core's FutureValue (the IValue payload) with a lock, a condition variable and the pending
// task. The task is claimed exactly once: by a pool worker, or by the first thread that waits on the
// future before a worker picked it up — that thread runs it inline. So waiting on a pool thread (a forked
// function that forks and waits itself) never deadlocks, even with one worker, and forks behave as
// PyTorch's: the caller continues while the task runs, wait() returns its value or rethrows its error.
//
// Errors: a task that raises stores the RuntimeError's message, Python class and TorchScript frames;
// wait() throws a new RuntimeError with the same message and class and the forked call's frames (the
// first one named "<forked function>", as PyTorch's traceback); the waiter's frames are added in front
// as the error leaves the interpreter.
#pragma once
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "core/ivalue.h"

namespace kindling {

class ThreadPool;

class Future : public FutureValue {
 public:
  explicit Future(TypePtr elemType) : FutureValue(std::move(elemType)) {}

  /// Completes with a value (wakes waiters). Completing twice is an Error.
  void complete(IValue v);
  /// Completes with an error.
  void completeWithError(const RuntimeError& e);
  bool isCompleted() const;

  /// Sets the computation that produces the value and queues it on `pool`. The task's result completes
  /// the future; a RuntimeError it throws completes it with that error (other std::exceptions become
  /// RuntimeErrors naming them).
  void launch(ThreadPool& pool, std::function<IValue()> task);
  /// Blocks until completed (running the task inline if no worker has started it) and returns the
  /// value; rethrows the task's error as RuntimeError.
  IValue waitValue();

 private:
  /// Runs the task if nobody claimed it yet; returns whether this call ran it.
  bool tryRun();
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::function<IValue()> task_;
  bool claimed_ = false;
  bool done_ = false;
  std::string errMessage_, errClass_;
  std::vector<std::string> errStack_;
  bool failed_ = false;
};

/// The runtime Future behind an IValue of tag Future (every Future IValue is made by the runtime).
Future& futureOf(const IValue& v);

}  // namespace kindling
