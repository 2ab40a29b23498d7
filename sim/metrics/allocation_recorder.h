#pragma once
// Records the GPU allocation of a run as a step function of time, so the time-weighted
// allocation ratio can be taken over any window once the run is over (the makespan is
// only known at the end).

#include <cstdint>
#include <vector>

#include "sim/engine/observer.h"

namespace migsim {

class AllocationRecorder final : public EngineObserver {
 public:
  void OnGpuAllocation(SimTime now, int64_t allocated, int64_t capacity) override;

  // Mean allocated / capacity over [from, to), in [0, 1]; 0 for an empty window or a
  // cluster without GPUs.
  double MeanRatio(SimTime from, SimTime to) const;

 private:
  struct Step {
    SimTime at;
    int64_t allocated;
  };
  std::vector<Step> steps_;  // allocation from `at` until the next step; times ascending
  int64_t capacity_ = 0;
};

}  // namespace migsim
