// The inter-op thread pool (see runtime/thread_pool.h).
#include "runtime/thread_pool.h"

#include <omp.h>

#include <atomic>

namespace kindling {

namespace {
thread_local const ThreadPool* currentPool = nullptr;
}  // namespace

ThreadPool::ThreadPool(size_t numThreads) {
  if (numThreads == 0) numThreads = 1;
  workers_.reserve(numThreads);
  for (size_t i = 0; i < numThreads; ++i) workers_.emplace_back([this] { workerLoop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::run(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lk(mu_);
    queue_.push_back(std::move(task));
  }
  cv_.notify_one();
}

bool ThreadPool::inWorker() const { return currentPool == this; }

void ThreadPool::waitIdle() {
  std::unique_lock<std::mutex> lk(mu_);
  idleCv_.wait(lk, [this] { return queue_.empty() && running_ == 0; });
}

void ThreadPool::workerLoop() {
  currentPool = this;
  // One intra-op thread per worker: forked tasks run side by side instead of each starting a full team.
  omp_set_num_threads(1);
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock<std::mutex> lk(mu_);
      cv_.wait(lk, [this] { return stop_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stop_ and nothing left
      task = std::move(queue_.front());
      queue_.pop_front();
      ++running_;
    }
    try {
      task();
    } catch (...) {
      // tasks report their errors through their Future; nothing may escape a worker
    }
    task = nullptr;  // release captures before reporting idle
    {
      std::lock_guard<std::mutex> lk(mu_);
      --running_;
      if (queue_.empty() && running_ == 0) idleCv_.notify_all();
    }
  }
}

namespace {
std::atomic<size_t> requestedInterop{0};
std::atomic<ThreadPool*> globalPool{nullptr};
std::mutex globalMu;
}  // namespace

size_t interopThreads() {
  if (ThreadPool* p = globalPool.load(std::memory_order_acquire)) return p->size();
  size_t n = requestedInterop.load();
  if (n == 0) n = static_cast<size_t>(std::max(1, omp_get_max_threads()));
  return n;
}

bool setNumInteropThreads(size_t n) {
  std::lock_guard<std::mutex> lk(globalMu);
  if (globalPool.load()) return false;
  requestedInterop = n == 0 ? 1 : n;
  return true;
}

ThreadPool& interopPool() {
  if (ThreadPool* p = globalPool.load(std::memory_order_acquire)) return *p;
  std::lock_guard<std::mutex> lk(globalMu);
  if (ThreadPool* p = globalPool.load()) return *p;
  // Never destroyed: forked tasks may still be queued while static destructors run.
  auto* p = new ThreadPool(interopThreads());
  globalPool.store(p, std::memory_order_release);
  return *p;
}

}  // namespace kindling
