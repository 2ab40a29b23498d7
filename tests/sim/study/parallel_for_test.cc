#include "sim/study/parallel_for.h"

#include "sim/core/check.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace migsim {
namespace {

TEST_CASE("ParallelFor runs every task exactly once whatever the number of threads",
          "[core][parallel]") {
  for (size_t threads : {1, 2, 3, 8, 100}) {
    std::vector<std::atomic<int>> calls(37);
    ParallelFor(calls.size(), threads, [&](size_t i) { ++calls[i]; });
    for (const std::atomic<int>& c : calls) CHECK(c.load() == 1);
  }
}

TEST_CASE("ParallelFor with no tasks or zero threads still returns", "[core][parallel]") {
  int calls = 0;
  ParallelFor(0, 4, [&](size_t) { ++calls; });
  CHECK(calls == 0);
  ParallelFor(3, 0, [&](size_t) { ++calls; });  // zero threads means the caller alone
  CHECK(calls == 3);
}

TEST_CASE(
    "a task that throws stops ParallelFor handing out tasks and its exception reaches the "
    "caller instead of ending the process",
    "[core][parallel]") {
  for (size_t threads : {1, 2, 8}) {
    std::atomic<int> calls{0};
    std::atomic<bool> throwing{false};
    const auto run = [&] {
      ParallelFor(1000, threads, [&](size_t i) {
        ++calls;
        if (i == 3) {
          throwing = true;
          throw InternalError("task 3");
        }
        // Tasks after it are handed out only after task 3 (in index order); each waits for
        // the throw and then takes a while, so that the other workers cannot finish all
        // 1000 before the failure stops the handing out, however the threads are scheduled.
        if (i > 3) {
          while (!throwing) std::this_thread::yield();
          std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
      });
    };
    CHECK_THROWS_AS(run(), InternalError);
    CHECK(calls.load() < 1000);  // the tasks after the failure were not handed out
  }
}

TEST_CASE("WorkerCount honours a request, caps it at the tasks and defaults to the cores",
          "[core][parallel]") {
  CHECK(WorkerCount(4, 100) == 4);
  CHECK(WorkerCount(4, 2) == 2);
  CHECK(WorkerCount(4, 0) == 1);
  CHECK(WorkerCount(0, 1000) >= 1);
  CHECK(WorkerCount(-1) == WorkerCount(0));
}

}  // namespace
}  // namespace migsim
