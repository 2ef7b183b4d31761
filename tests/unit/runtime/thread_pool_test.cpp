// Inter-op thread pool: tasks run on the workers, in parallel, each worker with one OpenMP thread.
#include "runtime/thread_pool.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <atomic>
#include <chrono>
#include <set>
#include <thread>

namespace kindling {
namespace {

TEST(ThreadPool, RunsEveryTask) {
  ThreadPool pool(3);
  EXPECT_EQ(pool.size(), 3u);
  std::atomic<int> sum{0};
  for (int i = 1; i <= 1000; ++i) pool.run([&sum, i] { sum += i; });
  pool.waitIdle();
  EXPECT_EQ(sum.load(), 500500);
}

TEST(ThreadPool, ZeroThreadsMeansOne) {
  ThreadPool pool(0);
  EXPECT_EQ(pool.size(), 1u);
  std::atomic<bool> ran{false};
  pool.run([&] { ran = true; });
  pool.waitIdle();
  EXPECT_TRUE(ran.load());
}

TEST(ThreadPool, TasksRunConcurrentlyOnDifferentThreads) {
  ThreadPool pool(2);
  std::atomic<int> arrived{0};
  std::mutex mu;
  std::set<std::thread::id> ids;
  for (int i = 0; i < 2; ++i)
    pool.run([&] {
      {
        std::lock_guard<std::mutex> lk(mu);
        ids.insert(std::this_thread::get_id());
      }
      ++arrived;
      // both tasks must be in flight at the same time for either to finish
      auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
      while (arrived.load() < 2 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
    });
  pool.waitIdle();
  EXPECT_EQ(arrived.load(), 2);
  EXPECT_EQ(ids.size(), 2u);
  EXPECT_EQ(ids.count(std::this_thread::get_id()), 0u);
}

TEST(ThreadPool, WorkersUseOneIntraOpThread) {
  ThreadPool pool(2);
  std::atomic<int> seen{-1};
  std::atomic<bool> inWorker{false};
  pool.run([&] {
    seen = omp_get_max_threads();
    inWorker = pool.inWorker();
  });
  pool.waitIdle();
  EXPECT_EQ(seen.load(), 1);
  EXPECT_TRUE(inWorker.load());
  EXPECT_FALSE(pool.inWorker());
}

TEST(ThreadPool, ThrowingTaskDoesNotKillWorker) {
  ThreadPool pool(1);
  std::atomic<int> after{0};
  pool.run([] { throw std::runtime_error("boom"); });
  pool.run([&] { after = 1; });
  pool.waitIdle();
  EXPECT_EQ(after.load(), 1);
}

TEST(ThreadPool, DestructorFinishesQueuedTasks) {
  std::atomic<int> n{0};
  {
    ThreadPool pool(1);
    for (int i = 0; i < 50; ++i) pool.run([&] { ++n; });
  }
  EXPECT_EQ(n.load(), 50);
}

TEST(ThreadPool, GlobalPoolSizeIsFixedOnceCreated) {
  ThreadPool& p = interopPool();
  EXPECT_GE(p.size(), 1u);
  EXPECT_EQ(interopThreads(), p.size());
  EXPECT_FALSE(setNumInteropThreads(p.size() + 1));
  EXPECT_EQ(&interopPool(), &p);
}

}  // namespace
}  // namespace kindling
