#include "policies/scored.h"

namespace migsim {

bool ScoredPolicy::Filter(const ClusterView& view, const PodView& pod, const NodeInfo& node) {
  for (Plugin& p : plugins_) {
    if (!p.policy->Filter(view, pod, node)) return false;
  }
  return true;
}

std::optional<double> ScoredPolicy::Score(const ClusterView& view, const PodView& pod,
                                          const NodeInfo& node) {
  double sum = 0;
  for (Plugin& p : plugins_) sum += p.weight * p.policy->Score(view, pod, node).value_or(0.0);
  return sum;
}

std::vector<DeviceChoice> ScoredPolicy::ChooseDevices(const ClusterView& view, const PodView& pod,
                                                      const NodeInfo& node) {
  for (Plugin& p : plugins_) {
    std::vector<DeviceChoice> devices = p.policy->ChooseDevices(view, pod, node);
    if (!devices.empty()) return devices;
  }
  return {};
}

std::vector<MigReconfiguration> ScoredPolicy::PostFilter(const ClusterView& view,
                                                         const PodView& pod) {
  for (Plugin& p : plugins_) {
    std::vector<MigReconfiguration> changes = p.policy->PostFilter(view, pod);
    if (!changes.empty()) return changes;
  }
  return {};
}

}  // namespace migsim
