#pragma once
// Node autoscaling (README "Autoscaling"): node groups that grow and shrink during a run
// under the Cluster Autoscaler's rules. Built and validated by the scenario loader; the
// engine trusts it.
//
// A node group is a pool whose `max` nodes all exist in ClusterSpec::nodes from the start;
// those not running are *absent*: not schedulable, not billed, not in the GPU capacity. A
// scale-up launches absent nodes (billed from the launch), which register Ready after the
// group's provisioning delay; a scale-down drains a node and terminates it (absent again).

#include <cstdint>
#include <string_view>

#include "sim/core/sim_time.h"

namespace migsim {

enum class CapacityType : uint8_t { kOnDemand, kSpot };

std::string_view CapacityTypeName(CapacityType type);  // "on-demand", "spot"

// A pool the autoscaler sizes: ClusterSpec::pools[pool], whose count is `max`.
struct NodeGroupSpec {
  uint32_t pool = 0;
  uint32_t min = 0;
  uint32_t max = 0;
  uint32_t initial = 0;  // nodes Ready at t = 0 (min <= initial <= max)
  CapacityType capacity = CapacityType::kOnDemand;
  double price_per_hour = 0;  // USD per node-hour (default: the node type's on-demand price)
  // From the launch to the node Ready with its GPUs advertised: instance launch, boot,
  // kubelet registration, the GPU operator's driver and device plugin, and the MIG
  // manager's apply when the group's GPUs boot into a MIG config (README "Autoscaling").
  SimTime provisioning = SimTime::Seconds(300);
  int32_t priority = 0;  // the `priority` expander prefers the highest
};

// The Cluster Autoscaler's expanders: which node group a scale-up grows when several
// could host the pending pods.
enum class Expander : uint8_t { kRandom, kMostPods, kLeastWaste, kPrice, kPriority };

std::string_view ExpanderName(Expander expander);  // "random", "most-pods", ...

// The Cluster Autoscaler's flags that the model reads; defaults are the autoscaler's own
// (cluster-autoscaler FAQ, "What are the parameters to CA?").
struct ClusterAutoscalerSpec {
  SimTime scan_interval = SimTime::Seconds(10);                  // --scan-interval
  Expander expander = Expander::kRandom;                         // --expander
  double utilization_threshold = 0.5;                            // --scale-down-utilization-threshold
  SimTime unneeded_time = SimTime::Seconds(600);                 // --scale-down-unneeded-time
  SimTime delay_after_add = SimTime::Seconds(600);               // --scale-down-delay-after-add
  SimTime delay_after_delete = SimTime::Seconds(10);             // --scale-down-delay-after-delete
  SimTime max_node_provision_time = SimTime::Seconds(900);       // --max-node-provision-time
  SimTime node_group_backoff = SimTime::Seconds(300);            // --initial-node-group-backoff-duration
  uint32_t max_empty_bulk_delete = 10;                           // --max-empty-bulk-delete
  uint32_t max_drain_parallelism = 1;                            // --max-drain-parallelism
  bool scale_down = true;                                        // --scale-down-enabled
};

}  // namespace migsim
