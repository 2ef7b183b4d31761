// ThreadPool: the inter-op thread pool that runs torch.jit.fork()ed calls (at::launch's pool in PyTorch).
//
// A fixed set of worker threads takes tasks from one FIFO queue. The process-wide pool, interopPool(),
// is created on first use with interopThreads() workers: setNumInteropThreads(n) when called before
// that, else the intra-op thread count (omp_get_max_threads(), i.e. --threads). Each worker runs its
// kernels with ONE OpenMP thread (omp_set_num_threads(1) in the worker), so P forked tasks running at
// once use P threads, never P x intra-op threads: the pool does not oversubscribe the intra-op team of
// the thread that forked them.
//
// Tasks must not throw (exceptions escaping a task are caught and dropped: a fork()ed call stores its
// error in its Future instead, runtime/future.h).
#pragma once
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace kindling {

class ThreadPool {
 public:
  /// Starts `numThreads` workers (at least 1).
  explicit ThreadPool(size_t numThreads);
  /// Finishes the queued tasks, then joins the workers.
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  /// Queues a task; a worker runs it as soon as one is free.
  void run(std::function<void()> task);
  size_t size() const { return workers_.size(); }
  /// True when called from one of this pool's workers.
  bool inWorker() const;
  /// Blocks until the queue is empty and no task is running (tests, shutdown).
  void waitIdle();

 private:
  void workerLoop();
  std::vector<std::thread> workers_;
  std::deque<std::function<void()>> queue_;
  std::mutex mu_;
  std::condition_variable cv_;      // workers: a task or stop
  std::condition_variable idleCv_;  // waitIdle
  size_t running_ = 0;
  bool stop_ = false;
};

/// Number of workers the inter-op pool has (or will have when created).
size_t interopThreads();
/// Sets the inter-op pool size (>= 1). Only effective before the pool is first used (as PyTorch's
/// torch.set_num_interop_threads); returns false if the pool already exists.
bool setNumInteropThreads(size_t n);
/// The process-wide inter-op pool (created on first use).
ThreadPool& interopPool();

}  // namespace kindling
