#pragma once
// Records how much of the cluster's GPU capacity is allocated and how much is busy
// computing, as step functions of time, so their time-weighted means can be taken over
// any window once the run is over (the makespan is only known at the end).

#include <cstdint>

#include "sim/engine/observer.h"
#include "sim/metrics/step_series.h"

namespace migsim {

class AllocationRecorder final : public EngineObserver {
 public:
  void OnGpuAllocation(SimTime now, int64_t allocated, int64_t capacity) override;
  void OnGpuBusy(SimTime now, double busy, int64_t capacity) override;

  // Mean allocated / mean capacity over [from, to), in [0, 1]: the share of the GPU time
  // the cluster had that was allocated (a node removed by a spot interruption no longer
  // counts). 0 for an empty window or a cluster without GPUs. REQUIRES: the engine reports
  // the capacity at time 0 (Engine::Run does).
  double MeanRatio(SimTime from, SimTime to) const;
  // Mean busy / mean capacity over [from, to), in [0, 1] (compute utilization).
  double MeanBusy(SimTime from, SimTime to) const;

 private:
  void SetCapacity(SimTime now, int64_t capacity);

  StepSeries allocated_, busy_, capacity_;
  int64_t capacity_now_ = -1;  // the capacity_'s last value; -1 before the first
};

}  // namespace migsim
