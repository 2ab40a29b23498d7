#include "sim/metrics/autoscaling_metrics.h"

#include <algorithm>

#include "sim/controllers/node_groups/node_groups.h"
#include "sim/core/check.h"
#include "sim/engine/engine.h"

namespace migsim {

AutoscalingRecorder::AutoscalingRecorder(const ClusterSpec& cluster)
    : cluster_(&cluster), series_(cluster.node_groups.size()), ready_(cluster.nodes.size(), 0) {
  for (size_t g = 0; g < series_.size(); ++g) {
    Series& s = series_[g];
    const NodeGroupSpec& spec = cluster.node_groups[g];
    std::fill_n(ready_.begin() + cluster.pools[spec.pool].first, spec.initial, 1);
    s.billed = s.ready = s.peak = spec.initial;
    s.billed_steps.emplace_back(SimTime::Zero(), s.billed);
    s.ready_steps.emplace_back(SimTime::Zero(), s.ready);
  }
}

// Several changes at one instant make one step, with the last value.
void AutoscalingRecorder::Step(std::vector<std::pair<SimTime, int64_t>>& steps, SimTime now,
                               int64_t value) {
  if (!steps.empty() && steps.back().first == now) {
    steps.back().second = value;
  } else {
    steps.emplace_back(now, value);
  }
}

// Ready counts the nodes schedulable: a draining node is cordoned.
void AutoscalingRecorder::OnNodeScaled(SimTime now, NodeId node, uint32_t group,
                                       NodeScaleChange change) {
  Series& s = series_[group];
  const auto set_ready = [&](bool ready) {
    s.ready += static_cast<int64_t>(ready) - ready_[node.value()];
    ready_[node.value()] = ready ? 1 : 0;
  };
  switch (change) {
    case NodeScaleChange::kLaunched:
      ++s.billed;
      break;
    case NodeScaleChange::kReady:
    case NodeScaleChange::kDrainAborted:
      set_ready(true);
      break;
    case NodeScaleChange::kDrainStarted:
      set_ready(false);
      break;
    case NodeScaleChange::kTerminated:
      set_ready(false);
      --s.billed;
      break;
  }
  s.peak = std::max(s.peak, s.billed);
  Step(s.billed_steps, now, s.billed);
  Step(s.ready_steps, now, s.ready);
}

AutoscalingMetrics AutoscalingRecorder::Finish(const Engine& engine, int64_t completed) const {
  const ClusterSpec& cluster = *cluster_;
  const NodeGroups* node_groups = FindController<NodeGroups>(engine.cluster_controllers());
  MIGSIM_CHECK(node_groups != nullptr, "a run without the node groups' controller");
  AutoscalingMetrics m;
  std::vector<int32_t> group_of(cluster.nodes.size(), -1);
  for (size_t g = 0; g < cluster.node_groups.size(); ++g) {
    const NodeGroupSpec& spec = cluster.node_groups[g];
    const NodePoolRange& pool = cluster.pools[spec.pool];
    std::fill_n(group_of.begin() + pool.first, pool.count, static_cast<int32_t>(g));
    const NodeGroups::Counters& c = node_groups->counters()[g];
    const Series& s = series_[g];
    m.groups.push_back({.pool = pool.name,
                        .capacity_type = std::string(CapacityTypeName(spec.capacity)),
                        .price_per_hour = spec.price_per_hour,
                        .min = spec.min,
                        .max = spec.max,
                        .peak_nodes = s.peak,
                        .scale_ups = c.scale_ups,
                        .nodes_launched = c.nodes_launched,
                        .nodes_terminated = c.nodes_terminated,
                        .provision_failures = c.provision_failures,
                        .drains_aborted = c.drains_aborted,
                        .spot_reclaims = c.spot_reclaims,
                        .billed_nodes = s.billed_steps,
                        .ready_nodes = s.ready_steps});
  }
  for (uint32_t i = 0; i < cluster.nodes.size(); ++i) {
    const double hours = node_groups->BilledNodeHours(NodeId(i));
    if (group_of[i] < 0) {
      m.fixed_node_hours += hours;
      m.fixed_cost += hours * cluster.nodes[i].type->price_per_hour;
      continue;
    }
    NodeGroupMetrics& g = m.groups[group_of[i]];
    g.node_hours += hours;
    g.cost += hours * g.price_per_hour;
  }
  m.node_hours = m.fixed_node_hours;
  m.cost = m.on_demand_cost = m.fixed_cost;
  for (const NodeGroupMetrics& g : m.groups) {
    m.node_hours += g.node_hours;
    m.cost += g.cost;
    (g.capacity_type == "spot" ? m.spot_cost : m.on_demand_cost) += g.cost;
  }
  if (completed > 0) m.cost_per_completed_pod = m.cost / static_cast<double>(completed);
  m.run_hours = engine.end_time().seconds() / 3600;
  return m;
}

}  // namespace migsim
