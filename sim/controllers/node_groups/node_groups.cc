#include "sim/controllers/node_groups/node_groups.h"

#include <algorithm>

#include "sim/core/check.h"
#include "sim/engine/fault_spec.h"

namespace migsim {
namespace {

// How long a drain waits for evictions the budgets refuse before it gives up (the Cluster
// Autoscaler's MaxPodEvictionTime), and the grace period it caps each eviction at
// (--max-graceful-termination-sec); both are the autoscaler's defaults.
constexpr SimTime kMaxPodEvictionTime = SimTime::Micros(120'000'000);
constexpr SimTime kMaxGracefulTermination = SimTime::Micros(600'000'000);

}  // namespace

// Every node is billed from t = 0; a group's nodes beyond its initial ones are absent.
void NodeGroups::Start(ClusterApi& api) {
  const ClusterSpec& cluster = api.cluster();
  scratch_resources_ = api.resources();
  nodes_.resize(cluster.nodes.size());
  groups_.resize(cluster.node_groups.size());
  counters_.resize(cluster.node_groups.size());
  billed_since_.assign(cluster.nodes.size(), SimTime::Zero());
  billed_seconds_.assign(cluster.nodes.size(), 0);
  for (uint32_t g = 0; g < cluster.node_groups.size(); ++g) {
    const NodeGroupSpec& group = cluster.node_groups[g];
    const NodePoolRange& pool = cluster.pools[group.pool];
    for (uint32_t i = 0; i < pool.count; ++i) {
      const uint32_t node = pool.first + i;
      NodeScale& scale = nodes_[node];
      scale.group = static_cast<int32_t>(g);
      groups_[g].min = group.min;
      if (i < group.initial) {
        scale.state = State::kReady;
        ++groups_[g].launched;
        api.AnnounceNodeChange(NodeId(node), NodeChange::kStarted);
        continue;
      }
      scale.state = State::kAbsent;
      api.SetNodeAbsent(NodeId(node));
      billed_since_[node] = SimTime::Max();
    }
  }
  QueueLoop(api);
}

// Tag: the kind in bits 56-62, the launch's low 24 bits in 32-55, the node in 0-31.
uint64_t NodeGroups::Tag(GroupTimer kind, uint32_t node, uint32_t launch) {
  return kGroupTimer | uint64_t{static_cast<uint8_t>(kind)} << 56 |
         uint64_t{launch & 0xFFFFFFu} << 32 | node;
}

void NodeGroups::OnTimer(ClusterApi& api, uint64_t tag) {
  if (tag < kGroupTimer) {
    loop_due_ = true;
    return;
  }
  const auto kind = static_cast<GroupTimer>((tag >> 56) & 0x7F);
  const auto node = static_cast<uint32_t>(tag);
  const auto launch = static_cast<uint32_t>(tag >> 32) & 0xFFFFFFu;
  // A timer of an earlier launch of the slot is stale.
  if ((nodes_[node].launch & 0xFFFFFFu) != launch) return;
  switch (kind) {
    case GroupTimer::kReady:
      return NodeReady(api, node);
    case GroupTimer::kProvisionTimeout:
      return ProvisionTimeout(api, node);
    case GroupTimer::kDrainTick:
      return DrainTick(api, node, nodes_[node].launch);
  }
}

void NodeGroups::QueueLoop(ClusterApi& api) {
  if (loop_period_ != SimTime::Max()) {
    api.SetTimer(api.now() + loop_period_, 0, TimerKind::kIdle);
  }
}

void NodeGroups::AfterCycle(ClusterApi& api) {
  if (!loop_due_) return;
  loop_due_ = false;
  Loop(api);
  QueueLoop(api);
}

// A fixed node deleted for good is billed no more.
void NodeGroups::OnNodeChanged(ClusterApi& api, NodeId node, NodeChange change) {
  if (change == NodeChange::kRemoved) StopBilling(api, node.value());
}

void NodeGroups::Finish(ClusterApi& api) {
  for (uint32_t i = 0; i < billed_since_.size(); ++i) StopBilling(api, i);
}

uint32_t NodeGroups::Instance(NodeId node) const {
  return nodes_.empty() ? 0 : nodes_[node.value()].launch;
}

bool NodeGroups::DeleteInstance(ClusterApi& api, NodeId node) {
  const uint32_t n = node.value();
  if (nodes_[n].group < 0) return false;
  BeforeReclaim(api, n);
  ++counters_[nodes_[n].group].spot_reclaims;
  Terminate(api, n);
  return true;
}

uint32_t NodeGroups::Launch(ClusterApi& api, uint32_t group) {
  const NodeGroupSpec& spec = api.cluster().node_groups[group];
  const NodePoolRange& pool = api.cluster().pools[spec.pool];
  uint32_t node = pool.first;
  while (nodes_[node].state != State::kAbsent) {
    ++node;
    MIGSIM_CHECK(node < pool.first + pool.count, "a launch in a node group without room");
  }
  NodeScale& scale = nodes_[node];
  scale.state = State::kProvisioning;
  ++scale.launch;
  ++groups_[group].launched;
  ++groups_[group].provisioning;
  ++counters_[group].nodes_launched;
  billed_since_[node] = api.now();
  api.ReportNodeScaled(NodeId(node), group, NodeScaleChange::kLaunched);
  // A node slower than the provisioner's limit never counts as registered.
  const bool registers = spec.provisioning <= provision_limit_;
  api.SetTimer(
      api.now() + (registers ? spec.provisioning : provision_limit_),
      Tag(registers ? GroupTimer::kReady : GroupTimer::kProvisionTimeout, node, scale.launch));
  return node;
}

void NodeGroups::NodeReady(ClusterApi& api, uint32_t node) {
  NodeScale& scale = nodes_[node];
  --groups_[scale.group].provisioning;
  scale.state = State::kReady;
  api.RegisterNode(NodeId(node), static_cast<uint32_t>(scale.group));
  api.AnnounceNodeChange(NodeId(node), NodeChange::kReady);
  NodeBecameReady(api, node);
}

// A node that did not register in time is deleted and its group backed off.
void NodeGroups::ProvisionTimeout(ClusterApi& api, uint32_t node) {
  NodeScale& scale = nodes_[node];
  GroupScale& group = groups_[scale.group];
  --group.provisioning;
  --group.launched;
  group.backoff_until = api.now() + group_backoff_;
  ++counters_[scale.group].provision_failures;
  scale.state = State::kAbsent;
  StopBilling(api, node);
  api.ReportNodeScaled(NodeId(node), static_cast<uint32_t>(scale.group),
                       NodeScaleChange::kTerminated);
  LaunchFailed(api, node);
}

// What is still on the node (a gang's reservations, pods whose grace period runs) ends
// now, and the node is absent until a launch; the drain's cordon goes with the instance.
void NodeGroups::Terminate(ClusterApi& api, uint32_t node) {
  NodeScale& scale = nodes_[node];
  const auto group = static_cast<uint32_t>(scale.group);
  const bool drained = scale.state == State::kDraining;
  if (drained) {
    --draining_;
    --groups_[group].draining;
  }
  scale.state = State::kAbsent;
  --groups_[group].launched;
  ++counters_[group].nodes_terminated;
  StopBilling(api, node);
  api.TerminateInstance(NodeId(node), group);
  // The cluster controllers' cordons of the instance (a spot notice's) go with it.
  api.AnnounceNodeChange(NodeId(node), NodeChange::kTerminated);
  if (drained) api.Uncordon(NodeId(node));
  NodeTerminated(api, node);
}

void NodeGroups::StartDrain(ClusterApi& api, uint32_t node) {
  NodeScale& scale = nodes_[node];
  scale.state = State::kDraining;
  scale.drain_started = api.now();
  ++draining_;
  ++groups_[scale.group].draining;
  api.Cordon(NodeId(node));
  api.ReportNodeScaled(NodeId(node), static_cast<uint32_t>(scale.group),
                       NodeScaleChange::kDrainStarted);
  DrainTick(api, node, scale.launch);
}

void NodeGroups::DrainTick(ClusterApi& api, uint32_t node, uint32_t launch) {
  const NodeScale& scale = nodes_[node];
  if (scale.launch != launch || scale.state != State::kDraining) return;
  const bool refused = api.EvictPods(NodeId(node), kMaxGracefulTermination, LossBook::kUnbooked);
  if (api.nodes()[node].pods.empty()) return Terminate(api, node);
  if (refused && api.now() - scale.drain_started >= kMaxPodEvictionTime) {
    return AbortDrain(api, node);
  }
  api.SetTimer(api.now() + kEvictionRetry, Tag(GroupTimer::kDrainTick, node, launch));
}

void NodeGroups::AbortDrain(ClusterApi& api, uint32_t node) {
  NodeScale& scale = nodes_[node];
  scale.state = State::kReady;
  --draining_;
  --groups_[scale.group].draining;
  ++counters_[scale.group].drains_aborted;
  api.Uncordon(NodeId(node));
  api.ReportNodeScaled(NodeId(node), static_cast<uint32_t>(scale.group),
                       NodeScaleChange::kDrainAborted);
  DrainAborted(api, node);
}

void NodeGroups::StopBilling(const ClusterApi& api, uint32_t node) {
  if (billed_since_[node] == SimTime::Max()) return;
  billed_seconds_[node] += (api.now() - billed_since_[node]).seconds();
  billed_since_[node] = SimTime::Max();
}

bool NodeGroups::AnyProvisioning() const {
  return std::any_of(groups_.begin(), groups_.end(),
                     [](const GroupScale& g) { return g.provisioning > 0; });
}

uint32_t NodeGroups::LaunchedNodes() const {
  uint32_t nodes = 0;
  for (const GroupScale& g : groups_) nodes += g.launched;
  return nodes;
}

bool NodeGroups::AboveMin(int32_t group) const {
  const GroupScale& g = groups_[group];
  return g.launched - g.draining > g.min;
}

std::vector<Offering> NodeGroups::Offerings(const ClusterApi& api, bool registering_only,
                                            bool* backed_off) const {
  const ClusterSpec& cluster = api.cluster();
  std::vector<Offering> offerings;
  for (uint32_t g = 0; g < cluster.node_groups.size(); ++g) {
    const NodeGroupSpec& spec = cluster.node_groups[g];
    const uint32_t room = spec.max - groups_[g].launched;
    if (room == 0) continue;
    if (registering_only && spec.provisioning > provision_limit_) continue;
    if (api.now() < groups_[g].backoff_until) {
      if (backed_off != nullptr) *backed_off = true;
      continue;
    }
    offerings.push_back({.group = g,
                         .spec = &cluster.nodes[cluster.pools[spec.pool].first],
                         .price_per_hour = spec.price_per_hour,
                         .room = room});
  }
  return offerings;
}

// What the nodes already launching will hold is not asked for again.
std::vector<PendingPods> NodeGroups::PendingBeyondUpcoming(const ClusterApi& api) const {
  std::vector<PendingPods> kinds = api.UnschedulablePods();
  if (kinds.empty()) return kinds;
  const ClusterSpec& cluster = api.cluster();
  for (uint32_t g = 0; g < cluster.node_groups.size(); ++g) {
    if (groups_[g].provisioning == 0) continue;
    ScratchNodes upcoming(cluster.nodes[cluster.pools[cluster.node_groups[g].pool].first],
                          scratch_resources_, api.device_classes());
    PackPending(upcoming, groups_[g].provisioning, kinds, true);
  }
  std::erase_if(kinds, [](const PendingPods& k) { return k.count == 0; });
  return kinds;
}

bool NodeGroups::PodsEvictable(const ClusterApi& api, uint32_t node,
                               const std::vector<int32_t>& allowed) const {
  for (const BoundPod& bound : api.nodes()[node].pods) {
    const Pod& pod = api.pod(bound.id);
    if (!pod.on_node()) return false;  // a gang's reservation
    if (pod.terminating) continue;     // leaving anyway
    if (!api.RecreatesPods(pod.owner)) return false;
    if (!MayDisrupt(api.pod_template(pod.tmpl))) return false;
    if (pod.ready) {
      for (uint32_t b : api.disruption_budgets().Of(pod.tmpl)) {
        if (allowed[b] <= 0) return false;
      }
    }
  }
  return true;
}

}  // namespace migsim
