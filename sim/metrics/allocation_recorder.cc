#include "sim/metrics/allocation_recorder.h"

namespace migsim {

namespace {

// Time-weighted `part` over time-weighted `whole`: with a capacity that changes (a removed
// node), the share of the GPU time there was that was allocated (or busy).
double RatioOfMeans(const StepSeries& part, const StepSeries& whole, SimTime from, SimTime to) {
  const double capacity = whole.Mean(from, to);
  return capacity <= 0 ? 0 : part.Mean(from, to) / capacity;
}

}  // namespace

// The capacity changes only when a node leaves or comes back: most calls skip its series.
void AllocationRecorder::SetCapacity(SimTime now, int64_t capacity) {
  if (capacity == capacity_now_) return;
  capacity_now_ = capacity;
  capacity_.Set(now, static_cast<double>(capacity));
}

void AllocationRecorder::OnGpuAllocation(SimTime now, int64_t allocated, int64_t capacity) {
  SetCapacity(now, capacity);
  allocated_.Set(now, static_cast<double>(allocated));
}

void AllocationRecorder::OnGpuBusy(SimTime now, double busy, int64_t capacity) {
  SetCapacity(now, capacity);
  busy_.Set(now, busy);
}

double AllocationRecorder::MeanRatio(SimTime from, SimTime to) const {
  return RatioOfMeans(allocated_, capacity_, from, to);
}

double AllocationRecorder::MeanBusy(SimTime from, SimTime to) const {
  return RatioOfMeans(busy_, capacity_, from, to);
}

}  // namespace migsim
