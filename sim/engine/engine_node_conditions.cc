// Node conditions (node_conditions.h): the mechanism the kubelet, the node lifecycle
// controller and the API server give the cluster controllers (ClusterApi's node verbs):
// NotReady and its NoExecute eviction, GPUs unhealthy, cordons, evictions under
// PodDisruptionBudgets, a node deleted, and what the conditions make of the node for the
// scheduler (NodeInfo::schedulable). What makes a node fail, and when, is a controller's
// (the faults controller, FaultInjector).

#include <algorithm>

#include "sim/core/check.h"
#include "sim/engine/engine_api.h"

namespace migsim {

// The kubelet stops posting status: the node controller taints it not-ready/unreachable
// (NoSchedule at once; NoExecute evicts pods once their toleration runs out).
void Engine::SetNodeNotReady(uint32_t node, SimTime toleration) {
  if (node_conditions_[node].not_ready++ > 0) return;
  UpdateSchedulable(node);
  ReleaseReservationsOn(NodeId(node));
  KillPodsOn(node, -1, now_ + toleration, EndReason::kNodeLost, false);
}

void Engine::SetNodeReady(uint32_t node) {
  if (--node_conditions_[node].not_ready > 0) return;
  // The machine rebooted: what was still bound there is gone.
  KillPodsOn(node, -1, now_, EndReason::kNodeLost, true);
  UpdateSchedulable(node);
}

void Engine::SetGpuHealth(uint32_t node, int gpu, bool healthy) {
  int& unhealthy = node_conditions_[node].gpu_unhealthy[gpu];
  if (!healthy) {
    if (unhealthy++ > 0) return;
    runtimes_[node].SetGpuHealthy(gpu, false, resources_, node_info_[node]);
    NodeChanged(node);
    ReleaseReservationsOn(NodeId(node));
    KillPodsOn(node, gpu, now_, EndReason::kGpuFailed, false);
    return;
  }
  if (--unhealthy > 0) return;
  runtimes_[node].SetGpuHealthy(gpu, true, resources_, node_info_[node]);
  NodeChanged(node);
  queue_.UnblockAll();
}

void Engine::Cordon(uint32_t node) {
  ++node_conditions_[node].cordons;
  UpdateSchedulable(node);
  ReleaseReservationsOn(NodeId(node));
}

void Engine::Uncordon(uint32_t node) {
  --node_conditions_[node].cordons;
  UpdateSchedulable(node);
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

// A node group's node goes back to its group (the node provider's); any other node is gone
// for good: pods still there end now (those being evicted with the reason they were evicted
// for), and from now on the cluster's GPU capacity is without it (its pods release their
// devices at this same instant).
void Engine::DeleteNode(uint32_t node) {
  if (const auto [provider, api] = RoleOf(&ClusterController::node_provider);
      provider != nullptr && provider->DeleteInstance(*api, NodeId(node))) {
    return;
  }
  node_conditions_[node].removed = true;
  ReleaseReservationsOn(NodeId(node));
  KillPodsOn(node, -1, now_, EndReason::kNodeRemoved, true);
  UpdateSchedulable(node);
  NotifyNodeChanged(node, NodeChange::kRemoved);
  capacity_weight_ -= runtimes_[node].capacity_weight();
  NotifyAllocation();
}

void Engine::KillPodsOn(uint32_t node, int gpu, SimTime end, EndReason reason, bool all) {
  std::vector<PodId> victims;
  for (const BoundPod& bound : node_info_[node].pods) {
    const Pod& pod = pods_[bound.id.value()];
    if (!pod.on_node()) continue;  // a gang's reservation: released by the caller
    if (gpu >= 0) {
      const auto devices = DevicesOf(pod);
      const bool on_gpu = std::any_of(devices.begin(), devices.end(), [&](const auto& held) {
        return runtimes_[node].devices()[held.device].plugin.gpu == gpu;
      });
      if (!on_gpu) continue;
    }
    victims.push_back(pod.id);
  }
  std::sort(victims.begin(), victims.end());  // node order is not creation order
  for (PodId id : victims) {
    Pod& pod = pods_[id.value()];
    if (!pod.terminating) {
      if (pod.gang.valid()) LoseAttempt(gangs_[pod.gang.value()], reason);
      Terminate(pod, end, reason, LossBook::kFaults);
    } else if (all) {
      EndNow(pod);
    }
  }
}

void Engine::UpdateSchedulable(uint32_t node) {
  const NodeConditions& c = node_conditions_[node];
  NodeInfo& info = node_info_[node];
  const bool schedulable = c.not_ready == 0 && c.cordons == 0 && !c.removed && !c.absent;
  if (info.schedulable == schedulable) return;
  info.schedulable = schedulable;
  ++info.generation;
  NodeChanged(node);
  if (schedulable) queue_.UnblockAll();
}

void Engine::RecordFault(const FaultNotice& notice) {
  if (!notice.repaired) ++counters_.fault_hits;
  for (EngineObserver* o : observers_) o->OnFault(now_, notice);
}

void Engine::RecordPoolAvailability(uint32_t pool, int64_t available, int64_t total) {
  for (EngineObserver* o : observers_) o->OnPoolAvailability(now_, pool, available, total);
}

void Engine::RecordKueueWorkload(const KueueWorkloadNotice& notice) {
  for (EngineObserver* o : observers_) o->OnKueueWorkload(now_, notice);
}

// The node groups' instances: a slot without one is absent (not schedulable, out of the GPU
// capacity); the node groups' controller tells the engine when one starts and ends.
uint32_t Engine::Api::node_instance(NodeId node) const {
  Checked(node);
  const auto [provider, api] = e_.RoleOf(&ClusterController::node_provider);
  return provider == nullptr ? 0 : provider->Instance(node);
}

void Engine::Api::SetNodeAbsent(NodeId node) {
  const uint32_t n = Present(node);
  MIGSIM_CHECK(e_.now_ == SimTime::Zero() && !e_.node_conditions_[n].absent,
               "a node made absent after the start, or twice");
  e_.node_conditions_[n].absent = true;
  e_.UpdateSchedulable(n);
  e_.capacity_weight_ -= e_.runtimes_[n].capacity_weight();
}

void Engine::Api::RegisterNode(NodeId node, uint32_t group) {
  const uint32_t n = Present(node);
  MIGSIM_CHECK(e_.node_conditions_[n].absent, "a node registered that was not absent");
  e_.node_conditions_[n].absent = false;
  e_.capacity_weight_ += e_.runtimes_[n].capacity_weight();
  e_.UpdateSchedulable(n);  // unblocks the queue
  e_.NotifyAllocation();
  ReportNodeScaled(node, group, NodeScaleChange::kReady);
}

void Engine::Api::TerminateInstance(NodeId node, uint32_t group) {
  const uint32_t n = Present(node);
  MIGSIM_CHECK(!e_.node_conditions_[n].absent, "an instance terminated that is not running");
  e_.ReleaseReservationsOn(node);
  e_.KillPodsOn(n, -1, e_.now_, EndReason::kNodeRemoved, true);
  e_.node_conditions_[n].absent = true;
  e_.UpdateSchedulable(n);
  e_.capacity_weight_ -= e_.runtimes_[n].capacity_weight();
  e_.NotifyAllocation();
  ReportNodeScaled(node, group, NodeScaleChange::kTerminated);
}

void Engine::Api::ReportNodeScaled(NodeId node, uint32_t group, NodeScaleChange change) {
  Checked(node);
  MIGSIM_CHECK(group < e_.cluster_->node_groups.size(), "no such node group");
  for (EngineObserver* o : e_.observers_) o->OnNodeScaled(e_.now_, node, group, change);
}

}  // namespace migsim
