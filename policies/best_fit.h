#pragma once
#include "policies/allocation_score.h"
#include "sim/policy/policy.h"

namespace migsim {

// The tightest node: the one that would be most allocated with the pod on it
// (kube-scheduler's MostAllocated), which keeps other nodes free for large pods.
class BestFitPolicy final : public ScoringPolicy {
 public:
  std::string_view name() const override { return "best-fit"; }

 protected:
  double Score(const ClusterView&, const PodView& pod, const NodeInfo& node) const override {
    return AllocatedFractionWith(pod, node);
  }
};

}  // namespace migsim
