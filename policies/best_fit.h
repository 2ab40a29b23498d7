#pragma once
#include <string>

#include "policies/allocation_score.h"
#include "sim/policy/policy.h"

namespace migsim {

// The tightest node: the one that would be most allocated with the pod on it
// (kube-scheduler's MostAllocated), which keeps other nodes free for large pods.
// Score: 100 × that allocated fraction.
class BestFitPolicy final : public Policy {
 public:
  explicit BestFitPolicy(std::string name = "best-fit") : name_(std::move(name)) {}
  std::string_view name() const override { return name_; }
  std::optional<double> Score(const ClusterView&, const PodView& pod,
                              const NodeInfo& node) override {
    return 100.0 * AllocatedFractionWith(pod, node);
  }

 private:
  std::string name_;
};

}  // namespace migsim
