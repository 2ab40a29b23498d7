#pragma once
// What stops a study run from Python (a sweep's or a plan's runs, on worker threads):
// Ctrl-C, seen through an Interrupt (interrupt.h) asked under a lock, since an Interrupt
// belongs to one caller at a time, and latched once it fired so that every run of the
// study stops at its next event time. Python runs signal handlers on its main thread only:
// the check sees Ctrl-C when the calling thread (a worker of ParallelFor) asks, so once the
// caller's thread has no run left, the others finish theirs before the study stops.

#include <atomic>
#include <mutex>

#include "sim/python/interrupt.h"

namespace migsim::python {

class StudyStop {
 public:
  // RunOptions::should_stop; safe from several threads. The GIL must not be held.
  bool operator()() {
    if (stopped_) return true;
    const std::lock_guard<std::mutex> lock(mutex_);
    if (!stopped_ && interrupt_()) stopped_ = true;
    return stopped_;
  }

  // Raises what stopped the study (KeyboardInterrupt), if a signal did. REQUIRES: the GIL
  // is held, the study's threads are done.
  void RaiseIfSignalled() { interrupt_.RaiseIfSignalled(); }

 private:
  std::mutex mutex_;
  std::atomic<bool> stopped_{false};
  Interrupt interrupt_{nullptr, /*gil_released=*/true};
};

}  // namespace migsim::python
