#pragma once
// MIG fragmentation over a run: each node's stranded and total MIG compute slices
// (sim/policy/mig_fragmentation.h) as the engine last measured them, their sums, and both
// sums integrated over time, so that the run's fragmentation is a ratio of time integrals.

#include <cstdint>
#include <vector>

#include "sim/core/sim_time.h"
#include "sim/policy/mig_fragmentation.h"

namespace migsim {

class MigFragmentationMeter {
 public:
  explicit MigFragmentationMeter(size_t nodes) : node_(nodes) {}

  // The node's slices are now `measured`. REQUIRES: `now` is not before the previous call's.
  void Set(SimTime now, size_t node, const MigSlices& measured);
  // Stranded slice-seconds over MIG slice-seconds from time 0 to `now`; 0 without MIG.
  double Fragmentation(SimTime now) const;

 private:
  std::vector<MigSlices> node_;
  int64_t stranded_now_ = 0;
  int64_t slices_now_ = 0;
  double stranded_slice_s_ = 0;  // integrated up to measured_at_
  double slice_s_ = 0;
  SimTime measured_at_ = SimTime::Zero();
};

}  // namespace migsim
