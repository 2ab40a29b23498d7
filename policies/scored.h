#pragma once
// "scored": score plugins composed with weights, as a kube-scheduler profile composes its
// Score plugins. A node must pass every plugin's filter; its score is the weighted sum of
// the plugins' scores (a plugin without a score adds 0); the devices come from the first
// plugin, in list order, that chooses devices, and so does the post-filter's answer.
//
//   "policy": {"name": "scored", "params": {"plugins": [
//       {"name": "least-allocated", "weight": 1}, {"name": "fgd", "weight": 2}]}}

#include <memory>
#include <vector>

#include "sim/policy/policy.h"

namespace migsim {

class ScoredPolicy final : public Policy {
 public:
  struct Plugin {
    std::unique_ptr<Policy> policy;
    double weight = 1;
  };
  explicit ScoredPolicy(std::vector<Plugin> plugins) : plugins_(std::move(plugins)) {}

  std::string_view name() const override { return "scored"; }
  bool Filter(const ClusterView& view, const PodView& pod, const NodeInfo& node) override;
  std::optional<double> Score(const ClusterView& view, const PodView& pod,
                              const NodeInfo& node) override;
  std::vector<DeviceChoice> ChooseDevices(const ClusterView& view, const PodView& pod,
                                          const NodeInfo& node) override;
  std::vector<MigReconfiguration> PostFilter(const ClusterView& view, const PodView& pod) override;

 private:
  std::vector<Plugin> plugins_;
};

}  // namespace migsim
