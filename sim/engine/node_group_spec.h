#pragma once
// The spec of node autoscaling (README "Autoscaling"), part of ClusterSpec's vocabulary:
// node groups that grow and shrink during a run under the Cluster Autoscaler's rules or
// Karpenter's (their controllers: sim/controllers/node_groups and the provisioners' folders).
// Built and validated by the scenario loader; the engine and the controllers trust it.
//
// A node group is a pool whose `max` nodes all exist in ClusterSpec::nodes from the start;
// those not running are *absent*: not schedulable, not billed, not in the GPU capacity. A
// scale-up launches absent nodes (billed from the launch), which register Ready after the
// group's provisioning delay; a scale-down drains a node and terminates it (absent again).

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "sim/core/sim_time.h"
#include "sim/core/cron_schedule.h"

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

// Which controller sizes the node groups.
enum class Provisioner : uint8_t { kClusterAutoscaler, kKarpenter };

// Karpenter's NodePool disruption.consolidationPolicy.
enum class ConsolidationPolicy : uint8_t { kWhenEmpty, kWhenEmptyOrUnderutilized };

// Why Karpenter disrupts a node: the `reasons` a disruption budget may name (Drifted is
// accepted for manifests' sake; nothing drifts in a run).
enum class DisruptionReason : uint8_t { kEmpty = 1, kUnderutilized = 2, kDrifted = 4 };

// One entry of a NodePool's disruption.budgets: at most `nodes` (a count, or a percentage
// of the NodePool's nodes rounded up, as Karpenter computes it) disrupted at once, for the
// reasons in `reasons_mask` (0: every reason).
struct DisruptionBudgetSpec {
  uint32_t nodes = 10;
  bool percent = true;
  uint8_t reasons_mask = 0;
  // When set, the budget applies only for `duration` from each firing of the schedule
  // (Karpenter's `schedule` and `duration`, which come together); otherwise always.
  std::optional<CronSchedule> schedule{};
  SimTime duration{};
  bool ActiveAt(SimTime t) const { return !schedule || schedule->Within(t, duration); }
};

// Karpenter as the provisioner (README "Autoscaling", Karpenter): every node group is one
// offering of the NodePool (an instance type and capacity type at a price). Defaults are
// Karpenter v1's.
struct KarpenterSpec {
  // The provisioning batch: it closes once no new pending pod came for batch_idle
  // (BATCH_IDLE_DURATION, 1 s) or batch_max after it opened (BATCH_MAX_DURATION, 10 s).
  SimTime batch_idle = SimTime::Seconds(1);
  SimTime batch_max = SimTime::Seconds(10);
  ConsolidationPolicy consolidation_policy = ConsolidationPolicy::kWhenEmptyOrUnderutilized;
  // A node is a consolidation candidate once no pod was bound to it or left it for this
  // long (disruption.consolidateAfter; the v1 CRD's default is 0 s).
  SimTime consolidate_after = SimTime::Zero();
  // disruption.budgets; the default is one budget of 10 % of the nodes.
  std::vector<DisruptionBudgetSpec> budgets{DisruptionBudgetSpec{}};
  // A NodeClaim not registered this long after its launch is deleted (the registration
  // TTL, 15 min), and its offering is left out for 3 min (the unavailable-offerings
  // cache's TTL).
  SimTime registration_ttl = SimTime::Seconds(900);
  SimTime unavailable_offering_ttl = SimTime::Seconds(180);
};

}  // namespace migsim
