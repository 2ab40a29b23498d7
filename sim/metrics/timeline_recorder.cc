#include "sim/metrics/timeline_recorder.h"

namespace migsim {

void TimelineRecorder::Record(SimTime now) {
  current_.at = now;
  if (!points_.empty() && points_.back().at == now) {
    points_.back() = current_;  // several changes in one instant: keep the last state
  } else {
    points_.push_back(current_);
  }
}

void TimelineRecorder::OnPodSubmitted(SimTime now, const Pod&) {
  ++current_.pending;
  Record(now);
}

void TimelineRecorder::OnPodBound(SimTime now, const Pod&) {
  --current_.pending;
  ++current_.running;
  Record(now);
}

void TimelineRecorder::OnPodEnded(SimTime now, const Pod& pod) {
  // A pod deleted while pending was never bound; every other ending pod was.
  if (pod.node.valid()) {
    --current_.running;
  } else {
    --current_.pending;
  }
  Record(now);
}

void TimelineRecorder::OnGpuAllocation(SimTime now, int64_t allocated, int64_t capacity) {
  current_.allocation =
      capacity > 0 ? static_cast<double>(allocated) / static_cast<double>(capacity) : 0;
  Record(now);
}

void TimelineRecorder::OnGpuBusy(SimTime now, double busy, int64_t capacity) {
  current_.utilization = capacity > 0 ? busy / static_cast<double>(capacity) : 0;
  Record(now);
}

}  // namespace migsim
