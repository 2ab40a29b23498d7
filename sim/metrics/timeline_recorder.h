#pragma once
// The run as a time series, for reports and traces: after every instant at which
// something changed, the GPU allocation and compute utilization (fractions of capacity)
// and the numbers of pending and running (bound) pods.

#include <cstdint>
#include <vector>

#include "sim/engine/observer.h"

namespace migsim {

struct TimelinePoint {
  SimTime at;
  double allocation = 0;   // allocated GPU capacity / total
  double utilization = 0;  // busy GPU capacity / total
  int64_t pending = 0;
  int64_t running = 0;     // bound to a node (starting or running)
};

class TimelineRecorder final : public EngineObserver {
 public:
  void OnPodSubmitted(SimTime now, const Pod&) override;
  void OnPodBound(SimTime now, const Pod&) override;
  void OnPodEnded(SimTime now, const Pod& pod) override;
  void OnGpuAllocation(SimTime now, int64_t allocated, int64_t capacity) override;
  void OnGpuBusy(SimTime now, double busy, int64_t capacity) override;

  // One point per instant, in time order (the state after the instant's last change).
  const std::vector<TimelinePoint>& points() const { return points_; }

 private:
  void Record(SimTime now);
  TimelinePoint current_;
  std::vector<TimelinePoint> points_;
};

}  // namespace migsim
