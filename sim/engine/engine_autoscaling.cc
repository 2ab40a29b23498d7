// Node autoscaling (autoscaling.h): the Cluster Autoscaler's loop over node groups, the
// nodes it launches and terminates, and what every node is billed.
//
// Every scan interval, after that instant's scheduling cycle, the loop:
//  1. scale-up: takes the unschedulable pods (pending, refused by the scheduler, not
//     nominated to a node by preemption), leaves out those that fit a Ready node as it is
//     and those the nodes already launching will hold, simulates each group's new nodes
//     (scale_up_estimate.h) and grows the group its expander picks (expander.h);
//  2. scale-down: a Ready node of a group above its minimum is unneeded while its
//     utilization is under the threshold and each of its pods could move (not a bare pod,
//     its PodDisruptionBudgets allow an eviction, it fits another Ready node); unneeded
//     for scale-down-unneeded-time, outside the delays after a scale-up, a scale-down and
//     a failed drain, it goes: empty nodes at once (max-empty-bulk-delete a scan), others
//     through a drain (max-drain-parallelism at a time).
// A run without node groups never gets here but for billing (StopBilling).

#include <algorithm>
#include <iterator>
#include <utility>

#include "sim/core/check.h"
#include "sim/engine/engine.h"
#include "sim/engine/expander.h"

namespace migsim {
namespace {

// How long a scale-down drain waits for evictions the budgets refuse before it gives up
// (the Cluster Autoscaler's MaxPodEvictionTime), and what it waits after a failure
// (--scale-down-delay-after-failure); both are the autoscaler's defaults.
constexpr SimTime kMaxPodEvictionTime = SimTime::Micros(120'000'000);
constexpr SimTime kDelayAfterFailure = SimTime::Micros(180'000'000);

}  // namespace

void Engine::StartAutoscaling() {
  node_scale_.resize(cluster_->nodes.size());
  group_scale_.resize(cluster_->node_groups.size());
  group_counters_.resize(cluster_->node_groups.size());
  for (const std::unique_ptr<Controller>& c : controllers_) {
    owner_recreates_.push_back(c->RecreatesPods() ? 1 : 0);
  }
  for (uint32_t g = 0; g < cluster_->node_groups.size(); ++g) {
    const NodeGroupSpec& group = cluster_->node_groups[g];
    const NodePoolRange& pool = cluster_->pools[group.pool];
    for (uint32_t i = 0; i < pool.count; ++i) {
      const uint32_t node = pool.first + i;
      NodeScale& scale = node_scale_[node];
      scale.group = static_cast<int32_t>(g);
      if (i < group.initial) {
        scale.state = NodeScale::State::kReady;
        ++group_scale_[g].launched;
        NotifyNodeChanged(node, NodeChange::kStarted);
        continue;
      }
      scale.state = NodeScale::State::kAbsent;
      node_conditions_[node].absent = true;
      UpdateSchedulable(node);
      capacity_weight_ -= runtimes_[node].capacity_weight();
      billed_since_[node] = SimTime::Max();
    }
  }
  QueueScan();
}

// The next scan does not keep a run going by itself (OnlyFlushesLeft asks AutoscalerMayAct).
void Engine::QueueScan() {
  events_.Push(now_ + ScanPeriod(), ScaleStep{.step = ScaleStepKind::kScan});
  ++scans_queued_;
}

bool Engine::Karpenter() const { return cluster_->provisioner == Provisioner::kKarpenter; }

// Karpenter looks at pending pods every batch-idle period; the Cluster Autoscaler scans.
SimTime Engine::ScanPeriod() const {
  return Karpenter() ? cluster_->karpenter.batch_idle : cluster_->autoscaler.scan_interval;
}

SimTime Engine::ProvisionLimit() const {
  return Karpenter() ? cluster_->karpenter.registration_ttl
                     : cluster_->autoscaler.max_node_provision_time;
}

SimTime Engine::GroupBackoff() const {
  return Karpenter() ? cluster_->karpenter.unavailable_offering_ttl
                     : cluster_->autoscaler.node_group_backoff;
}

void Engine::Handle(const ScaleStep& e) {
  switch (e.step) {
    case ScaleStepKind::kScan:
      --scans_queued_;
      scan_due_ = true;
      return;
    case ScaleStepKind::kReady:
      if (node_scale_[e.node].launch == e.launch) NodeReady(e.node);
      return;
    case ScaleStepKind::kProvisionTimeout:
      if (node_scale_[e.node].launch == e.launch) ProvisionTimeout(e.node);
      return;
    case ScaleStepKind::kDrainTick:
      ScaleDownDrainTick(e);
      return;
  }
}

void Engine::AutoscalerScan() {
  if (Karpenter()) return KarpenterScan();
  scan_due_ = false;
  bool backed_off = false;
  if (const std::optional<ScaleUpOption> option = PlanScaleUp(backed_off)) {
    LaunchNodes(option->group, option->nodes);
  }
  ScaleDown();
  QueueScan();
}

// Asked only when nothing but the next scan (and flushes, draws) is queued: whether that
// scan could still launch or terminate a node. Without a horizon, a group whose nodes can
// never register in time is left out, so that the run ends.
bool Engine::AutoscalerMayAct() {
  if (Karpenter()) return KarpenterMayAct();
  if (draining_ > 0) return true;
  for (const GroupScale& g : group_scale_) {
    if (g.provisioning > 0) return true;
  }
  const std::vector<int32_t> allowed = budgets_.Allowed();
  for (uint32_t node = 0; node < node_scale_.size(); ++node) {
    const NodeScale& scale = node_scale_[node];
    if (scale.group >= 0 && scale.state == NodeScale::State::kReady && AboveMin(scale.group) &&
        Unneeded(node, allowed)) {
      return true;
    }
  }
  bool backed_off = false;
  const bool endless = config_.horizon == SimTime::Max();
  return PlanScaleUp(backed_off, true, endless).has_value() || backed_off;
}

// --- scale-up ---

bool Engine::FitsSomeNode(const PodView& view) const {
  const ClusterView cluster(node_info_, resources_, now_);
  for (const NodeInfo& node : node_info_) {
    if (cluster.Fits(view, node)) return true;
  }
  return false;
}

std::vector<PendingPods> Engine::UnschedulablePods() {
  size_t classes = 0;
  for (SchedulingClassId c : template_class_) classes = std::max<size_t>(classes, c.value() + 1);
  std::vector<uint32_t> count(classes, 0);
  std::vector<PodId> first(classes);
  std::vector<uint8_t> refused(classes, 0);
  std::vector<GangId> gangs;
  std::vector<uint8_t> gang_seen(gangs_.size(), 0);
  queue_.ForEach([&](PodId id) {
    const Pod& pod = pods_[id.value()];
    if (pod.phase != PodPhase::kPending || pod.nominated.valid()) return;
    if (pod.gang.valid()) {
      if (gang_seen[pod.gang.value()] == 0) gangs.push_back(pod.gang);
      gang_seen[pod.gang.value()] = 1;
      return;
    }
    const PodTemplate& t = templates_[pod.tmpl.value()];
    if (t.node_name.valid() || !t.shared_claims.empty()) return;
    const size_t c = template_class_[pod.tmpl.value()].value();
    ++count[c];
    if (!first[c].valid() || id < first[c]) first[c] = id;
    if (pod.attempts > 0) refused[c] = 1;
  });
  std::vector<PendingPods> kinds;
  for (size_t c = 0; c < classes; ++c) {
    if (count[c] == 0 || !refused[c]) continue;
    const PodView view = ViewOf(pods_[first[c].value()]);
    if (!FitsSomeNode(view)) kinds.push_back({view, count[c]});
  }
  for (GangId g : gangs) {
    if (std::optional<PendingPods> kind = GangAwaitingNodes(gangs_[g.value()])) {
      kinds.push_back(std::move(*kind));
    }
  }
  std::sort(kinds.begin(), kinds.end(), [](const PendingPods& a, const PendingPods& b) {
    return a.view.priority != b.view.priority ? a.view.priority > b.view.priority
                                              : a.view.id < b.view.id;
  });
  return kinds;
}

// What the nodes already launching will hold is not asked for again.
std::vector<PendingPods> Engine::PendingBeyondUpcoming() {
  std::vector<PendingPods> kinds = UnschedulablePods();
  if (kinds.empty()) return kinds;
  const std::span<const NodeGroupSpec> groups = cluster_->node_groups;
  for (uint32_t g = 0; g < groups.size(); ++g) {
    if (group_scale_[g].provisioning == 0) continue;
    ScratchNodes upcoming(cluster_->nodes[cluster_->pools[groups[g].pool].first], resources_,
                          device_classes_);
    PackPending(upcoming, group_scale_[g].provisioning, kinds, true);
  }
  std::erase_if(kinds, [](const PendingPods& k) { return k.count == 0; });
  return kinds;
}

std::optional<ScaleUpOption> Engine::PlanScaleUp(bool& backed_off, bool asking,
                                                 bool registering_only) {
  std::vector<PendingPods> kinds = PendingBeyondUpcoming();
  if (kinds.empty()) return std::nullopt;
  std::vector<ScaleUpOption> options;
  for (const Offering& o : Offerings(registering_only, &backed_off)) {
    ScaleUpOption option = EstimateScaleUp(o.group, *o.spec, o.price_per_hour, o.room, kinds,
                                           resources_, device_classes_);
    if (option.pods > 0) options.push_back(option);
  }
  if (options.empty()) return std::nullopt;
  if (asking) return options.front();  // no draw: the run's draws stay as they were
  return options[ChooseOption(cluster_->autoscaler.expander, options, cluster_->node_groups,
                              autoscaler_rng_)];
}

void Engine::LaunchNodes(uint32_t group, uint32_t count) {
  ++group_counters_[group].scale_ups;
  last_scale_up_ = now_;
  scaled_up_ = true;
  for (uint32_t i = 0; i < count; ++i) LaunchNode(group);
}

uint32_t Engine::LaunchNode(uint32_t group) {
  const NodeGroupSpec& spec = cluster_->node_groups[group];
  const NodePoolRange& pool = cluster_->pools[spec.pool];
  uint32_t node = pool.first;
  while (node_scale_[node].state != NodeScale::State::kAbsent) {
    ++node;
    MIGSIM_CHECK(node < pool.first + pool.count, "a launch in a node group without room");
  }
  NodeScale& scale = node_scale_[node];
  scale.state = NodeScale::State::kProvisioning;
  ++scale.launch;
  ++group_scale_[group].launched;
  ++group_scale_[group].provisioning;
  ++group_counters_[group].nodes_launched;
  if (Karpenter()) ++group_counters_[group].scale_ups;  // one NodeClaim each
  billed_since_[node] = now_;
  NotifyScale(node, NodeScaleChange::kLaunched);
  // A node slower than the provisioner's limit never counts as registered.
  const bool registers = spec.provisioning <= ProvisionLimit();
  events_.Push(
      now_ + (registers ? spec.provisioning : ProvisionLimit()),
      ScaleStep{.step = registers ? ScaleStepKind::kReady : ScaleStepKind::kProvisionTimeout,
                .node = node,
                .launch = scale.launch});
  return node;
}

void Engine::NodeReady(uint32_t node) {
  NodeScale& scale = node_scale_[node];
  --group_scale_[scale.group].provisioning;
  scale.state = NodeScale::State::kReady;
  scale.unneeded_since = SimTime::Max();
  node_conditions_[node].absent = false;
  capacity_weight_ += runtimes_[node].capacity_weight();
  UpdateSchedulable(node);  // unblocks the queue
  NotifyAllocation();
  NotifyScale(node, NodeScaleChange::kReady);
  scale.last_change = now_;
  NotifyNodeChanged(node, NodeChange::kReady);
  if (scale.replaces >= 0) ReplacementReady(node);
}

// The autoscaler deletes a node that did not register in time and backs its group off.
void Engine::ProvisionTimeout(uint32_t node) {
  NodeScale& scale = node_scale_[node];
  GroupScale& group = group_scale_[scale.group];
  --group.provisioning;
  --group.launched;
  group.backoff_until = now_ + GroupBackoff();
  ++group_counters_[scale.group].provision_failures;
  scale.state = NodeScale::State::kAbsent;
  StopBilling(node);
  NotifyScale(node, NodeScaleChange::kTerminated);
  if (scale.replaces >= 0) ReplacementFailed(node);
}

// --- scale-down ---

// GPU nodes: the GPU capacity pods hold (a MIG device or a share as its fraction of a GPU),
// as the autoscaler counts only GPU requests on accelerator nodes; other nodes: the larger
// of the CPU and memory requested.
double Engine::Utilization(uint32_t node) const {
  const NodeRuntime& runtime = runtimes_[node];
  if (const int64_t capacity = runtime.capacity_weight(); capacity > 0) {
    return static_cast<double>(runtime.allocated_weight()) / static_cast<double>(capacity);
  }
  const NodeInfo& info = node_info_[node];
  const auto share = [](int64_t requested, int64_t allocatable) {
    return allocatable > 0 ? static_cast<double>(requested) / static_cast<double>(allocatable)
                           : 0.0;
  };
  return std::max(share(info.cpu_milli_requested, info.cpu_milli_allocatable),
                  share(info.memory_mib_requested, info.memory_mib_allocatable));
}

bool Engine::PodsMovable(uint32_t node, const std::vector<int32_t>& allowed) const {
  return PodsEvictable(node, allowed) && PodsThatCannotMove({&node, 1}).empty();
}

// Not a bare pod or a gang's reservation, not annotated against the provisioner's
// disruption, and its budgets allow its eviction.
bool Engine::PodsEvictable(uint32_t node, const std::vector<int32_t>& allowed) const {
  for (const BoundPod& bound : node_info_[node].pods) {
    const Pod& pod = pods_[bound.id.value()];
    if (!pod.on_node()) return false;  // a gang's reservation
    if (pod.terminating) continue;     // leaving anyway
    if (!owner_recreates_[pod.owner.value()]) return false;
    const PodTemplate& t = templates_[pod.tmpl.value()];
    if (Karpenter() ? t.do_not_disrupt : !t.safe_to_evict) return false;
    if (pod.ready) {
      for (uint32_t b : budgets_.Of(pod.tmpl)) {
        if (allowed[b] <= 0) return false;
      }
    }
  }
  return true;
}

namespace {

PodRequests Sum(const PodRequests& a, const PodRequests& b) {
  PodRequests sum{.cpu_milli = a.cpu_milli + b.cpu_milli,
                  .memory_mib = a.memory_mib + b.memory_mib,
                  .extended = a.extended};
  for (const ResourceRequest& r : b.extended) {
    auto it = std::find_if(sum.extended.begin(), sum.extended.end(),
                           [&](const ResourceRequest& x) { return x.resource == r.resource; });
    if (it != sum.extended.end()) {
      it->count += r.count;
    } else {
      sum.extended.insert(std::upper_bound(sum.extended.begin(), sum.extended.end(), r,
                                           [](const ResourceRequest& x, const ResourceRequest& y) {
                                             return x.resource < y.resource;
                                           }),
                          r);
    }
  }
  return sum;
}

}  // namespace

// All of the leaving nodes' pods at once: each onto the first node not leaving that fits it
// besides the pods already sent there (their requests summed; DRA claims are checked one pod at a
// time), as the autoscalers simulate a node's removal. A gang's pods keep their pod
// (anti-)affinity: one per node away from the gang's other pods, in the gang's topology
// domain (the stranded ones carry that domain, for a replacement node).
std::vector<PendingPods> Engine::PodsThatCannotMove(std::span<const uint32_t> leaving,
                                                    std::span<const uint8_t> held) const {
  const ClusterView cluster(node_info_, resources_, now_);
  std::vector<std::pair<uint32_t, PodRequests>> sent;
  std::vector<std::pair<GangId, GangConstraint>> gangs;  // as the moves so far leave them
  std::vector<PendingPods> stranded;
  const auto left = [&](uint32_t i) {
    return std::find(leaving.begin(), leaving.end(), i) != leaving.end();
  };
  for (const uint32_t node : leaving) {
    for (const BoundPod& bound : node_info_[node].pods) {
      const Pod& pod = pods_[bound.id.value()];
      if (pod.terminating) continue;
      PodView view = ViewOf(pod);
      GangConstraint* gang = nullptr;
      if (pod.gang.valid()) {
        auto it = std::find_if(gangs.begin(), gangs.end(),
                               [&](const auto& g) { return g.first == pod.gang; });
        if (it == gangs.end()) {
          gangs.emplace_back(pod.gang, ConstraintOf(gangs_[pod.gang.value()]));
          it = std::prev(gangs.end());
        }
        gang = &it->second;
        view.gang = gang;
      }
      bool placed = false;
      for (uint32_t i = 0; i < node_info_.size() && !placed; ++i) {
        if (left(i) || (!held.empty() && held[i] != 0) || !cluster.Fits(view, node_info_[i])) {
          continue;
        }
        auto it =
            std::find_if(sent.begin(), sent.end(), [&](const auto& s) { return s.first == i; });
        if (it == sent.end()) {
          sent.emplace_back(i, *view.requests);
          placed = true;
        } else if (PodRequests more = Sum(it->second, *view.requests);
                   node_info_[i].HasRoomFor(more)) {
          it->second = std::move(more);
          placed = true;
        }
        if (placed && gang != nullptr) gang->Take(NodeId(i));
      }
      if (placed) continue;
      view.gang = nullptr;
      PendingPods kind{.view = view, .count = 1};
      if (gang != nullptr) {
        kind.gang = GangConstraint{.topology_key = gang->topology_key,
                                   .topology_value = gang->topology_value};
      }
      stranded.push_back(std::move(kind));
    }
  }
  return stranded;
}

bool Engine::Unneeded(uint32_t node, const std::vector<int32_t>& allowed) const {
  return node_scale_[node].state == NodeScale::State::kReady && node_info_[node].schedulable &&
         Utilization(node) < cluster_->autoscaler.utilization_threshold &&
         PodsMovable(node, allowed);
}

// Nodes being drained are on their way out: they do not count towards the minimum.
bool Engine::AboveMin(int32_t group) const {
  const GroupScale& g = group_scale_[group];
  return g.launched - g.draining > cluster_->node_groups[group].min;
}

void Engine::ScaleDown() {
  const ClusterAutoscalerSpec& ca = cluster_->autoscaler;
  if (!ca.scale_down) return;
  const std::vector<int32_t> allowed = budgets_.Allowed();
  std::vector<uint32_t> due;
  for (uint32_t node = 0; node < node_scale_.size(); ++node) {
    NodeScale& scale = node_scale_[node];
    if (scale.group < 0 || scale.state != NodeScale::State::kReady) continue;
    if (!AboveMin(scale.group) || !Unneeded(node, allowed)) {
      scale.unneeded_since = SimTime::Max();
      continue;
    }
    scale.unneeded_since = std::min(scale.unneeded_since, now_);
    if (now_ - scale.unneeded_since >= ca.unneeded_time) due.push_back(node);
  }
  const bool cooling = (scaled_up_ && now_ < last_scale_up_ + ca.delay_after_add) ||
                       (scaled_down_ && now_ < last_scale_down_ + ca.delay_after_delete) ||
                       (drain_failed_ && now_ < last_drain_failure_ + kDelayAfterFailure);
  if (cooling) return;
  uint32_t emptied = 0;
  for (uint32_t node : due) {
    if (!AboveMin(node_scale_[node].group)) continue;
    if (node_info_[node].pods.empty()) {
      if (emptied == ca.max_empty_bulk_delete) continue;
      ++emptied;
      TerminateNode(node);
    } else if (draining_ < ca.max_drain_parallelism) {
      StartScaleDownDrain(node);
    }
  }
}

void Engine::StartScaleDownDrain(uint32_t node) {
  NodeScale& scale = node_scale_[node];
  scale.state = NodeScale::State::kDraining;
  scale.drain_started = now_;
  ++draining_;
  ++group_scale_[scale.group].draining;
  last_scale_down_ = now_;
  scaled_down_ = true;
  ++node_conditions_[node].cordons;
  UpdateSchedulable(node);
  NotifyScale(node, NodeScaleChange::kDrainStarted);
  ScaleDownDrainTick(
      ScaleStep{.step = ScaleStepKind::kDrainTick, .node = node, .launch = scale.launch});
}

// Evicts what the budgets let go, each pod with its grace period capped at
// --max-graceful-termination-sec (600 s); the node goes once empty. Evictions still refused
// after MaxPodEvictionTime abort the drain.
void Engine::ScaleDownDrainTick(const ScaleStep& e) {
  const NodeScale& scale = node_scale_[e.node];
  if (scale.launch != e.launch || scale.state != NodeScale::State::kDraining) return;
  const bool refused = EvictAllowed(e.node, SimTime::Seconds(600), LossBook::kUnbooked);
  if (node_info_[e.node].pods.empty()) return TerminateNode(e.node);
  if (refused && now_ - scale.drain_started >= kMaxPodEvictionTime) {
    return AbortScaleDownDrain(e.node);
  }
  ScaleStep next = e;
  events_.Push(now_ + kEvictionRetry, next);
}

void Engine::AbortScaleDownDrain(uint32_t node) {
  NodeScale& scale = node_scale_[node];
  scale.state = NodeScale::State::kReady;
  scale.unneeded_since = SimTime::Max();
  --draining_;
  --group_scale_[scale.group].draining;
  last_drain_failure_ = now_;
  drain_failed_ = true;
  ++group_counters_[scale.group].drains_aborted;
  --node_conditions_[node].cordons;
  UpdateSchedulable(node);
  NotifyScale(node, NodeScaleChange::kDrainAborted);
  EndReplacement(node);
}

// The instance is terminated: what is still on the node (a gang's reservations, pods whose
// grace period runs) ends now, and the node is absent until a scale-up launches it again.
void Engine::TerminateNode(uint32_t node) {
  NodeScale& scale = node_scale_[node];
  ReleaseReservationsOn(NodeId(node));
  KillPodsOn(node, -1, now_, EndReason::kNodeRemoved, true);
  if (scale.state == NodeScale::State::kDraining) {
    --draining_;
    --group_scale_[scale.group].draining;
    --node_conditions_[node].cordons;
  }
  last_scale_down_ = now_;
  scaled_down_ = true;
  scale.state = NodeScale::State::kAbsent;
  scale.unneeded_since = SimTime::Max();
  --group_scale_[scale.group].launched;
  ++group_counters_[scale.group].nodes_terminated;
  node_conditions_[node].absent = true;
  UpdateSchedulable(node);
  capacity_weight_ -= runtimes_[node].capacity_weight();
  NotifyAllocation();
  StopBilling(node);
  NotifyScale(node, NodeScaleChange::kTerminated);
  // The cluster controllers' cordons of the instance (a spot notice's) go with it.
  NotifyNodeChanged(node, NodeChange::kTerminated);
  EndReplacement(node);
}

uint32_t Engine::NodeInstance(uint32_t node) const {
  return node_scale_.empty() ? 0 : node_scale_[node].launch;
}

// The group's slot may launch again (the controllers lift their cordons of the instance
// when told it is terminated). A node awaiting its Karpenter replacement leaves that state first (the
// replacement stays, free to be consolidated).
void Engine::ReclaimGroupNode(uint32_t node) {
  NodeScale& scale = node_scale_[node];
  if (scale.state == NodeScale::State::kAwaitingReplacement) EndAwaitingReplacement(node);
  ++group_counters_[scale.group].spot_reclaims;
  TerminateNode(node);
}

void Engine::NotifyScale(uint32_t node, NodeScaleChange change) {
  const auto group = static_cast<uint32_t>(node_scale_[node].group);
  for (EngineObserver* o : observers_) o->OnNodeScaled(now_, NodeId(node), group, change);
}

void Engine::StopBilling(uint32_t node) {
  if (billed_since_[node] == SimTime::Max()) return;
  billed_seconds_[node] += (now_ - billed_since_[node]).seconds();
  billed_since_[node] = SimTime::Max();
}

}  // namespace migsim
