// Futures of fork()ed calls: wait returns the value, errors propagate with their class and frames, a task
// nobody started runs in the waiting thread (no deadlock with one worker and nested waits), many forks.
#include "runtime/future.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "runtime/thread_pool.h"

namespace kindling {
namespace {

IntrusivePtr<Future> launched(ThreadPool& pool, std::function<IValue()> fn) {
  auto f = makeIntrusive<Future>(IntType());
  f->launch(pool, std::move(fn));
  return f;
}

TEST(Future, WaitReturnsTheValue) {
  ThreadPool pool(2);
  auto f = launched(pool, [] { return IValue(int64_t{42}); });
  EXPECT_EQ(f->waitValue().toInt(), 42);
  EXPECT_TRUE(f->isCompleted());
  EXPECT_EQ(f->waitValue().toInt(), 42);  // waiting again gives the same value
  // the IValue view: tag Future, type Future[int]
  IValue v{IntrusivePtr<FutureValue>(f)};
  EXPECT_TRUE(v.isFuture());
  EXPECT_EQ(v.type()->str(), "Future[int]");
  EXPECT_EQ(futureOf(v).waitValue().toInt(), 42);
}

TEST(Future, ErrorsPropagateWithClassAndFrames) {
  ThreadPool pool(1);
  auto f = launched(pool, []() -> IValue {
    RuntimeError e("negative n: -2", "builtins.ValueError");
    e.callStack = {"<forked function> (a.py:3:4)", "__torch__.g (a.py:9:8)"};
    throw e;
  });
  try {
    f->waitValue();
    FAIL() << "wait did not throw";
  } catch (const RuntimeError& e) {
    EXPECT_EQ(e.message(), "negative n: -2");
    EXPECT_EQ(e.pythonClass(), "builtins.ValueError");
    ASSERT_EQ(e.callStack.size(), 2u);
    EXPECT_EQ(e.callStack[0], "<forked function>");
    EXPECT_EQ(e.callStack[1], "__torch__.g (a.py:9:8)");
  }
  // every waiter sees the error
  EXPECT_THROW(f->waitValue(), RuntimeError);
}

TEST(Future, NonKindlingExceptionsBecomeRuntimeErrors) {
  ThreadPool pool(1);
  auto f = launched(pool, []() -> IValue { throw std::out_of_range("vector::at"); });
  try {
    f->waitValue();
    FAIL();
  } catch (const RuntimeError& e) {
    EXPECT_EQ(e.message(), "vector::at");
  }
}

TEST(Future, WaitRunsAnUnstartedTaskInline) {
  ThreadPool pool(1);
  std::atomic<bool> release{false};
  // occupy the only worker
  auto blocker = launched(pool, [&] {
    while (!release.load()) std::this_thread::yield();
    return IValue(int64_t{0});
  });
  auto f = launched(pool, [] { return IValue(int64_t{7}); });
  // the worker is busy: wait() must run f here instead of blocking forever
  std::thread::id ranOn;
  auto g = makeIntrusive<Future>(IntType());
  g->launch(pool, [&] {
    ranOn = std::this_thread::get_id();
    return IValue(int64_t{8});
  });
  EXPECT_EQ(f->waitValue().toInt(), 7);
  EXPECT_EQ(g->waitValue().toInt(), 8);
  EXPECT_EQ(ranOn, std::this_thread::get_id());
  release = true;
  EXPECT_EQ(blocker->waitValue().toInt(), 0);
  pool.waitIdle();  // the queued jobs of f and g find them claimed and do nothing
}

TEST(Future, NestedForksWithOneWorkerDoNotDeadlock) {
  ThreadPool pool(1);
  std::function<IValue(int)> tree = [&](int depth) -> IValue {
    if (depth == 0) return IValue(int64_t{1});
    auto a = launched(pool, [&, depth] { return tree(depth - 1); });
    auto b = launched(pool, [&, depth] { return tree(depth - 1); });
    return IValue(a->waitValue().toInt() + b->waitValue().toInt());
  };
  auto root = launched(pool, [&] { return tree(6); });
  EXPECT_EQ(root->waitValue().toInt(), 64);
}

TEST(Future, ManyForks) {
  ThreadPool pool(4);
  std::vector<IntrusivePtr<Future>> futs;
  for (int64_t i = 0; i < 2000; ++i) futs.push_back(launched(pool, [i] { return IValue(i * i); }));
  int64_t sum = 0;
  for (auto& f : futs) sum += f->waitValue().toInt();
  int64_t expect = 0;
  for (int64_t i = 0; i < 2000; ++i) expect += i * i;
  EXPECT_EQ(sum, expect);
}

TEST(Future, FireAndForgetCompletes) {
  ThreadPool pool(2);
  std::atomic<int> done{0};
  for (int i = 0; i < 10; ++i) launched(pool, [&] { ++done; return IValue(); });  // futures dropped at once
  pool.waitIdle();
  EXPECT_EQ(done.load(), 10);
}

TEST(Future, CompletingTwiceIsAnError) {
  Future f(IntType());
  f.complete(IValue(int64_t{1}));
  EXPECT_THROW(f.complete(IValue(int64_t{2})), Error);
}

}  // namespace
}  // namespace kindling
