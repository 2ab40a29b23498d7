#include "sim/engine/mig_fragmentation_meter.h"

namespace migsim {

void MigFragmentationMeter::Set(SimTime now, size_t node, const MigSlices& measured) {
  const double dt = (now - measured_at_).seconds();
  stranded_slice_s_ += static_cast<double>(stranded_now_) * dt;
  slice_s_ += static_cast<double>(slices_now_) * dt;
  measured_at_ = now;
  stranded_now_ += measured.stranded - node_[node].stranded;
  slices_now_ += measured.total - node_[node].total;
  node_[node] = measured;
}

double MigFragmentationMeter::Fragmentation(SimTime now) const {
  const double dt = (now - measured_at_).seconds();
  const double slices = slice_s_ + static_cast<double>(slices_now_) * dt;
  if (slices <= 0) return 0;
  return (stranded_slice_s_ + static_cast<double>(stranded_now_) * dt) / slices;
}

}  // namespace migsim
