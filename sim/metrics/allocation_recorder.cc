#include "sim/metrics/allocation_recorder.h"

#include <algorithm>

namespace migsim {

void AllocationRecorder::OnGpuAllocation(SimTime now, int64_t allocated, int64_t capacity) {
  capacity_ = capacity;
  if (!steps_.empty() && steps_.back().allocated == allocated) return;
  if (!steps_.empty() && steps_.back().at == now) {
    steps_.back().allocated = allocated;  // several changes in one instant: keep the last
    return;
  }
  steps_.push_back({now, allocated});
}

double AllocationRecorder::MeanRatio(SimTime from, SimTime to) const {
  if (to <= from || capacity_ == 0) return 0;
  // Sum in long double: unit-microsecond products stay exact up to 2^64, far beyond a
  // run's allocation x duration, and the order of summation is fixed.
  long double area = 0;
  for (size_t i = 0; i < steps_.size(); ++i) {
    SimTime begin = std::max(steps_[i].at, from);
    SimTime end = i + 1 < steps_.size() ? std::min(steps_[i + 1].at, to) : to;
    if (end > begin) area += static_cast<long double>(steps_[i].allocated) * (end - begin).micros();
  }
  return static_cast<double>(area) /
         (static_cast<double>(capacity_) * static_cast<double>((to - from).micros()));
}

}  // namespace migsim
