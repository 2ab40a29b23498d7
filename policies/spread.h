#pragma once
#include "policies/allocation_score.h"
#include "sim/policy/policy.h"

namespace migsim {

// The least allocated node (kube-scheduler's default LeastAllocated): spreads load.
class SpreadPolicy final : public ScoringPolicy {
 public:
  std::string_view name() const override { return "spread"; }

 protected:
  double Score(const ClusterView&, const PodView& pod, const NodeInfo& node) const override {
    return 1.0 - AllocatedFractionWith(pod, node);
  }
};

}  // namespace migsim
