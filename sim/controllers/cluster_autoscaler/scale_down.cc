// The Cluster Autoscaler's scale-down (cluster_autoscaler.h): which Ready nodes are
// unneeded, and removing those unneeded long enough.

#include <algorithm>

#include "sim/controllers/cluster_autoscaler/cluster_autoscaler.h"

namespace migsim {
namespace {

// What a scale-down waits after a failed drain (--scale-down-delay-after-failure; the
// autoscaler's default).
constexpr SimTime kDelayAfterFailure = SimTime::Micros(180'000'000);

}  // namespace

// GPU nodes: the GPU capacity pods hold (a MIG device or a share as its fraction of a GPU),
// as the autoscaler counts only GPU requests on accelerator nodes; other nodes: the larger
// of the CPU and memory requested.
double ClusterAutoscaler::Utilization(const ClusterApi& api, uint32_t node) const {
  const NodeRuntime& runtime = api.node_runtime(NodeId(node));
  if (const int64_t capacity = runtime.capacity_weight(); capacity > 0) {
    return static_cast<double>(runtime.allocated_weight()) / static_cast<double>(capacity);
  }
  const NodeInfo& info = api.nodes()[node];
  const auto share = [](int64_t requested, int64_t allocatable) {
    return allocatable > 0 ? static_cast<double>(requested) / static_cast<double>(allocatable)
                           : 0.0;
  };
  return std::max(share(info.cpu_milli_requested, info.cpu_milli_allocatable),
                  share(info.memory_mib_requested, info.memory_mib_allocatable));
}

bool ClusterAutoscaler::Unneeded(const ClusterApi& api, uint32_t node,
                                 const std::vector<int32_t>& allowed) const {
  return state(node) == State::kReady && api.nodes()[node].schedulable &&
         Utilization(api, node) < spec_.utilization_threshold &&
         PodsEvictable(api, node, allowed) && api.PodsThatCannotMove({&node, 1}, {}).empty();
}

void ClusterAutoscaler::ScaleDown(ClusterApi& api) {
  if (!spec_.scale_down) return;
  const SimTime now = api.now();
  const std::vector<int32_t> allowed = api.disruption_budgets().Allowed();
  std::vector<uint32_t> due;
  for (uint32_t node = 0; node < node_count(); ++node) {
    if (group_of(node) < 0 || state(node) != State::kReady) continue;
    SimTime& since = unneeded_since_[node];
    if (!AboveMin(group_of(node)) || !Unneeded(api, node, allowed)) {
      since = SimTime::Max();
      continue;
    }
    since = std::min(since, now);
    if (now - since >= spec_.unneeded_time) due.push_back(node);
  }
  const bool cooling = (scaled_up_ && now < last_scale_up_ + spec_.delay_after_add) ||
                       (scaled_down_ && now < last_scale_down_ + spec_.delay_after_delete) ||
                       (drain_failed_ && now < last_drain_failure_ + kDelayAfterFailure);
  if (cooling) return;
  uint32_t emptied = 0;
  for (uint32_t node : due) {
    if (!AboveMin(group_of(node))) continue;
    if (api.nodes()[node].pods.empty()) {
      if (emptied == spec_.max_empty_bulk_delete) continue;
      ++emptied;
      Terminate(api, node);
    } else if (draining() < spec_.max_drain_parallelism) {
      last_scale_down_ = now;
      scaled_down_ = true;
      StartDrain(api, node);
    }
  }
}

}  // namespace migsim
