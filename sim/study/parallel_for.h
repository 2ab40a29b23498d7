#pragma once
// Running independent tasks on every core: sweeps, plans and fill experiments are many
// simulations that share nothing, so each is a task of a ParallelFor. Progress is
// reported the same way for every study (ProgressFn).

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <limits>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace migsim {

// Worker threads for `requested` (0 or less: one per core), never more than `tasks` and
// at least 1.
inline size_t WorkerCount(int requested, size_t tasks = std::numeric_limits<size_t>::max()) {
  const size_t wanted = requested > 0 ? static_cast<size_t>(requested)
                                      : std::max(1u, std::thread::hardware_concurrency());
  return std::clamp<size_t>(wanted, 1, std::max<size_t>(tasks, 1));
}

// Calls task(i) once for each i in [0, n), on `threads` workers of which the calling thread
// is one. Tasks are handed out in index order; each must write only its own results (e.g.
// slot i of a vector sized beforehand), so the outcome does not depend on `threads`. Any
// shared reporting inside a task needs its own lock. A task that throws (an internal error,
// memory exhausted) stops the handing out; once the workers are done, the exception of the
// lowest such task is rethrown to the caller (not std::terminate, as from a bare thread).
template <typename Task>
void ParallelFor(size_t n, size_t threads, Task task) {
  std::atomic<size_t> next{0};
  std::mutex failure_lock;
  std::exception_ptr failure;
  size_t failed_task = n;
  auto worker = [&] {
    for (size_t i; (i = next++) < n;) {
      try {
        task(i);
      } catch (...) {
        const std::lock_guard<std::mutex> guard(failure_lock);
        if (i < failed_task) {
          failed_task = i;
          failure = std::current_exception();
        }
        next = n;
      }
    }
  };
  std::vector<std::thread> pool;
  for (size_t t = 1; t < std::clamp<size_t>(threads, 1, std::max<size_t>(n, 1)); ++t) {
    try {
      pool.emplace_back(worker);
    } catch (const std::system_error&) {
      break;  // the system has no more threads for us: the ones running share the work
    }
  }
  worker();
  for (std::thread& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
}

// Told the tasks done so far and their total after each task, one call at a time, from
// the worker that finished it. Sweeps and the openb campaign report through it.
using ProgressFn = std::function<void(size_t done, size_t total)>;

// ParallelFor, calling `progress` (when set) after every task.
template <typename Task>
void ParallelFor(size_t n, size_t threads, Task task, const ProgressFn& progress) {
  if (!progress) return ParallelFor(n, threads, task);
  size_t done = 0;
  std::mutex lock;
  ParallelFor(n, threads, [&](size_t i) {
    task(i);
    std::lock_guard<std::mutex> guard(lock);
    progress(++done, n);
  });
}

}  // namespace migsim
