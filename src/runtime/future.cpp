// Futures of fork()ed calls (see runtime/future.h).
#include "runtime/future.h"

#include "runtime/thread_pool.h"

namespace kindling {

void Future::complete(IValue v) {
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (done_) throw Error("Future completed twice");
    value = std::move(v);
    done_ = true;
    completed = true;
  }
  cv_.notify_all();
}

void Future::completeWithError(const RuntimeError& e) {
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (done_) throw Error("Future completed twice");
    failed_ = true;
    errMessage_ = e.message();
    errClass_ = e.pythonClass();
    errStack_ = e.callStack;
    error.emplace(errMessage_, errClass_);
    done_ = true;
    completed = true;
  }
  cv_.notify_all();
}

bool Future::isCompleted() const {
  std::lock_guard<std::mutex> lk(mu_);
  return done_;
}

void Future::launch(ThreadPool& pool, std::function<IValue()> task) {
  {
    std::lock_guard<std::mutex> lk(mu_);
    task_ = std::move(task);
    claimed_ = false;
  }
  // The queued job holds a reference so the future outlives it even if nobody waits.
  IntrusivePtr<Future> self(this);
  pool.run([self] { self->tryRun(); });
}

bool Future::tryRun() {
  std::function<IValue()> task;
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (claimed_ || !task_) return false;
    claimed_ = true;
    task = std::move(task_);
    task_ = nullptr;
  }
  try {
    complete(task());
  } catch (const RuntimeError& e) {
    completeWithError(e);
  } catch (const std::bad_alloc&) {
    completeWithError(RuntimeError("out of memory"));
  } catch (const std::exception& e) {
    completeWithError(RuntimeError(e.what()));
  }
  return true;
}

IValue Future::waitValue() {
  tryRun();  // not started yet: run it here rather than block a thread the task may need
  std::unique_lock<std::mutex> lk(mu_);
  cv_.wait(lk, [this] { return done_; });
  if (failed_) {
    RuntimeError e(errMessage_, errClass_);
    // The forked body's own frame only repeats the fork() call site when the error came from the
    // function it calls: keep the callee's frames (PyTorch's traceback shows the raising line there).
    if (errStack_.size() >= 2) {
      e.callStack.push_back("<forked function>");
      e.callStack.insert(e.callStack.end(), errStack_.begin() + 1, errStack_.end());
    } else {
      e.callStack.insert(e.callStack.end(), errStack_.begin(), errStack_.end());
    }
    throw e;
  }
  return value;
}

Future& futureOf(const IValue& v) {
  FutureValue* f = v.toFuture().get();
  auto* rf = dynamic_cast<Future*>(f);
  if (!rf) throw RuntimeError("wait() on a Future that was not created by fork()");
  return *rf;
}

}  // namespace kindling
