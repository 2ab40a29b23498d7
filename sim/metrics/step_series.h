#pragma once
// A quantity that changes at instants and holds between them (a step function), kept so
// its time-weighted mean can be taken over any window once a run is over.

#include <vector>

#include "sim/core/sim_time.h"

namespace migsim {

class StepSeries {
 public:
  // The value from `at` on. REQUIRES: `at` is not before the last call's.
  void Set(SimTime at, double value);
  // Mean value over [from, to); 0 for an empty window.
  double Mean(SimTime from, SimTime to) const;

 private:
  struct Step {
    SimTime at;
    double value;
  };
  std::vector<Step> steps_;
};

}  // namespace migsim
