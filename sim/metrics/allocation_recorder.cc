#include "sim/metrics/allocation_recorder.h"

namespace migsim {

void AllocationRecorder::OnGpuAllocation(SimTime now, int64_t allocated, int64_t capacity) {
  capacity_ = capacity;
  allocated_.Set(now, static_cast<double>(allocated));
}

void AllocationRecorder::OnGpuBusy(SimTime now, double busy, int64_t capacity) {
  capacity_ = capacity;
  busy_.Set(now, busy);
}

double AllocationRecorder::MeanRatio(SimTime from, SimTime to) const {
  return capacity_ == 0 ? 0 : allocated_.Mean(from, to) / static_cast<double>(capacity_);
}

double AllocationRecorder::MeanBusy(SimTime from, SimTime to) const {
  return capacity_ == 0 ? 0 : busy_.Mean(from, to) / static_cast<double>(capacity_);
}

}  // namespace migsim
