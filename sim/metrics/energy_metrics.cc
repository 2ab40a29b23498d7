#include "sim/metrics/energy_metrics.h"

#include <algorithm>

namespace migsim {

namespace {

constexpr double kJoulesPerKwh = 3.6e6;
constexpr double kGbPerGib = 1.073741824;

}  // namespace

EnergyRecorder::EnergyRecorder(const ClusterSpec& cluster, const EnergySpec& spec)
    : spec_(&spec), nodes_(cluster.nodes.size()) {
  for (size_t i = 0; i < cluster.nodes.size(); ++i) {
    const NodeType& type = *cluster.nodes[i].type;
    Node& node = nodes_[i];
    node.overhead_watts =
        type.vcpu * spec.node_watts_per_vcpu + type.memory_gib * kGbPerGib * spec.node_watts_per_gb;
    if (type.gpu == nullptr || type.gpu_count == 0) continue;
    auto it = std::find(gpu_models_.begin(), gpu_models_.end(), type.gpu);
    node.model = static_cast<int32_t>(it - gpu_models_.begin());
    if (it == gpu_models_.end()) gpu_models_.push_back(type.gpu);
    node.gpus = type.gpu_count;
  }
  models_.resize(gpu_models_.size());
  for (const NodeGroupSpec& group : cluster.node_groups) {
    const NodePoolRange& pool = cluster.pools[group.pool];
    for (uint32_t k = group.initial; k < pool.count; ++k) nodes_[pool.first + k].up = false;
  }
  for (Node& node : nodes_) {
    if (!node.up) continue;
    node.up = false;
    SetUp(SimTime::Zero(), node, true);
  }
}

void EnergyRecorder::SetUp(SimTime now, Node& node, bool up) {
  if (node.up == up) return;
  node.up = up;
  const double sign = up ? 1 : -1;
  const double seconds = now.seconds();
  overhead_.ChangeGpus(seconds, sign * node.overhead_watts);
  if (node.model >= 0) models_[static_cast<size_t>(node.model)].ChangeGpus(seconds, sign * node.gpus);
}

// O(1): the node's change moves its model's sums.
void EnergyRecorder::OnNodeGpuUse(SimTime now, NodeId node, double active, double busy) {
  Node& n = nodes_[node.value()];
  if (n.model < 0) return;
  const double held = std::max(active - busy, 0.0);
  models_[static_cast<size_t>(n.model)].ChangeUse(now.seconds(), held - n.held, busy - n.busy);
  n.held = held;
  n.busy = busy;
}

void EnergyRecorder::OnNodeScaled(SimTime now, NodeId node, uint32_t /*group*/,
                                  NodeScaleChange change) {
  if (change == NodeScaleChange::kLaunched) SetUp(now, nodes_[node.value()], true);
  if (change == NodeScaleChange::kTerminated) SetUp(now, nodes_[node.value()], false);
}

EnergyMetrics EnergyRecorder::Finish(SimTime end) const {
  const EnergySpec& spec = *spec_;
  EnergyMetrics m{.pue = spec.pue,
                  .price_per_kwh = spec.price_per_kwh,
                  .grid_gco2_per_kwh = spec.grid_gco2_per_kwh};
  for (size_t i = 0; i < models_.size(); ++i) {
    const Meter meter = models_[i].Integrated(end.seconds());
    const GpuPower joules = GpuEnergy(*gpu_models_[i], meter.gpus_s, meter.held_s, meter.busy_s,
                                      spec.allocated_idle_watts);
    const double kwh = joules.total() / kJoulesPerKwh;
    m.models.push_back({.model = gpu_models_[i]->name, .kwh = kwh});
    m.gpu_kwh += kwh;
    m.allocated_idle_kwh += joules.allocated_idle / kJoulesPerKwh;
  }
  m.node_kwh = overhead_.Integrated(end.seconds()).gpus_s / kJoulesPerKwh;
  m.kwh = (m.gpu_kwh + m.node_kwh) * spec.pue;
  const double seconds = end.seconds();
  m.mean_watts = seconds > 0 ? m.kwh * kJoulesPerKwh / seconds : 0;
  m.cost = m.kwh * spec.price_per_kwh;
  m.co2_kg = m.kwh * spec.grid_gco2_per_kwh / 1000;
  return m;
}

}  // namespace migsim
