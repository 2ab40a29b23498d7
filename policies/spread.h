#pragma once
#include <string>

#include "policies/allocation_score.h"
#include "sim/policy/policy.h"

namespace migsim {

// The least allocated node (kube-scheduler's default LeastAllocated): spreads load.
// Score: 100 × the fraction that would stay free with the pod on it.
class SpreadPolicy final : public Policy {
 public:
  explicit SpreadPolicy(std::string name = "spread") : name_(std::move(name)) {}
  std::string_view name() const override { return name_; }
  std::optional<double> Score(const ClusterView&, const PodView& pod,
                              const NodeInfo& node) override {
    return 100.0 * (1.0 - AllocatedFractionWith(pod, node));
  }

 private:
  std::string name_;
};

}  // namespace migsim
