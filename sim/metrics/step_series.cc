#include "sim/metrics/step_series.h"

#include <algorithm>

namespace migsim {

void StepSeries::Set(SimTime at, double value) {
  if (!steps_.empty() && steps_.back().value == value) return;
  if (!steps_.empty() && steps_.back().at == at) {
    steps_.back().value = value;  // several changes in one instant: keep the last
    return;
  }
  steps_.push_back({at, value});
}

double StepSeries::Mean(SimTime from, SimTime to) const {
  if (to <= from) return 0;
  // long double: the sum of value x microseconds stays exact far beyond a run's range,
  // and the summation order is fixed.
  long double area = 0;
  for (size_t i = 0; i < steps_.size(); ++i) {
    SimTime begin = std::max(steps_[i].at, from);
    SimTime end = i + 1 < steps_.size() ? std::min(steps_[i + 1].at, to) : to;
    if (end > begin) area += static_cast<long double>(steps_[i].value) * (end - begin).micros();
  }
  return static_cast<double>(area / static_cast<long double>((to - from).micros()));
}

}  // namespace migsim
