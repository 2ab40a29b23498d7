// Faults (fault.h): scripted ones and failure processes hitting nodes and GPUs, their
// repairs, and what a node's faults make of it for the scheduler (NotReady, cordoned,
// removed) and for the pools' availability. Drains, spot notices and failed MIG applies
// are in engine_fault_drain.cc.
//
// A run without faults never gets here (Run calls StartFaults only when the scenario has
// some): the no-fault path does no per-pod or per-event work for them.

#include <algorithm>

#include "sim/core/check.h"
#include "sim/engine/engine.h"

namespace migsim {

void Engine::InitNodeStates() {
  if (!node_faults_.empty()) return;
  const size_t n = cluster_->nodes.size();
  node_faults_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    node_faults_[i].gpu_faults.assign(runtimes_[i].gpus().size(), 0);
  }
  pools_ = cluster_->pools;
  if (pools_.empty()) pools_.push_back({"cluster", 0, static_cast<uint32_t>(n)});
  pool_of_.assign(n, 0);
  for (size_t p = 0; p < pools_.size(); ++p) {
    for (uint32_t i = 0; i < pools_[p].count; ++i) {
      pool_of_[pools_[p].first + i] = static_cast<uint32_t>(p);
    }
  }
}

void Engine::StartFaults() {
  InitNodeStates();
  for (size_t i = 0; i < cluster_->faults.size(); ++i) {
    events_.Push(cluster_->faults[i].at,
                 FaultStep{.step = FaultStepKind::kHit, .source = static_cast<uint32_t>(i)});
  }
  for (size_t p = 0; p < cluster_->fault_processes.size(); ++p) {
    const FaultProcess& process = cluster_->fault_processes[p];
    process_rngs_.push_back(FaultProcessRng(config_.seed, process.name));
    // A spot instance's time to its notice is drawn when it is Ready (DrawSpotInterruptions).
    if (process.kind == FaultKind::kSpotInterruption) continue;
    for (uint32_t node : process.nodes) {
      const int gpus = static_cast<int>(runtimes_[node].gpus().size());
      if (process.kind != FaultKind::kGpuUnhealthy) {
        DrawNextFailure(static_cast<uint32_t>(p), node, -1);
        continue;
      }
      for (int g = 0; g < gpus; ++g) DrawNextFailure(static_cast<uint32_t>(p), node, g);
    }
  }
  for (const NodePoolRange& pool : pools_) {
    if (pool.count > 0) ReportAvailability(pool.first);
  }
}

// Without a horizon a run ends when only draws (and flushes) are left: failures that no
// work is left to suffer. With one, the draws run to the horizon like any event.
void Engine::DrawNextFailure(uint32_t process, uint32_t node, int gpu) {
  const SimTime at =
      now_ + DrawTimeToFailure(cluster_->fault_processes[process], process_rngs_[process]);
  events_.Push(at, FaultStep{.step = FaultStepKind::kDraw,
                             .process = true,
                             .gpu = static_cast<int16_t>(gpu),
                             .node = node,
                             .source = process,
                             .launch = node_scale_.empty() ? 0 : node_scale_[node].launch});
  if (config_.horizon == SimTime::Max()) ++pending_draws_;
}

// Each spot-interruption process on the node draws the new instance's time to its notice;
// a draw that outlives its instance does nothing (OtherInstance).
void Engine::DrawSpotInterruptions(uint32_t node) {
  for (size_t p = 0; p < cluster_->fault_processes.size(); ++p) {
    const FaultProcess& process = cluster_->fault_processes[p];
    if (process.kind != FaultKind::kSpotInterruption ||
        !std::binary_search(process.nodes.begin(), process.nodes.end(), node)) {
      continue;
    }
    DrawNextFailure(static_cast<uint32_t>(p), node, -1);
  }
}

std::vector<std::pair<uint32_t, int>> Engine::FaultTargets(const Fault& fault) {
  const FaultTarget& t = fault.target;
  std::vector<std::pair<uint32_t, int>> hits;
  if (!t.gpus.empty()) {
    for (int g : t.gpus) hits.emplace_back(t.nodes.front(), g);
    return hits;
  }
  // Named nodes: all of them (every GPU of each, for a GPU fault); a pool: a draw of them.
  std::vector<std::pair<uint32_t, int>> candidates;
  for (uint32_t node : t.nodes) {
    if (fault.kind != FaultKind::kGpuUnhealthy) {
      candidates.emplace_back(node, -1);
      continue;
    }
    for (int g = 0; g < static_cast<int>(runtimes_[node].gpus().size()); ++g) {
      candidates.emplace_back(node, g);
    }
  }
  if (!t.drawn) return candidates;
  const uint32_t count = std::min<uint32_t>(t.count, static_cast<uint32_t>(candidates.size()));
  for (uint32_t i : ChooseDistinct(static_cast<uint32_t>(candidates.size()), count, fault_rng_)) {
    hits.push_back(candidates[i]);
  }
  return hits;
}

FaultKind Engine::KindOf(const FaultStep& e) const {
  return e.process ? cluster_->fault_processes[e.source].kind : cluster_->faults[e.source].kind;
}

// A scripted fault's repair time, or a failure process's drawn one.
std::optional<SimTime> Engine::RepairAfter(const FaultStep& e) {
  if (!e.process) return cluster_->faults[e.source].repair;
  return DrawRepairTime(cluster_->fault_processes[e.source], process_rngs_[e.source]);
}

void Engine::Handle(const FaultStep& e) {
  switch (e.step) {
    case FaultStepKind::kHit:
      for (const auto& [node, gpu] : FaultTargets(cluster_->faults[e.source])) {
        FaultHit(cluster_->faults[e.source].kind, node, gpu, e);
      }
      return;
    case FaultStepKind::kDraw:
      if (config_.horizon == SimTime::Max()) --pending_draws_;
      if (OtherInstance(e)) return;  // a spot draw for an instance gone since
      [[fallthrough]];
    case FaultStepKind::kApply:
      FaultHit(KindOf(e), e.node, e.gpu, e);
      return;
    case FaultStepKind::kRepair:
      Repair(e);
      return;
    case FaultStepKind::kDrainTick:
      DrainTick(e);
      return;
    case FaultStepKind::kRemove:
      if (!OtherInstance(e)) RemoveNode(e.node);
      return;
    case FaultStepKind::kUncordon:
      --node_faults_[e.node].cordons;
      UpdateSchedulable(e.node);
      ReportAvailability(e.node);
      return;
    case FaultStepKind::kMigFailed:
    case FaultStepKind::kMigRestored:
      MigApplyEnds(e);
      return;
  }
}

void Engine::FaultHit(FaultKind kind, uint32_t node, int gpu, const FaultStep& origin) {
  // Nothing left to fail; an absent node group node has no instance to fail.
  if (node_faults_[node].removed || node_faults_[node].absent) return;
  if (kind == FaultKind::kMigReconfigureFailed && runtimes_[node].reconfiguring()) {
    // The MIG manager finishes the change under way first (as ReconfigureBegin waits).
    FaultStep later = origin;
    later.step = FaultStepKind::kApply;
    later.node = node;
    events_.Push(reconfiguring_until_[node], later);
    return;
  }
  ++fault_hits_;
  Notify({.kind = kind, .repaired = false, .node = NodeId(node), .gpu = gpu});
  FaultStep repair = origin;
  repair.step = FaultStepKind::kRepair;
  repair.node = node;
  repair.gpu = static_cast<int16_t>(gpu);
  switch (kind) {
    case FaultKind::kNodeLost:
      NodeLost(node, origin.process ? cluster_->fault_processes[origin.source].toleration
                                    : cluster_->faults[origin.source].toleration);
      break;
    case FaultKind::kGpuUnhealthy:
      GpuUnhealthy(node, gpu);
      break;
    case FaultKind::kSpotInterruption:
    case FaultKind::kDrain:
      StartDrain(node, origin);
      break;
    case FaultKind::kMigReconfigureFailed:
      MigApplyFails(node, origin);
      break;
  }
  if (kind == FaultKind::kNodeLost || kind == FaultKind::kGpuUnhealthy ||
      kind == FaultKind::kMigReconfigureFailed) {
    if (std::optional<SimTime> after = RepairAfter(origin)) events_.Push(now_ + *after, repair);
  }
  ReportAvailability(node);
}

// The kubelet stops posting status: the node controller taints it not-ready/unreachable
// (NoSchedule at once; NoExecute evicts pods once their toleration runs out).
void Engine::NodeLost(uint32_t node, SimTime toleration) {
  if (node_faults_[node].lost++ > 0) return;
  UpdateSchedulable(node);
  ReleaseReservationsOn(NodeId(node));
  KillPodsOn(node, -1, now_ + toleration, EndReason::kNodeLost, false);
}

void Engine::GpuUnhealthy(uint32_t node, int gpu) {
  if (node_faults_[node].gpu_faults[gpu]++ > 0) return;
  runtimes_[node].SetGpuHealthy(gpu, false, resources_, node_info_[node]);
  NodeChanged(node);
  ReleaseReservationsOn(NodeId(node));
  KillPodsOn(node, gpu, now_, EndReason::kGpuFailed, false);
}

void Engine::Repair(const FaultStep& e) {
  NodeFaults& nf = node_faults_[e.node];
  const FaultKind kind = KindOf(e);
  if (!nf.removed) {
    if (kind == FaultKind::kNodeLost && --nf.lost == 0) {
      // The machine rebooted: what was still bound there is gone.
      KillPodsOn(e.node, -1, now_, EndReason::kNodeLost, true);
      UpdateSchedulable(e.node);
    } else if (kind == FaultKind::kGpuUnhealthy && --nf.gpu_faults[e.gpu] == 0) {
      runtimes_[e.node].SetGpuHealthy(e.gpu, true, resources_, node_info_[e.node]);
      NodeChanged(e.node);
      queue_.UnblockAll();
    } else if (kind == FaultKind::kMigReconfigureFailed && !RestoreMig(e)) {
      return;  // retried once the node's change under way ends
    }
    Notify({.kind = kind, .repaired = true, .node = NodeId(e.node), .gpu = e.gpu});
    ReportAvailability(e.node);
  }
  if (e.process) DrawNextFailure(e.source, e.node, e.gpu);
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
  const NodeFaults& nf = node_faults_[node];
  NodeInfo& info = node_info_[node];
  const bool schedulable = nf.lost == 0 && nf.cordons == 0 && !nf.removed && !nf.absent;
  if (info.schedulable == schedulable) return;
  info.schedulable = schedulable;
  ++info.generation;
  NodeChanged(node);
  if (schedulable) queue_.UnblockAll();
}

int64_t Engine::AvailableGpus(uint32_t node) const {
  if (!node_info_[node].schedulable) return 0;
  const NodeFaults& nf = node_faults_[node];
  const bool mig_failed = nf.mig_failed && runtimes_[node].mig_state() == "failed";
  int64_t available = 0;
  for (size_t g = 0; g < nf.gpu_faults.size(); ++g) {
    const bool mig_gone = mig_failed && nf.mig_before[g].mig_enabled;
    if (nf.gpu_faults[g] == 0 && !mig_gone) ++available;
  }
  return available;
}

void Engine::ReportAvailability(uint32_t node) {
  const uint32_t p = pool_of_[node];
  int64_t available = 0, total = 0;
  for (uint32_t i = pools_[p].first; i < pools_[p].first + pools_[p].count; ++i) {
    available += AvailableGpus(i);
    total += static_cast<int64_t>(node_faults_[i].gpu_faults.size());
  }
  for (EngineObserver* o : observers_) o->OnPoolAvailability(now_, p, available, total);
}

void Engine::Notify(const FaultNotice& notice) {
  for (EngineObserver* o : observers_) o->OnFault(now_, notice);
}

}  // namespace migsim
