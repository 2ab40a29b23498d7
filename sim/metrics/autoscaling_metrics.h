#pragma once
// What node autoscaling did and what the nodes cost (definitions in README "Output"):
// per node group its nodes over time, node-hours and dollars, scale-ups and scale-downs;
// the fixed pools' cost beside; $ per completed pod. Collected by AutoscalingRecorder, an
// observer, in runs whose cluster has node groups.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/engine/observer.h"

namespace migsim {

class Engine;
struct ClusterSpec;

// A month of a node's price: 730 hours (365 x 24 / 12), the month AWS's price lists use.
inline constexpr double kHoursPerMonth = 730;

struct NodeGroupMetrics {
  std::string pool;
  std::string capacity_type;  // "on-demand" or "spot"
  double price_per_hour = 0;  // per node
  int64_t min = 0, max = 0;
  int64_t peak_nodes = 0;  // most nodes billed at once
  double node_hours = 0;   // billed: from each launch to its termination or the end
  double cost = 0;         // node_hours x price_per_hour, USD
  int64_t scale_ups = 0, nodes_launched = 0, nodes_terminated = 0;
  int64_t provision_failures = 0, drains_aborted = 0;
  int64_t spot_reclaims = 0;  // nodes reclaimed by a spot interruption (in nodes_terminated)
  // Nodes billed (launched, not yet terminated) and nodes Ready, as steps (time, count)
  // from t = 0.
  std::vector<std::pair<SimTime, int64_t>> billed_nodes, ready_nodes;
};

struct AutoscalingMetrics {
  std::vector<NodeGroupMetrics> groups;  // in pool order
  double fixed_node_hours = 0;           // the pools without autoscaling
  double fixed_cost = 0;
  double node_hours = 0;  // all nodes
  double cost = 0;        // all nodes, USD
  double on_demand_cost = 0, spot_cost = 0;
  double run_hours = 0;  // from t = 0 to the end of the run: cost / run_hours is $ per hour
  // cost / run_hours x kHoursPerMonth: a month at the run's rate; 0 for a run of no time.
  double cost_per_month() const { return run_hours > 0 ? cost / run_hours * kHoursPerMonth : 0; }
  // cost / pods completed; nullopt when none completed.
  std::optional<double> cost_per_completed_pod;
  // Requests served: the integral of the Deployments' loads (their HPAs' metric) from each
  // Deployment's start to the end of the run, and cost per 1,000 of them; nullopt without
  // a load.
  std::optional<double> requests;
  std::optional<double> cost_per_1000_requests;
};

class AutoscalingRecorder final : public EngineObserver {
 public:
  explicit AutoscalingRecorder(const ClusterSpec& cluster);
  void OnNodeScaled(SimTime now, NodeId node, uint32_t group, NodeScaleChange change) override;

  // REQUIRES: the engine has run on `cluster`. `completed`: pods that succeeded.
  AutoscalingMetrics Finish(const Engine& engine, int64_t completed) const;

 private:
  struct Series {
    int64_t billed = 0, ready = 0, peak = 0;
    std::vector<std::pair<SimTime, int64_t>> billed_steps, ready_steps;
  };
  static void Step(std::vector<std::pair<SimTime, int64_t>>& steps, SimTime now, int64_t value);

  const ClusterSpec* cluster_;
  std::vector<Series> series_;  // by node group
  std::vector<uint8_t> ready_;  // by node: 1 while counted Ready
};

}  // namespace migsim
