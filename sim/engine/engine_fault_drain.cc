// The faults that take a node out in steps: a drain (kubectl drain: cordon, evict through
// the Eviction API, maintenance, uncordon), a spot interruption (the node termination
// handler drains during the notice, then the instance is gone), and a MIG apply that
// fails (nvidia.com/mig.config.state=failed until a repair re-applies the old config).

#include <algorithm>

#include "sim/core/check.h"
#include "sim/engine/engine.h"

namespace migsim {

void Engine::StartDrain(uint32_t node, const FaultStep& origin) {
  ++node_faults_[node].cordons;
  UpdateSchedulable(node);
  ReleaseReservationsOn(NodeId(node));
  FaultStep tick = origin;
  tick.node = node;
  if (!node_scale_.empty()) tick.launch = node_scale_[node].launch;
  if (KindOf(origin) == FaultKind::kSpotInterruption) {
    // A spot-interruption process gives AWS's two-minute notice.
    ++node_faults_[node].spot_notices;
    tick.step = FaultStepKind::kRemove;
    events_.Push(now_ + (origin.process ? kSpotNotice : cluster_->faults[origin.source].notice),
                 tick);
  }
  tick.step = FaultStepKind::kDrainTick;
  DrainTick(tick);
}

// The Eviction API refuses to evict a ready pod when one of its PodDisruptionBudgets
// allows no disruption (HTTP 429); a pod that is not ready (still starting) is evicted
// whatever the budgets (unhealthyPodEvictionPolicy AlwaysAllow; Kubernetes' default,
// IfHealthyBudget, also lets it go unless the budget is already broken). An eviction takes
// one disruption off each of its budgets' `allowed`.
bool Engine::MayEvict(const Pod& pod, std::vector<int32_t>& allowed) const {
  if (!pod.ready) return true;
  const std::span<const uint32_t> budgets = budgets_.Of(pod.tmpl);
  for (uint32_t b : budgets) {
    if (allowed[b] <= 0) return false;
  }
  for (uint32_t b : budgets) --allowed[b];
  return true;
}

// Evicts every pod the budgets let go (each ends Evicted after its grace period); once
// the node is empty a drain's maintenance starts, else the refused evictions are retried
// in 5 s. A spot notice keeps retrying until its node is removed.
bool Engine::EvictAllowed(uint32_t node, SimTime max_grace, LossBook book) {
  std::vector<int32_t> allowed = budgets_.Allowed();
  std::vector<PodId> evict;
  bool refused = false;
  for (const BoundPod& bound : node_info_[node].pods) {
    const Pod& pod = pods_[bound.id.value()];
    if (!pod.on_node() || pod.terminating) continue;
    if (MayEvict(pod, allowed)) {
      evict.push_back(pod.id);
    } else {
      refused = true;
    }
  }
  std::sort(evict.begin(), evict.end());
  for (PodId id : evict) {
    Pod& pod = pods_[id.value()];
    const SimTime grace = std::min(templates_[pod.tmpl.value()].termination_grace, max_grace);
    Terminate(pod, now_ + grace, EndReason::kEvicted, book);
  }
  return refused;
}

void Engine::DrainTick(const FaultStep& e) {
  const NodeFaults& nf = node_faults_[e.node];
  if (nf.removed || OtherInstance(e)) return;
  // A spot notice's node group instance is gone (by the notice or before it): nothing to
  // drain until another instance, with notices of its own, runs in the slot.
  if (nf.absent && KindOf(e) == FaultKind::kSpotInterruption) return;
  EvictAllowed(e.node, SimTime::Max(), LossBook::kFaults);
  FaultStep next = e;
  if (KindOf(e) == FaultKind::kDrain && node_info_[e.node].pods.empty()) {
    next.step = FaultStepKind::kUncordon;  // drains are scripted: the fault's maintenance
    events_.Push(now_ + cluster_->faults[e.source].maintenance, next);
    return;
  }
  events_.Push(now_ + kEvictionRetry, next);
}

// The instance is gone: pods still there end now (those being evicted with the reason
// they were evicted for), and the node never comes back. A node group's instance that is
// already gone (terminated by the autoscaler during its notice, or by an earlier notice)
// is not terminated twice: its group's count of nodes would go below what runs.
void Engine::RemoveNode(uint32_t node) {
  NodeFaults& nf = node_faults_[node];
  if (nf.removed || nf.absent) return;
  if (!node_scale_.empty() && node_scale_[node].group >= 0) return ReclaimGroupNode(node);
  nf.removed = true;
  ReleaseReservationsOn(NodeId(node));
  KillPodsOn(node, -1, now_, EndReason::kNodeRemoved, true);
  UpdateSchedulable(node);
  ReportAvailability(node);
  // The instance is gone: from now on the cluster's GPU capacity is without it (its pods
  // release their devices at this same instant).
  capacity_weight_ -= runtimes_[node].capacity_weight();
  NotifyAllocation();
  StopBilling(node);
}

namespace {

// What a failed apply leaves: the MIG-enabled GPUs without GPU instances.
std::vector<GpuMigSetting> Emptied(std::vector<GpuMigSetting> gpus) {
  for (GpuMigSetting& g : gpus) {
    if (g.mig_enabled) g.layout.clear();
  }
  return gpus;
}

}  // namespace

// mig-parted destroys the GPU instances of the MIG GPUs and fails to create the new ones
// (domain.md §4.1, step 9): pods there lose their devices, the plugin stays withdrawn for
// the node's pending window, then comes back with no MIG device and the state `failed`.
void Engine::MigApplyFails(uint32_t node, const FaultStep& origin) {
  NodeFaults& nf = node_faults_[node];
  const NodeRuntime& runtime = runtimes_[node];
  if (!nf.mig_failed) {
    nf.mig_before = runtime.gpus();
    nf.config_before = runtime.mig_config();
  }
  const SimTime window = cluster_->nodes[node].mig_reconfiguration;
  BeginMigChange(node, Emptied(runtime.gpus()), nf.config_before, window, LossBook::kFaults);
  FaultStep failed = origin;
  failed.step = FaultStepKind::kMigFailed;
  failed.node = node;
  events_.Push(now_ + window, failed);
}

bool Engine::RestoreMig(const FaultStep& e) {
  NodeRuntime& runtime = runtimes_[e.node];
  if (runtime.reconfiguring()) {
    events_.Push(reconfiguring_until_[e.node], e);
    return false;
  }
  NodeFaults& nf = node_faults_[e.node];
  // A policy or a relabel may have fixed the node meanwhile: then there is nothing to do.
  if (!nf.mig_failed || runtime.mig_state() != "failed") {
    nf.mig_failed = false;
    return true;
  }
  const SimTime window = cluster_->nodes[e.node].mig_reconfiguration;
  BeginMigChange(e.node, nf.mig_before, nf.config_before, window, LossBook::kFaults);
  FaultStep restored = e;
  restored.step = FaultStepKind::kMigRestored;
  events_.Push(now_ + window, restored);
  return true;
}

void Engine::MigApplyEnds(const FaultStep& e) {
  NodeFaults& nf = node_faults_[e.node];
  NodeInfo& info = node_info_[e.node];
  if (e.step == FaultStepKind::kMigFailed) {
    FinishMigChange(e.node, Emptied(runtimes_[e.node].gpus()), nf.config_before);
    runtimes_[e.node].SetMigState("failed", info);
    nf.mig_failed = true;
  } else {
    FinishMigChange(e.node, nf.mig_before, nf.config_before);
    nf.mig_failed = false;
  }
  ReportAvailability(e.node);
}

}  // namespace migsim
