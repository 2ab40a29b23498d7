#pragma once
// The GPU Operator's MIG manager: it applies a node's nvidia.com/mig.config when the label
// changes (the scenario's scripted relabels, ClusterSpec::reconfigurations) and the layouts
// policies ask for (Policy::PostFilter), one change per node at a time. It owns *when* a
// change begins and ends; the change itself (devices withdrawn, pods on rebuilt GPUs lost,
// devices rebuilt) is the engine's mechanism, used through ClusterApi.

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/engine/cluster_controller.h"

namespace migsim {

class MigManager final : public ClusterController, public MigLayoutRequests {
 public:
  std::string_view name() const override { return "mig-manager"; }
  void Start(ClusterApi& api) override;
  void OnTimer(ClusterApi& api, uint64_t tag) override;
  MigLayoutRequests* mig_layouts() override { return this; }
  void RequestLayout(ClusterApi& api, NodeId node, std::vector<GpuMigSetting> target) override;

  // The nvidia.com/mig.config value of a node whose layouts a policy chose: in a real
  // cluster, a per-node mig-parted config written by the controller that asked.
  static constexpr std::string_view kCustomConfig = "custom";

 private:
  void BeginRelabel(ClusterApi& api, uint32_t index);
  // Policies' layouts being applied, by the index their end timer carries.
  std::vector<std::pair<NodeId, std::vector<GpuMigSetting>>> requested_;
};

}  // namespace migsim
