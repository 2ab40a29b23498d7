#include "sim/controllers/make_controllers.h"

#include <memory>

#include "sim/controllers/cluster_autoscaler/cluster_autoscaler.h"
#include "sim/controllers/faults/fault_injector.h"
#include "sim/controllers/karpenter/karpenter.h"
#include "sim/controllers/kueue/kueue_controller.h"
#include "sim/controllers/mig_manager/mig_manager.h"
#include "sim/controllers/node_groups/node_groups.h"

namespace migsim {
namespace {

// The node groups' controller: the provisioner the cluster names (one line each), or the
// node groups alone, which bill the nodes, when there are none to size.
std::unique_ptr<NodeGroups> MakeNodeGroups(const ClusterSpec& cluster) {
  if (cluster.node_groups.empty()) return std::make_unique<NodeGroups>();
  switch (cluster.provisioner) {
    case Provisioner::kClusterAutoscaler:
      return std::make_unique<ClusterAutoscaler>(cluster.autoscaler);
    case Provisioner::kKarpenter:
      return std::make_unique<Karpenter>(cluster.karpenter);
  }
  return std::make_unique<NodeGroups>();
}

}  // namespace

ClusterControllers MakeClusterControllers(const ClusterSpec& cluster,
                                          const std::optional<KueueSpec>& kueue) {
  ClusterControllers controllers;
  // Always there: policies may ask for MIG layouts in any run.
  controllers.push_back(std::make_unique<MigManager>());
  if (kueue) controllers.push_back(std::make_unique<KueueController>(*kueue));
  // Only with faults: a run without them does no work for them (spot notices come from
  // fault processes, so node groups alone need none).
  if (!cluster.faults.empty() || !cluster.fault_processes.empty()) {
    controllers.push_back(std::make_unique<FaultInjector>());
  }
  // Always there, and last: every node is billed; at the start it tells the others which
  // group nodes run (NodeChange::kStarted), and its provisioner's loop comes after theirs.
  controllers.push_back(MakeNodeGroups(cluster));
  return controllers;
}

}  // namespace migsim
